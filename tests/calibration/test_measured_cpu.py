"""hardware.measured_cpu: the estimate takes the machine's CPU speed from its measured point
selects, reproduces that measurement, and moves with it the way a CPU's speed should."""

import math
from typing import Any

import numpy as np
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from calibration.artifact import load_latest
from calibration.estimator import CalibratedEstimator
from calibration.measured_cpu import (
    capacity_shifts,
    measured_run_logs,
    shifted,
)
from calibration.model import REFERENCE_YEAR
from rules.engine import recommend
from rules.inputs.examples import raw_profile
from rules.inputs.validation import parse_profile

CALIBRATION = load_latest()
assert CALIBRATION is not None, "the repository ships a calibration artifact"
ESTIMATOR = CalibratedEstimator(CALIBRATION)
VECTORS = np.vstack([np.array(CALIBRATION.params), list(CALIBRATION.loso_params.values())])
PROPERTIES = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
ROUNDING = 1.01  # bounds are rounded to three significant figures
KINDS = ["oltp", "read_write", "update_heavy", "bulk_insert", "read_mostly"]


@st.composite
def measured_profiles(draw: st.DrawFn) -> dict[str, Any]:
    flavor, version = draw(
        st.sampled_from([("mysql", "5.7.44"), ("mysql", "8.0.36"), ("mariadb", "10.11")])
    )
    return raw_profile(
        **{
            "server.flavor": flavor,
            "server.version": version,
            "hardware.ram_gb": draw(st.sampled_from([4, 32, 256])),
            "hardware.cpu_cores": draw(st.sampled_from([1, 2, 8, 64])),
            "hardware.measured_cpu": {
                "point_select_qps": draw(st.floats(100, 2e6)),
                "threads": draw(st.sampled_from([1, 4, 16, 256])),
            },
            "hardware.storage": {"media": "nvme", "device_count": 1, "raid_level": "none"},
            "workload.kind": draw(st.sampled_from(KINDS)),
            "workload.data_size_gb": draw(st.sampled_from([1, 50, 2000])),
            "workload.concurrency": draw(st.sampled_from([1, 16, 512])),
            "workload.durability": draw(st.sampled_from(["full", "relaxed"])),
        }
    )


@PROPERTIES
@given(measured_profiles())
def test_the_model_reproduces_the_measured_run_under_every_vector(raw) -> None:
    """The closed form holds: after the shift, the measured run's estimate is the measurement,
    for the fitted vector and each refit alike."""
    profile = parse_profile(raw)
    shifts = capacity_shifts(profile, VECTORS, year=REFERENCE_YEAR, corrections=None)
    moved = shifted(VECTORS, shifts)
    logs = measured_run_logs(profile, moved, year=REFERENCE_YEAR, corrections=None)
    measured = math.log(raw["hardware"]["measured_cpu"]["point_select_qps"])
    assert np.allclose(logs, measured, rtol=0, atol=1e-9)


def _estimate(raw: dict[str, Any], qps: float | None) -> tuple[float, float]:
    hardware = {k: v for k, v in raw["hardware"].items() if k != "measured_cpu"}
    if qps is not None:
        threads = raw["hardware"]["measured_cpu"]["threads"]
        hardware["measured_cpu"] = {"point_select_qps": qps, "threads": threads}
    result = recommend(parse_profile({**raw, "hardware": hardware}), estimator=ESTIMATOR)
    assert result.estimate is not None
    return result.estimate.recommended.low, result.estimate.recommended.high


@PROPERTIES
@given(measured_profiles(), st.floats(1.05, 20))
def test_a_faster_measured_cpu_never_lowers_the_estimate(raw, factor) -> None:
    """The interval's middle, as the other invariants (tests/calibration/test_estimator.py):
    its ends also follow the binding capacity's group, whose width differs."""
    qps = raw["hardware"]["measured_cpu"]["point_select_qps"]
    slow, fast = _estimate(raw, qps), _estimate(raw, qps * factor)
    assert math.sqrt(fast[0] * fast[1]) * ROUNDING >= math.sqrt(slow[0] * slow[1])


def test_a_cpu_bound_estimate_scales_with_the_measured_speed() -> None:
    """Cached and CPU-bound, a unit is statements only: twice the point selects, twice the
    transactions."""
    raw = raw_profile(
        **{
            "hardware.ram_gb": 256,
            "hardware.measured_cpu": {"point_select_qps": 40_000, "threads": 16},
            "workload.kind": "read_write",
            "workload.data_size_gb": 10,
            "workload.durability": "relaxed",
        }
    )
    low, high = _estimate(raw, 40_000)
    low2, high2 = _estimate(raw, 80_000)
    assert math.isclose(math.sqrt(low2 * high2) / math.sqrt(low * high), 2.0, rel_tol=0.02)


def test_an_uncached_cpu_bound_estimate_scales_with_the_measured_speed_too() -> None:
    """Reading pages costs the same core's time: with 200 GB over a 4 GB machine, each
    transaction misses pages, and twice the point selects still give twice the transactions
    (with the read path at its fitted cost, x1.57)."""
    raw = raw_profile(
        **{
            "hardware.ram_gb": 4,
            "hardware.cpu_cores": 2,
            "hardware.measured_cpu": {"point_select_qps": 20_000, "threads": 16},
            "hardware.storage": {"media": "nvme", "device_count": 4, "raid_level": "raid10"},
            "workload.kind": "read_write",
            "workload.data_size_gb": 200,
            "workload.concurrency": 16,
            "workload.durability": "relaxed",
        }
    )
    profile = parse_profile(raw)
    result = recommend(profile, estimator=ESTIMATOR)
    assert result.estimate is not None
    assert result.estimate.recommended.bottleneck == "CPU"
    low, high = _estimate(raw, 20_000)
    low2, high2 = _estimate(raw, 40_000)
    assert math.isclose(math.sqrt(low2 * high2) / math.sqrt(low * high), 2.0, rel_tol=0.02)


def test_a_slow_virtual_cpu_lowers_the_estimate_from_the_years_typical_core() -> None:
    """The year's typical core runs a cached point select in about 21 us (the fitted c); a
    machine that measured a tenth of that speed is estimated lower than one that said nothing."""
    raw = raw_profile(**{"hardware.measured_cpu": {"point_select_qps": 1_000, "threads": 64}})
    assert _estimate(raw, 1_000)[1] < _estimate(raw, None)[0]


def test_measuring_what_the_model_assumes_changes_no_estimate() -> None:
    """A measurement equal to the fitted model's own rate for that run shifts nothing: the
    estimate is the one a profile without it gets."""
    raw = raw_profile(
        **{
            "hardware.ram_gb": 256,
            "hardware.measured_cpu": {"point_select_qps": 1.0, "threads": 16},
            "workload.data_size_gb": 10,  # cached: the CPU binds, so its speed shows
        }
    )
    profile = parse_profile(raw)
    logs = measured_run_logs(profile, VECTORS, year=REFERENCE_YEAR, corrections=None)
    assumed = math.exp(logs[0])  # the fitted vector's rate
    assert _estimate(raw, assumed) == _estimate(raw, None)
    assert _estimate(raw, assumed * 1.5) != _estimate(raw, None)
