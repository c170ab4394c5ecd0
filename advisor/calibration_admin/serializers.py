"""A measurement a user submits (stored for review) and what the API answers."""

from __future__ import annotations

from rest_framework import serializers

from advisor.api.serializers import ProfileField, StrictCharField, StrictFloatField
from advisor.models import Measurement


class MeasurementInput(serializers.Serializer):
    kind = serializers.ChoiceField(Measurement.Kind.choices)
    profile = ProfileField(help_text="The machine measured, as a profile.")
    metric = StrictCharField(
        max_length=32,
        required=False,
        allow_blank=True,
        help_text="benchmark: the workload's unit (NOTPM, transactions/s, rows/s, queries/s); "
        "given by default.",
    )
    value = StrictFloatField(required=False, allow_null=True, min_value=0)
    random_read_iops = StrictFloatField(required=False, allow_null=True, min_value=0)
    random_write_iops = StrictFloatField(required=False, allow_null=True, min_value=0)
    server_settings = serializers.DictField(
        required=False,
        help_text="The server settings the result was measured with, e.g. "
        '{"innodb_buffer_pool_size": "48G"}; the others count as server defaults.',
    )
    source = StrictCharField(max_length=500, required=False, allow_blank=True)
    notes = StrictCharField(max_length=5000, required=False, allow_blank=True)


class MeasurementOutput(serializers.Serializer):
    id = serializers.IntegerField()
    kind = serializers.ChoiceField(Measurement.Kind.choices)
    status = serializers.ChoiceField(Measurement.Status.choices)
    metric = serializers.CharField(allow_blank=True)
    value = serializers.FloatField(allow_null=True)
    random_read_iops = serializers.FloatField(allow_null=True)
    random_write_iops = serializers.FloatField(allow_null=True)
    created_at = serializers.DateTimeField()
