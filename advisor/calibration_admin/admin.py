"""Admin for the calibration: review users' measurements, start a fit, read past runs.

Approving and rejecting go through the services, so the admin cannot approve a measurement
that would not enter the fit. Fitting runs on a worker (the Celery task), never in a request
unless no broker is configured (then Celery runs it in-process).
"""

from typing import Any

from django.contrib import admin, messages
from django.core.exceptions import PermissionDenied
from django.db.models import QuerySet
from django.http import HttpRequest, HttpResponseRedirect
from django.shortcuts import redirect
from django.urls import URLPattern, path
from django.views.decorators.http import require_POST
from kombu.exceptions import OperationalError as BrokerUnavailable

from advisor.calibration_admin.runs import (
    MeasurementUnusable,
    measurement_approve,
    measurement_reject,
)
from advisor.calibration_admin.tasks import calibration_fit
from advisor.models import CalibrationRun, Measurement

CHANGE_LIST = "calibration_admin/admin_change_list.html"


@admin.register(Measurement)
class MeasurementAdmin(admin.ModelAdmin):
    """Submissions wait here; only approved ones enter the next fit."""

    change_list_template = CHANGE_LIST
    list_display = ("id", "kind", "metric", "value", "status", "submitted_by", "created_at")
    list_filter = ("status", "kind")
    search_fields = ("source", "notes")
    date_hierarchy = "created_at"
    readonly_fields = ("status", "created_at", "reviewed_at", "submitted_by")
    actions = ("approve", "reject")

    @admin.action(description="Approve the selected measurements (used by the next fit)")
    def approve(self, request: HttpRequest, queryset: QuerySet[Measurement]) -> None:
        done = 0
        for measurement_id in queryset.values_list("pk", flat=True):
            try:
                measurement_approve(measurement_id=measurement_id)
                done += 1
            except MeasurementUnusable as problem:
                self.message_user(request, str(problem), messages.ERROR)
        if done:
            self.message_user(request, f"{done} approved; they enter the next fit.")

    @admin.action(description="Reject the selected measurements")
    def reject(self, request: HttpRequest, queryset: QuerySet[Measurement]) -> None:
        for measurement_id in queryset.values_list("pk", flat=True):
            measurement_reject(measurement_id=measurement_id)
        self.message_user(request, f"{queryset.count()} rejected.")


@admin.register(CalibrationRun)
class CalibrationRunAdmin(admin.ModelAdmin):
    """Read-only: runs are written by the fit. The list has the "Fit now" button."""

    change_list_template = CHANGE_LIST
    list_display = ("version", "trigger", "points", "sources", "coverage", "median_width_ratio")
    list_filter = ("trigger",)
    date_hierarchy = "created_at"
    readonly_fields = (
        "version",
        "trigger",
        "artifact",
        "points",
        "sources",
        "coverage",
        "median_width_ratio",
        "created_at",
        "report",
    )

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(
        self, request: HttpRequest, obj: CalibrationRun | None = None
    ) -> bool:
        return False

    def get_urls(self) -> list[URLPattern]:
        fit = path("fit/", self.admin_site.admin_view(self.fit_view), name="advisor_fit_now")
        return [fit, *super().get_urls()]

    def fit_view(self, request: HttpRequest, *args: Any) -> HttpResponseRedirect:
        return _fit_now(request, self)


@require_POST
def _fit_now(request: HttpRequest, model_admin: admin.ModelAdmin) -> HttpResponseRedirect:
    """Queue one fit. Nothing is written here, so there is no commit to wait for."""
    if not request.user.has_perm("advisor.add_calibrationrun"):
        raise PermissionDenied
    try:
        calibration_fit.delay()
    except BrokerUnavailable:
        model_admin.message_user(request, "The task queue is unreachable.", messages.ERROR)
    else:
        model_admin.message_user(request, "Fit queued: the new run appears here when done.")
    return redirect("admin:advisor_calibrationrun_changelist")
