"""The Linux IO scheduler for the data devices, by device class and kernel generation."""

from dataclasses import dataclass

from rules.enums import Media
from rules.result import Evidence
from rules.rule import Case, Context, OsProposal, OsRule

UDEV_PATH = "/etc/udev/rules.d/60-innodb-io-advisor.rules"


@dataclass(frozen=True, slots=True)
class DeviceClass:
    label: str
    udev_match: str  # udev keys selecting the devices
    shell_glob: str
    rotational: str | None  # required value of queue/rotational, None for any


DEVICE_CLASSES: dict[Media, DeviceClass] = {
    Media.HDD: DeviceClass(
        "data devices (rotational)",
        'KERNEL=="sd[a-z]*", ATTR{queue/rotational}=="1"',
        "/sys/block/sd*",
        "1",
    ),
    Media.SATA_SSD: DeviceClass(
        "data devices (SATA/SAS flash)",
        'KERNEL=="sd[a-z]*", ATTR{queue/rotational}=="0"',
        "/sys/block/sd*",
        "0",
    ),
    Media.NVME: DeviceClass(
        "NVMe namespaces", 'KERNEL=="nvme[0-9]*n[0-9]*"', "/sys/block/nvme*n*", None
    ),
}
# Scheduler names: (blk-mq, from Linux 5.0; legacy single-queue, before it) (linux-kernel-blk-mq).
# Plain disks: deadline, far ahead of cfq (percona-2009-schedulers, domas-2007-deadline).
# Behind a battery-backed RAID controller: noop, leaving ordering to the controller
# (percona-2009-schedulers: noop 6586 vs deadline 6514 vs cfq 2794; percona-2008-xtradb-iobound).
# Flash: no reordering needed (dimitri-2012-schedulers).
SCHEDULERS: dict[str, tuple[str, str]] = {
    "hdd": ("mq-deadline", "deadline"),
    "hdd-controller": ("none", "noop"),
    "flash": ("none", "noop"),
    "nvme": ("none", "none"),
}


def compute(ctx: Context) -> tuple[OsProposal, ...]:
    storage = ctx.profile.hardware.storage
    kernel = ctx.profile.hardware.kernel
    blk_mq = kernel is None or kernel.has_blk_mq_schedulers
    if storage.media is Media.HDD:
        case = "hdd-controller" if storage.has_protected_write_cache else "hdd"
    else:
        case = "nvme" if storage.media is Media.NVME else "flash"
    value = SCHEDULERS[case][0 if blk_mq else 1]
    devices = DEVICE_CLASSES[storage.media]
    facts = {"value": value, "kernel": _kernel_text(ctx), "devices": devices.label}
    return (
        OsProposal(
            "io_scheduler",
            value,
            devices.label,
            case,
            _commands(devices, value),
            _udev_line(devices, value),
            UDEV_PATH,
            facts,
        ),
    )


def _kernel_text(ctx: Context) -> str:
    kernel = ctx.profile.hardware.kernel
    if kernel is None:
        return "no kernel was given, so Linux 5.0 or later (multi-queue names) is assumed"
    generation = "multi-queue" if kernel.has_blk_mq_schedulers else "legacy single-queue"
    return f"Linux {kernel.major}.{kernel.minor} uses the {generation} scheduler names"


def _commands(devices: DeviceClass, value: str) -> tuple[str, ...]:
    test = (
        f'[ "$(cat "$d/queue/rotational")" = {devices.rotational} ] && '
        if devices.rotational is not None
        else ""
    )
    loop = f'for d in {devices.shell_glob}; do {test}echo {value} > "$d/queue/scheduler"; done'
    check = f"grep . {devices.shell_glob}/queue/scheduler"
    return (loop, check)


def _udev_line(devices: DeviceClass, value: str) -> str:
    return f'ACTION=="add|change", {devices.udev_match}, ATTR{{queue/scheduler}}="{value}"'


_WHAT = "The IO scheduler decides in which order the kernel sends requests to a device. "
_EV_S7 = Evidence(
    "percona-2009-schedulers",
    "On an 8-disk RAID10 with a battery-backed PERC 6/i, "
    "tpcc reached 6586 TPM with noop, 6514 with deadline and 2794 with cfq.",
)
_EV_SEED2 = Evidence(
    "percona-2008-xtradb-iobound",
    "Switching from cfq to noop on a 6-disk BBU RAID10 gave a 4x difference in tpcc throughput.",
)
_EV_DOMAS = Evidence(
    "domas-2007-deadline",
    "On a 6-disk RAID0 deadline kept read waits at 8 ms "
    "against 43 ms with cfq under the same load.",
)
_EV_KERNEL = Evidence(
    "linux-kernel-blk-mq",
    "From Linux 5.0 only the multi-queue schedulers exist: none, mq-deadline, bfq and kyber.",
)
_EV_MANUAL = Evidence(
    "mysql-manual-io-scheduler",
    "The manual recommends noop or deadline for InnoDB with native asynchronous IO.",
)
RULE = OsRule(
    id="io-scheduler-by-device-class",
    setting="io_scheduler",
    cases={
        "hdd": Case(
            "deadline ordering: bounded waits, no idling between requests",
            _WHAT + "For plain disks, {value} bounds how long a read waits and does not "
            "idle the disk for one process as cfq does; {kernel}. Set it on every disk "
            "of a software RAID, not on the md device.",
            (_EV_S7, _EV_DOMAS, _EV_MANUAL, _EV_KERNEL),
        ),
        "hdd-controller": Case(
            "{value}: the battery-backed controller orders writes better",
            _WHAT + "Behind a RAID controller with a battery-backed cache the "
            "controller reorders far better than the kernel can, so {value} "
            "passes requests straight through; {kernel}.",
            (_EV_S7, _EV_SEED2, _EV_MANUAL, _EV_KERNEL),
        ),
        "flash": Case(
            "{value}: flash has no seeks to order",
            _WHAT + "Flash has no head to move, so reordering only adds latency; "
            "{value} passes requests straight through; {kernel}.",
            (
                Evidence(
                    "dimitri-2012-schedulers",
                    "Use noop or deadline, never cfq, for MySQL on fast storage.",
                ),
                _EV_MANUAL,
                _EV_KERNEL,
            ),
        ),
        "nvme": Case(
            "none: NVMe queues requests in hardware",
            _WHAT + "NVMe devices have many hardware queues and no seeks; 'none' is the "
            "kernel's own default for them and the right one for InnoDB.",
            (
                Evidence(
                    "dimitri-2012-schedulers",
                    "Use noop or deadline, never cfq, for MySQL on fast storage.",
                ),
                _EV_KERNEL,
            ),
        ),
    },
    compute=compute,
)
