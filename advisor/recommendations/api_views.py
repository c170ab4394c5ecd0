"""Recommendations for one host: compute (and store), fetch, and every export."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.http import HttpRequest
from drf_spectacular.utils import extend_schema
from rest_framework import serializers, status
from rest_framework.exceptions import NotFound
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from advisor.api.content import EXPORT_RENDERERS, TEXT_RENDERERS, ExportNegotiation, base_url
from advisor.api.errors import FieldErrors
from advisor.api.lean import LeanPostApi
from advisor.api.openapi import (
    FORMAT_PARAMETER,
    RESULT_REF,
    REVERT_PARAMETER,
    STORE_PARAMETER,
    errors,
    export_responses,
)
from advisor.api.serializers import PROFILE_REF
from advisor.models import Recommendation
from advisor.recommendations.serializers import CheckOutput
from advisor.recommendations.services import (
    RecommendationOutdated,
    recommendation_check,
    recommendation_compute,
    recommendation_get,
    recommendation_store,
)
from advisor.unstorable import printable
from rules.check import NEEDS_CURRENT, report_to_dict
from rules.inputs.validation import parse_profile
from rules.output.result import Result
from rules.output.revert import revert
from rules.render import (
    FORMATS,
    filename_for,
    render,
    render_revert,
    result_to_dict,
    revert_filename_for,
)

RDS_FIELD = "rds_parameters"
FLAG = serializers.BooleanField()  # one field: a whole serializer per request costs more


def query_flag(request: Request | HttpRequest, name: str, *, default: bool) -> bool:
    """`?store=`, `?revert=`: any of DRF's boolean spellings; the default when absent."""
    value = request.GET.get(name)
    if value is None:
        return default
    try:
        return bool(FLAG.to_internal_value(value))
    except serializers.ValidationError as problem:
        message = f"Unknown {name} flag {printable(value[:40])!r}."
        raise FieldErrors(message, {name: problem.detail}) from None


def store_flag(request: Request | HttpRequest) -> bool:
    """`?store=`: true unless the client says false."""
    return query_flag(request, "store", default=True)


def export_response(
    request: Request | HttpRequest,
    result: Result,
    *,
    status_code: int = 200,
    result_json: dict[str, Any] | None = None,
) -> Response:
    """The result in the negotiated format: JSON as data, the others as a named text file;
    with `?revert=true`, its revert twin (NothingToRevert -> 422). `result_json`: the result's
    JSON for this request (`shown_json`), when it was written already."""
    fmt = request.accepted_renderer.format
    if result_json is not None:
        return Response(result_json, status=status_code)
    filename = filename_for(result, fmt)
    if query_flag(request, "revert", default=False):
        filename = revert_filename_for(result, fmt)
        if fmt == "json":
            result = revert(result)
        else:  # the files' twins, udev and sysctl included (OutputRefused -> 422)
            text = render_revert(result, fmt, base_url=base_url(request))
            return _file(text, filename, status_code)
    if fmt == "json":
        return Response(result_to_dict(result, base_url=base_url(request)), status=status_code)
    text = render(result, fmt, base_url=base_url(request))  # OutputRefused -> 422
    return _file(text, filename, status_code)


def _file(text: str, filename: str, status_code: int) -> Response:
    disposition = f'attachment; filename="{filename}"'
    return Response(text, status=status_code, headers={"Content-Disposition": disposition})


def shown_json(request: Request | HttpRequest, result: Result) -> dict[str, Any] | None:
    """The result's own JSON when this request answers with exactly that (JSON, no `?revert=`
    at all), so that storing can reuse it; None otherwise."""
    if request.accepted_renderer.format != "json" or "revert" in request.GET:
        return None
    return result_to_dict(result, base_url=base_url(request))


def split_rds_parameters(data: object) -> tuple[object, object]:
    """(the profile, the RDS parameter list): the list travels in the body beside the
    profile's sections, as `rds_parameters`, and is not part of the profile."""
    if not isinstance(data, Mapping) or RDS_FIELD not in data:
        return data, None
    profile = {key: value for key, value in data.items() if key != RDS_FIELD}
    return profile, data[RDS_FIELD]


class RecommendationCreateApi(LeanPostApi):
    """The API's hot path: DRF's steps without DRF's request wrapper (advisor.api.lean)."""

    renderer_classes = EXPORT_RENDERERS
    content_negotiation_class = ExportNegotiation

    @extend_schema(
        operation_id="recommendation_create",
        summary="Recommend settings for one host",
        request={"application/json": {"$ref": "#/components/schemas/RecommendationRequest"}},
        parameters=[FORMAT_PARAMETER, STORE_PARAMETER, REVERT_PARAMETER],
        responses={
            **export_responses(201, FORMATS, RESULT_REF),
            **export_responses(200, FORMATS, RESULT_REF),
            **errors(400, 413, 415, 422),
        },
    )
    def post(self, request: HttpRequest) -> Response:
        """201 with the stored result (or the export asked for); 200 with `store=false`."""
        store = store_flag(request)
        body, rds_parameters = split_rds_parameters(self.request_data(request))
        profile = parse_profile(body)
        result = recommendation_compute(profile=profile, rds_parameters=rds_parameters)
        if not store:
            return export_response(request, result)
        shown = shown_json(request, result)
        recommendation_store(result=result, result_json=shown)
        response = export_response(
            request, result, status_code=status.HTTP_201_CREATED, result_json=shown
        )
        response["Location"] = f"{request.path.rstrip('/')}/{result.id}"
        return response


def _stored(recommendation_id: str) -> Result:
    """The stored result; 404 for an unknown id, 422 (with today's problems under `inputs`)
    for one whose inputs this version no longer accepts, so it cannot be written again."""
    try:
        return recommendation_get(recommendation_id=recommendation_id)
    except Recommendation.DoesNotExist:
        raise NotFound(f"No recommendation with id {recommendation_id!r}.") from None
    except RecommendationOutdated as outdated:
        message = (
            f"Recommendation {recommendation_id!r} was computed by an earlier version and its "
            "inputs no longer pass today's checks, so it cannot be written again; send the "
            "profile again for a current result."
        )
        raise FieldErrors(message, {"inputs": list(outdated.problems)}, 422) from None


class RecommendationDetailApi(APIView):
    renderer_classes = EXPORT_RENDERERS
    content_negotiation_class = ExportNegotiation

    @extend_schema(
        operation_id="recommendation_get",
        summary="A stored recommendation, as it was computed",
        parameters=[FORMAT_PARAMETER, REVERT_PARAMETER],
        responses={**export_responses(200, FORMATS, RESULT_REF), **errors(400, 404, 422)},
    )
    def get(self, request: Request, recommendation_id: str) -> Response:
        return export_response(request, _stored(recommendation_id))


class _RecommendationExportApi(APIView):
    """One export of a stored recommendation as a text file; one subclass per format."""

    content_negotiation_class = ExportNegotiation

    def get(self, request: Request, recommendation_id: str) -> Response:
        return export_response(request, _stored(recommendation_id))


def _export_view(fmt: str) -> type[_RecommendationExportApi]:
    """The view of `/recommendations/{id}/<fmt>`, with its own operation in the schema."""

    @extend_schema(
        operation_id=f"recommendation_{fmt.replace('-', '_')}",
        summary=f"A stored recommendation as {fmt}",
        parameters=[REVERT_PARAMETER],
        responses={**export_responses(200, (fmt,), None), **errors(400, 404, 422)},
    )
    def get(self: _RecommendationExportApi, request: Request, recommendation_id: str) -> Response:
        return _RecommendationExportApi.get(self, request, recommendation_id)

    name = "".join(part.title() for part in fmt.split("-"))
    attributes = {"renderer_classes": (TEXT_RENDERERS[fmt],), "get": get}
    return type(f"Recommendation{name}Api", (_RecommendationExportApi,), attributes)


# One download endpoint per export but JSON (the detail endpoint is the JSON).
EXPORT_VIEWS: dict[str, type[_RecommendationExportApi]] = {
    fmt: _export_view(fmt) for fmt in FORMATS if fmt != "json"
}


class CheckCreateApi(APIView):
    @extend_schema(
        operation_id="check_create",
        summary="Check a server's current configuration",
        description=(
            "The body is a profile whose `current` gives today's configuration (variables, a "
            "my.cnf or SHOW GLOBAL VARIABLES). The answer lists what the advisor would change "
            "and every unsafe current value; `passed` is false when there is one, so a CI "
            "pipeline can fail on it. Nothing is stored."
        ),
        request={"application/json": PROFILE_REF},
        responses={(200, "application/json"): CheckOutput, **errors(400, 413, 415)},
    )
    def post(self, request: Request) -> Response:
        profile = parse_profile(request.data)
        if profile.current is None:
            raise FieldErrors(
                "A check needs the current configuration.", {"current": [NEEDS_CURRENT]}
            )
        return Response(report_to_dict(recommendation_check(profile=profile)))
