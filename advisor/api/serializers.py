"""Pieces every endpoint shares: the error shape, the profile reference, and input fields that
take only the JSON type the schema gives them."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

PROFILE_REF = {"$ref": "#/components/schemas/Profile"}


class ErrorOutput(serializers.Serializer):
    """Every 4xx (and the 503s): a sentence, and the problems by dotted field path."""

    message = serializers.CharField()
    errors = serializers.DictField(child=serializers.ListField(child=serializers.CharField()))


@extend_schema_field(PROFILE_REF)
class ProfileField(serializers.Field):
    """A profile object, passed through as sent: `parse_profile` validates it, naming fields in
    the profile's own terms (the Profile component, built from rules.inputs.field_table.FIELDS)."""

    default_error_messages = {"object": "must be a profile object"}  # noqa: RUF012

    def to_internal_value(self, data: Any) -> Mapping[str, Any]:
        if not isinstance(data, Mapping):
            self.fail("object")
        return data

    def to_representation(self, value: Any) -> Any:
        return value


class StrictCharField(serializers.CharField):
    """A text input that is a JSON string: DRF's CharField turns a number into its text, which
    the schema (`type: string`) refuses."""

    default_error_messages = {"text": "must be a string"}  # noqa: RUF012

    def to_internal_value(self, data: Any) -> str:
        if not isinstance(data, str):
            self.fail("text")
        return str(super().to_internal_value(data))


class StrictFloatField(serializers.FloatField):
    """A number input that is a JSON number: DRF's FloatField also parses "1.5" and reads true
    as 1.0, which the schema (`type: number`) refuses."""

    default_error_messages = {"number": "must be a number"}  # noqa: RUF012

    def to_internal_value(self, data: Any) -> float:
        if isinstance(data, bool) or not isinstance(data, int | float):
            self.fail("number")
        return float(super().to_internal_value(data))
