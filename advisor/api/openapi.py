"""What drf-spectacular cannot infer: the Profile and Result components, the error responses,
the export formats. Every status an operation can answer is declared, so schemathesis can hold
the API to its schema."""

from __future__ import annotations

from typing import Any

from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse

from advisor.api.examples import request_examples
from advisor.api.profile_component import profile_schema
from advisor.api.serializers import ErrorOutput
from advisor.api.yaml_exports import YAML_EXPORTS
from rules.output.jsonshape import component_ref
from rules.output.result import Result
from rules.render import CONTENT_TYPES, FORMATS, REGISTRY
from rules.render.jsonout import RESULT_JSON, result_schema_components

JSON = "application/json"
# The result JSON, described from its declaration in rules.output.result (as Profile is from
# FIELDS).
RESULT_REF = component_ref(Result, RESULT_JSON)
ERROR_MEANINGS = {
    400: "The request is not valid; `errors` names each field by its dotted path.",
    401: "No valid token: send `Authorization: Token <key>`.",
    404: "No such resource (or not this token's).",
    409: (
        "The batch is not finished yet, or its archive is still being built; `Retry-After` "
        "says when to ask again."
    ),
    413: "The body is too large (see the message for the limit).",
    415: "The body is not JSON: send `Content-Type: application/json`.",
    422: (
        "The profile is valid, but this export cannot be written for its server version, or a "
        "revert was asked of a result computed without the current configuration."
    ),
    429: "Too many requests from this client; `Retry-After` says when to retry.",
    503: "The database or the task broker is unavailable; retry later.",
}


def errors(*codes: int) -> dict[tuple[int, str], OpenApiResponse]:
    """Error responses, all in the one error shape; 429 and 503 can happen anywhere."""
    return {
        (code, JSON): OpenApiResponse(ErrorOutput, description=ERROR_MEANINGS[code])
        for code in sorted({*codes, 429, 503})
    }


# The RDS export is JSON too, so the JSON media type answers either the result or the requests.
RDS_PARAMETER_GROUP = {
    "type": "object",
    "description": "The rds-json export: ModifyDBParameterGroup requests and what RDS manages.",
    "required": ["Comment", "DBParameterGroupFamily", "ModifyDBParameterGroup", "ManagedByRds"],
    "properties": {
        "Comment": {"type": "array", "items": {"type": "string"}},
        "DBParameterGroupFamily": {"type": "string"},
        "ModifyDBParameterGroup": {"type": "array", "items": {"type": "object"}},
        "ManagedByRds": {"type": "array", "items": {"type": "object"}},
    },
}
AURORA_PARAMETER_GROUPS = {
    "type": "object",
    "description": (
        "The aurora-json export: ModifyDBClusterParameterGroup and ModifyDBParameterGroup "
        "requests and the settings Aurora MySQL 3 does not take."
    ),
    "required": [
        "Comment",
        "DBParameterGroupFamily",
        "ModifyDBClusterParameterGroup",
        "ModifyDBParameterGroup",
        "NotSetOnAurora",
    ],
    "properties": {
        "Comment": {"type": "array", "items": {"type": "string"}},
        "DBParameterGroupFamily": {"type": "string"},
        "ModifyDBClusterParameterGroup": {"type": "array", "items": {"type": "object"}},
        "ModifyDBParameterGroup": {"type": "array", "items": {"type": "object"}},
        "NotSetOnAurora": {"type": "array", "items": {"type": "object"}},
    },
}
JSON_EXPORTS = {"rds-json": RDS_PARAMETER_GROUP, "aurora-json": AURORA_PARAMETER_GROUPS}
# The exports a client parses (JSON, YAML) by their documents' shape; the others are text.
DOCUMENT_EXPORTS = JSON_EXPORTS | YAML_EXPORTS


def export_responses(
    status: int, fmts: tuple[str, ...], json_schema: Any
) -> dict[tuple[int, str], Any]:
    """One response per export media type: the result JSON, the document of a JSON or YAML
    export, or the text of another; formats that share a media type share its response (JSON:
    the result, the RDS or the Aurora requests; YAML: the five documents, each a flat oneOf)."""
    responses: dict[tuple[int, str], Any] = {}
    for fmt in fmts:
        media_type = CONTENT_TYPES[fmt].split(";", 1)[0]
        schema = json_schema if fmt == "json" else DOCUMENT_EXPORTS.get(fmt, OpenApiTypes.STR)
        key = (status, media_type)
        earlier = responses.get(key)
        if earlier is not None and earlier != schema:
            alternatives = (
                earlier["oneOf"] if isinstance(earlier, dict) and "oneOf" in earlier else [earlier]
            )
            schema = {"oneOf": [*alternatives, schema]}
        responses[key] = schema
    return responses


FORMAT_PARAMETER = OpenApiParameter(
    "format",
    str,
    enum=list(FORMATS),
    description=(
        "Answer with this export instead of the JSON result: "
        + "; ".join(f"{f.name} ({f.description})" for f in REGISTRY if f.name != "json")
        + ". The Accept header works too (text/plain: mycnf, application/sql: sql, "
        "application/yaml: ansible)."
    ),
)
ARCHIVE_FORMAT_PARAMETER = OpenApiParameter(
    "format",
    str,
    enum=list(FORMATS),
    default="mycnf",
    description="The export written for each host (the recommendations' formats).",
)
REVERT_PARAMETER = OpenApiParameter(
    "revert",
    bool,
    description=(
        "true: the revert twin of the export (any format): the values the profile's `current` "
        "configuration had, or the version's default where it had none, so the change can be "
        "undone. 422 when the result was computed without `current`. Default: false."
    ),
)
STORE_PARAMETER = OpenApiParameter(
    "store",
    bool,
    description="false: compute without storing (200, no permalink row). Default: true (201).",
)


RDS_PARAMETERS_SCHEMA = {
    "type": "object",
    "nullable": True,
    "description": (
        "Not part of the profile: for the rds-json and rds-terraform exports, the output of "
        "`aws rds describe-engine-default-parameters --db-parameter-group-family FAMILY "
        "--output json` for the profile's family (mysql8.0, mysql8.4, mariadb10.11, ...), as "
        "it prints it. The rows the result's settings need are kept with the stored result "
        "(which then has its own id), so its RDS exports can be fetched later. 400 naming "
        "`rds_parameters.<path>` when it is not that output."
    ),
}


def recommendation_request_schema(profile: dict[str, Any]) -> dict[str, Any]:
    """The body of POST /recommendations: a profile, and beside its sections the optional RDS
    parameter list (advisor.recommendations.api_views.split_rds_parameters)."""
    properties = {**profile["properties"], "rds_parameters": RDS_PARAMETERS_SCHEMA}
    return {**profile, "properties": properties}


def add_components(result: dict[str, Any], **kwargs: Any) -> dict[str, Any]:
    """drf-spectacular postprocessing hook: add the Profile component built from FIELDS and
    the result's components built from rules.output.result."""
    schemas = result.setdefault("components", {}).setdefault("schemas", {})
    schemas["Profile"] = profile_schema()
    schemas["RecommendationRequest"] = recommendation_request_schema(schemas["Profile"])
    schemas.update(result_schema_components())
    result["components"]["schemas"] = dict(sorted(schemas.items()))
    examples = request_examples()
    for path, operations in result.get("paths", {}).items():
        for method, operation in operations.items():
            if "requestBody" in operation:  # every body here is required; raw schemas lose that
                operation["requestBody"]["required"] = True
                body = operation["requestBody"]["content"][JSON]
                body["example"] = examples[(path, method)]  # a KeyError names a body without one
    return result
