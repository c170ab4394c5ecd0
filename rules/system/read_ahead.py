"""read_ahead_kb of the data devices: the kernel's read-ahead for buffered reads."""

import functools

from rules.inputs.enums import Media
from rules.output.result import Evidence
from rules.rule import Case, Context, OsProposal, OsRule
from rules.system.block import DEVICE_CLASSES, UDEV_PATH, device_files, device_loop, udev_rule

# 128 KiB, the kernel's own default (linux-kernel-queue-sysfs). InnoDB reads its data files with
# O_DIRECT here (the flush-method rule always asks for it), which bypasses the page cache and so
# the kernel's read-ahead: a buffered table scan ran about twice as fast as the same scan with
# O_DIRECT thanks to it (percona-2013-io-optimization); InnoDB prefetches for itself
# (mysql-manual-read-ahead). What still reads through the cache on the data device is binary and
# relay logs and backups, sequential and helped by read-ahead. For random OLTP, more read-ahead
# only reads what nobody asked for (ibm-readahead-oltp, ibm-2007-linux-tuning), so the rule keeps
# it small: the default, not the megabytes that tuned profiles or LVM/md stripes can set.
READ_AHEAD_KB = 128
# nr_requests (the block layer's queue size) is left alone: blk-mq sizes it from the device's
# queue depth, and the only published tuning we found (ibm-2007-linux-tuning) measured the
# retired CFQ scheduler on ext3, not InnoDB.
DIRECT_IO_VALUES = frozenset({"O_DIRECT", "O_DIRECT_NO_FSYNC", "OFF"})  # OFF: MariaDB 11 buffering
# The kernel reads ahead for a file system by the device it is mounted on (read_ahead_kb is "for
# file systems on this block device", linux-kernel-queue-sysfs): on md RAID or LVM that is the
# md or device-mapper device, which has a read_ahead_kb of its own, not its members. So both are
# set: the media's devices, and every md array and device-mapper volume (whole devices only:
# a partition has no queue directory of its own). Their rotational flag is not used to pick
# them, because the value is the same for every media.
STACKED_LABEL = "md arrays and device-mapper (LVM) volumes"
STACKED_UDEV_MATCH = 'KERNEL=="md[0-9]*|dm-[0-9]*", ENV{DEVTYPE}=="disk"'
STACKED_GLOB = "/sys/block/md* /sys/block/dm-*"


def compute(ctx: Context) -> tuple[OsProposal, ...]:
    direct = {ctx.decided.get("innodb_flush_method"), ctx.decided.get("innodb_data_file_buffering")}
    case = "direct" if direct & DIRECT_IO_VALUES else "buffered"
    return _proposals(ctx.profile.hardware.storage.media, case)


@functools.cache  # one per media and case
def _proposals(media: Media, case: str) -> tuple[OsProposal, ...]:
    devices = DEVICE_CLASSES[media]
    value = str(READ_AHEAD_KB)
    label = f"{devices.label}, {STACKED_LABEL}"
    facts = {"value": value, "devices": label, "media_devices": devices.label}
    write = f'echo {value} > "$d/queue/read_ahead_kb"'
    assign = f'ATTR{{queue/read_ahead_kb}}="{value}"'
    stacked = f'for d in {STACKED_GLOB}; do [ -e "$d/queue/read_ahead_kb" ] && {write}; done'
    files = device_files(devices, "queue/read_ahead_kb")
    stacked_files = " ".join(f"{glob}/queue/read_ahead_kb" for glob in STACKED_GLOB.split())
    return (
        OsProposal(
            "read_ahead_kb",
            value,
            label,
            case,
            (
                device_loop(devices, write),
                stacked,
                f"grep . {files} {stacked_files} 2>/dev/null",
            ),
            "\n".join(
                (
                    udev_rule(devices, assign),
                    f'ACTION=="add|change", {STACKED_UDEV_MATCH}, {assign}',
                )
            ),
            UDEV_PATH,
            facts,
        ),
    )


_WHAT = (
    "read_ahead_kb is how far the kernel reads past a buffered read, betting that the next "
    "read follows. "
)
_STACKED = (
    " The kernel reads ahead for a file system by the device it is mounted on, so on md RAID "
    "or LVM it is the array's or the volume's own read_ahead_kb that counts, not its "
    "members': so besides the {media_devices} the rule sets every md array and device-mapper "
    "volume (LVM among them) on the host, whatever disks they sit on."
)
_REST = (
    _STACKED + " More only reads what nobody asked for under random OLTP; the larger values "
    "that tuned profiles set, or that md and LVM derive from their stripes, are undone by "
    "this rule (if tuned runs, set its disk readahead too, or it wins). nr_requests stays at "
    "the kernel's default: blk-mq sizes it from the device's queue depth, and no published "
    "InnoDB measurement supports another value."
)
_EVIDENCE = (
    Evidence(
        "linux-kernel-queue-sysfs",
        "read_ahead_kb is the largest read-ahead, in KiB, for file systems on the device: "
        "the device a file system is mounted on, an md array or LVM volume included.",
    ),
    Evidence(
        "percona-2013-io-optimization",
        "A table scan with buffered IO took about half the time of the same scan with O_DIRECT, "
        "which reads without the operating system's read-ahead.",
    ),
    Evidence(
        "mysql-manual-read-ahead",
        "InnoDB prefetches whole extents itself when it sees sequential page reads.",
    ),
    Evidence(
        "ibm-readahead-oltp",
        "For randomized OLTP, read-ahead requests are unneeded overhead; turning them off "
        "raised the transaction rate.",
    ),
)
RULE = OsRule(
    id="read-ahead-kb-data-devices",
    setting="read_ahead_kb",
    cases={
        "direct": Case(
            "{value} KiB: InnoDB's O_DIRECT reads skip it; logs and backups still read ahead",
            _WHAT + "InnoDB reads its data files with O_DIRECT, around the page cache, so its "
            "page reads never use it (InnoDB prefetches extents itself). On this device it "
            "still serves binary and relay logs and backups, which read sequentially: "
            "{value} KiB, the kernel's default, serves them." + _REST,
            _EVIDENCE,
        ),
        "buffered": Case(
            "{value} KiB: small, because random page reads gain nothing from more",
            _WHAT + "InnoDB reads its data files through the page cache here, so random page "
            "reads would pull in whatever read-ahead adds; InnoDB prefetches extents itself. "
            "{value} KiB, the kernel's default, keeps that small and still serves the logs' "
            "sequential reads." + _REST,
            _EVIDENCE,
        ),
    },
    compute=compute,
)
