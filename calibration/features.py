"""The physical inputs of the model, from a calibration point or from a profile and a config.

Both paths go through the engine's own storage model (rules.storage), so a published machine and
a user's machine are described by the same device facts.
"""

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from calibration.benchmarks import ACCESS_CODES, BENCHMARKS, SPECIAL_DISTRIBUTION_UNTIL_YEAR
from calibration.points import Point
from rules.currentvalues import is_off
from rules.devices import FLASH_READ_LATENCY_S
from rules.enums import ControllerCache, FlashClass, Flavor, Media, RaidLevel, WorkloadKind
from rules.profile import MeasuredIops, Profile, Storage
from rules.storage import array_capability
from rules.units import GIB

KINDS: tuple[str, ...] = tuple(kind.value for kind in WorkloadKind)
FloatArray = npt.NDArray[np.float64]
ConfigValue = int | float | str

# Settings whose published effect the model applies as a fixed multiplier on the IO term.
# Linux schedulers on a battery-backed 8-disk RAID10 (percona-2009-schedulers): cfq 2793.5 and
# anticipatory 1465 against ~6550 TPM for noop/deadline.
SCHEDULER_IO_FACTOR: dict[str, float] = {"cfq": 0.43, "anticipatory": 0.22, "bfq": 0.43}
# Read-ahead left on for random OLTP on an array: ~15% slower (percona-2009-readahead) and
# 12-20% (callaghan-2009-google-wiki); on flash the gain was smaller (percona-2009-readahead).
READ_AHEAD_ON_IO_FACTOR = {"array": 0.87, "flash": 0.95, "single": 1.0}
# O_DIRECT_NO_FSYNC tripled IO-bound updates on fast flash (callaghan-2013-odirect-no-fsync:
# 30265 vs 10379 updates/s); behind a protected cache the fsync is already cheap.
NO_FSYNC_WRITE_FACTOR = 2.9
DEFAULT_MAX_DIRTY_PCT = 90.0
# The configuration names situation_of_profile reads; other settings have no term in the model.
MODELLED_SETTINGS = frozenset(
    {
        "innodb_buffer_pool_size",
        "innodb_read_ahead_threshold",
        "innodb_random_read_ahead",
        "innodb_flush_log_at_trx_commit",
        "innodb_flush_method",
        "innodb_max_dirty_pages_pct",
        "innodb_doublewrite",
        "sync_binlog",
        "io_scheduler",
    }
)
# Why a recommended setting has no estimated effect: the model has no term for it yet.
_NO_FLUSHING_TERM = (
    "the model has no term yet for background flushing, which this setting paces; too few "
    "published pairs vary it alone to fit one"
)
UNMODELLED_WHY: dict[str, str] = {
    "innodb_io_capacity": _NO_FLUSHING_TERM,
    "innodb_io_capacity_max": _NO_FLUSHING_TERM,
    "innodb_max_dirty_pages_pct_lwm": _NO_FLUSHING_TERM,
    "innodb_flush_neighbors": _NO_FLUSHING_TERM,
    "innodb_redo_log_capacity": "the model has no checkpoint-pressure term yet for the redo size",
    "innodb_log_file_size": "the model has no checkpoint-pressure term yet for the redo size",
    "innodb_read_io_threads": "no published result we use shows an effect of the IO thread "
    "count with Linux native AIO",
    "innodb_write_io_threads": "no published result we use shows an effect of the IO thread "
    "count with Linux native AIO",
}
READ_AHEAD_KINDS = frozenset({"oltp", "read_write", "update_heavy", "read_mostly"})


@dataclass(frozen=True, slots=True)
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
    return _situation(
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
    )


def situation_of_profile(
    profile: Profile,
    config: Mapping[str, ConfigValue],
    *,
    year: int,
    corrections: Corrections | None = None,
) -> Situation:
    """A user's machine under `config` (recommended or current values, by variable name)."""
    storage = profile.hardware.storage
    pool = float(config.get("innodb_buffer_pool_size", 128 * 1024 * 1024)) / GIB
    threshold = int(float(config.get("innodb_read_ahead_threshold", 56)))
    return _situation(
        kind=profile.workload.kind.value,
        storage=storage,
        bp_gb=pool,
        data_gb=profile.workload.data_size_gb,
        cores=profile.hardware.cpu_cores,
        concurrency=profile.workload.concurrency,
        trx_commit=int(float(config.get("innodb_flush_log_at_trx_commit", 1))),
        flush_method=str(config.get("innodb_flush_method", "O_DIRECT")),
        dirty_pct=float(config.get("innodb_max_dirty_pages_pct", DEFAULT_MAX_DIRTY_PCT)),
        read_ahead_on=threshold < 64 or str(config.get("innodb_random_read_ahead")) == "ON",
        scheduler=str(config.get("io_scheduler", "")),
        year=year,
        volatile_cache=False,
        corrections=corrections or {},
        access=ACCESS_CODES[BENCHMARKS[profile.workload.kind.value].access],
        doublewrite=not is_off(config.get("innodb_doublewrite", "ON")),
        binlog=binlog_on_by_default(profile),
        binlog_sync=binlog_on_by_default(profile) and str(config.get("sync_binlog", 0)) == "1",
    )


def binlog_on_by_default(profile: Profile) -> bool:
    """The profile does not say whether the binary log is on; each server's default decides:
    on since MySQL 8.0 (mysql-manual-binary-log), off on 5.7 and on MariaDB
    (mariadb-docs-binary-log)."""
    server = profile.server
    return server.flavor is not Flavor.MARIADB and server.version.key() >= (8, 0, 0)


def _point_access(point: Point) -> str:
    """How a published run drew its keys: as the source says, else as its benchmark did by
    default then (sysbench before 1.0 used its 'special' draw)."""
    if point.access in ("uniform", "special"):
        return point.access
    if point.access in ("pareto", "zipf", "skewed"):
        return "skewed"
    if point.kind in ("read_write", "update_heavy", "read_mostly"):
        return "special" if 0 < point.year <= SPECIAL_DISTRIBUTION_UNTIL_YEAR else "uniform"
    return BENCHMARKS[point.kind].access


def as_arrays(situations: Sequence[Situation]) -> dict[str, FloatArray]:
    """Columns for the vectorised model: one float array per field, kind as an index."""
    columns: dict[str, FloatArray] = {
        name: np.array([getattr(s, name) for s in situations], dtype=np.float64)
        for name in (
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
        )
    }
    for flag in ("commit_syncs", "access", "doublewrite", "binlog", "binlog_sync"):
        columns[flag] = np.array([getattr(s, flag) for s in situations], dtype=np.float64)
    columns["kind"] = np.array([KINDS.index(s.kind) for s in situations], dtype=np.float64)
    return columns


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
) -> Situation:
    capability = array_capability(storage)
    read_iops, write_iops = capability.random_read_iops, capability.random_write_iops
    if storage.measured_iops is None:  # approved fio submissions correct the device model
        read_iops *= math.exp(corrections.get(f"{storage.media.value}_read", 0.0))
        write_iops *= math.exp(corrections.get(f"{storage.media.value}_write", 0.0))
    no_fsync = flush_method.upper() == "O_DIRECT_NO_FSYNC"
    if no_fsync and storage.media is not Media.HDD and not storage.has_protected_write_cache:
        write_iops *= NO_FSYNC_WRITE_FACTOR  # measured on flash; a disk's seek dwarfs the fsync
    layout = (
        "single"
        if storage.device_count == 1 and storage.media is Media.HDD
        else "array"
        if storage.media is Media.HDD
        else "flash"
    )
    io_factor = (
        SCHEDULER_IO_FACTOR.get(scheduler.split(" ")[0], 1.0) if storage.media is Media.HDD else 1.0
    )
    if read_ahead_on and kind in READ_AHEAD_KINDS:
        io_factor *= READ_AHEAD_ON_IO_FACTOR[layout]
    return Situation(
        kind=kind,
        read_iops=read_iops,
        write_iops=write_iops,
        fsync_per_s=capability.fsync_per_s,
        pool_to_data=bp_gb / max(data_gb, 1e-3),
        cores=cores,
        concurrency=concurrency,
        commit_syncs=trx_commit == 1,
        io_factor=io_factor,
        dirty_pct=dirty_pct or DEFAULT_MAX_DIRTY_PCT,
        year=float(year or 2026),
        read_latency_s=_read_latency_s(storage, read_iops),
        access=access,
        doublewrite=doublewrite,
        binlog=binlog,
        binlog_sync=binlog_sync,
    )


def _read_latency_s(storage: Storage, read_iops: float) -> float:
    """One read at queue depth 1: a disk's service time (1 / its IOPS), flash's published one."""
    if storage.media is Media.HDD:
        return storage.device_count / max(read_iops, 1.0)
    return FLASH_READ_LATENCY_S[storage.media]
