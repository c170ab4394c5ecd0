"""Batch requests and answers. The batch's own checks live in `advisor.fleet.services` (the
browser's upload uses them too); the input serializers adapt them and describe them for the
schema."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.conf import settings
from rest_framework import serializers

from advisor.fleet.services import NAME_PATTERN, NAME_RULE, BatchInvalid, batch_entries_check
from advisor.models import Batch, BatchItem

PAGE_SIZE_MAX = 500


class BatchEntryInput(serializers.Serializer):
    name = serializers.RegexField(
        NAME_PATTERN.pattern, help_text=f"The host's name: {NAME_RULE}; unique in the batch."
    )
    profile = serializers.DictField(
        help_text=(
            "A profile as for POST /api/v1/recommendations (see the Profile schema). It is "
            "validated when its item is processed; its field errors are in the batch's status."
        )
    )


class BatchCreateInput(serializers.Serializer):
    profiles = BatchEntryInput(
        many=True, min_length=1, max_length=settings.BATCH_MAX_PROFILES, allow_empty=False
    )

    def to_internal_value(self, data: Any) -> dict[str, Any]:
        """The batch service's checks (fast on 10,000 entries); BatchTooLarge passes through."""
        if not isinstance(data, Mapping):
            raise serializers.ValidationError({"": ["must be an object with a profiles list"]})
        unknown = {key: ["is not a known field; allowed: profiles"] for key in data}
        unknown.pop("profiles", None)
        if unknown:
            raise serializers.ValidationError(unknown)
        try:
            return {"entries": batch_entries_check(data.get("profiles"))}
        except BatchInvalid as problem:
            raise serializers.ValidationError(problem.errors) from None


class BatchCreatedOutput(serializers.Serializer):
    id = serializers.UUIDField()
    status = serializers.ChoiceField(Batch.Status.choices)
    total = serializers.IntegerField()
    created_at = serializers.DateTimeField()
    url = serializers.CharField(help_text="Poll this for status and progress.")
    archive_url = serializers.CharField()


class ProgressOutput(serializers.Serializer):
    total = serializers.IntegerField()
    done = serializers.IntegerField()
    failed = serializers.IntegerField()
    pending = serializers.IntegerField()
    percent = serializers.IntegerField(min_value=0, max_value=100)


class BatchItemOutput(serializers.Serializer):
    position = serializers.IntegerField()
    name = serializers.CharField()
    status = serializers.ChoiceField(BatchItem.Status.choices)
    recommendation_id = serializers.CharField(allow_null=True)
    permalink = serializers.CharField(allow_null=True)
    mycnf_url = serializers.CharField(allow_null=True)
    settings = serializers.DictField(
        child=serializers.CharField(), allow_null=True, help_text="Name to my.cnf value."
    )
    warnings = serializers.ListField(child=serializers.CharField())
    output_refused = serializers.CharField(allow_null=True)
    errors = serializers.DictField(
        child=serializers.ListField(child=serializers.CharField()),
        allow_null=True,
        help_text="The profile's field errors, by dotted path, when it was invalid.",
    )


class BatchItemPageOutput(serializers.Serializer):
    count = serializers.IntegerField()
    page = serializers.IntegerField()
    page_size = serializers.IntegerField()
    next = serializers.CharField(allow_null=True)
    previous = serializers.CharField(allow_null=True)
    results = BatchItemOutput(many=True)


class BatchOutput(serializers.Serializer):
    id = serializers.UUIDField()
    status = serializers.ChoiceField(Batch.Status.choices)
    created_at = serializers.DateTimeField()
    queued_at = serializers.DateTimeField(allow_null=True)
    finished_at = serializers.DateTimeField(allow_null=True)
    progress = ProgressOutput()
    archive_url = serializers.CharField()
    items = BatchItemPageOutput()


class BatchDetailQuery(serializers.Serializer):
    page = serializers.IntegerField(min_value=1, max_value=1_000_000, default=1)
    page_size = serializers.IntegerField(min_value=1, max_value=PAGE_SIZE_MAX, default=100)
    status = serializers.ChoiceField(
        BatchItem.Status.choices, required=False, help_text="Only the items in this state."
    )
