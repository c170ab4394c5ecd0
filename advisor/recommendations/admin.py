"""Stored recommendations in the admin: read-only."""

from django.contrib import admin
from django.http import HttpRequest

from advisor.models import Recommendation


@admin.register(Recommendation)
class RecommendationAdmin(admin.ModelAdmin):
    """Read-only: recommendations are written by the engine, never edited by hand."""

    list_display = ("id", "ruleset_version", "calibration_version", "created_at")
    list_filter = ("ruleset_version",)
    search_fields = ("id",)
    date_hierarchy = "created_at"
    readonly_fields = (
        "id",
        "ruleset_version",
        "calibration_version",
        "created_at",
        "profile",
        "result",
    )

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(
        self, request: HttpRequest, obj: Recommendation | None = None
    ) -> bool:
        return False
