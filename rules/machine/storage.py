"""The storage model: from the described array to random read/write IOPS and commits per second."""

from collections.abc import Callable
from dataclasses import dataclass
from functools import lru_cache

from rules.inputs.enums import DEFAULT_HDD_RPM, FlashClass, Media, RaidLevel
from rules.inputs.profile import Storage
from rules.machine.devices import (
    BBU_FSYNC_PER_S,
    BBU_HDD_WRITE_FACTOR,
    BBU_SOURCES,
    CACHE_PROTECTS_WRITES,
    FLASH,
    HDD_BY_RPM,
    PARITY_SYNC_ROUND_TRIPS,
    RAID_SOURCES,
    RAID_WRITE_PENALTY,
    DeviceFacts,
)
from rules.machine.volumes import (
    LATENCY_SOURCES,
    MIN_VOLUME_GB,
    NETWORK_FSYNC_PER_S,
    PRESETS,
    VolumeRate,
    volume_rate,
)


@dataclass(frozen=True, slots=True)
class ArrayCapability:
    random_read_iops: float
    random_write_iops: float
    fsync_per_s: float
    rotational: bool
    measured: bool  # True when fio figures replaced the device model
    summary: str  # one sentence a DBA can check, e.g. "8 x 15k rpm disks in RAID10 ..."
    sources: tuple[str, ...]
    volume: VolumeRate | None = None  # a network volume's rate: its IOPS are a budget


# How many devices' worth of space one copy of the data takes: a mirror keeps each byte twice,
# parity RAID gives up one (RAID5) or two (RAID6) devices to parity.
DATA_DEVICES: dict[RaidLevel, Callable[[int], float]] = {
    RaidLevel.NONE: lambda n: n,
    RaidLevel.RAID0: lambda n: n,
    RaidLevel.RAID1: lambda n: 1,
    RaidLevel.RAID10: lambda n: n / 2,
    RaidLevel.RAID5: lambda n: n - 1,
    RaidLevel.RAID6: lambda n: n - 2,
}


def volume_size(storage: Storage, data_gb: float | None) -> tuple[float | None, bool]:
    """(GiB per volume, whether it was assumed): as given, or the volume's share of the data
    (the least it can be), or None when neither is known."""
    if storage.volume_size_gb is not None:
        return storage.volume_size_gb, False
    if data_gb is None:
        return None, False
    share = data_gb / max(1.0, DATA_DEVICES[storage.raid_level](storage.device_count))
    return max(float(MIN_VOLUME_GB), share), True


def network_facts(storage: Storage, data_gb: float | None = None) -> tuple[DeviceFacts, VolumeRate]:
    """One network volume as a device: its 16 KiB rate for reads and for writes alike (the
    provider counts both against one budget), and a sync per network round trip."""
    size, assumed = volume_size(storage, data_gb)
    rate = volume_rate(
        storage.volume_type,
        storage.provisioned_iops,
        storage.provisioned_mbps,
        size,
        storage.device_count,
    )
    facts = DeviceFacts(
        rate.iops,
        rate.iops,
        min(NETWORK_FSYNC_PER_S, rate.iops),
        rate.sources + LATENCY_SOURCES,
        _volume_note(storage, rate, assumed),
    )
    return facts, rate


def _volume_note(storage: Storage, rate: VolumeRate, assumed: bool = False) -> str:
    preset = PRESETS[storage.volume_type] if storage.volume_type is not None else None
    if rate.basis == "provisioned":
        text = f"{rate.given_iops:,} provisioned IOPS per volume"
    elif rate.basis == "sized" and preset is not None and rate.size_gib is not None:
        size = f"{rate.size_gib:,.0f} GiB" + (" (the data's size; none given)" if assumed else "")
        text = f"a {size} {preset.label} volume's {rate.given_iops:,} IOPS, growing with size"
        if rate.instance_cap is not None and preset.size is not None:
            text += (
                f", held to the instance's {preset.size.instance_iops:,} IOPS (on "
                f"{preset.size.instance_note}; smaller machines get less)"
            )
    elif rate.basis == "preset" and preset is not None:
        text = f"{preset.note}"
    else:
        text = f"an assumed {rate.given_iops:,} IOPS per volume (none provisioned given)"
    if rate.capped_by_mbps and rate.mbps is not None:
        text += f", capped at {rate.iops:,.0f} 16 KiB IOs/s by {rate.mbps:,.0f} MB/s"
    return text + ", about 1 ms per synchronous write"


def device_facts(storage: Storage) -> DeviceFacts:
    if storage.media is Media.HDD:
        return HDD_BY_RPM[storage.rpm or DEFAULT_HDD_RPM]
    return FLASH[(storage.media, storage.flash_class or FlashClass.ENTERPRISE)]


@lru_cache(maxsize=1024)
def array_capability(storage: Storage, data_gb: float | None = None) -> ArrayCapability:
    """Combine one device's facts with the RAID level, the device count and the controller cache.
    `data_gb` sizes a network volume whose size was not given (`volume_size`)."""
    volume = None
    if storage.media is Media.NETWORK_SSD:
        device, volume = network_facts(storage, data_gb)
    else:
        device = device_facts(storage)
    count = storage.device_count
    protected = CACHE_PROTECTS_WRITES[storage.controller_cache]
    reads = device.random_read_iops * count
    writes = device.random_write_iops * count / RAID_WRITE_PENALTY[storage.raid_level]
    if protected and storage.media is Media.HDD:
        writes *= BBU_HDD_WRITE_FACTOR
    round_trips = PARITY_SYNC_ROUND_TRIPS[storage.raid_level]
    if protected:
        fsync = max(BBU_FSYNC_PER_S, device.fsync_per_s)
    else:  # parity RAID reads old data and parity before each small write reaches the disks
        fsync = device.fsync_per_s / round_trips
    sources = (
        device.sources + (RAID_SOURCES if count > 1 else ()) + (BBU_SOURCES if protected else ())
    )
    measured = storage.measured_iops is not None
    if storage.measured_iops is not None:
        reads, writes = storage.measured_iops.random_read, storage.measured_iops.random_write
        # A commit's sync writes at least one block, so a measured write rate (on a cloud
        # volume, its IOPS limit) also caps the commits per second (aws-rds-storage).
        fsync = min(fsync, writes)
    summary = _summary(storage, device, reads, writes, fsync, protected, measured)
    return ArrayCapability(
        reads,
        writes,
        fsync,
        storage.media is Media.HDD,
        measured,
        summary,
        tuple(dict.fromkeys(sources)),
        volume if not measured else None,
    )


def describe_array(storage: Storage) -> str:
    """'8 x 15k rpm disks in RAID10' / 'one NVMe device'."""
    kind = {
        Media.HDD: f"{_rpm_text(storage.rpm)} disk",
        Media.SATA_SSD: f"{_class_text(storage)}SATA SSD",
        Media.NVME: f"{_class_text(storage)}NVMe device",
        Media.NETWORK_SSD: _volume_text(storage),
    }[storage.media]
    if storage.device_count == 1:
        return f"one {kind}"
    level = (
        "" if storage.raid_level is RaidLevel.NONE else f" in {storage.raid_level.value.upper()}"
    )
    return f"{storage.device_count} x {kind}s{level}"


def _volume_text(storage: Storage) -> str:
    if storage.volume_type is None:
        return "network volume"
    return f"{PRESETS[storage.volume_type].label} volume"


def _class_text(storage: Storage) -> str:
    return "consumer " if storage.flash_class is FlashClass.CONSUMER else ""


def _rpm_text(rpm: int | None) -> str:
    rpm = rpm or DEFAULT_HDD_RPM
    return f"{rpm // 1000}k rpm" if rpm % 1000 == 0 else f"{rpm} rpm"


def _summary(
    storage: Storage,
    device: DeviceFacts,
    reads: float,
    writes: float,
    fsync: float,
    protected: bool,
    measured: bool,
) -> str:
    array = describe_array(storage)
    if measured:
        # fio measured random writes, not syncs: the commit rate stays the device model's,
        # held to the measured writes (a commit writes at least one block)
        basis = (
            "reads and writes as measured with fio; the commits are not measured: "
            f"{device.note}, at most the measured writes"
        )
    else:
        basis = f"from {device.note}"
        if storage.device_count > 1:
            basis += f", RAID write penalty {RAID_WRITE_PENALTY[storage.raid_level]:g}"
        if PARITY_SYNC_ROUND_TRIPS[storage.raid_level] > 1 and not protected:
            basis += ", a read before each sync's write (read-modify-write)"
        if protected and storage.media is Media.HDD:
            basis += f", x{BBU_HDD_WRITE_FACTOR:g} for the battery-backed cache"
    cache = " behind a battery-backed write cache" if protected else ""
    verb = "sustains" if storage.device_count == 1 else "sustain"
    return (
        f"{array}{cache} {verb} about {reads:,.0f} random reads/s, {writes:,.0f} random "
        f"writes/s and {fsync:,.0f} commits/s ({basis})"
    )
