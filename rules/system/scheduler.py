"""The Linux IO scheduler for the data devices, by device class and kernel generation."""

import functools

from rules.inputs.enums import Media
from rules.inputs.profile import Kernel
from rules.output.result import Evidence
from rules.rule import Case, Context, OsProposal, OsRule
from rules.system.block import (
    DEVICE_CLASSES,
    UDEV_PATH,
    DeviceClass,
    device_files,
    device_loop,
    udev_rule,
)
from rules.system.kernel import MARKER, Generation, describe, generation

# Scheduler names by generation (rules/system/kernel.py: blk-mq from 4.19 and on RHEL 8's 4.18,
# legacy before; linux-kernel-blk-mq, linux-scsi-mq-default, rhel-8-disk-scheduler).
# Plain disks: deadline, far ahead of cfq (percona-2009-schedulers, domas-2007-deadline).
# Behind a battery-backed RAID controller: noop, leaving ordering to the controller
# (percona-2009-schedulers: noop 6586 vs deadline 6514 vs cfq 2794; percona-2008-xtradb-iobound).
# Flash: no reordering needed (dimitri-2012-schedulers). NVMe is blk-mq on every kernel.
SCHEDULERS: dict[str, dict[Generation, str]] = {
    "hdd": {Generation.MULTI_QUEUE: "mq-deadline", Generation.LEGACY: "deadline"},
    "hdd-controller": {Generation.MULTI_QUEUE: "none", Generation.LEGACY: "noop"},
    "flash": {Generation.MULTI_QUEUE: "none", Generation.LEGACY: "noop"},
    "nvme": {Generation.MULTI_QUEUE: "none", Generation.LEGACY: "none"},
    # A network volume queues and orders requests in the provider's storage service, so the
    # kernel's reordering only adds latency; EBS on Nitro is NVMe (aws-ebs-nvme), where none is
    # the kernel's default, and fast flash wants no reordering (dimitri-2012-schedulers).
    "network": {Generation.MULTI_QUEUE: "none", Generation.LEGACY: "noop"},
}


def compute(ctx: Context) -> tuple[OsProposal, ...]:
    storage = ctx.profile.hardware.storage
    if storage.media is Media.HDD:
        case = "hdd-controller" if storage.has_protected_write_cache else "hdd"
    elif storage.media is Media.NETWORK_SSD:
        case = "network"
    else:
        case = "nvme" if storage.media is Media.NVME else "flash"
    return _proposals(case, storage.media, ctx.profile.hardware.kernel)


@functools.lru_cache(maxsize=512)  # a handful of cases and media, and the kernels a fleet runs
def _proposals(case: str, media: Media, kernel: Kernel | None) -> tuple[OsProposal, ...]:
    names = SCHEDULERS[case]
    # A known kernel gets its generation's name; with none given the multi-queue name leads and
    # the legacy one follows, each applied only where the device lists it.
    chosen = generation(kernel)
    choices = {chosen: names[chosen]}
    if kernel is None and names[Generation.LEGACY] != names[chosen]:
        choices[Generation.LEGACY] = names[Generation.LEGACY]
    devices = DEVICE_CLASSES[media]
    facts = {"value": names[chosen], "kernel": describe(kernel), "devices": devices.label}
    return (
        OsProposal(
            "io_scheduler",
            names[chosen],
            devices.label,
            case,
            _commands(devices, choices),
            _udev_lines(devices, choices),
            UDEV_PATH,
            facts,
        ),
    )


def _commands(devices: DeviceClass, choices: dict[Generation, str]) -> tuple[str, ...]:
    if len(choices) == 1:
        (value,) = choices.values()
        write = f'echo {value} > "$d/queue/scheduler"'
    else:  # write the name this kernel lists
        mq, legacy = choices[Generation.MULTI_QUEUE], choices[Generation.LEGACY]
        marker = MARKER[Generation.MULTI_QUEUE]
        write = (
            f'{{ grep -qw {marker} "$d/queue/scheduler" && echo {mq} || echo {legacy}; }}'
            ' > "$d/queue/scheduler"'
        )
    return (device_loop(devices, write), f"grep . {device_files(devices, 'queue/scheduler')}")


def _udev_lines(devices: DeviceClass, choices: dict[Generation, str]) -> str:
    """One rule per name; with two, each first checks that the device lists its generation."""
    if len(choices) == 1:
        (value,) = choices.values()
        return udev_rule(devices, f'ATTR{{queue/scheduler}}="{value}"')
    return "\n".join(
        udev_rule(
            devices,
            f'ATTR{{queue/scheduler}}=="*{MARKER[g]}*"',
            f'ATTR{{queue/scheduler}}="{value}"',
        )
        for g, value in choices.items()
    )


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
_EV_KERNEL = (
    Evidence(
        "linux-kernel-blk-mq",
        "Linux 5.0 removed the legacy noop, deadline and cfq schedulers: only none, "
        "mq-deadline, bfq and kyber remain.",
    ),
    Evidence(
        "linux-scsi-mq-default",
        "From Linux 4.19 SCSI and SATA disks use the multi-queue path unless booted with "
        "scsi_mod.use_blk_mq=0.",
    ),
    Evidence(
        "rhel-8-disk-scheduler",
        "RHEL 8's 4.18 kernel supports only the multi-queue schedulers; the single-queue ones of "
        "RHEL 7 were removed.",
    ),
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
            (_EV_S7, _EV_DOMAS, _EV_MANUAL, *_EV_KERNEL),
        ),
        "hdd-controller": Case(
            "{value}: the battery-backed controller orders writes better",
            _WHAT + "Behind a RAID controller with a battery-backed cache the "
            "controller reorders far better than the kernel can, so {value} "
            "passes requests straight through; {kernel}.",
            (_EV_S7, _EV_SEED2, _EV_MANUAL, *_EV_KERNEL),
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
                *_EV_KERNEL,
            ),
        ),
        "network": Case(
            "{value}: the network volume orders requests itself",
            _WHAT + "A network volume has no head to move, and the storage "
            "service behind it queues and orders requests itself, so reordering them in the "
            "kernel only adds latency to each round trip; {value} passes them straight "
            "through, as the kernel already does for NVMe (how EBS appears on Nitro instances); "
            "{kernel}.",
            (
                Evidence(
                    "aws-ebs-nvme",
                    "EBS volumes on Nitro-based instances are exposed as NVMe block devices.",
                ),
                Evidence(
                    "dimitri-2012-schedulers",
                    "Use noop or deadline, never cfq, for MySQL on fast storage.",
                ),
                *_EV_KERNEL,
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
                _EV_KERNEL[0],
            ),
        ),
    },
    compute=compute,
)
