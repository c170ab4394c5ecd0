"""What the advisor knows, published: the variable catalog, the rules, the bibliography."""

from __future__ import annotations

import functools
from typing import Any

from drf_spectacular.utils import extend_schema
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from advisor.api.errors import FieldErrors
from advisor.api.openapi import errors
from advisor.reference.serializers import (
    CatalogOutput,
    CatalogQuery,
    RuleOutput,
    SourceOutput,
)
from rules.bibliography import all_sources
from rules.catalog import VariableSpec, catalog_for
from rules.enums import Flavor
from rules.registry import all_rules
from rules.rule import OsRule
from rules.version import parse_version, support_of


def _variable(spec: VariableSpec) -> dict[str, Any]:
    keys = ("name", "type", "default", "default_text", "minimum", "maximum", "dynamic", "unit")
    return {
        **{key: getattr(spec, key) for key in keys},
        "values": list(spec.values),
        "block_size": spec.block_size,
        "deprecated": spec.deprecated,
        "since": spec.since,
        "until": spec.until,
        "sources": list(spec.sources),
        "notes": spec.notes,
    }


class CatalogGetApi(APIView):
    @extend_schema(
        operation_id="catalog_get",
        summary="The server variables known for a flavor and release",
        parameters=[CatalogQuery],
        responses={(200, "application/json"): CatalogOutput, **errors(400)},
    )
    def get(self, request: Request) -> Response:
        query = CatalogQuery(data=request.query_params)
        query.is_valid(raise_exception=True)
        flavor, text = Flavor(query.validated_data["flavor"]), query.validated_data["version"]
        version = parse_version(text)
        if version is None:
            raise FieldErrors(
                f"Unknown version {text!r}.",
                {"version": ["must be a release such as 8.0.36, 8.4 or 10.11"]},
            )
        catalog = catalog_for(flavor, version)
        specs = (catalog.get(name) for name in catalog.names())
        body = {
            "flavor": flavor.value,
            "version": str(version),
            "support": support_of(flavor, version).value,
            "variables": [_variable(spec) for spec in specs if spec is not None],
        }
        return Response(body)


@functools.cache
def _rules() -> list[dict[str, Any]]:
    return [
        {
            "id": rule.id,
            "setting": rule.setting,
            "scope": "os" if isinstance(rule, OsRule) else "mysqld",
            "kind": None if isinstance(rule, OsRule) else rule.kind,
            "sources": list(rule.sources),
            "cases": [
                {
                    "name": name,
                    "reason": case.reason,
                    "explanation": case.explanation,
                    "evidence": [{"source": e.source, "finding": e.finding} for e in case.evidence],
                }
                for name, case in rule.cases.items()
            ],
        }
        for rule in all_rules()
    ]


class RuleListApi(APIView):
    @extend_schema(
        operation_id="rule_list",
        summary="Every rule: the setting it decides, its explanation templates and sources",
        responses={(200, "application/json"): RuleOutput(many=True), **errors()},
    )
    def get(self, request: Request) -> Response:
        return Response(_rules())


@functools.cache
def _sources() -> list[dict[str, Any]]:
    return [
        {
            "key": s.key,
            "author": s.author,
            "title": s.title,
            "date": s.date,
            "published": s.published,
            "kind": s.kind,
            "citation": s.citation(),
            "findings": list(s.findings),
        }
        for s in all_sources()
    ]


class SourceListApi(APIView):
    @extend_schema(
        operation_id="source_list",
        summary="The bibliography every explanation cites",
        responses={(200, "application/json"): SourceOutput(many=True), **errors()},
    )
    def get(self, request: Request) -> Response:
        return Response(_sources())
