"""The check report's shape, for the OpenAPI schema (the view returns rules.check's dict)."""

from __future__ import annotations

from rest_framework import serializers


class UnsafeOutput(serializers.Serializer):
    variable = serializers.CharField(help_text="The server variable that is unsafe today.")
    current = serializers.CharField(help_text="Its current value, as given (may be empty).")
    why = serializers.CharField(help_text="What can go wrong, and what to set instead.")


class ChangeOutput(serializers.Serializer):
    name = serializers.CharField()
    current = serializers.CharField(allow_null=True, help_text="Today's value; null if unknown.")
    value = serializers.CharField(help_text="The recommended value, as the server reports it.")
    change = serializers.ChoiceField(
        ["raise", "lower", "change"], allow_null=True, help_text="Which way it moves."
    )
    when = serializers.ChoiceField(
        ["now", "restart"], help_text="now: SET PERSIST/SET GLOBAL; restart: at the next start."
    )
    reason = serializers.CharField()


class CheckOutput(serializers.Serializer):
    passed = serializers.BooleanField(help_text="true when nothing is unsafe.")
    unsafe = UnsafeOutput(many=True)
    changes = ChangeOutput(many=True, help_text="What the advisor would change, and why.")
    warnings = serializers.ListField(child=serializers.CharField())
    recommendation_id = serializers.CharField(help_text="The result's id (not stored).")
    ruleset_version = serializers.CharField()
