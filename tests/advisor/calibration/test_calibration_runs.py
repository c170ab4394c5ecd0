import json
import re
import time

import pytest

from advisor.calibration_admin.runs import (
    MeasurementUnusable,
    calibration_points,
    calibration_run_create,
    measurement_approve,
    measurement_reject,
)
from advisor.models import CalibrationRun, Measurement
from calibration import artifact
from calibration.points import load_points, used_points

pytestmark = pytest.mark.django_db
SHIPPED = len(used_points(load_points()))


def test_a_run_fits_the_shipped_points_and_records_itself(artifact_dir):
    run = calibration_run_create(trigger="command")
    assert run.pk is not None
    assert run.trigger == CalibrationRun.Trigger.COMMAND
    assert run.points == SHIPPED == run.report["points"]
    assert run.sources == run.report["sources"]
    assert run.coverage == run.report["coverage"]
    assert run.median_width_ratio == run.report["median_width_ratio"]
    assert re.fullmatch(rf"\d{{8}}\.\d{{6}}-{SHIPPED}pts", run.version)


def test_a_run_writes_the_artifact_the_estimator_loads(artifact_dir):
    run = calibration_run_create(trigger="task")
    assert run.artifact == str(artifact_dir / f"calibration-{run.version}.json")
    assert artifact.latest_path() == artifact_dir / f"calibration-{run.version}.json"
    loaded = artifact.load_latest()
    assert loaded.version == run.version
    assert json.loads((artifact_dir / f"calibration-{run.version}.json").read_text())


def test_two_runs_in_the_same_second_get_distinct_versions_in_order():
    first = calibration_run_create(trigger="command")
    second = calibration_run_create(trigger="command")
    assert first.version < second.version
    assert artifact.load_latest().version == second.version


def test_an_approved_benchmark_measurement_enters_the_fit(make_measurement):
    measurement = make_measurement()
    measurement_approve(measurement_id=measurement.pk)
    run = calibration_run_create(trigger="command")
    assert run.points == SHIPPED + 1
    assert run.sources == len({p.source for p in used_points(load_points())}) + 1
    table = {row["source"]: row for row in run.report["table"]}
    assert table[f"user-submission-{measurement.pk}"]["published"] == 2400.0
    assert run.version.endswith(f"-{SHIPPED + 1}pts")


@pytest.mark.parametrize("status", [Measurement.Status.PENDING, Measurement.Status.REJECTED])
def test_pending_and_rejected_measurements_stay_out_of_the_fit(make_measurement, status):
    make_measurement(status=status)
    assert calibration_run_create(trigger="command").points == SHIPPED


def test_approved_fio_measurements_are_not_benchmark_points(make_measurement):
    make_measurement(
        kind=Measurement.Kind.FIO,
        metric="",
        value=None,
        random_read_iops=400.0,
        random_write_iops=380.0,
        status=Measurement.Status.APPROVED,
    )
    points, skipped = calibration_points()
    assert len(used_points(points)) == SHIPPED
    assert skipped == []


def test_an_approved_measurement_that_no_longer_converts_is_reported_not_fatal(
    make_measurement,
):
    stale = make_measurement(metric="tpmC", status=Measurement.Status.APPROVED)
    run = calibration_run_create(trigger="command")
    assert run.points == SHIPPED
    assert run.report["skipped_submissions"] == [
        {"measurement": str(stale.pk), "reason": "a oltp result is measured in NOTPM, not 'tpmC'"}
    ]


def test_approving_marks_the_measurement_reviewed(make_measurement):
    measurement = measurement_approve(measurement_id=make_measurement().pk)
    measurement.refresh_from_db()
    assert measurement.status == Measurement.Status.APPROVED
    assert measurement.reviewed_at is not None


@pytest.mark.parametrize(
    "fields",
    [
        {"metric": "queries/s"},
        {"value": None},
        {"profile": {"server": {"flavor": "mysql"}}},
        {"kind": Measurement.Kind.FIO, "random_read_iops": None, "random_write_iops": None},
    ],
)
def test_a_measurement_that_cannot_enter_the_fit_is_not_approved(make_measurement, fields):
    measurement = make_measurement(**fields)
    with pytest.raises(MeasurementUnusable, match=f"measurement #{measurement.pk}"):
        measurement_approve(measurement_id=measurement.pk)
    measurement.refresh_from_db()
    assert measurement.status == Measurement.Status.PENDING
    assert measurement.reviewed_at is None


def test_rejecting_keeps_the_measurement_and_marks_it_reviewed(make_measurement):
    measurement = measurement_reject(measurement_id=make_measurement().pk)
    measurement.refresh_from_db()
    assert measurement.status == Measurement.Status.REJECTED
    assert measurement.reviewed_at is not None


def test_reviewing_an_unknown_measurement_raises_does_not_exist():
    with pytest.raises(Measurement.DoesNotExist):
        measurement_reject(measurement_id=987654)


def test_another_process_s_artifact_is_seen_within_a_second(artifact_dir):
    """The folder is listed at most once a second: a file another worker's fit writes is
    picked up on the first look after that; this process's own fit is seen at once."""
    first = calibration_run_create(trigger="command")
    assert artifact.load_latest().version == first.version
    data = json.loads((artifact_dir / f"calibration-{first.version}.json").read_text())
    newer = f"{first.version[:8]}.999999-{SHIPPED}pts"
    data["version"] = newer
    (artifact_dir / f"calibration-{newer}.json").write_text(json.dumps(data))
    assert artifact.load_latest().version == first.version  # not looked for yet
    time.sleep(artifact.RECHECK_SECONDS + 0.05)
    assert artifact.load_latest().version == newer
