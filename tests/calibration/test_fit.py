import numpy as np
import pytest

from calibration.features import Situation, as_arrays
from calibration.fit import least_squares, prior_vector
from calibration.interval import centred_bounds, interval_weights
from calibration.model import predict_log


def test_centred_bounds_hold_the_central_share_of_residuals() -> None:
    residuals = np.linspace(-1, 1, 1001)
    low, high = centred_bounds(residuals)
    inside = np.mean((residuals >= low) & (residuals <= high))
    assert 0.8 <= inside <= 0.82


def test_source_weights_stop_one_big_source_setting_the_interval() -> None:
    residuals = np.array([0.0] * 20 + [1.0, -1.0, 1.2, -1.2])
    sources = ["big"] * 20 + ["a", "b", "c", "d"]
    plain = centred_bounds(residuals)
    weighted = centred_bounds(residuals, weights=interval_weights(sources))
    assert weighted[1] - weighted[0] > plain[1] - plain[0]


def test_least_squares_recovers_parameters_from_its_own_predictions() -> None:
    rng = np.random.default_rng(7)
    situations = [
        Situation(
            kind=kind,
            read_iops=float(r),
            write_iops=float(r) / 2,
            fsync_per_s=float(f),
            pool_to_data=float(h),
            cores=float(c),
            concurrency=float(q),
            commit_syncs=bool(s),
            io_factor=1.0,
            dirty_pct=90.0,
            year=float(y),
            read_latency_s=0.0001,
        )
        for kind, r, f, h, c, q, s, y in zip(
            rng.choice(["oltp", "update_heavy"], 80),
            rng.uniform(100, 100000, 80),
            rng.uniform(100, 9000, 80),
            rng.uniform(0.02, 1.5, 80),
            rng.integers(1, 64, 80),
            rng.integers(1, 256, 80),
            rng.integers(0, 2, 80),
            rng.integers(2009, 2027, 80),
            strict=True,
        )
    ]
    x = as_arrays(situations)
    truth = prior_vector()
    truth[0] += 0.4  # f_oltp
    y = predict_log(truth, x)
    fitted = least_squares(x, y, np.ones(len(y)), prior_vector())
    assert np.median(np.abs(predict_log(fitted, x) - y)) < 0.05


@pytest.mark.parametrize("level", [0.5, 0.8, 0.9])
def test_the_bounds_hold_about_the_asked_share_of_fresh_draws(level) -> None:
    rng = np.random.default_rng(1)
    low, high = centred_bounds(rng.normal(size=2000), level)
    fresh = rng.normal(size=20000)
    assert np.mean((fresh >= low) & (fresh <= high)) == pytest.approx(level, abs=0.03)
