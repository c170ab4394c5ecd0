"""Estimates anchored on this host's own measurements: a real lab run, and a measured rate
outside the model's interval."""

import pytest

from calibration.artifact import load_latest
from calibration.estimator import CalibratedEstimator
from rules.engine import recommend
from rules.estimate.anchor import measured_anchor
from rules.inputs.validation import parse_profile
from rules.output.result import Estimate, Estimates
from tests.rules.lab_runs import FIELD, lab_profile, lab_records

ESTIMATOR = CalibratedEstimator(load_latest())


def estimates_for(raw: dict) -> Estimates:
    estimates = recommend(parse_profile(raw), estimator=ESTIMATOR).estimate
    assert estimates is not None
    return estimates


def test_a_real_lab_run_anchors_the_estimate_and_says_so() -> None:
    records = lab_records()
    estimates = estimates_for(lab_profile(**{FIELD: records}))
    anchor = estimates.anchor
    assert anchor is not None
    assert (anchor.source, anchor.runs, anchor.configurations) == ("lab_results", 4, 2)
    assert anchor.note.startswith("Anchored to 4 lab runs of 2 configurations on this host.")
    # Configuration A is the server's defaults, which the profile runs today (no `current`):
    # the current estimate is its two runs, 351.83 and 401.47 transactions/s.
    assert anchor.measured == ("current",)
    assert estimates.current is not None
    assert (estimates.current.low, estimates.current.high) == (352.0, 401.0)
    assert estimates.current.interval == pytest.approx(1 / 3, abs=0.01)
    # The recommendation was not run: today's runs times the model's gain.
    gain = estimates.gain
    assert gain is not None
    centre = (351.83 * 401.47) ** 0.5
    assert estimates.recommended.low == pytest.approx(centre * gain.low, rel=0.01)


def test_the_real_lab_run_lies_outside_the_model_and_the_result_says_so() -> None:
    """On this host (a virtual disk the probe takes for one spinning disk) the model expects
    7 to 42 transactions/s of the defaults, which ran 352 to 401: 22x; and 1,350 to 8,090 of
    configuration B, which ran 577 to 615: 0.18x. Neither its absolute figure nor its gain
    describes this host, and the note says both."""
    anchor = estimates_for(lab_profile(**{FIELD: lab_records()})).anchor
    assert anchor is not None
    assert anchor.outside_model
    assert anchor.host_factor_low < 0.5 < 10 < anchor.host_factor_high
    assert "the model's absolute figures do not describe it" in anchor.note
    assert "Nor does the model's gain" in anchor.note


def test_a_measured_recommended_configuration_is_its_own_estimate() -> None:
    profile = parse_profile(lab_profile())
    result = recommend(profile, estimator=ESTIMATOR)
    ours = {s.name: str(s.value) for s in result.settings}
    runs = [
        {"configuration": ours, "throughput": 900},
        {"configuration": ours, "throughput": 1000},
        {"configuration": ours, "throughput": 1100},
    ]
    estimates = estimates_for(lab_profile(**{FIELD: runs}))
    assert estimates.anchor is not None
    assert estimates.anchor.measured == ("recommended",)
    assert (estimates.recommended.low, estimates.recommended.high) == (900.0, 1100.0)
    assert estimates.recommended.interval == 0.5  # (3 - 1) / (3 + 1)


def test_an_unmeasured_configuration_is_the_model_times_the_host_factor() -> None:
    runs = [{"configuration": {"innodb_io_capacity": "777"}, "throughput": 500}]
    anchored = estimates_for(lab_profile(**{FIELD: runs}))
    anchor = anchored.anchor
    assert anchor is not None
    assert anchor.measured == ()
    plain = estimates_for(lab_profile())
    ratio = anchored.recommended.low / plain.recommended.low
    assert ratio == pytest.approx(anchor.host_factor, rel=0.02)


MODEL = Estimate("transactions/s", 100.0, 400.0, 0.8, "random reads", True)


@pytest.mark.parametrize(
    ("measured", "outside", "said"),
    [
        (
            640.0,
            True,
            "Your server does 3.2x what the model expects for this machine: the "
            "model's absolute figures do not describe it; the gain still does.",
        ),
        (50.0, True, "Your server does 0.25x what the model expects"),
        (250.0, False, "inside the model's interval"),
    ],
)
def test_a_measurement_outside_the_models_interval_is_said(
    measured: float, outside: bool, said: str
) -> None:
    anchor = measured_anchor(MODEL, measured)
    assert anchor.outside_model is outside
    assert said in anchor.note
    assert anchor.host_factor == pytest.approx(measured / 200.0, rel=0.01)


def test_measured_throughput_reports_its_anchor_in_the_result() -> None:
    estimates = estimates_for(lab_profile(**{"workload.measured_throughput": 376}))
    assert estimates.anchor is not None
    assert estimates.anchor.source == "measured_throughput"
    assert estimates.anchor.outside_model
    assert estimates.anchor.note.startswith("Your server does 22x what the model expects")
