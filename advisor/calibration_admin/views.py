"""The calibration page: one thin view over the newest artifact's report."""

from django.http import HttpRequest
from django.template.response import TemplateResponse
from django.views.decorators.http import require_GET

from advisor.calibration_admin.page import latest_calibration, page_context


@require_GET
def calibration_page(request: HttpRequest) -> TemplateResponse:
    calibration, missing = latest_calibration()
    context = page_context(calibration) if calibration is not None else {"missing": missing}
    return TemplateResponse(request, "calibration_admin/page.html", context)
