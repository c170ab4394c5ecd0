"""Request limits for the pages that compute or store (presets, wizard posts, what-if, batch
uploads): the same per-address counter as the API, answered with a 429 page and Retry-After."""

from __future__ import annotations

import functools
import math
from collections.abc import Callable
from typing import Any

from django.conf import settings
from django.http import HttpRequest, HttpResponse
from django.template.response import TemplateResponse

from advisor.client import client_address
from advisor.ratelimit import over_limit

View = Callable[..., HttpResponse]


def page_limited(view: View) -> View:
    """Count POSTs per client address against PAGE_RATE; GETs are free (they only read)."""

    @functools.wraps(view)
    def limited(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        if request.method == "POST":
            wait = over_limit("page", f"addr:{client_address(request)}", settings.PAGE_RATE)
            if wait is not None:
                seconds = max(1, math.ceil(wait))
                response = TemplateResponse(request, "429.html", {"seconds": seconds}, status=429)
                response["Retry-After"] = str(seconds)
                return response
        return view(request, *args, **kwargs)

    return limited
