"""The one place where the faces (wizard, API, CLI) reach the engine and the model.

Functions are named `<noun>_<verb>` and take keyword-only arguments (HackSoftware style).
"""

from collections.abc import Iterable, Mapping
from typing import Any

from advisor.models import Recommendation
from advisor.row_insert import insert_rows, store_row
from calibration.artifact import load_latest
from calibration.estimator import CalibratedEstimator
from rules.check import NEEDS_CURRENT, CheckReport, check
from rules.engine import recommend
from rules.inputs.errors import OutdatedProfile
from rules.inputs.profile import Profile
from rules.output.jsonshape import Shape
from rules.output.jsonwrite import to_json
from rules.output.result import Result
from rules.render.jsonout import RESULT_JSON, result_from_dict
from rules.render.mycnf import permalink_url
from rules.render.rds import with_rds_parameters

_ESTIMATORS: dict[str, CalibratedEstimator] = {}


def estimator_current() -> CalibratedEstimator | None:
    """The estimator of the newest calibration artifact, or None before the first fit.

    One estimator per calibration version, so its derived tables are built once, not per request.
    """
    calibration = load_latest()
    if calibration is None:
        return None
    estimator = _ESTIMATORS.get(calibration.version)
    if estimator is None:
        estimator = _ESTIMATORS[calibration.version] = CalibratedEstimator(calibration)
    return estimator


def recommendation_compute(
    *, profile: Profile, rds_parameters: object = None, rds_field: str = "rds_parameters"
) -> Result:
    """Compute a result without storing it. `rds_parameters`: the user's decoded
    `aws rds describe-engine-default-parameters` output, kept with the result for its RDS
    exports (it gives the result another id); ProfileError under `rds_field` when it is not."""
    result = recommend(profile, estimator=estimator_current())
    if rds_parameters is None:
        return result
    return with_rds_parameters(result, rds_parameters, field_path=rds_field)


def recommendation_create(*, profile: Profile) -> Result:
    """Compute and store a result; identical inputs map to the same stored row (content id)."""
    result = recommendation_compute(profile=profile)
    recommendation_store(result=result)
    return result


def recommendation_store(*, result: Result, result_json: Mapping[str, Any] | None = None) -> None:
    """Store a computed result: one INSERT ... ON CONFLICT DO NOTHING in autocommit, one round
    trip (`store_row`: not even the per-request health check). A result already stored is left
    as it is, and nothing is read back (get_or_create would select and decode the whole row
    first; bulk_create adds a BEGIN and a COMMIT round trip around the INSERT).

    `result_json`: the result's own JSON (`result_to_dict`, any base URL) when the caller wrote
    it already, as the API does for its answer; the row is taken from it instead of writing the
    result a second time, and comes out the same."""
    store_row(Recommendation(id=result.id, **_row_fields(result, result_json)))


def _row_fields(result: Result, result_json: Mapping[str, Any] | None = None) -> dict[str, Any]:
    """What a stored recommendation keeps: the inputs, the result JSON and both versions.

    The JSON leaves out `sources`, about half its size: the full citations are derived from the
    bibliography by source key whenever a stored result is written out again. Its permalink is
    the site-relative one (never read back: a stored result's permalink is derived again)."""
    if result_json is None:
        stored = to_json(result, _STORED_JSON, "")
    else:
        stored = {key: value for key, value in result_json.items() if key != "sources"}
        stored["permalink"] = permalink_url(result, "")
    return {
        "profile": result.profile.raw,  # the echo, as the result's JSON has it
        "result": stored,
        "ruleset_version": result.ruleset_version,
        "calibration_version": result.calibration_version or "",
    }


# The result's JSON less `sources`: what a row keeps, written without building the citations.
_STORED_JSON = Shape(
    derived={
        **RESULT_JSON.derived,
        Result: tuple(d for d in RESULT_JSON.derived[Result] if d.name != "sources"),
    },
    codecs=RESULT_JSON.codecs,
    component_suffix=RESULT_JSON.component_suffix,
)


def recommendation_create_many(*, results: Iterable[Result]) -> None:
    """Store computed results as `recommendation_create` does, a fleet's worth at once.

    Ids go in sorted order so that two workers inserting the same results cannot deadlock.
    One `INSERT ... ON CONFLICT DO NOTHING` per row, sent together by `executemany` (psycopg
    pipelines them): Django's multi-row insert goes through UNNEST arrays, whose quoting of large
    JSON was 20x slower here, and its bulk_create of one row at a time cost 0.3-0.5 ms more per
    row than this (measured side by side on 900 results).
    """
    unique = {result.id: result for result in results}
    stored = Recommendation.objects.filter(id__in=unique).values_list("id", flat=True)
    for known in stored:  # identical hosts are stored once
        del unique[known]
    rows = [Recommendation(id=rid, **_row_fields(result)) for rid, result in sorted(unique.items())]
    insert_rows(rows, ignore_conflicts=True)


class RecommendationOutdated(Exception):
    """A stored result whose inputs today's validation refuses (an earlier version computed
    it): its stored JSON can be shown as it is, but nothing that needs the typed profile (the
    exports, the what-if, editing) can be redone."""

    def __init__(self, *, stored: Recommendation, problems: tuple[str, ...]) -> None:
        super().__init__(f"result {stored.id}: " + "; ".join(problems))
        self.stored = stored
        self.problems = problems


def recommendation_get(*, recommendation_id: str) -> Result:
    """The stored result exactly as it was computed, even if the rules changed since.

    Its inputs are parsed into the typed profile once, here (`result_from_dict`), keeping the
    stored echo in the engine's order (PostgreSQL's jsonb keeps object keys in its own), so
    every export of a stored result is byte-identical to the CLI's. Raises
    Recommendation.DoesNotExist for an unknown id, RecommendationOutdated when the stored
    inputs no longer validate.
    """
    stored = Recommendation.objects.get(id=recommendation_id)
    try:
        return result_from_dict(stored.result)
    except OutdatedProfile as outdated:
        raise RecommendationOutdated(stored=stored, problems=outdated.problems) from outdated


def recommendation_check(*, profile: Profile) -> CheckReport:
    """What the advisor would change in the profile's current configuration and which of its
    values are unsafe; raises ValueError when the profile carries no current configuration."""
    if profile.current is None:
        raise ValueError(NEEDS_CURRENT)
    return check(profile, recommendation_compute(profile=profile))
