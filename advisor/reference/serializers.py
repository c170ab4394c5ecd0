"""The catalog, the rules and the bibliography, as the API publishes them."""

from __future__ import annotations

from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from rules.inputs.enums import Flavor
from rules.inputs.field_table import FIELDS_BY_PATH

VERSION_HELP = FIELDS_BY_PATH["server.version"].help


class CatalogQuery(serializers.Serializer):
    flavor = serializers.ChoiceField([f.value for f in Flavor])
    version = serializers.CharField(max_length=40, help_text=VERSION_HELP)


@extend_schema_field({"oneOf": [{"type": "number"}, {"type": "string"}], "nullable": True})
class ScalarField(serializers.Field):
    """A number or a string, as the catalog gives it."""

    def to_representation(self, value: object) -> object:
        return value


class VariableOutput(serializers.Serializer):
    name = serializers.CharField()
    type = serializers.CharField(help_text="int, bytes, float, bool, enum or string.")
    default = ScalarField(help_text="The compiled default; null when computed at startup.")
    default_text = serializers.CharField(allow_blank=True)
    minimum = serializers.FloatField(allow_null=True)
    maximum = serializers.FloatField(allow_null=True)
    values = serializers.ListField(child=serializers.CharField(), help_text="Allowed values.")
    dynamic = serializers.BooleanField(help_text="Settable at runtime (SET GLOBAL).")
    unit = serializers.CharField(allow_blank=True)
    block_size = serializers.IntegerField(allow_null=True)
    deprecated = serializers.BooleanField()
    since = serializers.CharField()
    until = serializers.CharField()
    sources = serializers.ListField(child=serializers.CharField())
    notes = serializers.CharField(allow_blank=True)


class CatalogOutput(serializers.Serializer):
    flavor = serializers.CharField()
    version = serializers.CharField()
    support = serializers.CharField(help_text="Whether my.cnf and SQL are written for it.")
    variables = VariableOutput(many=True)


class CaseEvidenceOutput(serializers.Serializer):
    source = serializers.CharField()
    finding = serializers.CharField()


class CaseOutput(serializers.Serializer):
    name = serializers.CharField()
    reason = serializers.CharField(help_text="One-line template, filled from the machine's facts.")
    explanation = serializers.CharField(help_text="Explanation template.")
    evidence = CaseEvidenceOutput(many=True)


class RuleOutput(serializers.Serializer):
    id = serializers.CharField()
    setting = serializers.CharField()
    scope = serializers.ChoiceField(["mysqld", "os"])
    kind = serializers.CharField(allow_null=True)
    sources = serializers.ListField(child=serializers.CharField())
    cases = CaseOutput(many=True)


class SourceOutput(serializers.Serializer):
    key = serializers.CharField()
    author = serializers.CharField()
    title = serializers.CharField()
    date = serializers.CharField(allow_null=True)
    published = serializers.CharField()
    kind = serializers.CharField()
    citation = serializers.CharField()
    findings = serializers.ListField(child=serializers.CharField())
