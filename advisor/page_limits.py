"""Request limits for the pages that compute or store (presets, wizard posts, the result page and
its what-if, downloads, the sources page, batch uploads): the same per-address counter as the
API (`advisor.ratelimit`), weighed by the work a request makes, answered 429 with Retry-After.

A view says what a request to it costs with `limited_by`; `PageLimitMiddleware` counts that
cost and refuses, before sessions, CSRF, the database, the view or any template. A refusal
must cost far less than the page it refuses: one address's 32 connections of result-page GETs
keep every sync worker busy, and while each 429 went through the whole middleware stack and
rendered a page (about 10 ms), another user's request waited behind them (benchmarks/page_flood.sh).
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

from django.conf import settings
from django.http import HttpRequest, HttpResponse
from django.urls import Resolver404, resolve

from advisor.client import client_address
from advisor.ratelimit import body_units, over_limit

View = Callable[..., HttpResponse]
Cost = Callable[[HttpRequest], int]
COST_ATTRIBUTE = "page_cost"  # on a view: its Cost (functools.wraps carries it to wrappers)

# Plain HTML built by formatting, not a template: the refusal reads no request data but its wait.
REFUSAL_PAGE = """<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Too many requests · InnoDB IO Advisor</title>
</head><body><h1>Too many requests from your address</h1>
<p>This site computes recommendations for everyone, so each address may send only so many
requests in a while. Wait {seconds} second{plural} and send it again.</p>
<p>For many hosts at once, use the fleet batches (/batches/) or the REST API with a token.</p>
</body></html>
"""


def post_cost(request: HttpRequest) -> int:
    """A POST costs its body's units (a pasted my.cnf weighs its size); other methods only
    read, and are free."""
    return body_units(request) if request.method == "POST" else 0


def get_cost(request: HttpRequest) -> int:
    """A GET of a page that computes costs one unit: the result page (its displays, and with
    `?whatif=` two runs of the engine) took 45-60 ms on this project's 2-vCPU host, the sources
    page 115 ms and a download 3-8 ms (the test client, DEBUG off), each at least a wizard
    POST's work. Other methods are answered 405 by the view, and are free."""
    return 1 if request.method == "GET" else 0


def limited_by(cost: Cost) -> Callable[[View], View]:
    """Mark a view whose requests count `cost(request)` per client address against PAGE_RATE
    (a cost of 0 is not counted); `PageLimitMiddleware` does the counting."""

    def decorate(view: View) -> View:
        setattr(view, COST_ATTRIBUTE, cost)
        return view

    return decorate


page_limited = limited_by(post_cost)


class PageLimitMiddleware:
    """Counts a limited view's cost before the middleware that needs the session, the CSRF
    token or the database runs; past PAGE_RATE answers `too_many` at once. Placed after the
    middleware that only add headers, so that the refusal carries the site's security headers.
    """

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        wait = _wait(request)
        if wait is None:
            return self.get_response(request)
        return too_many(wait)


def _wait(request: HttpRequest) -> float | None:
    """Seconds until the address may send this request again, after counting its cost; None
    when it is within PAGE_RATE or is not limited."""
    try:
        view: Any = resolve(request.path_info).func
    except Resolver404:
        return None
    cost: Cost | None = getattr(view, COST_ATTRIBUTE, None)
    units = cost(request) if cost is not None else 0
    if units <= 0:
        return None
    ident = f"addr:{client_address(request)}"
    return over_limit("page", ident, settings.PAGE_RATE, cost=units)


def too_many(wait: float) -> HttpResponse:
    """The 429: a formatted string, Retry-After, and not to be kept by a cache."""
    seconds = max(1, math.ceil(wait))
    html = REFUSAL_PAGE.format(seconds=seconds, plural="" if seconds == 1 else "s")
    response = HttpResponse(html, status=429)
    response["Retry-After"] = str(seconds)
    response["Cache-Control"] = "no-store"
    return response
