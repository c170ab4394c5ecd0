"""The throughput model: three capacities (CPU, random IO, commit syncs) and a smooth minimum.

For workload kind k, in the kind's reference unit per second (NOTPM per minute for oltp):

    cpu     = exp(c_k + delta*(year - 2026)) * min(concurrency, cores)**gamma
    io      = iops_mix / (exp(a_k) * miss(pool_to_data)) * io_factor * (dirty/90)**theta
    commit  = fsync_per_s * min(concurrency, 64)**beta * COMMIT_UNITS[k]   (trx_commit=1 only)
    T       = (cpu**-n + io**-n + commit**-n) ** (-1/n)

iops_mix weights random reads and writes by the kind's read share. The free parameters (c_k, a_k,
kappa, gamma, delta, beta, theta) are fitted in log space by calibration.fit.
"""

from dataclasses import dataclass

import numpy as np

from calibration.features import KINDS, FloatArray

SMOOTH_MIN_POWER = 3.0  # sharpness of the soft minimum between the three capacities
REFERENCE_YEAR = 2026
GROUP_COMMIT_CAP = 64.0  # commits sharing one sync stop growing past this many clients
# Share of a kind's random IOs that are reads (advisor-engineering-judgement: tpcc and web
# mixes read about as much as they write back; inserts and updates write more; lookups read).
READ_SHARE = {
    "oltp": 0.5,
    "read_write": 0.6,
    "update_heavy": 0.4,
    "bulk_insert": 0.4,
    "read_mostly": 0.95,
}
# Reference units per commit: a tpcc new order is ~45% of transactions, per minute (60 x 0.45);
# the sysbench kinds commit once per transaction; iibench commits 1000 rows per transaction.
COMMIT_UNITS = {
    "oltp": 27.0,
    "read_write": 1.0,
    "update_heavy": 1.0,
    "bulk_insert": 1000.0,
    "read_mostly": 1.0,
}
SHARED = ("kappa", "gamma", "delta", "beta", "theta")


@dataclass(frozen=True, slots=True)
class Layout:
    """Where each parameter lives in the flat vector the optimiser moves."""

    names: tuple[str, ...]

    @classmethod
    def default(cls) -> "Layout":
        per_kind = tuple(f"{p}_{k}" for p in ("c", "a") for k in KINDS)
        return cls(per_kind + SHARED)

    def index(self, name: str) -> int:
        return self.names.index(name)


LAYOUT = Layout.default()
_READ_SHARE = np.array([READ_SHARE[k] for k in KINDS])
_COMMIT_UNITS = np.array([COMMIT_UNITS[k] for k in KINDS])


def capacities(params: FloatArray, x: dict[str, FloatArray]) -> tuple[FloatArray, ...]:
    """(cpu, io_read, io_write, commit) capacities in log space, per situation.

    `params` is one parameter vector, or a matrix with one vector per row (the refits), in
    which case each capacity has one row per vector: effects are computed in one numpy pass.
    """
    p = np.atleast_2d(params)
    kind = x["kind"].astype(int)
    n_kinds = len(KINDS)
    c = p[:, :n_kinds][:, kind]
    a = p[:, n_kinds : 2 * n_kinds][:, kind]
    kappa, gamma, delta, beta, theta = (p[:, [i]] for i in range(2 * n_kinds, p.shape[1]))
    parallel = np.minimum(x["concurrency"], x["cores"])
    log_cpu = c + delta * (x["year"] - REFERENCE_YEAR) + gamma * np.log(parallel)
    share = _READ_SHARE[kind]
    settings = np.log(x["io_factor"]) + theta * np.log(x["dirty_pct"] / 90.0)
    demand = a + log_miss_rate(kappa, x["pool_to_data"])
    log_read = np.log(x["read_iops"] / share) - demand + settings
    log_write = np.log(x["write_iops"] / (1 - share)) - demand + settings
    group = np.minimum(x["concurrency"], GROUP_COMMIT_CAP)
    log_commit = np.log(x["fsync_per_s"]) + beta * np.log(group) + np.log(_COMMIT_UNITS[kind])
    log_commit = np.where(x["commit_syncs"] > 0, log_commit, np.inf)
    terms = (log_cpu, log_read, log_write, log_commit)
    if np.ndim(params) == 1:
        return tuple(np.asarray(t[0], dtype=np.float64) for t in terms)
    return tuple(np.asarray(t, dtype=np.float64) for t in terms)


def log_miss_rate(kappa: float | FloatArray, pool_to_data: FloatArray) -> FloatArray:
    """Share of page accesses that miss the pool: 1 with no pool, 0 once the data fits.

    exp(-kappa * h) decays as the pool covers more of a skewed working set; shifted and scaled
    so it reaches exactly 0 at h = 1, where the model stops being IO-bound.
    """
    floor = np.exp(-kappa)
    miss = (np.exp(-kappa * np.minimum(pool_to_data, 1.0)) - floor) / (1.0 - floor)
    with np.errstate(divide="ignore"):
        return np.asarray(np.log(np.maximum(miss, 0.0)), dtype=np.float64)


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
