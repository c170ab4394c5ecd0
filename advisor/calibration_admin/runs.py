"""Calibration services: fit the model, record the run, review users' measurements.

The command, the Celery task and the admin all go through these functions (`<noun>_<verb>`,
keyword-only), so a fit is the same wherever it starts.
"""

import datetime
from collections.abc import Callable
from dataclasses import replace
from typing import TypeVar

from django.db import transaction
from django.utils import timezone

from advisor.models import CalibrationRun, Measurement
from calibration import artifact
from calibration.calibrate import run_calibration
from calibration.points import Point, load_points, used_points
from calibration.submissions import FioSample, fio_sample, point_from_submission

Converted = TypeVar("Converted")


class MeasurementUnusable(ValueError):
    """An approval refused: the measurement could not enter the fit as it stands."""


def calibration_points() -> tuple[tuple[Point, ...], list[dict[str, str]]]:
    """The shipped published points, then every approved benchmark submission; and the
    approved submissions that no longer convert (approved under older rules), with why."""
    submitted, skipped = _approved(Measurement.Kind.BENCHMARK, _point)  # type: ignore[arg-type]  # a str at runtime
    return (*load_points(), *submitted), skipped


def calibration_fio_samples() -> tuple[list[FioSample], list[dict[str, str]]]:
    """Approved fio submissions, which correct the device model before the fit."""
    return _approved(Measurement.Kind.FIO, _fio)  # type: ignore[arg-type]  # a str at runtime


def _approved(
    kind: str, convert: Callable[[Measurement], Converted]
) -> tuple[list[Converted], list[dict[str, str]]]:
    """Every approved measurement of `kind`, converted; the ones that no longer convert are
    listed with why, since one stale submission must not stop the fit."""
    approved = Measurement.objects.filter(kind=kind, status=Measurement.Status.APPROVED)
    converted: list[Converted] = []
    skipped: list[dict[str, str]] = []
    for measurement in approved.order_by("pk"):
        try:
            converted.append(convert(measurement))
        except ValueError as problem:
            skipped.append({"measurement": str(measurement.pk), "reason": str(problem)})
    return converted, skipped


def calibration_run_create(*, trigger: str) -> CalibrationRun:
    """Fit on the current points, write the versioned artifact, and record the run.

    The row and the file go together: the artifact is written inside the transaction, so a
    recorded run never names a missing file.
    """
    points, skipped = calibration_points()
    samples, skipped_fio = calibration_fio_samples()
    skipped += skipped_fio
    fitted = run_calibration(
        points, version=_version(len(used_points(points))), fio_samples=samples
    )
    calibration = replace(fitted, report={**fitted.report, "skipped_submissions": skipped})
    report = calibration.report
    with transaction.atomic():
        run = CalibrationRun(
            version=calibration.version,
            trigger=CalibrationRun.Trigger(trigger),
            points=report["points"],
            sources=report["sources"],
            coverage=report["coverage"],
            median_width_ratio=report["median_width_ratio"],
            report=report,
        )
        path = artifact.save(calibration)
        run.artifact = str(path)
        try:
            run.save()
        except Exception:
            path.unlink(missing_ok=True)  # the estimator must not load an unrecorded fit
            raise
    return run


def measurement_approve(*, measurement_id: int) -> Measurement:
    """Approve for the next fit; MeasurementUnusable when it could not enter it."""
    with transaction.atomic():
        measurement = Measurement.objects.select_for_update().get(pk=measurement_id)
        try:
            if measurement.kind == Measurement.Kind.BENCHMARK:
                _point(measurement)
            else:
                _fio(measurement)
        except ValueError as problem:
            raise MeasurementUnusable(f"measurement #{measurement_id}: {problem}") from None
        return _review(measurement, Measurement.Status.APPROVED)  # type: ignore[arg-type]  # a str at runtime


def measurement_reject(*, measurement_id: int) -> Measurement:
    """Reject: the measurement stays stored, shown to admins, and never enters a fit."""
    with transaction.atomic():
        measurement = Measurement.objects.select_for_update().get(pk=measurement_id)
        return _review(measurement, Measurement.Status.REJECTED)  # type: ignore[arg-type]  # a str at runtime


def _review(measurement: Measurement, status: str) -> Measurement:
    measurement.status = status
    measurement.reviewed_at = timezone.now()
    measurement.save(update_fields=["status", "reviewed_at"])
    return measurement


def _point(measurement: Measurement) -> Point:
    if measurement.value is None:
        raise ValueError("a benchmark measurement needs a value")
    return point_from_submission(
        id=str(measurement.pk),
        profile=measurement.profile,
        metric=measurement.metric,
        value=measurement.value,
        settings=measurement.server_settings or {},
        source=measurement.source,
        year=measurement.created_at.year,
    )


def _fio(measurement: Measurement) -> FioSample:
    return fio_sample(
        profile=measurement.profile,
        random_read_iops=measurement.random_read_iops,
        random_write_iops=measurement.random_write_iops,
    )


def _version(points: int) -> str:
    """`20261121.143000-105pts`: sorts by time. A taken second moves on to the next free one,
    so two fits in the same second still get distinct versions that keep their order."""
    moment = timezone.now().astimezone(datetime.UTC)
    while True:
        version = f"{moment:%Y%m%d.%H%M%S}-{points}pts"
        taken = CalibrationRun.objects.filter(version__startswith=f"{moment:%Y%m%d.%H%M%S}-")
        if not taken.exists() and not _artifact_taken(f"{moment:%Y%m%d.%H%M%S}-"):
            return version
        moment += datetime.timedelta(seconds=1)


def _artifact_taken(prefix: str) -> bool:
    folder = artifact.artifact_dir()
    return folder.is_dir() and any(folder.glob(f"{artifact.PREFIX}{prefix}*.json"))
