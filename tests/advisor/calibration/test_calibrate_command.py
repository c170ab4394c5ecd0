import io
import json

import pytest
from django.core.management import call_command

from advisor.models import CalibrationRun, Measurement

pytestmark = pytest.mark.django_db


def calibrate(*args):
    out = io.StringIO()
    call_command("calibrate", *args, stdout=out)
    return out.getvalue()


def test_json_is_one_object_with_the_reports_figures(artifact_dir):
    report = json.loads(calibrate("--json"))
    for key in ("coverage", "median_width_ratio", "points", "sources", "version", "artifact"):
        assert key in report
    assert report["points"] >= 100
    assert 0.0 <= report["coverage"] <= 1.0
    assert report["median_width_ratio"] > 1.0
    assert {"source", "points", "coverage", "median_abs_log_error"} <= set(report["per_source"][0])
    assert report["artifact"].startswith(str(artifact_dir))
    assert "table" not in report  # per-point rows live in the artifact and on the page


def test_it_records_the_run_and_writes_the_artifact(artifact_dir):
    report = json.loads(calibrate("--json"))
    run = CalibrationRun.objects.get()
    assert (run.version, run.trigger) == (report["version"], CalibrationRun.Trigger.COMMAND)
    assert run.points == report["points"]
    assert [p.name for p in artifact_dir.iterdir()] == [f"calibration-{run.version}.json"]


def test_the_readable_report_names_the_figures_and_every_source():
    text = calibrate()
    run = CalibrationRun.objects.get()
    assert f"Calibration {run.version}" in text
    assert "leave-one-source-out coverage of the 80% intervals" in text
    assert "median interval width (high/low)" in text
    assert f"{run.points} points from {run.sources} sources" in text
    for row in run.report["per_source"]:
        assert row["source"] in text
    widening = run.report["out_of_domain_widening"]
    assert f"outside the data's range: estimates {widening:.2f} times wider" in text


def test_approved_measurements_are_counted_in_the_report(make_measurement):
    before = json.loads(calibrate("--json"))["points"]
    make_measurement(status=Measurement.Status.APPROVED)
    make_measurement(status=Measurement.Status.PENDING)
    assert json.loads(calibrate("--json"))["points"] == before + 1


def test_it_prints_the_leave_one_lab_out_figures_beside_the_leave_one_source_out_ones():
    text = calibrate()
    report = CalibrationRun.objects.get().report["held_out"]
    assert "leave-one-lab-out" in text
    by_lab = report["by_lab"]
    for what in ("estimates", "gains"):
        row = by_lab[what]
        assert 0.0 <= row["coverage"] <= 1.0
        assert row["median_width_ratio"] > 1.0
        assert (
            f"coverage {row['coverage']:.3f}, median width ×{row['median_width_ratio']:.2f}" in text
        )
    assert {"Callaghan", "Percona", "Schwenke"} <= {row["lab"] for row in by_lab["per_lab"]}
    for row in by_lab["per_lab"]:
        assert row["lab"] in text
    assert report["by_source"]["estimates"]["coverage"] == CalibrationRun.objects.get().coverage


def test_json_has_the_held_out_figures_by_source_and_by_lab(artifact_dir):
    held_out = json.loads(calibrate("--json"))["held_out"]
    assert held_out["by_source"]["units"] > held_out["by_lab"]["units"] >= 5
    assert held_out["by_lab"]["estimates"]["count"] == held_out["by_source"]["estimates"]["count"]
