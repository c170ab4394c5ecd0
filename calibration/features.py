"""The physical inputs of the model, from a calibration point or from a profile and a config.

Both paths go through the engine's own storage model (rules.machine.storage), so a published
machine and
a user's machine are described by the same device facts.
"""

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace

import numpy as np
import numpy.typing as npt

from calibration.benchmarks import (
    ACCESS_CODES,
    BENCHMARKS,
    SPECIAL_DISTRIBUTION_UNTIL_YEAR,
    UPDATE_TEST_CODES,
)
from calibration.device_terms import (
    NO_FSYNC_WRITE_FACTOR,
    fsync_costs_writes,
    io_factor_of,
    layout_of,
    neighbour_pages,
    queued_iops,
    read_latency_of,
)
from calibration.points import Point
from calibration.server_config import (
    ConfigValue,
    change_buffer_of,
    flush_neighbors_of,
    io_capacity_max_of,
    io_capacity_of,
    mysql_8_or_later,
    read_ahead_on,
    redo_mb_of,
    scheduler_of,
    with_server_defaults,
)
from rules.current.binlog import binary_log_on
from rules.current.values import is_off
from rules.inputs.enums import ControllerCache, FlashClass, Media, RaidLevel, WorkloadKind
from rules.inputs.profile import MeasuredIops, Profile, Storage
from rules.machine.storage import array_capability
from rules.units import GIB

KINDS: tuple[str, ...] = tuple(kind.value for kind in WorkloadKind)
FloatArray = npt.NDArray[np.float64]
# The model's inputs by column: an array of one value per situation, or one number for all
# (calibration.config_rows.configuration_arrays: a machine's own columns)
Columns = Mapping[str, FloatArray | float]

DEFAULT_MAX_DIRTY_PCT = 90.0
# The configuration names situation_of_profile reads; other settings have no term in the model.
MODELLED_SETTINGS = frozenset(
    {
        "innodb_buffer_pool_size",
        "innodb_io_capacity",
        "innodb_io_capacity_max",
        "innodb_redo_log_capacity",
        "innodb_log_file_size",
        "innodb_log_files_in_group",
        "innodb_read_ahead_threshold",
        "innodb_random_read_ahead",
        "innodb_flush_log_at_trx_commit",
        "innodb_flush_method",
        "innodb_max_dirty_pages_pct",
        "innodb_doublewrite",
        "innodb_flush_neighbors",
        "sync_binlog",
        "io_scheduler",
    }
)
# Why a recommended setting has no estimated effect: the model has no term for it yet.
UNMODELLED_WHY: dict[str, str] = {
    "innodb_max_dirty_pages_pct_lwm": "the model bounds the checkpoint by the dirty-page "
    "limit and the redo size, not by how early the page cleaner starts; too few published "
    "pairs vary the low-water mark alone to fit a term",
    "innodb_read_io_threads": "no published result we use shows an effect of the IO thread "
    "count with Linux native AIO",
    "innodb_write_io_threads": "no published result we use shows an effect of the IO thread "
    "count with Linux native AIO",
    "innodb_buffer_pool_instances": "more instances ease contention on the pool's mutexes, a "
    "CPU effect; one published run varies it (one instance cost 25% of an insert benchmark's "
    "rate, callaghan-2020-ibench-nuc-innodb-configs), too few to fit a term",
    "innodb_page_cleaners": "cleaner threads pace how pages are written, not how many; no "
    "published pair we use varies them alone",
    "innodb_lru_scan_depth": "it paces the cleaners' LRU scan, not how many pages are written; "
    "one published run varies it (callaghan-2020-ibench-nuc-innodb-configs), too few to fit",
    "innodb_log_buffer_size": "the model counts redo syncs, not how often a large transaction "
    "fills the log buffer; no published pair we use varies it",
    "innodb_log_writer_threads": "dedicated log writer threads change CPU spent on the redo "
    "path at high concurrency; no published pair we use varies them alone",
    "innodb_use_fdatasync": "fdatasync skips file metadata the model does not count; no "
    "published pair we use varies it",
}


@dataclass(slots=True)  # not frozen: built per estimate, never changed (rules.rule.Proposal)
class Situation:
    """One machine under one configuration, in the model's terms."""

    kind: str
    read_iops: float
    write_iops: float
    fsync_per_s: float
    pool_to_data: float
    cores: float
    concurrency: float
    commit_syncs: bool  # True when every commit waits for a redo fsync (trx_commit=1)
    io_factor: float  # product of the published setting multipliers on the IO term
    dirty_pct: float
    year: float
    read_latency_s: float = 0.0  # one 16 KiB read at queue depth 1 (Little's law per client)
    access: float = 0.0  # how keys are drawn: calibration.benchmarks.ACCESS_CODES
    doublewrite: bool = True  # every page write also goes through the doublewrite buffer
    binlog: bool = False  # the binary log is written (row events cost CPU)
    binlog_sync: bool = False  # sync_binlog=1: each commit group also syncs the binary log
    data_gb: float = 1.0
    redo_mb: float = math.inf  # total redo; inf: not stated (a run sized so it never throttles)
    io_capacity_max: float = math.inf  # checkpoint flushing's cap, pages/s; inf: not stated
    io_capacity: float = math.inf  # background pages/s (buffer merges); inf: not stated
    change_buffer: bool = True  # secondary-index changes are buffered, not read by the client
    mysql_8: bool = False  # MySQL 8.0 or later: more CPU per statement (model's mysql8_cpu)
    update_test: float = 0.0  # which sysbench update test: benchmarks.UPDATE_TEST_CODES
    disks: bool = False  # spinning disks: the estimate takes their interval (calibration.interval)


Corrections = Mapping[str, float]  # "<media>_<read|write>" -> log factor on modelled IOPS


def situation_of_point(point: Point, corrections: Corrections | None = None) -> Situation:
    storage = _storage(
        point.media,
        point.flash_class,
        point.rpm,
        point.device_count,
        point.raid_level,
        point.controller_cache,
        point.measured_read_iops,
        point.measured_write_iops,
    )
    situation = _situation(
        kind=point.kind,
        storage=storage,
        bp_gb=point.bp_gb,
        data_gb=point.data_gb,
        cores=point.cpu_cores,
        concurrency=point.concurrency,
        trx_commit=point.trx_commit,
        flush_method=point.flush_method,
        dirty_pct=point.max_dirty_pct,
        read_ahead_on=point.read_ahead != "off",
        scheduler=point.io_scheduler,
        year=point.year,
        volatile_cache=point.controller_cache == "volatile",
        corrections=corrections or {},
        access=ACCESS_CODES[_point_access(point)],
        doublewrite=point.doublewrite != "off",
        binlog=point.binlog in ("on", "sync"),
        binlog_sync=point.binlog == "sync",
        redo_mb=point.log_mb or math.inf,
        io_capacity_max=point.io_capacity_max or math.inf,
        io_capacity=point.io_capacity or math.inf,
        change_buffer=point.change_buffer,
        flush_neighbors=point.flush_neighbors,
        mysql_8=point.mysql_8,
    )
    if point.read_latency_ms is not None:
        situation = replace(situation, read_latency_s=point.read_latency_ms / 1000.0)
    if point.update_test:
        situation = replace(situation, update_test=UPDATE_TEST_CODES[point.update_test])
    return situation


def situation_of_profile(
    profile: Profile,
    config: Mapping[str, ConfigValue],
    *,
    year: int,
    corrections: Corrections | None = None,
) -> Situation:
    """A user's machine under `config` (recommended or current values, by variable name; the
    release's defaults for the rest)."""
    config = with_server_defaults(profile, config)
    storage = profile.hardware.storage
    pool = float(config.get("innodb_buffer_pool_size", 128 * 1024 * 1024)) / GIB
    kind = profile.workload.kind.value
    binlog = binary_log_on(profile)
    return _situation(
        kind=kind,
        storage=storage,
        bp_gb=pool,
        data_gb=profile.workload.data_size_gb,
        # a container's CPU limit when lower; at least one, the least busy_cores is defined for
        cores=max(1.0, profile.hardware.usable_cores),
        concurrency=profile.workload.concurrency,
        trx_commit=int(float(config.get("innodb_flush_log_at_trx_commit", 1))),
        flush_method=str(config.get("innodb_flush_method", "O_DIRECT")),
        dirty_pct=float(config.get("innodb_max_dirty_pages_pct", DEFAULT_MAX_DIRTY_PCT)),
        read_ahead_on=read_ahead_on(config),
        scheduler=scheduler_of(config),
        year=year,
        volatile_cache=False,
        corrections=corrections or {},
        access=ACCESS_CODES[BENCHMARKS[kind].access],
        doublewrite=not is_off(config.get("innodb_doublewrite", "ON")),
        binlog=binlog,
        binlog_sync=binlog and str(config.get("sync_binlog", 0)) == "1",
        redo_mb=redo_mb_of(profile, config),
        io_capacity_max=io_capacity_max_of(config),
        io_capacity=io_capacity_of(config),
        change_buffer=change_buffer_of(config),
        flush_neighbors=flush_neighbors_of(profile, config),
        mysql_8=mysql_8_or_later(profile),
    )


def _point_access(point: Point) -> str:
    """How a published run drew its keys: as the source says, else as its benchmark did by
    default then (sysbench before 1.0 used its 'special' draw).

    Every tpcc run takes tpcc's NURand curve, though not every driver draws as the spec does:
    Percona's sysbench-tpcc draws NURand's constant C once per thread (tpcc_common.lua keeps it
    in each thread's Lua state), so 56 threads' draws over stock pages hit as a uniform draw
    does within 0.02, and HammerDB's NEWORD procedure draws item ids uniformly. Given the
    uniform draw (with stock-level's re-reads kept), the pool sweeps of those runs fitted worse
    (pairs within x1.5 74% against 86%; manage.py calibrate, 336 points, 2026-11-28): the
    curve also stands for the locality of the hot tails (new orders, order lines, history),
    which the model has no term for."""
    if point.access in ("uniform", "special"):
        return point.access
    if point.access in ("pareto", "zipf", "skewed"):
        return "skewed"
    if point.kind in ("read_write", "update_heavy", "read_mostly"):
        return "special" if 0 < point.year <= SPECIAL_DISTRIBUTION_UNTIL_YEAR else "uniform"
    return BENCHMARKS[point.kind].access


_FLOAT_COLUMNS = (
    "read_iops",
    "write_iops",
    "fsync_per_s",
    "pool_to_data",
    "cores",
    "concurrency",
    "io_factor",
    "dirty_pct",
    "year",
    "read_latency_s",
    "data_gb",
    "redo_mb",
    "io_capacity_max",
    "io_capacity",
)
_FLAG_COLUMNS = (
    "commit_syncs",
    "update_test",
    "access",
    "doublewrite",
    "binlog",
    "binlog_sync",
    "change_buffer",
    "mysql_8",
)


MODEL_COLUMNS = (*_FLOAT_COLUMNS, *_FLAG_COLUMNS, "kind")  # what as_arrays gives the model


def situation_column(situation: Situation, name: str) -> float:
    """One column's value for one situation: the kind as its index in KINDS."""
    if name == "kind":
        return float(KINDS.index(situation.kind))
    return float(getattr(situation, name))


def as_arrays(situations: Sequence[Situation]) -> dict[str, FloatArray]:
    """Columns for the vectorised model: one float array per field, kind as an index."""
    return {
        name: np.array([situation_column(s, name) for s in situations], dtype=np.float64)
        for name in MODEL_COLUMNS
    }


def _storage(
    media: str,
    flash_class: str,
    rpm: int | None,
    count: int,
    level: str,
    cache: str,
    read: float | None,
    write: float | None,
) -> Storage:
    protected = cache in ("write_back_bbu", "volatile")
    return Storage(
        media=Media(media),
        rpm=rpm if media == "hdd" else None,
        device_count=max(count, 1),
        raid_level=RaidLevel(level or "none"),
        controller_cache=ControllerCache.WRITE_BACK_BBU if protected else ControllerCache.NONE,
        measured_iops=MeasuredIops(read, write) if read and write else None,
        flash_class=FlashClass(flash_class or "enterprise") if media != "hdd" else None,
    )


def _situation(
    *,
    kind: str,
    storage: Storage,
    bp_gb: float,
    data_gb: float,
    cores: float,
    concurrency: float,
    trx_commit: int,
    flush_method: str,
    dirty_pct: float | None,
    read_ahead_on: bool,
    scheduler: str,
    year: int,
    volatile_cache: bool,
    corrections: Corrections,
    access: float,
    doublewrite: bool,
    binlog: bool,
    binlog_sync: bool,
    redo_mb: float,
    io_capacity_max: float,
    io_capacity: float,
    change_buffer: bool = True,
    flush_neighbors: int,
    mysql_8: bool,
) -> Situation:
    capability = array_capability(storage, data_gb)
    read_iops, write_iops = capability.random_read_iops, capability.random_write_iops
    read_latency_s = read_latency_of(storage, read_iops)
    if storage.measured_iops is None:
        # Under a change buffer the insert benchmark's reads are the merges' (calibration.model),
        # which background threads issue many at a time: a full queue whatever the clients.
        merges = kind == WorkloadKind.BULK_INSERT.value and change_buffer
        queue = math.inf if merges else concurrency
        read_iops, write_iops = queued_iops(storage, read_iops, write_iops, queue)
    # Approved fio submissions correct the device model; a network volume's rate is what was
    # provisioned, not a model of its devices, so it stays as given.
    if storage.measured_iops is None and storage.media is not Media.NETWORK_SSD:
        media = storage.media.value
        read_iops *= math.exp(corrections.get(f"{media}_read", 0.0))
        write_iops *= math.exp(corrections.get(f"{media}_write", 0.0))
    no_fsync = flush_method.upper() == "O_DIRECT_NO_FSYNC"
    if no_fsync and fsync_costs_writes(storage):
        write_iops *= NO_FSYNC_WRITE_FACTOR
    pool_to_data = bp_gb / max(data_gb, 1e-3)
    write_iops *= neighbour_pages(
        storage, flush_neighbors, dirty_pct or DEFAULT_MAX_DIRTY_PCT, pool_to_data
    )
    io_factor = io_factor_of(storage, layout_of(storage), kind, read_ahead_on, scheduler)
    return Situation(
        kind=kind,
        read_iops=read_iops,
        write_iops=write_iops,
        fsync_per_s=capability.fsync_per_s,
        pool_to_data=pool_to_data,
        data_gb=max(data_gb, 1e-3),
        cores=cores,
        concurrency=concurrency,
        commit_syncs=trx_commit == 1,
        io_factor=io_factor,
        dirty_pct=dirty_pct or DEFAULT_MAX_DIRTY_PCT,
        year=float(year or 2026),
        read_latency_s=read_latency_s,
        access=access,
        doublewrite=doublewrite,
        binlog=binlog,
        binlog_sync=binlog_sync,
        redo_mb=redo_mb,
        io_capacity_max=io_capacity_max,
        io_capacity=io_capacity,
        change_buffer=change_buffer,
        mysql_8=mysql_8,
        disks=storage.media is Media.HDD,
    )
