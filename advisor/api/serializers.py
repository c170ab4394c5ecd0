"""Pieces every endpoint shares: the error shape and the profile reference."""

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
    the profile's own terms (the Profile component, built from rules.profile_fields.FIELDS)."""

    default_error_messages = {"object": "must be a profile object"}  # noqa: RUF012

    def to_internal_value(self, data: Any) -> Mapping[str, Any]:
        if not isinstance(data, Mapping):
            self.fail("object")
        return data

    def to_representation(self, value: Any) -> Any:
        return value
