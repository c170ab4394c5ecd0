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
from calibration.kind_cpu_cost import (
    AnchoredUnit,
    anchored_misses,
    anchored_units,
    kind_cost_offsets,
    priced_loads,
    with_kind_offset,
)
from calibration.points import load_points, used_points
from rules.engine import recommend
from rules.inputs.examples import (
    MEASURED_POINT_SELECTS,
    eight_core_read_write_measured_at_one_client_a_core,
    two_core_read_write,
)
from rules.inputs.validation import parse_profile

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


def test_the_shipped_loads_are_those_of_the_runs_that_set_the_shipped_offsets() -> None:
    units = anchored_units(POINTS, X, PARAMS)
    loads = priced_loads(units, CALIBRATION.cpu_cost_offsets)
    assert set(loads) == set(CALIBRATION.cpu_cost_offsets)
    for kind, (low, high) in loads.items():
        assert CALIBRATION.cpu_cost_loads[kind] == pytest.approx((low, high)), kind
    # none of the published machines ran more clients than cores
    assert all(high <= 1.0 for _, high in CALIBRATION.cpu_cost_loads.values())


def test_a_kinds_loads_span_its_point_selects_and_its_units_of_the_kinds_given_an_offset() -> None:
    units = [
        AnchoredUnit("read_write", "a", 0.1, (0.5, 0.25)),
        AnchoredUnit("read_write", "b", -0.1, (0.125, 0.75)),
        AnchoredUnit("oltp", "a", 0.3, (0.01, 4.0)),  # no offset: no range
    ]
    assert priced_loads(units, {"read_write": -0.1}) == {"read_write": (0.125, 0.75)}


def _interval(raw: dict, calibration=CALIBRATION):
    profile = parse_profile(raw)
    result = recommend(profile, estimator=CalibratedEstimator(calibration))
    assert result.estimate is not None
    return result.estimate


def test_a_measured_machine_beyond_the_load_its_kinds_price_was_seen_at_is_outside() -> None:
    """read_write's CPU price for a measured machine comes from published machines at no more
    clients than cores; 64 clients or a 64-thread measurement on 8 cores lie beyond it, and its
    estimates and gain are widened as those outside the data's range are."""
    high = CALIBRATION.cpu_cost_loads["read_write"][1]
    assert 64 / 8 > high * 1.25 >= 8 / 8
    inside = eight_core_read_write_measured_at_one_client_a_core(
        current={"variables": {"innodb_buffer_pool_size": 2**27}}
    )
    crowded_run = {**inside, "workload": {**inside["workload"], "concurrency": 64}}
    crowded_measure = {
        **inside,
        "hardware": {
            **inside["hardware"],
            "measured_cpu": {"point_select_qps": 80000, "threads": 64},
        },
    }
    within = _interval(inside)
    assert within.recommended.in_domain
    assert within.gain is not None
    assert within.gain.in_domain
    assert within.recommended.outside == within.gain.outside == ()
    low = CALIBRATION.cpu_cost_loads["read_write"][0]
    for name, raw, loads in (
        ("64 clients", crowded_run, "8, and the measured point selects' threads per core: 1"),
        (
            "64 threads measured",
            crowded_measure,
            "1, and the measured point selects' threads per core: 8",
        ),
    ):
        beyond = _interval(raw)
        assert not beyond.recommended.in_domain, name
        assert beyond.gain is not None
        assert not beyond.gain.in_domain, name
        # and says why, with this machine's loads and the published ones
        assert beyond.recommended.outside == beyond.gain.outside, name
        assert (
            f"clients per core: {loads}, where published machines priced "
            f"read_write's CPU against point selects at {low:.2g} to {high:.2g} per core"
        ) in beyond.recommended.outside, name
        # the same machine without the price's range: inside, the calibration's own width
        unchecked = _interval(raw, replace(CALIBRATION, cpu_cost_loads={}))
        assert unchecked.recommended.in_domain, name
        widened = math.log(beyond.recommended.high / beyond.recommended.low)
        own = math.log(unchecked.recommended.high / unchecked.recommended.low)
        assert widened == pytest.approx(own * CALIBRATION.out_of_domain_widening, rel=0.02), name


def test_an_artifact_without_loads_loads_with_none() -> None:
    data = CALIBRATION.to_json()
    assert data["cpu_cost_loads"] == {k: list(v) for k, v in CALIBRATION.cpu_cost_loads.items()}
    del data["cpu_cost_loads"]
    assert type(CALIBRATION).from_json(data).cpu_cost_loads == {}
