"""What the advisor knows, published: the variable catalog, the rules, the bibliography."""

from __future__ import annotations

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
from advisor.reference.services import rule_list, source_list, variable_data
from rules.inputs.enums import Flavor
from rules.inputs.version import parse_version, support_of
from rules.reference.catalog import catalog_for


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
            "variables": [variable_data(spec) for spec in specs if spec is not None],
        }
        return Response(body)


class RuleListApi(APIView):
    @extend_schema(
        operation_id="rule_list",
        summary="Every rule: the setting it decides, its explanation templates and sources",
        responses={(200, "application/json"): RuleOutput(many=True), **errors()},
    )
    def get(self, request: Request) -> Response:
        return Response(rule_list())


class SourceListApi(APIView):
    @extend_schema(
        operation_id="source_list",
        summary="The bibliography every explanation cites",
        responses={(200, "application/json"): SourceOutput(many=True), **errors()},
    )
    def get(self, request: Request) -> Response:
        return Response(source_list())
