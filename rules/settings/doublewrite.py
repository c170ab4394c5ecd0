"""innodb_doublewrite: the second copy that lets InnoDB repair a page torn by a power cut.

ON everywhere; MariaDB's `fast` (from 11.0.6: the doublewrite copy stays, the data files skip
their fsync) only behind a battery-backed controller cache, where a completed write is already
safe. OFF is right only where a whole page is written atomically, and the profile cannot say
that, so the advisor never sets it; the text names the documented routes where they apply:
EBS torn write prevention on AWS volumes (aws-ec2-torn-write-prevention), MariaDB's own atomic
writes (mariadb-kb-doublewrite), and on MySQL and Percona Server 8.0.30 and later DETECT_ONLY,
which detects a torn page without keeping the copy to repair it (mysql-manual-doublewrite).
"""

from rules.inputs.enums import Flavor, VolumeType
from rules.output.result import Evidence
from rules.reference.defaults import default_note
from rules.rule import Case, Context, Proposal, Rule

NAME = "innodb_doublewrite"
FAST = "fast"  # MariaDB 11.0.6+ (mariadb-mdev-33545; catalog)
# MySQL 8.0.30+ calls the variable dynamic, but refuses to switch the buffer on or off at run time
# and to persist it (catalog note: "Please shutdown", "non persistent"); a restart always works.
RESTART = True


DETECT_ONLY = "DETECT_ONLY"  # MySQL and Percona Server 8.0.30+ (catalog; mysql-manual-doublewrite)
# EBS volumes, whose torn write prevention covers 16 KiB writes on Nitro instances
# (aws-ec2-torn-write-prevention).
EBS_VOLUMES = frozenset(
    {VolumeType.AWS_GP2, VolumeType.AWS_GP3, VolumeType.AWS_IO1, VolumeType.AWS_IO2}
)
_MIDDLE_GROUND = {
    True: " Between the two, this release also takes DETECT_ONLY: only the pages' metadata goes "
    "to the doublewrite buffer, so recovery still finds a torn page but can no longer repair "
    "it (the page must then come from a backup or a replica); it can be switched to from ON "
    "at run time.",
    False: "",
}
_ATOMIC_BY_FLAVOR = {
    Flavor.MARIADB: " MariaDB also writes atomically by itself, instead of the doublewrite buffer, "
    "on devices that support atomic writes (innodb_use_atomic_writes, ON by default).",
    Flavor.MYSQL: "",
    Flavor.PERCONA: "",
}


def compute(ctx: Context) -> tuple[Proposal, ...]:
    spec = ctx.catalog.get(NAME)
    if spec is None:
        return ()
    storage = ctx.profile.hardware.storage
    flavor = ctx.profile.server.flavor
    mariadb = flavor is Flavor.MARIADB
    if mariadb and FAST in spec.values and storage.has_protected_write_cache:
        return (Proposal(NAME, FAST, "fast", {"default": ""}, restart=RESTART),)
    case = "on-mariadb" if mariadb else "on"
    if mariadb and storage.has_protected_write_cache:
        case = "on-bbu-no-fast"
    if storage.is_network and storage.volume_type in EBS_VOLUMES:
        case = "on-ebs"
    facts = {
        "default": default_note(ctx.catalog, NAME, "ON"),
        "middle": _MIDDLE_GROUND[DETECT_ONLY in spec.values],
        "atomic": _ATOMIC_BY_FLAVOR[flavor],
    }
    return (Proposal(NAME, "ON", case, facts, restart=RESTART),)


_WHAT = (
    "InnoDB writes each page it flushes twice: first, with the other pages of the batch, into "
    "the doublewrite buffer in one sequential write, then to its own place. A power cut in the "
    "middle of a page write can leave that page half old and half new, which no redo can "
    "repair; with the doublewrite buffer, recovery takes the intact copy instead. "
)
_NO_ATOMIC = (
    "Turning it OFF is safe only on storage that writes a whole page atomically, which nothing "
    "in this profile says, so it stays ON{default}.{atomic}{middle} "
)
_EV_MANUAL = Evidence(
    "mysql-manual-doublewrite",
    "The doublewrite copy lets recovery repair a torn page, and costs one sequential write and "
    "one fsync per batch rather than twice the IO.",
)
_EV_COST = Evidence(
    "percona-lab-2018-tpcc-mysql8",
    "Turning doublewrite off raised sysbench-tpcc from 817 to 1042 tps with a 5 GB pool and "
    "did not help with an 80 GB one.",
)
_EV_DETECT = Evidence(
    "mysql-manual-doublewrite",
    "The doublewrite copy lets recovery repair a torn page, at one sequential write and one "
    "fsync per batch; from MySQL 8.0.30 DETECT_ONLY writes only metadata, enough to detect a "
    "torn page but not to repair it.",
)
_EV_ATOMIC = Evidence(
    "mariadb-kb-doublewrite",
    "OFF is safe only where a page write is atomic; MariaDB uses a device's atomic writes in "
    "place of the doublewrite buffer where the device supports them.",
)
_EV_EBS = Evidence(
    "aws-ec2-torn-write-prevention",
    "EBS volumes on Nitro instances do not tear aligned 16 KiB writes; AWS documents "
    "innodb_doublewrite=0 with O_DIRECT on ext4 made with bigalloc and a 16 KiB cluster.",
)
_EBS = (
    "On EBS, AWS offers a documented way to drop it: on a Nitro-based instance, EBS does not "
    "tear an aligned write of 16 KiB, an InnoDB page, so with the data on ext4 made with "
    "bigalloc and a 16 KiB cluster (mkfs.ext4 -O bigalloc -C 16384), O_DIRECT, and under LVM a "
    "volume start aligned to 16 KiB, innodb_doublewrite can be OFF. The profile cannot tell "
    "whether the file system was made that way, so it stays ON{default} here; set it OFF "
    "yourself once it is.{atomic}{middle} "
)
_EV_MARIADB = Evidence(
    "mariadb-mdev-33545",
    "MariaDB's innodb_doublewrite=fast keeps the doublewrite buffer but skips the fsync of "
    "the data files; OFF assumes page writes are atomic.",
)
_COST = (
    "Its cost is an extra sequential write per batch of pages, felt most when the buffer pool "
    "is small and the server writes many pages."
)
RULE = Rule(
    id="doublewrite-on-unless-atomic-writes",
    setting=NAME,
    kind="enum",
    cases={
        "on": Case(
            "ON{default}: a power cut cannot leave a torn page behind",
            _WHAT + _NO_ATOMIC + _COST,
            (_EV_DETECT, _EV_COST),
        ),
        "on-mariadb": Case(
            "ON{default}: a power cut cannot leave a torn page behind",
            _WHAT + _NO_ATOMIC + _COST,
            (_EV_MANUAL, _EV_ATOMIC, _EV_COST),
        ),
        "on-ebs": Case(
            "ON{default}: a power cut cannot leave a torn page behind, unless EBS torn write "
            "prevention is set up",
            _WHAT + _EBS + _COST,
            (_EV_EBS, _EV_DETECT, _EV_ATOMIC, _EV_COST),
        ),
        "on-bbu-no-fast": Case(
            "ON{default}: a power cut cannot leave a torn page behind",
            _WHAT + _NO_ATOMIC + "With a battery-backed cache MariaDB 11.0.6 and later offer "
            "'fast', which skips the data files' fsync; this version does not have it.",
            (_EV_MANUAL, _EV_ATOMIC, _EV_MARIADB),
        ),
        "fast": Case(
            "fast: the doublewrite copy stays, the data files skip their fsync behind the "
            "battery-backed cache",
            _WHAT + "Behind a battery-backed controller cache a completed write is already "
            "durable, so 'fast' keeps the doublewrite protection and drops the fsync of the "
            "data files, MariaDB's counterpart of O_DIRECT_NO_FSYNC. If the battery fails or "
            "goes into a learning cycle the controller turns write-through; switch back to ON "
            "if you cannot monitor it.",
            (_EV_MARIADB, _EV_MANUAL),
        ),
    },
    compute=compute,
)
