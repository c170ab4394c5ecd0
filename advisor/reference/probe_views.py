"""`GET /probe`: the advisor-probe script, served as the file a DBA pipes into python3.

The probe is one standard-library file (`probe/advisor_probe.py`, Python 3.8+) that runs on the
database host; the app only hands out its bytes and never imports it.
"""

from __future__ import annotations

import functools
from pathlib import Path

from django.conf import settings
from django.http import HttpRequest, HttpResponse
from django.views.decorators.http import require_GET

PROBE_NAME = "advisor-probe"


@functools.cache
def probe_bytes() -> bytes:
    """The probe's text, read once per process (it changes only with a deploy)."""
    return (Path(settings.BASE_DIR) / "probe" / "advisor_probe.py").read_bytes()


@require_GET
def probe_download(request: HttpRequest) -> HttpResponse:
    response = HttpResponse(probe_bytes(), content_type="text/x-python; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="{PROBE_NAME}"'
    response["X-Content-Type-Options"] = "nosniff"
    return response
