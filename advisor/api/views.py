"""Answers for what no endpoint matches, and the interactive docs."""

from __future__ import annotations

from typing import Any

from django.http import HttpResponse
from django.template import engines
from drf_spectacular.plumbing import set_query_parameters
from drf_spectacular.utils import extend_schema
from drf_spectacular.views import SpectacularSwaggerSplitView
from rest_framework.exceptions import NotFound
from rest_framework.request import Request
from rest_framework.views import APIView


@extend_schema(exclude=True)
class ApiNotFoundApi(APIView):
    """Any other path under /api/v1/: a 404 in the error shape, whatever the method."""

    authentication_classes = ()
    throttle_classes = ()

    def dispatch_404(self, request: Request, *args: Any, **kwargs: Any) -> None:
        raise NotFound(f"No API endpoint at {request.path}; the endpoints are at /api/v1/docs.")

    get = post = put = patch = delete = head = options = dispatch_404


_DOCS_PAGE = engines["django"].from_string(
    """<!DOCTYPE html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <meta name="viewport" content="width=device-width, initial-scale=1">
  <title>{{ title }}</title>
  <link rel="icon" href="{{ favicon_href }}">
  <link rel="stylesheet" href="{{ swagger_ui_css }}">
</head>
<body>
  <div id="swagger-ui"></div>
  <script src="{{ swagger_ui_bundle }}"></script>
  <script src="{{ swagger_ui_standalone }}"></script>
  <script src="{{ script_url }}"></script>
</body>
</html>
"""
)


class ApiDocsApi(SpectacularSwaggerSplitView):
    """Swagger UI from the sidecar's local files; its start-up script is a separate request, so
    the page holds no inline script or style and passes the Content-Security-Policy."""

    throttle_classes = ()

    @extend_schema(exclude=True)
    def get(self, request: Request, *args: Any, **kwargs: Any) -> Any:
        if request.GET.get("script") is not None:
            return super().get(request, *args, **kwargs)
        context = {
            "title": self.title or "InnoDB IO Advisor API",
            "swagger_ui_css": self._swagger_ui_resource("swagger-ui.css"),
            "swagger_ui_bundle": self._swagger_ui_resource("swagger-ui-bundle.js"),
            "swagger_ui_standalone": self._swagger_ui_resource("swagger-ui-standalone-preset.js"),
            "favicon_href": self._swagger_ui_favicon(),
            "script_url": set_query_parameters(request.get_full_path(), script=""),
        }
        return HttpResponse(_DOCS_PAGE.render(context), content_type="text/html; charset=utf-8")

    @extend_schema(exclude=True)
    def options(self, request: Request, *args: Any, **kwargs: Any) -> HttpResponse:
        """The methods (DRF adds the Allow header), with no body: DRF's own answer is a
        metadata document, which this view's only renderer, an HTML template, cannot write."""
        return HttpResponse()
