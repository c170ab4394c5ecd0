"""Request limits for the pages that compute or store (presets, wizard posts, the result page and
its what-if, batch uploads): the same per-address counter as the API, weighed by the work a
request makes, answered with a 429 page and Retry-After."""

from __future__ import annotations

import functools
import math
from collections.abc import Callable
from typing import Any

from django.conf import settings
from django.http import HttpRequest, HttpResponse
from django.template.response import TemplateResponse

from advisor.client import client_address
from advisor.ratelimit import body_units, over_limit

View = Callable[..., HttpResponse]
Cost = Callable[[HttpRequest], int]


def post_cost(request: HttpRequest) -> int:
    """A POST costs its body's units (a pasted my.cnf weighs its size); other methods only
    read, and are free."""
    return body_units(request) if request.method == "POST" else 0


def limited_by(cost: Cost) -> Callable[[View], View]:
    """Count `cost(request)` per client address against PAGE_RATE; a cost of 0 is not counted."""

    def decorate(view: View) -> View:
        @functools.wraps(view)
        def limited(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
            units = cost(request)
            if units > 0:
                ident = f"addr:{client_address(request)}"
                wait = over_limit("page", ident, settings.PAGE_RATE, cost=units)
                if wait is not None:
                    return _too_many(request, wait)
            return view(request, *args, **kwargs)

        return limited

    return decorate


page_limited = limited_by(post_cost)


def _too_many(request: HttpRequest, wait: float) -> HttpResponse:
    seconds = max(1, math.ceil(wait))
    response = TemplateResponse(request, "429.html", {"seconds": seconds}, status=429)
    response["Retry-After"] = str(seconds)
    return response
