import numpy as np
import pytest

from calibration.features import Situation, as_arrays
from calibration.fit import prior_vector
from calibration.model import log_miss_rate, predict_log


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
    }
    return Situation(**{**base, **changes})


def predict(**changes) -> float:
    return float(np.exp(predict_log(prior_vector(), as_arrays([situation(**changes)]))[0]))


def test_the_miss_rate_falls_from_one_to_zero_as_the_pool_covers_the_data() -> None:
    rates = np.exp(log_miss_rate(4.0, np.array([0.0, 0.25, 0.5, 0.99, 1.0, 3.0])))
    assert rates[0] == pytest.approx(1.0)
    assert list(rates) == sorted(rates, reverse=True)
    assert rates[4] == 0.0
    assert rates[5] == 0.0


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
