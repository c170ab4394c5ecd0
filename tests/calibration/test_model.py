import numpy as np
import pytest

from calibration.benchmarks import ACCESS_CODES, BENCHMARKS
from calibration.features import Situation, as_arrays
from calibration.fit import BOUNDS, prior_vector
from calibration.model import LAYOUT, capacities, miss_rate, predict_log


def situation(**changes) -> Situation:
    base = {
        "kind": "oltp",
        "read_iops": 1600.0,
        "write_iops": 1440.0,
        "fsync_per_s": 5000.0,
        "pool_to_data": 0.25,
        "cores": 16.0,
        "concurrency": 64.0,
        "commit_syncs": True,
        "io_factor": 1.0,
        "dirty_pct": 90.0,
        "year": 2026.0,
        "read_latency_s": 0.005,
        "access": ACCESS_CODES["skewed"],
        "doublewrite": True,
    }
    return Situation(**{**base, **changes})


def predict(**changes) -> float:
    return float(np.exp(predict_log(prior_vector(), as_arrays([situation(**changes)]))[0]))


def read_capacity(**changes) -> float:
    return float(np.exp(capacities(prior_vector(), as_arrays([situation(**changes)]))[1][0]))


@pytest.mark.parametrize("access", ACCESS_CODES)
def test_the_miss_rate_falls_from_one_to_zero_as_the_pool_covers_the_data(access) -> None:
    shares = np.array([0.0, 0.005, 0.25, 0.5, 0.99, 1.0, 3.0])
    rates = miss_rate(0.5, shares, np.full(len(shares), ACCESS_CODES[access]))
    assert rates[0] == pytest.approx(1.0)
    assert list(rates) == sorted(rates, reverse=True)
    assert rates[5] == 0.0
    assert rates[6] == 0.0


def test_a_hot_set_misses_less_than_uniform_keys_for_the_same_pool() -> None:
    share = np.array([0.1])
    uniform, special, skewed = (
        float(miss_rate(0.5, share, np.array([ACCESS_CODES[a]]))[0])
        for a in ("uniform", "special", "skewed")
    )
    assert uniform == pytest.approx(0.9)
    assert special == pytest.approx(1 - (0.75 + 0.25 * 0.1))  # sysbench 0.4's 1%/75% draw
    assert skewed < uniform


@pytest.mark.parametrize(
    ("field", "low", "high"),
    [
        ("read_iops", 200.0, 20000.0),
        ("write_iops", 200.0, 20000.0),
        ("fsync_per_s", 120.0, 9000.0),
        ("pool_to_data", 0.05, 0.9),
        ("cores", 2.0, 32.0),
    ],
)
def test_more_capacity_never_lowers_the_prediction(field, low, high) -> None:
    assert predict(**{field: high}) >= predict(**{field: low})


def test_commit_syncs_cost_throughput_only_when_they_happen() -> None:
    assert predict(commit_syncs=False, fsync_per_s=100.0) > predict(fsync_per_s=100.0)


def test_a_slower_scheduler_lowers_the_io_bound_prediction() -> None:
    assert predict(io_factor=0.43) < predict(io_factor=1.0)


def test_doublewrite_on_never_raises_the_prediction() -> None:
    for pool in (0.02, 0.3, 0.9):
        assert predict(doublewrite=True, pool_to_data=pool) <= predict(
            doublewrite=False, pool_to_data=pool
        )


def test_few_clients_cannot_use_a_deep_device() -> None:
    """Little's law: one client waiting 5 ms per read gets at most 200 reads/s from an array
    that serves 1,600; 64 clients get nearly all of it."""
    one = read_capacity(concurrency=1.0)
    many = read_capacity(concurrency=64.0)
    assert many / one > 4
    kind = BENCHMARKS["oltp"]
    assert one <= 200.0 / kind.reads * kind.per_second / 0.1  # even at a tenth of the misses


def test_every_parameter_starts_inside_its_physical_bounds() -> None:
    prior = prior_vector()
    for name, (low, high) in BOUNDS.items():
        assert low <= prior[LAYOUT.index(name)] <= high, name
