"""How a storage description and the settings that act on it become the model's device terms:
queued rates, neighbour flushing, the fsync O_DIRECT_NO_FSYNC skips, the published multipliers
of schedulers and read-ahead, and one read's latency (calibration.features builds situations
from them)."""

import math

from rules.inputs.enums import FlashClass, Media
from rules.inputs.profile import Storage
from rules.machine.devices import (
    BBU_HDD_WRITE_FACTOR,
    FLASH_READ_LATENCY_S,
    QUEUED_FLASH_IOPS,
    QUEUED_HDD_FACTOR,
    QUEUED_HDD_FULL_DEPTH,
)
from rules.machine.storage import device_facts
from rules.machine.volumes import NETWORK_READ_LATENCY_S

# Settings whose published effect the model applies as a fixed multiplier on the IO term.
# Linux schedulers on a battery-backed 8-disk RAID10 (percona-2009-schedulers): cfq 2793.5 and
# anticipatory 1465 against ~6550 TPM for noop/deadline.
SCHEDULER_IO_FACTOR: dict[str, float] = {"cfq": 0.43, "anticipatory": 0.22, "bfq": 0.43}
# Read-ahead left on for random OLTP on an array: ~15% slower (percona-2009-readahead) and
# 12-20% (callaghan-2009-google-wiki); on flash the gain was smaller (percona-2009-readahead).
READ_AHEAD_ON_IO_FACTOR = {"array": 0.87, "flash": 0.95, "single": 1.0}
# O_DIRECT_NO_FSYNC tripled IO-bound updates on fast flash (callaghan-2013-odirect-no-fsync:
# 30265 vs 10379 updates/s); behind a protected cache the fsync is already cheap. A measured
# write rate (fio's direct writes, or a volume's provisioned IOPS) already has no fsync in it,
# so the factor applies to the device model's rates only.
NO_FSYNC_WRITE_FACTOR = 2.9
# A disk writes a page's dirty neighbours with it (innodb_flush_neighbors): InnoDB flushes, with
# each page, the other dirty pages of its extent of 64 pages (1 MiB of 16 KiB pages,
# https://dev.mysql.com/doc/refman/8.4/en/innodb-file-space.html; the area
# buf_flush_try_neighbors scans, min(BUF_READ_AHEAD_AREA, pool / 16)) that are contiguous to it
# (1, the default of MySQL 5.6 and 5.7 and of MariaDB) or all of them (2, and what every
# release before 5.6 did, having no variable: buf/buf0flu.c of MySQL 5.1's built-in InnoDB,
# mysql/mysql-server at 03cd5ae4); MySQL 8.0 turned it off for flash (0, mysql-wl-9631). On a
# disk the batch costs about one seek where its pages written apart would cost one each
# (mysql-manual-buffer-pool-flushing; the variable's entry in
# https://dev.mysql.com/doc/refman/8.4/en/innodb-parameters.html: flushing neighbours together
# "reduces I/O overhead (primarily for disk seek operations)"), so a disk's page-write rate is
# its seek rate times the pages per batch; a batch's transfer time is left out (costing a
# batch two seeks instead of one moved the held-out error from x1.29 to x1.30). Flash has no
# seek to save, so its rate is unchanged.
EXTENT_PAGES = 64.0
# The kinds read-ahead's multiplier acts on: random page reads. The insert benchmark appends.
READ_AHEAD_KINDS = frozenset({"oltp", "read_write", "update_heavy", "read_mostly"})


def queued_iops(
    storage: Storage, read_iops: float, write_iops: float, queue: float
) -> tuple[float, float]:
    """The device model's one-at-a-time rates as a loaded server gets them (rules.machine.devices,
    QUEUED_*). A disk's reads gain with the reads outstanding per disk (`queue`: one per
    client, as each waits for its own), from none at one to QUEUED_HDD_FACTOR at NCQ's full
    depth, evenly in log2 of the depth between (advisor-engineering-judgement on the curve's
    shape); its page writes are issued in batches by the page cleaner, so they always have a
    full queue. A battery-backed cache's rate (BBU_HDD_WRITE_FACTOR, measured with writes
    queued) is kept where it is the higher, so a protected cache never gives fewer writes
    than none. Flash takes its queued 16 KiB rates per device, scaled as the array scales the
    one-at-a-time ones."""
    if storage.media is Media.HDD:
        depth = max(queue / storage.device_count, 1.0)
        reach = min(math.log2(depth) / math.log2(QUEUED_HDD_FULL_DEPTH), 1.0)
        reads = read_iops * (1.0 + (QUEUED_HDD_FACTOR - 1.0) * reach)
        queued = QUEUED_HDD_FACTOR
        if storage.has_protected_write_cache:  # write_iops holds the cache's factor already
            queued = max(QUEUED_HDD_FACTOR / BBU_HDD_WRITE_FACTOR, 1.0)
        return reads, write_iops * queued
    rates = QUEUED_FLASH_IOPS.get((storage.media, storage.flash_class or FlashClass.ENTERPRISE))
    if rates is None:
        return read_iops, write_iops
    facts = device_facts(storage)
    return (
        read_iops * rates[0] / facts.random_read_iops,
        write_iops * rates[1] / facts.random_write_iops,
    )


def neighbour_pages(
    storage: Storage, flush_neighbors: int, dirty_pct: float, pool_to_data: float
) -> float:
    """Pages a disk writes per seek when InnoDB flushes each page's dirty neighbours too
    (EXTENT_PAGES): 1 on flash or with neighbour flushing off. A page of the data is dirty with
    probability q, the dirty-page limit's share of the data (innodb_max_dirty_pages_pct of the
    pool, over the data; a write-bound server keeps the pool at its limit); taken independently
    of its neighbours, the other 63 pages of its extent hold 63 q dirty ones (2: the whole
    extent), and the dirty run through it is 1 + 2 q / (1 - q) pages long (1: contiguous only),
    at most the extent."""
    if storage.media is not Media.HDD or flush_neighbors <= 0:
        return 1.0
    q = min(dirty_pct / 100.0 * pool_to_data, 1.0)
    if flush_neighbors >= 2:
        return 1.0 + (EXTENT_PAGES - 1.0) * q
    if q >= 1.0:
        return EXTENT_PAGES
    return min(1.0 + 2.0 * q / (1.0 - q), EXTENT_PAGES)


def fsync_costs_writes(storage: Storage) -> bool:
    """Whether skipping the data files' fsync speeds up the modelled page writes: on flash
    (a disk's seek dwarfs the fsync), with no protected cache, and not for a measured rate."""
    return (
        storage.media is not Media.HDD
        and not storage.has_protected_write_cache
        and storage.measured_iops is None
    )


def layout_of(storage: Storage) -> str:
    if storage.media is not Media.HDD:
        return "flash"
    return "single" if storage.device_count == 1 else "array"


def io_factor_of(
    storage: Storage, layout: str, kind: str, read_ahead_on: bool, scheduler: str
) -> float:
    """The published setting multipliers on the IO terms: the disk scheduler and read-ahead."""
    factor = (
        SCHEDULER_IO_FACTOR.get(scheduler.split(" ")[0], 1.0) if storage.media is Media.HDD else 1.0
    )
    if read_ahead_on and kind in READ_AHEAD_KINDS:
        factor *= READ_AHEAD_ON_IO_FACTOR[layout]
    return factor


def read_latency_of(storage: Storage, read_iops: float) -> float:
    """One read at queue depth 1: a disk's service time (1 / its IOPS), flash's published one,
    a network volume's round trip (the 1 ms the calibration's EBS rows use)."""
    if storage.media is Media.HDD:
        return storage.device_count / max(read_iops, 1.0)
    if storage.media is Media.NETWORK_SSD:
        return NETWORK_READ_LATENCY_S
    return FLASH_READ_LATENCY_S[storage.media]
