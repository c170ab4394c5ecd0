"""The one place where the faces (wizard, API, CLI) reach the engine and the model.

Functions are named `<noun>_<verb>` and take keyword-only arguments (HackSoftware style).
"""

from django.db import transaction

from advisor.models import Recommendation
from calibration.artifact import load_latest
from calibration.estimator import CalibratedEstimator
from rules.engine import recommend
from rules.profile import Profile
from rules.render.jsonout import result_from_dict, result_to_dict
from rules.result import Result


def estimator_current() -> CalibratedEstimator | None:
    """The estimator of the newest calibration artifact, or None before the first fit."""
    calibration = load_latest()
    return CalibratedEstimator(calibration) if calibration is not None else None


def recommendation_compute(*, profile: Profile) -> Result:
    """Compute a result without storing it."""
    return recommend(profile, estimator=estimator_current())


def recommendation_create(*, profile: Profile) -> Result:
    """Compute and store a result; identical inputs map to the same stored row (content id)."""
    result = recommendation_compute(profile=profile)
    with transaction.atomic():
        Recommendation.objects.get_or_create(
            id=result.id,
            defaults={
                "profile": result.inputs,
                "result": result_to_dict(result),
                "ruleset_version": result.ruleset_version,
                "calibration_version": result.calibration_version or "",
            },
        )
    return result


def recommendation_get(*, recommendation_id: str) -> Result:
    """The stored result exactly as it was computed, even if the rules changed since.

    Raises Recommendation.DoesNotExist for an unknown id.
    """
    stored = Recommendation.objects.get(id=recommendation_id)
    return result_from_dict(stored.result)
