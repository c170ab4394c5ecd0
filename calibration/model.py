"""The throughput model: CPU, page reads, page writes and commit syncs, and a smooth minimum.

For workload kind k, in the kind's reference unit (per minute for NOTPM, per second otherwise):

    cpu     = exp(c + f_k + delta*(year - 2026)) * min(concurrency, cores)**gamma
              / statements_k * per_second_k
    reads   = R_eff / (reads_k * e_k * miss)                    * per_second_k * settings
    writes  = W / (writes_k * e_k * wmiss * (1 + dw * dw_cost)) * per_second_k * settings
    commit  = fsync_per_s * min(concurrency, 64)**beta * COMMIT_UNITS[k]   (trx_commit=1 only)
    T       = (cpu**-n + reads**-n + writes**-n + commit**-n) ** (-1/n)

statements_k is one unit's CPU work in point selects, so every kind shares the one CPU capacity
c, scaled by f_k within bounds. reads_k and writes_k are the pages one unit of the reference
benchmark reads and dirties with nothing cached (calibration.benchmarks); e_k scales both within
physical bounds. miss is the share of page accesses that miss the pool: 1 - h for uniform keys,
sysbench 0.4's "special" draw, or a fitted hot set for tpcc's NURand, with h = min(pool / data,
1). Dirty pages are written back at least at the floor wmiss >= w0 (a page written is dirtied
again before its next write when the data fits). R_eff applies Little's law: c clients keep at
most c reads in flight, so R_eff = 1 / (1/R + latency / c); the read path's CPU cost caps reads
per thread too. Doublewrite (dw = 1) writes each page twice; the copy is sequential, so it costs
dw_cost of a random write. Free parameters (c, f_k, e_k, the hot set, w0, dw_cost, the read
path, gamma, delta, beta, theta) are fitted in log space by calibration.fit, each within
calibration.fit.BOUNDS.
"""

from dataclasses import dataclass

import numpy as np

from calibration.benchmarks import (
    ACCESS_CODES,
    BENCHMARKS,
    SPECIAL_HOT_ACCESSES,
    SPECIAL_HOT_SHARE,
)
from calibration.features import KINDS, FloatArray

SMOOTH_MIN_POWER = 3.0  # sharpness of the soft minimum between the capacities
REFERENCE_YEAR = 2026
GROUP_COMMIT_CAP = 64.0  # commits sharing one sync stop growing past this many clients
# Reference units per commit: a tpcc new order is ~45% of transactions, per minute (60 x 0.45,
# tpc-c-spec-5-11); the sysbench kinds commit once per transaction; iibench commits 1000 rows
# per transaction (iibench-py's default).
COMMIT_UNITS = {
    "oltp": 27.0,
    "read_write": 1.0,
    "update_heavy": 1.0,
    "bulk_insert": 1000.0,
    "read_mostly": 1.0,
}
SHARED = (
    "c",
    "skew",
    "log_w0",
    "dw_cost",
    "read_path",
    "binlog_cpu",
    "gamma",
    "delta",
    "beta",
    "theta",
)


@dataclass(frozen=True, slots=True)
class Layout:
    """Where each parameter lives in the flat vector the optimiser moves."""

    names: tuple[str, ...]

    @classmethod
    def default(cls) -> "Layout":
        per_kind = tuple(f"{p}_{k}" for p in ("f", "e") for k in KINDS)
        return cls(per_kind + SHARED)

    def index(self, name: str) -> int:
        return self.names.index(name)


LAYOUT = Layout.default()
assert set(BENCHMARKS) == set(KINDS)
_READS = np.array([BENCHMARKS[k].reads for k in KINDS])
_WRITES = np.array([BENCHMARKS[k].writes for k in KINDS])
_PER_SECOND = np.array([BENCHMARKS[k].per_second for k in KINDS])
_STATEMENTS = np.array([BENCHMARKS[k].statements for k in KINDS])
_COMMIT_UNITS = np.array([COMMIT_UNITS[k] for k in KINDS])


def capacities(params: FloatArray, x: dict[str, FloatArray]) -> tuple[FloatArray, ...]:
    """(cpu, reads, writes, commit) capacities in log space, per situation.

    `params` is one parameter vector, or a matrix with one vector per row (the refits), in
    which case each capacity has one row per vector: effects are computed in one numpy pass.
    """
    p = np.atleast_2d(params)
    kind = x["kind"].astype(int)
    n_kinds = len(KINDS)
    f = p[:, :n_kinds][:, kind]
    e = p[:, n_kinds : 2 * n_kinds][:, kind]
    c, skew, log_w0, dw_cost, read_path, binlog_cpu, gamma, delta, beta, theta = (
        p[:, [i]] for i in range(2 * n_kinds, p.shape[1])
    )
    parallel = np.minimum(x["concurrency"], x["cores"])
    era_threads = delta * (x["year"] - REFERENCE_YEAR) + gamma * np.log(parallel)
    log_cpu = c + f + era_threads - np.log(_STATEMENTS[kind]) + np.log(_PER_SECOND[kind])
    log_cpu = log_cpu - binlog_cpu * x["binlog"]  # writing row events costs CPU
    settings = np.log(x["io_factor"]) + np.log(_PER_SECOND[kind])
    miss = miss_rate(skew, x["pool_to_data"], x["access"])
    with np.errstate(divide="ignore"):
        log_miss = np.log(miss)
        log_wmiss = np.log(np.maximum(miss, np.exp(log_w0)))
        log_reads_per_unit = np.log(_READS[kind]) + e
        log_writes_per_unit = np.log(_WRITES[kind]) + e + np.log1p(x["doublewrite"] * dw_cost)
    in_flight = 1.0 / (1.0 / x["read_iops"] + x["read_latency_s"] / x["concurrency"])
    # The read path costs CPU too (checksum, LRU, page hash): read_path page reads per second
    # per thread at most, whatever the device does; the two combine as service times do.
    path = read_path + era_threads
    log_reads_per_s = -np.logaddexp(-np.log(in_flight), -path)
    log_read = log_reads_per_s - log_reads_per_unit - log_miss + settings
    log_write = (
        np.log(x["write_iops"])
        - log_writes_per_unit
        - log_wmiss
        + settings
        + theta * np.log(x["dirty_pct"] / 90.0)
    )
    group = np.minimum(x["concurrency"], GROUP_COMMIT_CAP)
    # Syncs per commit group: the redo log's (trx_commit=1) and, with sync_binlog=1, the binary
    # log's as well (mysql-manual-sync-binlog).
    syncs = x["commit_syncs"] + x["binlog_sync"]
    with np.errstate(divide="ignore"):
        log_syncs = np.log(syncs)
    log_commit = np.log(x["fsync_per_s"]) + beta * np.log(group) + np.log(_COMMIT_UNITS[kind])
    log_commit = np.where(syncs > 0, log_commit - log_syncs, np.inf)
    terms = tuple(np.broadcast_to(t, log_cpu.shape) for t in (log_cpu, log_read, log_write))
    terms = (*terms, np.broadcast_to(log_commit, log_cpu.shape))
    if np.ndim(params) == 1:
        return tuple(np.asarray(t[0], dtype=np.float64) for t in terms)
    return tuple(np.asarray(t, dtype=np.float64) for t in terms)


def miss_rate(skew: float | FloatArray, pool_to_data: FloatArray, access: FloatArray) -> FloatArray:
    """Share of page accesses that miss the pool: 1 with no pool, 0 once the data fits.

    Uniform keys hit in proportion to the share of pages cached (h). sysbench's "special" draw
    sends 75% of accesses to 1% of the rows, cached first. A skewed draw (tpcc's NURand) finds
    its hot pages cached first too, h**skew of its accesses hit, skew < 1 fitted.
    """
    share = np.minimum(np.maximum(pool_to_data, 0.0), 1.0)
    hot = SPECIAL_HOT_ACCESSES * np.minimum(share / SPECIAL_HOT_SHARE, 1.0)
    special = hot + (1.0 - SPECIAL_HOT_ACCESSES) * share
    kappa = np.broadcast_to(skew, np.broadcast_shapes(np.shape(skew), share.shape))
    floor = np.exp(-kappa)
    skewed = 1.0 - (np.exp(-kappa * share) - floor) / (1.0 - floor)
    hit = np.where(access == ACCESS_CODES["special"], special, share)
    hit = np.where(access == ACCESS_CODES["skewed"], skewed, hit)
    return np.asarray(1.0 - hit, dtype=np.float64)


def predict_log(params: FloatArray, x: dict[str, FloatArray]) -> FloatArray:
    """Natural log of the predicted throughput, in the kind's reference unit."""
    return _smooth_min(np.stack(capacities(params, x)))


def predict_with_bottleneck(
    params: FloatArray, x: dict[str, FloatArray]
) -> tuple[FloatArray, list[str]]:
    """The prediction and the binding capacity per situation, from one pass over the model."""
    terms = np.stack(capacities(params, x))
    return _smooth_min(terms), [BOTTLENECKS[i] for i in np.argmin(terms, axis=0)]


def _smooth_min(terms: FloatArray) -> FloatArray:
    return np.asarray(
        -np.log(np.sum(np.exp(-SMOOTH_MIN_POWER * terms), axis=0)) / SMOOTH_MIN_POWER,
        dtype=np.float64,
    )


BOTTLENECKS = ("CPU", "random reads", "page writes", "fsync/commit")
