"""The result JSON (product contract, "Output: the result"), declared for the schema.

`rules.render.jsonout.result_to_dict` is the one producer of this JSON; these serializers only
describe it (schemathesis checks every response against them), so a result is never built twice.
"""

from __future__ import annotations

from rest_framework import serializers

CHANGES = ("raise", "lower", "keep", "change")


class EvidenceOutput(serializers.Serializer):
    source = serializers.CharField(help_text="Key into GET /api/v1/sources.")
    finding = serializers.CharField()
    citation = serializers.CharField(allow_null=True)


class EffectOutput(serializers.Serializer):
    low_pct = serializers.FloatField()
    high_pct = serializers.FloatField()


class SettingOutput(serializers.Serializer):
    name = serializers.CharField()
    value = serializers.CharField(help_text="As the server reports it (bytes for sizes).")
    display = serializers.CharField(help_text="As written in my.cnf (48G).")
    scope = serializers.CharField()
    kind = serializers.CharField()
    current = serializers.CharField(allow_null=True)
    current_is_default = serializers.BooleanField()
    change = serializers.ChoiceField(CHANGES, allow_null=True)
    dynamic = serializers.BooleanField()
    rule = serializers.CharField()
    reason = serializers.CharField()
    explanation = serializers.CharField()
    evidence = EvidenceOutput(many=True)
    effect = EffectOutput(allow_null=True)


class OsItemOutput(serializers.Serializer):
    name = serializers.CharField()
    value = serializers.CharField()
    devices = serializers.CharField()
    rule = serializers.CharField()
    explanation = serializers.CharField()
    evidence = EvidenceOutput(many=True)
    commands = serializers.ListField(child=serializers.CharField())
    persist = serializers.CharField()
    persist_path = serializers.CharField()
    current = serializers.CharField(allow_null=True)
    change = serializers.ChoiceField(CHANGES, allow_null=True)


class EstimateOutput(serializers.Serializer):
    unit = serializers.CharField()
    low = serializers.FloatField()
    high = serializers.FloatField()
    interval = serializers.FloatField()
    bottleneck = serializers.CharField()
    in_domain = serializers.BooleanField()


class EstimatesOutput(serializers.Serializer):
    recommended = EstimateOutput()
    current = EstimateOutput(allow_null=True)
    gain = EstimateOutput(
        allow_null=True,
        help_text="recommended / current as an 80% interval (unit x), when current is known",
    )
    measured = serializers.FloatField(
        allow_null=True, help_text="workload.measured_throughput, when given"
    )


class CitedSourceOutput(serializers.Serializer):
    key = serializers.CharField()
    author = serializers.CharField()
    title = serializers.CharField()
    date = serializers.CharField(allow_null=True)
    published = serializers.CharField(allow_null=True)
    citation = serializers.CharField()


class ResultOutput(serializers.Serializer):
    id = serializers.CharField()
    permalink = serializers.CharField()
    ruleset_version = serializers.CharField()
    calibration_version = serializers.CharField(allow_null=True)
    inputs = serializers.DictField(help_text="The validated profile, defaults filled in.")
    settings = SettingOutput(many=True)
    os = OsItemOutput(many=True)
    estimate = EstimatesOutput(allow_null=True)
    warnings = serializers.ListField(child=serializers.CharField())
    output_refused = serializers.CharField(
        allow_null=True, help_text="Why no my.cnf or SQL can be written for this version."
    )
    sources = CitedSourceOutput(many=True)
