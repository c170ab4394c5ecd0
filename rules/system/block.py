"""The data devices as udev and a shell see them, by media: shared by the block-device rules."""

from dataclasses import dataclass

from rules.inputs.enums import Media

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
    # EBS on Nitro instances and Hyperdisk appear as NVMe namespaces, older EBS as xvd*, Azure
    # disks and Persistent Disk on SCSI as sd*, virtio disks as vd*; all report non-rotational.
    Media.NETWORK_SSD: DeviceClass(
        "network volumes (non-rotational)",
        'KERNEL=="nvme[0-9]*n[0-9]*|xvd[a-z]*|sd[a-z]*|vd[a-z]*", ATTR{queue/rotational}=="0"',
        "/sys/block/nvme*n* /sys/block/xvd* /sys/block/sd* /sys/block/vd*",
        "0",
    ),
}


def device_loop(devices: DeviceClass, action: str) -> str:
    """A shell loop running `action` (which uses "$d", the device's /sys/block dir) on each."""
    test = (
        f'[ "$(cat "$d/queue/rotational")" = {devices.rotational} ] && '
        if devices.rotational is not None
        else ""
    )
    return f"for d in {devices.shell_glob}; do {test}{action}; done"


def device_files(devices: DeviceClass, name: str) -> str:
    """The sysfs file `name` (e.g. queue/scheduler) of every device of the class, as globs."""
    return " ".join(f"{glob}/{name}" for glob in devices.shell_glob.split())


def udev_rule(devices: DeviceClass, *keys: str) -> str:
    """One udev rule line for these devices: the match keys, then `keys` (matches, assignments)."""
    return ", ".join(('ACTION=="add|change"', devices.udev_match, *keys))
