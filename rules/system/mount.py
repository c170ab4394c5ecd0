"""Mount options of the data directory's filesystem: noatime, and never nobarrier."""

import functools

from rules.inputs.enums import Filesystem
from rules.output.result import Evidence
from rules.rule import Case, Context, OsProposal, OsRule

FSTAB_PATH = "/etc/fstab"
DATADIR = "/var/lib/mysql"  # the packages' default datadir; the commands say to adjust it
# noatime: a database server never needs file access times, and each update is a metadata write
# (mysql-manual-disk-io). Never nobarrier (or ext4's barrier=0): it lets the journal commit
# before the data it describes reaches stable storage behind a volatile cache (linux-kernel-ext4),
# and XFS removed the option in Linux 4.19, so an old fstab line fails to mount (linux-kernel-xfs).
OPTION = "noatime"
EXAMPLE: dict[Filesystem | None, str] = {
    Filesystem.XFS: "/dev/sdb1  /var/lib/mysql  xfs   defaults,noatime  0 0",
    Filesystem.EXT4: "/dev/sdb1  /var/lib/mysql  ext4  defaults,noatime  0 2",
    Filesystem.OTHER: "/dev/sdb1  /var/lib/mysql  <type>  defaults,noatime  0 0",
    None: "/dev/sdb1  /var/lib/mysql  xfs   defaults,noatime  0 0",
}


def compute(ctx: Context) -> tuple[OsProposal, ...]:
    return _proposals(ctx.profile.hardware.filesystem)


@functools.cache  # one per filesystem (or none given)
def _proposals(filesystem: Filesystem | None) -> tuple[OsProposal, ...]:
    case = filesystem.value if filesystem is not None else "unknown"
    persist = "\n".join(
        (
            "# Add noatime to the options of the filesystem that holds the datadir, e.g.",
            f"#   {EXAMPLE[filesystem]}",
            "# Never add nobarrier (ext4: barrier=0): the journal could then commit before the",
            "# data it describes is stable; XFS no longer accepts it (removed in Linux 4.19).",
        )
    )
    commands = (
        f"findmnt -no SOURCE,FSTYPE,OPTIONS --target {DATADIR}   # your datadir if elsewhere",
        f"mount -o remount,{OPTION} $(findmnt -no TARGET --target {DATADIR})",
    )
    facts = {"value": OPTION, "filesystem": case}
    return (
        OsProposal(
            "mount_options",
            OPTION,
            "the datadir's filesystem",
            case,
            commands,
            persist,
            FSTAB_PATH,
            facts,
        ),
    )


_WHAT = (
    "noatime stops the filesystem from writing a file's last-access time, which a database "
    "server never reads, so reads do not turn into metadata writes. "
)
_BARRIER = (
    "Never add nobarrier: it lets the journal commit before the data it describes reaches "
    "stable storage behind a volatile cache, the corruption barriers exist to prevent"
)
_EV_MANUAL = Evidence(
    "mysql-manual-disk-io",
    "A database server rarely needs file access times, so mount its file systems with noatime "
    "to skip the inode updates and the seeks they cost.",
)
_EV_XFS = Evidence(
    "linux-kernel-xfs",
    "The barrier and nobarrier mount options were deprecated in Linux 4.10 and removed in 4.19; "
    "XFS always issues cache flushes.",
)
_EV_EXT4 = Evidence(
    "linux-kernel-ext4",
    "Write barriers keep journal commits in order and make volatile disk write caches safe; "
    "barrier=0 (nobarrier) is safe only when the cache is battery-backed.",
)
RULE = OsRule(
    id="mount-options-noatime",
    setting="mount_options",
    cases={
        "xfs": Case(
            "noatime on the datadir's XFS; never nobarrier (gone since Linux 4.19)",
            _WHAT + _BARRIER + "; XFS removed the option in Linux 4.19 and always flushes, so "
            "an fstab line with it no longer mounts.",
            (_EV_MANUAL, _EV_XFS),
        ),
        "ext4": Case(
            "noatime on the datadir's ext4; never nobarrier or barrier=0",
            _WHAT + _BARRIER + "; ext4 still accepts it, which is why it must be kept out of "
            "fstab.",
            (_EV_MANUAL, _EV_EXT4),
        ),
        "other": Case(
            "noatime on the datadir's filesystem; never disable write barriers",
            _WHAT + _BARRIER + ", whatever the filesystem calls it.",
            (_EV_MANUAL, _EV_EXT4),
        ),
        "unknown": Case(
            "noatime on the datadir's filesystem; never nobarrier",
            _WHAT + _BARRIER + "; on XFS the option is gone since Linux 4.19, on ext4 it is "
            "still accepted and must be kept out of fstab.",
            (_EV_MANUAL, _EV_XFS, _EV_EXT4),
        ),
    },
    compute=compute,
)
