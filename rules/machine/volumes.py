"""Network block volumes: each preset's published baseline and limits, and the rate one volume
gives InnoDB.

A network volume's random IO rate is what the provider provisions, counted per IO up to a size
(a 16 KiB page is always one IO) and also capped by a throughput limit. Figures are per volume,
from the providers' documentation as of 2026 (each row names its page; the bibliography keys in
rules/data/sources.json carry the same addresses). `None` marks a figure the provider does not
fix: a volume type whose IOPS are provisioned with no baseline (io1, io2, Ultra Disk) or a SAN.
"""

import math
from dataclasses import dataclass

from rules.inputs.enums import VolumeType
from rules.machine.devices import PAGE_BYTES
from rules.units import MIB

AWS_TYPES = "https://docs.aws.amazon.com/ebs/latest/userguide/ebs-volume-types.html"
AWS_IO_SIZE = "https://docs.aws.amazon.com/ebs/latest/userguide/ebs-io-characteristics.html"
GCP_PD = "https://cloud.google.com/compute/docs/disks/performance"
GCP_HYPERDISK = "https://cloud.google.com/compute/docs/disks/hd-types/hyperdisk-balanced"
AZURE_TYPES = "https://learn.microsoft.com/en-us/azure/virtual-machines/disks-types"


@dataclass(frozen=True, slots=True)
class VolumePreset:
    label: str
    baseline_iops: int | None  # what a volume gets with nothing provisioned
    baseline_mbps: int | None  # MiB/s (MB/s for Azure, as each provider states it)
    io_size_kib: int | None  # the largest IO the provider counts as one; None: not stated
    max_iops: int | None  # the most one volume can be provisioned with
    max_mbps: int | None
    sources: tuple[str, ...]  # bibliography keys
    note: str  # what the baseline is, for explanations
    # True where throughput is provisioned apart from IOPS, so provisioning more IOPS leaves the
    # included throughput as the cap (gp3, Hyperdisk Balanced, Premium SSD v2: rows below).
    separate_throughput: bool = False
    size: "SizeRule | None" = None  # where the rate grows with the volume's size


@dataclass(frozen=True, slots=True)
class SizeRule:
    """A volume type whose rate grows with its size, up to a volume's and an instance's caps."""

    iops_per_gib: float
    mbps_per_gib: float
    base_iops: int  # added to the per-GiB rate (Persistent Disk's baseline, per instance)
    base_mbps: int
    min_iops: int  # the least a small volume gets
    instance_iops: int | None  # the most one instance gets from all its volumes of the type
    instance_mbps: int | None
    instance_note: str  # the machine the instance caps need, for explanations
    base_per_instance: bool = True  # Persistent Disk's baseline is per instance, gp2's per volume


# gp2 (AWS_TYPES): 3 IOPS per GiB, at least 100, at most 16,000 per volume (reached at 5,334
# GiB), throughput up to 250 MiB/s; volumes under 1,000 GiB may burst to 3,000 IOPS while their
# credits last, and a database's steady load outlasts them, so the sustained rate is used. The
# instance's own EBS limit depends on its type (AWS "Amazon EBS-optimized instance types" page)
# and is not modelled; give provisioned_iops for it.
GP2_SIZE = SizeRule(3, 0, 0, 250, 100, None, None, "", base_per_instance=False)
# Persistent Disk (GCP_PD, "Performance limits for Persistent Disk", zonal tables): pd-balanced
# 6 IOPS and 0.28 MiB/s per GiB on top of a 3,000 IOPS and 140 MiB/s baseline; pd-ssd 30 IOPS
# and 0.48 MiB/s per GiB on top of 6,000 and 240. The baseline is per instance, and so are the
# caps that bind before a large disk's per-GiB rate: 80,000 IOPS (pd-balanced) and 100,000
# (pd-ssd), 1,200 MiB/s, each only on an N2 instance with at least 64 vCPUs; smaller and other
# machine types have lower limits (the page's "Performance by machine type and vCPU count").
PD_BALANCED_SIZE = SizeRule(6, 0.28, 3_000, 140, 0, 80_000, 1_200, "an N2 with 64+ vCPUs")
PD_SSD_SIZE = SizeRule(30, 0.48, 6_000, 240, 0, 100_000, 1_200, "an N2 with 64+ vCPUs")


# AWS EBS (AWS_TYPES; IO size: AWS_IO_SIZE, "I/O size is capped at 256 KiB for SSD volumes").
# gp2: 3 IOPS per GiB, 100 to 16,000, up to 250 MiB/s; the preset is a 1,000 GiB volume, whose
# baseline (3,000) is also the burst rate of smaller ones. gp3: 3,000 IOPS and 125 MiB/s
# included; since September 2025 up to 80,000 IOPS and 2,000 MiB/s per volume. io1: 100 to
# 64,000 provisioned IOPS, 1,000 MiB/s. io2 Block Express: 100 to 256,000, 4,000 MiB/s.
# Google Cloud (GCP_PD): pd-balanced's baseline is 3,000 IOPS and 140 MB/s, pd-ssd's 6,000 and
# 240 MB/s, both growing with size up to the instance's limits (80,000 and 100,000 IOPS, 1,200
# MB/s). Hyperdisk Balanced (GCP_HYPERDISK): 3,000 IOPS and 140 MiB/s included, up to 160,000
# IOPS and 2,400 MiB/s per volume.
# Azure (AZURE_TYPES): Premium SSD's figures come with its size tier; the preset is P30 (1 TiB:
# 5,000 IOPS, 200 MB/s), the largest tier P80 gives 20,000 and 900 MB/s. Premium SSD v2: 3,000
# IOPS and 125 MB/s included, up to 80,000 and 1,200 MB/s. Ultra Disk: provisioned, up to
# 400,000 IOPS and 10,000 MB/s.
PRESETS: dict[VolumeType, VolumePreset] = {
    VolumeType.AWS_GP2: VolumePreset(
        "EBS gp2",
        3_000,
        250,
        256,
        16_000,
        250,
        ("aws-ebs-volume-types",),
        "a 1,000 GiB gp2 volume's 3,000 IOPS baseline (3 IOPS per GiB)",
        size=GP2_SIZE,
    ),
    VolumeType.AWS_GP3: VolumePreset(
        "EBS gp3",
        3_000,
        125,
        256,
        80_000,
        2_000,
        ("aws-ebs-volume-types",),
        "the 3,000 IOPS and 125 MiB/s every gp3 volume includes",
        separate_throughput=True,
    ),
    VolumeType.AWS_IO1: VolumePreset(
        "EBS io1",
        None,
        None,
        256,
        64_000,
        1_000,
        ("aws-ebs-volume-types",),
        "io1 IOPS are provisioned, with no baseline",
    ),
    VolumeType.AWS_IO2: VolumePreset(
        "EBS io2 Block Express",
        None,
        None,
        256,
        256_000,
        4_000,
        ("aws-ebs-volume-types",),
        "io2 IOPS are provisioned, with no baseline",
    ),
    VolumeType.GCP_PD_BALANCED: VolumePreset(
        "pd-balanced",
        3_000,
        140,
        None,
        80_000,
        1_200,
        ("gcp-pd-performance",),
        "pd-balanced's 3,000 IOPS and 140 MB/s baseline",
        size=PD_BALANCED_SIZE,
    ),
    VolumeType.GCP_PD_SSD: VolumePreset(
        "pd-ssd",
        6_000,
        240,
        None,
        100_000,
        1_200,
        ("gcp-pd-performance",),
        "pd-ssd's 6,000 IOPS and 240 MB/s baseline",
        size=PD_SSD_SIZE,
    ),
    VolumeType.GCP_HYPERDISK_BALANCED: VolumePreset(
        "Hyperdisk Balanced",
        3_000,
        140,
        None,
        160_000,
        2_400,
        ("gcp-hyperdisk-balanced",),
        "the 3,000 IOPS and 140 MiB/s every Hyperdisk Balanced volume includes",
        separate_throughput=True,
    ),
    VolumeType.AZURE_PREMIUM_SSD: VolumePreset(
        "Azure Premium SSD",
        5_000,
        200,
        None,
        20_000,
        900,
        ("azure-managed-disk-types",),
        "a P30 (1 TiB) Premium SSD's 5,000 IOPS and 200 MB/s",
    ),
    VolumeType.AZURE_PREMIUM_SSD_V2: VolumePreset(
        "Azure Premium SSD v2",
        3_000,
        125,
        None,
        80_000,
        1_200,
        ("azure-managed-disk-types",),
        "the 3,000 IOPS and 125 MB/s every Premium SSD v2 disk includes",
        separate_throughput=True,
    ),
    VolumeType.AZURE_ULTRA_DISK: VolumePreset(
        "Azure Ultra Disk",
        None,
        None,
        None,
        400_000,
        10_000,
        ("azure-managed-disk-types",),
        "Ultra Disk IOPS are provisioned, with no baseline",
    ),
    VolumeType.SAN: VolumePreset(
        "SAN volume",
        None,
        None,
        None,
        None,
        None,
        (),
        "a SAN's rate is the array's, which no preset knows",
    ),
}

# With neither a preset baseline nor provisioned_iops, a volume is taken to do 3,000 IOPS: the
# baseline gp3, pd-balanced, Hyperdisk Balanced and Premium SSD v2 all include (rows above), so
# the least a current general-purpose cloud volume gives. It is an assumption, and said so.
ASSUMED_IOPS = 3_000
ASSUMED_SOURCES = (
    "aws-ebs-volume-types",
    "azure-managed-disk-types",
    "advisor-engineering-judgement",
)

# One 16 KiB read at queue depth 1 on a network volume: 1 ms, the low end of the "single-digit
# millisecond" AWS documents for gp2/gp3 (aws-ebs-volume-latency), the figure the calibration
# already uses for its EBS rows (calibration/data/published.csv, read_latency_ms). Google and
# Azure document sub-millisecond to single-digit millisecond latencies for these types
# (gcp-pd-performance, azure-managed-disk-types); 1 ms is taken for all.
NETWORK_READ_LATENCY_S = 1.0e-3
# A commit's sync is one write round trip to the volume: 1 / 1 ms = 1,000 per second (derived);
# it is also capped by the write IOPS, like a measured rate (rules/machine/storage.py).
NETWORK_FSYNC_PER_S = 1.0 / NETWORK_READ_LATENCY_S
LATENCY_SOURCES = ("aws-ebs-volume-latency",)

# Bounds of the profile's provisioned figures: 100 IOPS is the least io1, io2 and gp2 go
# (AWS_TYPES) and Ultra Disk's 400,000 IOPS and 10,000 MB/s the most any preset allows; a SAN
# LUN may be given up to ten times that (advisor-engineering-judgement: a bound, not a figure).
# At least 2 MiB/s, 128 pages/s: a throughput cap then still leaves the 100 IOPS that
# innodb_io_capacity cannot go below (mysql-manual-io-capacity).
MIN_PROVISIONED_IOPS = 100
MAX_PROVISIONED_IOPS = 4_000_000
MIN_PROVISIONED_MBPS = 2
MAX_PROVISIONED_MBPS = 100_000
# A volume's size: 1 GiB, the least gp2 and gp3 take, to 65,536 GiB (64 TiB), the most a
# Persistent Disk or an Azure Ultra Disk takes (AWS_TYPES: 16 TiB for gp2/gp3; GCP_PD; AZURE_TYPES).
MIN_VOLUME_GB = 1
MAX_VOLUME_GB = 65_536


@dataclass(frozen=True, slots=True)
class VolumeRate:
    """One volume's 16 KiB IO rate and where it comes from."""

    iops: float  # after the throughput cap
    given_iops: int  # provisioned, or by size, or the preset's baseline, or ASSUMED_IOPS
    mbps: float | None  # the throughput cap in use, if any (a share of an instance's: unrounded)
    basis: str  # "provisioned" | "sized" | "preset" | "assumed"
    capped_by_mbps: bool
    sources: tuple[str, ...]
    size_gib: float | None = None  # the size the rate was worked out for ("sized")
    instance_cap: int | None = None  # the instance's share that bound it, per volume


def pages_per_s(mbps: float) -> float:
    """16 KiB pages per second a throughput limit (MiB/s) lets through."""
    return mbps * MIB / PAGE_BYTES


def sized_rate(rule: SizeRule, size_gib: float, volumes: int) -> tuple[float, float, int | None]:
    """(IOPS, MiB/s, the instance's cap per volume when it bound) of one of `volumes` volumes
    of `size_gib` each: the per-GiB rate plus its share of the per-instance baseline, within
    the volume's cap and its share of the instance's caps. The IOPS stay unrounded: a share of
    the baseline rounded down on each of several volumes would make more volumes do less."""
    shares = volumes if rule.base_per_instance else 1
    iops = max(rule.min_iops, rule.iops_per_gib * size_gib + rule.base_iops / shares)
    mbps = rule.mbps_per_gib * size_gib + rule.base_mbps / shares
    cap = None
    if rule.instance_iops is not None and iops > rule.instance_iops / volumes:
        iops = rule.instance_iops / volumes
        cap = int(iops)
    if rule.instance_mbps is not None:
        mbps = min(mbps, rule.instance_mbps / volumes)
    # Up to a millionth: the float error of splitting the baseline or the instance's throughput
    # must not floor a whole IOPS or MiB/s off the volumes' sum (3,048 IOPS from seven volumes
    # became 3,047.99...; 1,200 MiB/s over 14 volumes became 14 x 85).
    return math.ceil(iops * 1e6) / 1e6, max(1.0, math.ceil(mbps * 1e6) / 1e6), cap


def volume_rate(
    volume_type: VolumeType | None,
    provisioned_iops: int | None,
    provisioned_mbps: int | None,
    size_gib: float | None = None,
    volumes: int = 1,
) -> VolumeRate:
    preset = PRESETS[volume_type] if volume_type is not None else None
    sources = preset.sources if preset is not None else ()
    sized = None
    if provisioned_iops is None and preset is not None and preset.size and size_gib is not None:
        sized = sized_rate(preset.size, size_gib, volumes)
        sized = (min(sized[0], preset.max_iops or sized[0]), sized[1], sized[2])
    if provisioned_iops is not None:
        given, basis = provisioned_iops, "provisioned"
    elif sized is not None:
        given, basis = int(sized[0]), "sized"
    elif preset is not None and preset.baseline_iops is not None:
        given, basis = preset.baseline_iops, "preset"
    else:
        given, basis, sources = ASSUMED_IOPS, "assumed", sources + ASSUMED_SOURCES
    mbps: float | None = provisioned_mbps
    if (
        mbps is None
        and preset is not None
        and (provisioned_iops is None or preset.separate_throughput)
    ):
        mbps = preset.baseline_mbps  # the throughput that comes with the baseline
        if sized is not None and provisioned_mbps is None:
            mbps = min(sized[1], preset.max_mbps or sized[1])  # it grows with the size too
    iops: float = sized[0] if basis == "sized" and sized is not None else float(given)
    capped = mbps is not None and pages_per_s(mbps) < iops
    if mbps is not None and capped:
        iops = pages_per_s(mbps)
    return VolumeRate(
        iops,
        given,
        mbps,
        basis,
        capped,
        tuple(dict.fromkeys(sources)),
        size_gib if sized is not None else None,
        sized[2] if sized is not None else None,
    )
