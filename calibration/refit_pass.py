"""The model for one machine under a few configurations, across the fitted vector and its
leave-one-source-out refits: the pass the engine's estimator makes for every recommendation.

It performs calibration.model's operations (capacities, then predict_rows) element for element
and in the same order, so it gives the same bits (tests/calibration/test_refit_pass.py compares
them); it is only cheaper. On a few hundred numbers numpy's cost is its calls, not the
arithmetic, so it makes fewer: what depends on the parameters alone is computed once per
estimator, what depends on the machine once per call, a configuration's own terms in plain
Python floats (IEEE arithmetic, as numpy's; logarithms still numpy's, which libm's can differ
from by a bit), and every configuration x vector array has one shape and is contiguous,
sparing numpy its broadcasting. The fit keeps calibration.model's path: its situations mix
machines and kinds.
"""

import struct
from collections.abc import Sequence
from dataclasses import dataclass
from itertools import chain

import numpy as np

from calibration.benchmarks import (
    ACCESS_CODES,
    NURAND_SHARES,
    NURAND_STOCK_HITS,
    SPECIAL_HOT_ACCESSES,
    SPECIAL_HOT_SHARE,
)
from calibration.config_rows import CONFIG_WIDTH, ConfigRow
from calibration.features import KINDS, FloatArray, Situation
from calibration.model import (
    _BULK,
    _DIRTIED_SHARES,
    _DIRTIED_WINDOWS,
    _LOG_COMMIT_UNITS,
    _LOG_PER_SECOND,
    _LOG_READS,
    _LOG_WRITES,
    _READS,
    _RECENT_READS,
    _SKEWED_DIRTIED,
    _SKEWED_WINDOWS,
    _STATEMENTS,
    _TEST_LOG_READS,
    _TEST_LOG_WRITES,
    _TEST_STATEMENTS,
    _UNITS_PER_COMMIT,
    _WRITES,
    CHANGE_BUFFER_MAX_SHARE,
    CHANGE_BUFFER_MERGE_SHARE,
    FLUSH_UNDER_WAY_SHARE,
    GROUP_COMMIT_CAP,
    MERGED_ENTRIES_PER_POOL_SHARE,
    MIB,
    MISS_FLOOR,
    PAGE_BYTES,
    REFERENCE_YEAR,
    SHARED,
    SMOOTH_MIN_POWER,
    bottleneck_name,
)

_SPECIAL = ACCESS_CODES["special"]
_SKEWED = ACCESS_CODES["skewed"]
_PAGES_PER_GB = 1024.0 * MIB / PAGE_BYTES
_HELD_SHARE = 1.0 - CHANGE_BUFFER_MAX_SHARE
_SMALL_WINDOW = 1e-9  # write_combining's: below it a window combines nothing
_LAST_WINDOW = float(_SKEWED_WINDOWS[-1])
# The NURand table as arrays: np.interp would convert the tuples on every call (a few us each)
_NURAND_SHARES = np.array(NURAND_SHARES)
_NURAND_STOCK_HITS = np.array(NURAND_STOCK_HITS)
_ROW = struct.Struct(f"{CONFIG_WIDTH}d")  # a configuration's row, bit for bit


@dataclass(frozen=True, slots=True)
class _Vectors:
    """model.capacities' terms that depend on the vectors alone, for one kind, binary log and
    year: each row of a spread array is the same (one value per vector), so the first n rows
    are a contiguous configuration x vector array. The unit terms come in four variants, by
    2 x unbuffered + doublewrite (unbuffered: the insert benchmark without a change buffer,
    e = 0), one row each."""

    statement_s: FloatArray
    read_cpu_s: FloatArray
    exp_redo: FloatArray
    max_exp_redo: float
    overdrive: FloatArray
    gamma: FloatArray
    beta: FloatArray  # one row: the commit term is per vector until the syncs divide it
    log_reads: tuple[FloatArray, ...]  # spread, by variant
    reads: tuple[FloatArray, ...]
    log_changes: tuple[FloatArray, ...]
    log_writes: tuple[FloatArray, ...]
    rows: FloatArray  # log reads, reads, log changes, log writes: 4 x variant x vector


@dataclass(frozen=True, slots=True)
class _Configurations:
    """Each configuration's own terms: `columns` (rows of one value per configuration) are
    by_redo's numerator, by_dirty, io_factor, settings, log write IOPS, log io_capacity_max,
    log syncs, miss and log miss."""

    columns: list[list[float]]
    variants: list[int]  # 2 x unbuffered + doublewrite
    no_syncs: list[int]  # the configurations that sync nothing at commit
    commit_waits: list[float]  # seconds a unit's commits wait for redo flushes (model.capacities)
    pools: list[float]  # pool / data, as the row gives it
    io_capacities: list[float]
    wide: bool  # every window (u) is above _SMALL_WINDOW, whatever the vector: no NaN


class RefitPass:
    """calibration.model.predict_rows over fixed parameter vectors, for one machine's configs.

    `width` is how many configurations a call usually has at most; a wider call spreads the
    vectors' terms again."""

    def __init__(self, params: FloatArray, width: int) -> None:
        self._params = np.atleast_2d(np.asarray(params, dtype=np.float64))
        self._width = width
        self._vectors: dict[tuple[int, float, float, float, int], _Vectors] = {}

    def run(self, machine: Situation, configs: Sequence[ConfigRow]) -> tuple[FloatArray, list[str]]:
        """The predictions, configuration x vector (predict_rows' transpose), and the first
        vector's binding capacity per configuration.

        A configuration given again is computed once and its row copied: a setting whose
        value changes nothing the model reads gives the baseline's row (two or three of the
        estimator's ten a recommendation, ~58k instructions each under callgrind). Every
        element of the pass is computed from its own configuration alone, so the copy has the
        bits a second computation would have."""
        distinct, index = _distinct(configs)
        if len(distinct) == len(configs):
            return self._run(machine, configs)
        logs, names = self._run(machine, distinct)
        return logs[index], [names[i] for i in index]

    def _run(
        self, machine: Situation, configs: Sequence[ConfigRow]
    ) -> tuple[FloatArray, list[str]]:
        terms, (writes_over_reads, commit_over_reads) = self._capacities(machine, configs)
        binding = terms[:, :, 0].argmin(axis=0).tolist()
        names = [
            bottleneck_name(i, d < 0, w > 0)  # nan: neither
            for i, d, w in zip(binding, writes_over_reads, commit_over_reads, strict=True)
        ]
        np.multiply(terms, -SMOOTH_MIN_POWER, out=terms)
        np.exp(terms, out=terms)
        logs = np.add.reduce(terms, axis=0)
        np.log(logs, out=logs)  # -log / p as log / -p: IEEE division is exact in the signs
        return np.divide(logs, -SMOOTH_MIN_POWER, out=logs), names

    def capacities(self, machine: Situation, configs: Sequence[ConfigRow]) -> FloatArray:
        """model.capacities' first five, stacked: capacity x configuration x vector."""
        return self._capacities(machine, configs)[0]

    def _capacities(
        self, machine: Situation, configs: Sequence[ConfigRow]
    ) -> tuple[FloatArray, tuple[list[float], list[float]]]:
        """The capacities and, under the first vector, per configuration the device's log
        write capacity over its read capacity and a unit's commit wait less its read wait
        (which of the two binds the device, and the clients)."""
        vectors = self._vectors_of(machine, len(configs))
        terms = np.empty((5, len(configs), len(self._params)))
        with np.errstate(all="ignore"):
            signs = _capacities(machine, configs, vectors, terms)
        return terms, signs

    def _vectors_of(self, machine: Situation, n: int) -> _Vectors:
        key = (
            KINDS.index(machine.kind),
            float(machine.binlog),
            float(machine.mysql_8),
            float(machine.year),
            int(machine.update_test),
        )
        vectors = self._vectors.get(key)
        if vectors is None or len(vectors.gamma) < n:
            vectors = _vector_terms(self._params, *key, max(n, self._width))
            self._vectors[key] = vectors
        return vectors


def _distinct(configs: Sequence[ConfigRow]) -> tuple[list[ConfigRow], list[int]]:
    """The configurations without repeats, in first-seen order, and where each one went.
    Rows are compared by their bits (0.0 and -0.0 differ, as a NaN equals its own bits)."""
    keys = [_ROW.pack(*row) for row in configs]
    first: dict[bytes, int] = {}
    distinct: list[ConfigRow] = []
    for key, row in zip(keys, configs, strict=True):
        if key not in first:
            first[key] = len(distinct)
            distinct.append(row)
    return distinct, [first[key] for key in keys]


def _capacities(
    machine: Situation, configs: Sequence[ConfigRow], vectors: _Vectors, terms: FloatArray
) -> tuple[list[float], list[float]]:
    """Fills `terms` with (cpu, reads, device, commit, flush), as model.capacities; returns
    under the first vector, per configuration, the device's log write capacity over its log read
    capacity and a unit's commit wait less its read wait (model.capacities' last two)."""
    n = len(configs)
    kind = KINDS.index(machine.kind)
    own = _configuration_terms(machine, configs, vectors.max_exp_redo)
    # One workspace: the configurations' terms spread over the vectors (the first nine),
    # then what is logged in one call (from wmiss on), then the device's two capacities.
    space = np.empty((15, n, len(vectors.beta[0])))
    columns = _floats(list(chain.from_iterable(own.columns))).reshape(9, n)
    np.copyto(space[:9], columns[:, :, np.newaxis])
    (
        by_redo,
        by_dirty,
        io_factor,
        settings,
        log_write_iops,
        log_icm,
        log_syncs,
        miss,
        _,  # log miss
        wmiss,
        checkpoint_share,
        cpu_s,
        wait_s,
    ) = space[:13]
    logged, device = space[9:13], space[13:]
    log_reads, reads, log_changes, log_writes = _unit_terms(vectors, own.variants, n)
    # model.busy_cores for one machine, in numpy's scalar ufuncs (the same bits, no arrays)
    cores = float(machine.cores)
    busy = cores * -np.expm1(float(machine.concurrency) * np.log1p(-1.0 / cores))
    log_iops, log_concurrency, log_fsync, log_group, log_parallel = np.log(
        [
            machine.read_iops,
            machine.concurrency,
            machine.fsync_per_s,
            min(float(machine.concurrency), GROUP_COMMIT_CAP),
            float(busy),
        ]
    ).tolist()
    log_per_second = _LOG_PER_SECOND[kind]
    combine = _write_combining(machine, by_redo, by_dirty, vectors.exp_redo[:n], own.wide)
    misses = np.multiply(reads, miss)
    np.multiply(misses, vectors.read_cpu_s[:n], out=cpu_s)
    np.add(vectors.statement_s[:n], cpu_s, out=cpu_s)
    np.multiply(misses, float(machine.read_latency_s), out=wait_s)
    if kind == _BULK:  # the change buffer's merges read in the background: clients do not wait
        wait_s[[i for i, v in enumerate(own.variants) if v < 2]] = 0.0
    np.divide(wait_s, io_factor, out=wait_s)
    read_waits = wait_s[:, 0].tolist()
    commit_over_reads = [c - r for c, r in zip(own.commit_waits, read_waits, strict=True)]
    np.add(cpu_s, wait_s, out=wait_s)
    if any(own.commit_waits):
        np.add(wait_s, _floats(own.commit_waits)[:, np.newaxis], out=wait_s)
    limits = _buffered_limits(machine, own, cpu_s) if kind == _BULK else {}
    np.maximum(miss, combine, out=wmiss)
    np.subtract(combine, miss, out=checkpoint_share)
    np.maximum(checkpoint_share, 0.0, out=checkpoint_share)
    np.log(logged, out=logged)  # wmiss, checkpoint share, cpu_s, wait_s
    log_cpu, log_read, log_device, log_commit, log_flush = terms
    np.multiply(vectors.gamma[:n], log_parallel, out=log_cpu)
    np.subtract(log_cpu, cpu_s, out=log_cpu)
    np.subtract(log_concurrency, wait_s, out=log_read)
    np.add(terms[:2], log_per_second, out=terms[:2])
    for i, limit in limits.items():
        np.fmin(log_read[i], limit + log_per_second, out=log_read[i])
    # The device's log read and write capacities, each less its log miss, plus settings,
    # negated: -((a - b - m) + s) is (b - a + m) - s bit for bit (IEEE is symmetric in sign).
    np.subtract(log_reads, log_iops, out=device[0])
    np.subtract(log_writes, log_write_iops, out=device[1])
    np.add(device, space[8:10], out=device)
    np.subtract(device, settings, out=device)
    np.logaddexp(device[0], device[1], out=log_device)
    np.negative(log_device, out=log_device)
    commit = log_fsync + vectors.beta * log_group + _LOG_COMMIT_UNITS[kind]
    np.subtract(commit, log_syncs, out=log_commit)
    if own.no_syncs:
        log_commit[own.no_syncs] = np.inf
    np.add(log_icm, vectors.overdrive[:n], out=log_flush)
    np.subtract(log_flush, log_changes, out=log_flush)
    np.subtract(log_flush, checkpoint_share, out=log_flush)
    np.add(log_flush, log_per_second, out=log_flush)
    # -reads - -writes is writes - reads, bit for bit: IEEE arithmetic is symmetric in sign
    writes_over_reads: list[float] = (device[0, :, 0] - device[1, :, 0]).tolist()
    return writes_over_reads, commit_over_reads


def _buffered_limits(
    machine: Situation, own: _Configurations, cpu_s: FloatArray
) -> dict[int, FloatArray]:
    """model.buffered_insert_rate for the configurations whose inserts are buffered and miss
    the pool, by configuration: floats where the model has one value per situation."""
    limits = {}
    latency, concurrency = float(machine.read_latency_s), float(machine.concurrency)
    for i, (variant, miss) in enumerate(zip(own.variants, own.columns[7], strict=True)):
        if variant >= 2 or not miss > MISS_FLOOR:
            continue
        reads = _READS[_BULK] * miss
        wait = reads * latency / own.columns[2][i]
        per_merge = MERGED_ENTRIES_PER_POOL_SHARE * max(own.pools[i], MISS_FLOOR) / miss
        per_merge = max(per_merge, 1.0)
        absorbed = CHANGE_BUFFER_MERGE_SHARE * own.io_capacities[i] * per_merge / reads
        limits[i] = np.log((concurrency + absorbed * wait) / (cpu_s[i] + wait))
    return limits


def _write_combining(
    machine: Situation,
    by_redo: FloatArray,
    by_dirty: FloatArray,
    exp_redo: FloatArray,
    wide: bool,
) -> FloatArray:
    """model.write_combining, given its by_redo numerator and by_dirty; `wide` when no window
    can be small or NaN, so that its two np.where change nothing."""
    pages = float(machine.data_gb) * _PAGES_PER_GB
    window = np.divide(by_redo, exp_redo, out=by_redo)
    np.minimum(window, by_dirty, out=window)
    if machine.access == _SKEWED:
        np.divide(window, pages, out=window)
        dirtied = np.interp(np.minimum(window, _LAST_WINDOW), _SKEWED_WINDOWS, _SKEWED_DIRTIED)
        share = np.divide(dirtied, window, out=dirtied)
    else:  # -expm1(-u) / u as expm1(-u) / -u: IEEE division is exact in the signs
        np.divide(window, -pages, out=window)
        share = np.expm1(window)
        np.divide(share, window, out=share)
    if wide:
        return share
    skewed = machine.access == _SKEWED  # the window is u, else -u
    combining = window > _SMALL_WINDOW if skewed else window < -_SMALL_WINDOW
    share = np.where(combining, share, 1.0)
    return np.where(np.isfinite(window), share, 0.0)


def _configuration_terms(
    machine: Situation, configs: Sequence[ConfigRow], max_exp_redo: float
) -> _Configurations:
    """The configurations' terms, as capacities, data_pool_share, miss_rate and
    write_combining work them out, in plain floats (min and max as numpy's for numbers)."""
    (
        write_iops,
        pools,
        commit_syncs,
        io_factors,
        dirty_pcts,
        doublewrites,
        binlog_syncs,
        redo_mbs,
        io_capacity_maxes,
        change_buffers,
        io_capacities,
    ) = zip(*configs, strict=True)
    kind = KINDS.index(machine.kind)
    data_gb = float(machine.data_gb)
    pages = data_gb * _PAGES_PER_GB
    changes = bool(_WRITES[kind] > 0)  # the kind changes pages
    shares = []
    for pool, change_buffer in zip(pools, change_buffers, strict=True):
        share = pool
        if change_buffer > 0 and changes and pool < 1.0:  # data_pool_share
            held, data_left = _HELD_SHARE * pool, 2.0 * pool - 1.0
            share = data_left if data_left > held else held
        share = 0.0 if share < 0.0 else share
        shares.append(1.0 if share > 1.0 else share)
    miss = _miss(shares, machine.access, float(_RECENT_READS[kind]))
    fills = []
    for dirty_pct, pool in zip(dirty_pcts, pools, strict=True):
        fill = dirty_pct / 100.0 * pool * data_gb * MIB * 1024.0 / PAGE_BYTES / pages
        fills.append(1.0 if fill > 1.0 else fill)
    if machine.access == _SKEWED:
        windows = np.interp(fills, _SKEWED_DIRTIED, _SKEWED_WINDOWS).tolist()
        by_dirty = [pages * w if f < 1.0 else np.inf for f, w in zip(fills, windows, strict=True)]
    else:
        capped = [-(0.999999 if f > 0.999999 else f) for f in fills]
        kept = np.log1p(capped).tolist()
        by_dirty = [-pages * k if f < 1.0 else np.inf for f, k in zip(fills, kept, strict=True)]
    redo = [r * MIB for r in redo_mbs]
    # model.capacities: a kind that changes nothing syncs nothing at commit
    syncs = [(c + b) * changes for c, b in zip(commit_syncs, binlog_syncs, strict=True)]
    flushes = 1.0 + FLUSH_UNDER_WAY_SHARE * (1.0 - 1.0 / float(machine.concurrency))
    n = len(configs)
    # miss is one value per configuration: logged here, n logs, not n x vectors once spread
    # (11 logs for 517 in a recommendation's pass)
    logs = np.log(_floats([*io_factors, *write_iops, *io_capacity_maxes, *syncs, *miss])).tolist()
    log_per_second = _LOG_PER_SECOND[kind]
    smallest = [
        (d if d < r else r) / pages
        for r, d in zip((r / max_exp_redo for r in redo), by_dirty, strict=True)
    ]
    bulk = kind == _BULK
    return _Configurations(
        columns=[
            redo,
            by_dirty,
            list(io_factors),
            [v + log_per_second for v in logs[:n]],
            logs[n : 2 * n],
            logs[2 * n : 3 * n],
            logs[3 * n : 4 * n],
            miss,
            logs[4 * n :],
        ],
        variants=[
            2 * (bulk and cb == 0) + (dw > 0)
            for cb, dw in zip(change_buffers, doublewrites, strict=True)
        ],
        no_syncs=[i for i, s in enumerate(syncs) if not s > 0],
        commit_waits=[
            flushes * s * _UNITS_PER_COMMIT[kind] / machine.fsync_per_s for s in syncs
        ],  # model.commit_flushes' flushes a sync, the same operations in the same order
        pools=list(pools),
        io_capacities=list(io_capacities),
        wide=all(s > _SMALL_WINDOW for s in smallest) and all(d == d for d in by_dirty),
    )


def _floats(values: list[float]) -> FloatArray:
    """np.array(values) for Python floats, the same bits, through struct's native doubles: numpy
    works out each element's type first, ~360 instructions a float where struct takes ~90
    (callgrind; the workspace's 99 values cost 48k instructions through np.array)."""
    return np.frombuffer(struct.pack(f"{len(values)}d", *values))


def _miss(shares: list[float], access: float, recent: float) -> list[float]:
    """model.miss_rate of shares already clamped to [0, 1], with its `recent` reads."""
    if access == _SKEWED:
        hits = np.interp(shares, _NURAND_SHARES, _NURAND_STOCK_HITS).tolist()
        if recent:
            passes = np.interp(shares, _DIRTIED_SHARES, _DIRTIED_WINDOWS).tolist()
            hits = [
                h + recent * (1.0 if t > 1.0 else t) * (1.0 - h)
                for h, t in zip(hits, passes, strict=True)
            ]
        return [1.0 - h for h in hits]
    if access == _SPECIAL:
        hot = [s / SPECIAL_HOT_SHARE for s in shares]
        return [
            1.0
            - (SPECIAL_HOT_ACCESSES * (1.0 if h > 1.0 else h) + (1.0 - SPECIAL_HOT_ACCESSES) * s)
            for h, s in zip(hot, shares, strict=True)
        ]
    return [1.0 - s for s in shares]


def _unit_terms(
    vectors: _Vectors, variants: list[int], n: int
) -> tuple[FloatArray, FloatArray, FloatArray, FloatArray]:
    """log reads, reads, log changes and log writes per unit, configuration x vector."""
    first = variants[0]
    if variants.count(first) == n:
        return (
            vectors.log_reads[first >> 1][:n],
            vectors.reads[first >> 1][:n],
            vectors.log_changes[first >> 1][:n],
            vectors.log_writes[first][:n],
        )
    log_reads, reads, log_changes, log_writes = vectors.rows[:, variants]
    return log_reads, reads, log_changes, log_writes


def _vector_terms(
    params: FloatArray,
    kind: int,
    binlog: float,
    mysql_8: float,
    year: float,
    test: int,
    width: int,
) -> _Vectors:
    """model.capacities' per-vector terms for one kind, binary log, release line, year and
    sysbench update test."""
    n_kinds = len(KINDS)
    f = params[:, kind]
    e = params[:, n_kinds + kind]
    shared = dict(zip(SHARED, params[:, 2 * n_kinds :].T, strict=True))  # in LAYOUT's order
    dw_cost, beta, c = shared["dw_cost"], shared["beta"], shared["c"]
    era = shared["delta"] * (year - REFERENCE_YEAR)
    events = binlog * float(_WRITES[kind] > 0)  # model.capacities: no changes, no row events
    rows = np.empty((4, 4, len(params)))  # log reads, reads, log changes, log writes
    for buffered, unit in ((1, e), (0, np.zeros_like(e))):
        log_changes = _LOG_WRITES[kind] + _TEST_LOG_WRITES[test] + unit
        log_reads = _LOG_READS[kind] + _TEST_LOG_READS[test] + unit
        for doublewrite in (0, 1):
            variant = 2 * (1 - buffered) + doublewrite
            rows[0, variant] = log_reads
            rows[1, variant] = np.exp(log_reads)
            rows[2, variant] = log_changes
            rows[3, variant] = log_changes + np.log1p(float(doublewrite) * dw_cost)

    def spread(row: FloatArray) -> FloatArray:
        return np.repeat(row[np.newaxis, :], width, axis=0)

    exp_redo = np.exp(shared["redo_per_change"])
    with np.errstate(all="ignore"):
        return _Vectors(
            statement_s=spread(
                _STATEMENTS[kind]
                * _TEST_STATEMENTS[test]
                * np.exp(
                    shared["binlog_cpu"] * events + shared["mysql8_cpu"] * mysql_8 - c - f - era
                )
            ),
            read_cpu_s=spread(np.exp(-(shared["read_path"] + era))),
            exp_redo=spread(exp_redo),
            max_exp_redo=float(np.max(exp_redo)),
            overdrive=spread(shared["flush_overdrive"]),
            gamma=spread(shared["gamma"]),
            beta=beta[np.newaxis, :].copy(),
            log_reads=(spread(rows[0, 0]), spread(rows[0, 2])),
            reads=(spread(rows[1, 0]), spread(rows[1, 2])),
            log_changes=(spread(rows[2, 0]), spread(rows[2, 2])),
            log_writes=tuple(spread(rows[3, v]) for v in range(4)),
            rows=rows,
        )
