"""Users' own measurements, submitted through the API and stored for review.

A submission is checked here with the same functions the fit uses (`calibration.submissions`),
so what an admin approves can always enter the fit; it is stored `pending` and the fit ignores
it until approved (advisor/calibration_admin/runs.py). Field errors name the submission's fields,
and the described machine's as `profile.<path>`.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from django.contrib.auth.models import AbstractBaseUser

from advisor.models import Measurement
from calibration.points import UNITS
from calibration.submissions import fio_sample, kept_submission_fields, point_from_submission
from rules.inputs.errors import ProfileError
from rules.inputs.validation import parse_profile


class MeasurementInvalid(ValueError):
    def __init__(self, errors: Mapping[str, list[str]]) -> None:
        self.errors = {path: list(messages) for path, messages in errors.items()}
        super().__init__("; ".join(f"{p}: {m}" for p, ms in self.errors.items() for m in ms))


@dataclass(frozen=True, slots=True)
class Submission:
    kind: str  # Measurement.Kind
    profile: Mapping[str, Any]
    metric: str = ""
    value: float | None = None
    random_read_iops: float | None = None
    random_write_iops: float | None = None
    server_settings: Mapping[str, Any] = field(default_factory=dict)
    source: str = ""
    notes: str = ""


def measurement_submit(
    *, submission: Submission, submitted_by: AbstractBaseUser | None
) -> Measurement:
    """Check and store a submission as pending; MeasurementInvalid names every problem."""
    metric = _check(submission)
    profile, server_settings = kept_submission_fields(
        submission.profile, submission.server_settings
    )
    return Measurement.objects.create(
        kind=submission.kind,
        profile=profile,
        metric=metric,
        value=submission.value,
        random_read_iops=submission.random_read_iops,
        random_write_iops=submission.random_write_iops,
        server_settings=server_settings,
        source=submission.source,
        notes=submission.notes,
        submitted_by=submitted_by,
    )


def _check(s: Submission) -> str:
    """The metric to store (the workload's unit when not given); raises MeasurementInvalid."""
    try:
        workload_kind = parse_profile(s.profile).workload.kind.value
    except ProfileError as problem:
        raise MeasurementInvalid(
            {f"profile.{path}" if path else "profile": m for path, m in problem.errors.items()}
        ) from None
    if s.kind == Measurement.Kind.FIO:  # type: ignore[comparison-overlap]  # a str at runtime
        return _check_fio(s)
    return _check_benchmark(s, UNITS[workload_kind])


def _check_fio(s: Submission) -> str:
    errors: dict[str, list[str]] = {}
    if s.random_read_iops is None and s.random_write_iops is None:
        errors["random_read_iops"] = ["give random_read_iops, random_write_iops or both"]
    for name in ("random_read_iops", "random_write_iops"):
        number = getattr(s, name)
        if number is not None and not (math.isfinite(number) and number > 0):
            errors[name] = ["must be a positive number"]
    if errors:
        raise MeasurementInvalid(errors)
    fio_sample(
        profile=s.profile,
        random_read_iops=s.random_read_iops,
        random_write_iops=s.random_write_iops,
    )
    return s.metric or "IOPS"


def _check_benchmark(s: Submission, unit: str) -> str:
    metric = s.metric.strip() or unit
    errors: dict[str, list[str]] = {}
    if metric.lower() != unit.lower():
        errors["metric"] = [f"this workload's result is measured in {unit}, not {metric}"]
    if s.value is None or not (math.isfinite(s.value) and s.value > 0):
        errors["value"] = ["a benchmark result needs a positive value"]
    if errors:
        raise MeasurementInvalid(errors)
    assert s.value is not None
    try:
        point_from_submission(
            id="check",
            profile=s.profile,
            metric=metric,
            value=s.value,
            settings=s.server_settings,
            source=s.source,
        )
    except ValueError as problem:  # what remains is the settings the result was measured with
        raise MeasurementInvalid({"server_settings": [str(problem)]}) from None
    return unit
