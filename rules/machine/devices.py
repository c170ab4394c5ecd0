"""Published device facts: random IOPS and commit (fsync) rates per device class.

One table per fact, keyed by enums. Each constant names its unit and cites its source key in the
bibliography (rules/data/sources.json). "derived" marks a figure computed from a published one.
The calibration package reads these same tables; they are not copied there.
"""

from dataclasses import dataclass

from rules.inputs.enums import ControllerCache, FlashClass, Media, RaidLevel

PAGE_BYTES = 16 * 1024  # InnoDB default page size; IOPS below are 16 KiB random IOs


@dataclass(frozen=True, slots=True)
class DeviceFacts:
    random_read_iops: float
    random_write_iops: float
    fsync_per_s: float  # single-threaded write+fsync round trips with no protected cache
    sources: tuple[str, ...]
    note: str


# Hard disks by rpm. Reads: mysql-manual-io-capacity gives ~100 IOPS for 5400/7200 rpm drives;
# yonkovit-2008-raptor-ssd measured 161 on a 10k Raptor; callaghan-2011-insert-buffer and
# matsunobu-2010-ssd-deployment give ~200 per SAS (15k) disk. 5400 rpm: derived, 100 x 90/120,
# the ratio of their per-rotation commit ceilings (greg-smith-2010-pg-high-performance).
# Writes: random writes cost a seek like reads on a disk with its write cache off.
# fsync: one commit per rotation, 90/120/166/250 per s (greg-smith-2010-pg-high-performance).
HDD_BY_RPM: dict[int, DeviceFacts] = {
    5400: DeviceFacts(
        75,
        75,
        90,
        ("mysql-manual-io-capacity", "greg-smith-2010-pg-high-performance"),
        "5400 rpm: ~75 random IOs/s (derived), 90 commits/s",
    ),
    7200: DeviceFacts(
        100,
        100,
        120,
        ("mysql-manual-io-capacity", "greg-smith-2010-pg-high-performance"),
        "7200 rpm: ~100 random IOs/s, 120 commits/s",
    ),
    10000: DeviceFacts(
        160,
        160,
        166,
        ("yonkovit-2008-raptor-ssd", "greg-smith-2010-pg-high-performance"),
        "10k rpm: ~160 random IOs/s, 166 commits/s",
    ),
    15000: DeviceFacts(
        200,
        200,
        250,
        (
            "callaghan-2011-insert-buffer",
            "matsunobu-2010-ssd-deployment",
            "greg-smith-2010-pg-high-performance",
        ),
        "15k rpm: ~200 random IOs/s, 250 commits/s",
    ),
}

# Flash by media and class, per device.
# SATA SSD reads: 10,000 ("slow SSD ~10k IOPS", callaghan-2017-redo-log). Enterprise writes:
# derived, 10,000 x 2,000/5,000, the write:read ratio per SSD in matsunobu-2010-ssd-deployment.
# Enterprise (power-loss protected) syncs return from the drive's protected cache like a
# battery-backed controller's: 5,000/s as BBU_FSYNC_PER_S below (derived by that analogy).
# Consumer SATA: steady random writes fall to ~15 MiB/s once the drive is full, ~960 writes/s
# of 16 KiB (ssdperformanceblog-2011-intel320); syncs must reach NAND: an X25-E managed 50
# commits/s with barriers (percona-2009-x25e-barrier) and an 850 EVO 1,637 commits/s with 20
# clients sharing syncs (mariadb-mdev-28766); a consumer Samsung 960 Pro NVMe took 3.5 ms per
# single-threaded fsync, ~300/s (percona-2018-consumer-ssd-reviews): we use 300 single-session
# syncs/s for consumer SATA and NVMe flash alike.
# NVMe: ~205,000 reads/s and >110,000 writes/s of 16 KiB (percona-2013-micron-p320h), rounded
# down; fsync 9,000, rounded down from 9,229 single-thread fsyncs/s on PCIe flash
# (percona-2010-fsync-rate). Consumer NVMe: same reads, the consumer sync rate, and its own
# sustained writes: a consumer drive writes fast only into its SLC cache; saturated, the
# smallest Samsung 970 EVO (250 GB) fell to ~300 MB/s and the 500 GB one to ~700 MB/s
# (pcper-2018-samsung-970-evo). We take the lower: 300 MB/s is ~18,000 writes of 16 KiB a
# second (derived, rounded down), an upper bound, as random writes to a full drive also pay for
# garbage collection. The enterprise 100,000 comes from a drive with no such cache.
CONSUMER_NVME_SUSTAINED_WRITE_IOPS = 18_000  # pcper-2018-samsung-970-evo, derived above
FLASH: dict[tuple[Media, FlashClass], DeviceFacts] = {
    (Media.SATA_SSD, FlashClass.ENTERPRISE): DeviceFacts(
        10_000,
        4_000,
        5_000,
        ("callaghan-2017-redo-log", "matsunobu-2010-ssd-deployment", "percona-2010-fsync-rate"),
        "enterprise SATA SSD: ~10,000 reads/s, ~4,000 writes/s, ~5,000 syncs/s",
    ),
    (Media.SATA_SSD, FlashClass.CONSUMER): DeviceFacts(
        10_000,
        960,
        300,
        (
            "callaghan-2017-redo-log",
            "ssdperformanceblog-2011-intel320",
            "percona-2009-x25e-barrier",
            "mariadb-mdev-28766",
            "percona-2018-consumer-ssd-reviews",
        ),
        "consumer SATA SSD: ~10,000 reads/s, ~960 sustained writes/s, ~300 syncs/s",
    ),
    (Media.NVME, FlashClass.ENTERPRISE): DeviceFacts(
        200_000,
        100_000,
        9_000,
        ("percona-2013-micron-p320h", "percona-2010-fsync-rate"),
        "NVMe: ~200,000 reads/s, ~100,000 writes/s, ~9,000 syncs/s",
    ),
    (Media.NVME, FlashClass.CONSUMER): DeviceFacts(
        200_000,
        CONSUMER_NVME_SUSTAINED_WRITE_IOPS,
        300,
        (
            "percona-2013-micron-p320h",
            "pcper-2018-samsung-970-evo",
            "percona-2009-x25e-barrier",
            "mariadb-mdev-28766",
            "percona-2018-consumer-ssd-reviews",
        ),
        "consumer NVMe: ~200,000 reads/s, ~18,000 sustained writes/s, ~300 syncs/s",
    ),
}

# One 16 KiB random read at queue depth 1, for Little's law (a client waits for its own read, so
# c clients keep at most c reads in flight). Disks: one random IO's service time, 1 / its IOPS
# above. SATA SSD: ~100 us read latency (simplyblock-nvme-latency) plus 16 KiB over a ~550 MB/s
# link (~30 us): 130 us (derived). NVMe: SATA drives read ~40% slower than NVMe at queue depth 1
# (anandtech-2018-enterprise-ssd-qd1): 100 us / 1.4 + ~5 us of transfer, 75 us (derived).
# Network volumes: rules/machine/volumes.py (NETWORK_READ_LATENCY_S).
FLASH_READ_LATENCY_S: dict[Media, float] = {Media.SATA_SSD: 130e-6, Media.NVME: 75e-6}
LATENCY_SOURCES = ("simplyblock-nvme-latency", "anandtech-2018-enterprise-ssd-qd1")

# RAID: how many device-IOs one logical random write costs, and what share of devices serve reads.
# Mirrors halve random writes (two FusionIO cards in RAID1: 15,221 vs 32,447 writes/s on one,
# percona-2010-fusionio-raid); parity RAID5 costs 4 IOs per write and RAID6 6
# (serverfault-raid5-database; mysql-manual-disk-io). Reads spread over every device.
RAID_WRITE_PENALTY: dict[RaidLevel, float] = {
    RaidLevel.NONE: 1.0,
    RaidLevel.RAID0: 1.0,
    RaidLevel.RAID1: 2.0,
    RaidLevel.RAID10: 2.0,
    RaidLevel.RAID5: 4.0,
    RaidLevel.RAID6: 6.0,
}
# A small write to parity RAID is a read-modify-write: the old data and parity are read, then the
# new data and parity written, the 4 (RAID5) or 6 (RAID6) IOs above. Without a protected
# write-back cache to acknowledge it, a commit's sync waits for the reads and then the writes:
# two device round trips where a mirror needs one, so half the commits per second (derived from
# the same IO counts; the manual warns that parity RAID makes writes slow, mysql-manual-disk-io).
PARITY_SYNC_ROUND_TRIPS: dict[RaidLevel, float] = {
    RaidLevel.NONE: 1.0,
    RaidLevel.RAID0: 1.0,
    RaidLevel.RAID1: 1.0,
    RaidLevel.RAID10: 1.0,
    RaidLevel.RAID5: 2.0,
    RaidLevel.RAID6: 2.0,
}
RAID_SOURCES = (
    "percona-2010-fusionio-raid",
    "serverfault-raid5-database",
    "mysql-manual-disk-io",
)

# A battery- or flash-backed write-back cache reorders and absorbs random writes to disks:
# 4 SAS disks in RAID10 behind one did 972 random 16K writes/s (ksiazek-2011-sas-raid10), 2.4x
# what 2 mirrored pairs of ~200 IOPS disks allow; 8 x 15k in RAID10 did ~1,470/s
# (ssdperformanceblog-2011-intel320), 1.8x. We use the lower, 1.8 (derived).
BBU_HDD_WRITE_FACTOR = 1.8
# Behind such a cache a commit's fsync returns from controller memory: 5,369 write+fsync/s on
# 8 x 15k RAID10 with a PERC 6/i BBU (percona-2010-fsync-rate); ~10,200/s behind an Areca BBWC
# (greg-smith-2010-pg-high-performance). We use 5,000, the lower figure rounded down.
BBU_FSYNC_PER_S = 5_000.0
BBU_SOURCES = (
    "ksiazek-2011-sas-raid10",
    "ssdperformanceblog-2011-intel320",
    "percona-2010-fsync-rate",
    "greg-smith-2010-pg-high-performance",
)

# Under a database's load a device has many IOs outstanding and serves more of them per second
# than one at a time. A disk's command queue (NCQ, TCQ) reorders seeks: enterprise SATA disks
# gain nearly 100% with deep queues and a 15k SAS drive more than doubles, past 400 IOs/s
# (wikipedia-iops). The per-device rates above are one-at-a-time figures, which io_capacity
# and a read's latency come from; the throughput model (calibration.features) uses the queued
# rates. The gain grows with the IOs outstanding per disk up to NCQ's depth of 32.
QUEUED_HDD_FACTOR = 2.0
QUEUED_HDD_FULL_DEPTH = 32.0
# Flash with a deep queue, 16 KiB IOs: a SATA link carries ~600 MB/s (simplyblock-nvme-latency),
# ~36,000 reads/s, of which we take 30,000 (derived). Enterprise SATA drives sustain 14,500
# (read-intensive, as a Samsung PM863) to over 40,000 (write-intensive) random 8 KiB writes/s
# in steady state (thessdreview-2016-micron-5100), the bytes of 7,250 to 20,000 writes of
# 16 KiB: we take 10,000, near the low end (derived). A consumer drive's 960 writes/s is
# already its steady rate under load.
# NVMe's figures above are queued rates already (percona-2013-micron-p320h).
QUEUED_FLASH_IOPS: dict[tuple[Media, FlashClass], tuple[float, float]] = {
    (Media.SATA_SSD, FlashClass.ENTERPRISE): (30_000, 10_000),
    (Media.SATA_SSD, FlashClass.CONSUMER): (30_000, 960),
}
QUEUED_SOURCES = ("wikipedia-iops", "simplyblock-nvme-latency", "thessdreview-2016-micron-5100")

CACHE_PROTECTS_WRITES: dict[ControllerCache, bool] = {
    ControllerCache.NONE: False,
    ControllerCache.WRITE_THROUGH: False,
    ControllerCache.WRITE_BACK_UNPROTECTED: False,  # treated as none, with a warning
    ControllerCache.WRITE_BACK_BBU: True,
}
