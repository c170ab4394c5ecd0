"""calibration.kind_cpu_cost: a machine that measured its point selects gets its kind's CPU per
unit from the published machines that ran both, not from the fit's f_k alone."""

import math
import statistics
from dataclasses import replace

import numpy as np
import pytest

from calibration.artifact import load_latest
from calibration.estimator import CalibratedEstimator
from calibration.features import as_arrays, situation_of_point
from calibration.kind_cpu_cost import anchored_misses, kind_cost_offsets, with_kind_offset
from calibration.points import load_points, used_points
from rules.engine import recommend
from rules.validation import parse_profile
from tests.rules.profiles import MEASURED_POINT_SELECTS, two_core_read_write

CALIBRATION = load_latest()
assert CALIBRATION is not None, "the repository ships a calibration artifact"
POINTS = used_points(load_points())
X = as_arrays([situation_of_point(p, CALIBRATION.device_corrections) for p in POINTS])
PARAMS = np.array(CALIBRATION.params)
ROUNDING = 1.01  # bounds are rounded to three significant figures


def median_of_sources(by_source: dict[str, list[float]]) -> float:
    return statistics.median(statistics.median(m) for m in by_source.values())


def test_the_shipped_offsets_are_those_of_the_shipped_fit_and_data() -> None:
    offsets = kind_cost_offsets(anchored_misses(POINTS, X, PARAMS))
    assert "read_write" in offsets  # six sources ran cached point selects and oltp_read_write
    assert CALIBRATION.cpu_cost_offsets == pytest.approx(offsets)


def test_a_kinds_offset_centres_the_misses_of_its_sources() -> None:
    misses = anchored_misses(POINTS, X, PARAMS)
    for kind, offset in kind_cost_offsets(misses).items():
        moved = with_kind_offset(PARAMS[None, :].copy(), kind, offset)[0]
        after = median_of_sources(anchored_misses(POINTS, X, moved)[kind])
        assert abs(after) < max(abs(offset) / 2, 0.005), kind


def test_the_offset_is_the_median_of_the_sources_medians_shown_by_three_sources() -> None:
    misses = {
        "oltp": {"a": [0.5], "b": [0.5]},  # two sources: no offset
        "read_write": {"a": [-0.2], "b": [-0.1, -0.3], "c": [0.3, -0.1, -0.4]},
    }
    # a 10-point source counts once, as a 1-point one does
    misses["read_write"]["d"] = [0.9] * 10
    assert kind_cost_offsets(misses) == {"read_write": pytest.approx(-0.15)}


def _measured_read_write() -> dict:
    return two_core_read_write(**{"hardware.measured_cpu": MEASURED_POINT_SELECTS})


def test_a_measured_cpu_bound_estimate_moves_by_its_kinds_offset() -> None:
    offset = CALIBRATION.cpu_cost_offsets["read_write"]
    profile = parse_profile(_measured_read_write())
    config = {s.name: s.value for s in recommend(profile).settings}
    with_offset = CalibratedEstimator(CALIBRATION).estimate(profile, config)
    plain = CalibratedEstimator(replace(CALIBRATION, cpu_cost_offsets={})).estimate(profile, config)
    assert with_offset.bottleneck == plain.bottleneck == "CPU"
    moved = math.log(with_offset.low / plain.low)
    assert abs(moved - offset) < math.log(ROUNDING) * 2


def test_without_a_measurement_the_offset_is_not_used() -> None:
    raw = _measured_read_write()
    del raw["hardware"]["measured_cpu"]
    profile = parse_profile(raw)
    config = {s.name: s.value for s in recommend(profile).settings}
    plain = CalibratedEstimator(replace(CALIBRATION, cpu_cost_offsets={})).estimate(profile, config)
    assert CalibratedEstimator(CALIBRATION).estimate(profile, config) == plain


def test_an_artifact_without_offsets_loads_with_none() -> None:
    data = CALIBRATION.to_json()
    assert data["cpu_cost_offsets"] == CALIBRATION.cpu_cost_offsets
    del data["cpu_cost_offsets"]
    assert type(CALIBRATION).from_json(data).cpu_cost_offsets == {}
