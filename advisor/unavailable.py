"""When a service the app depends on is down or stuck: a quick 503, never a hang or a 500.

`RequestBudgetMiddleware` sits outermost and gives every request a time budget: a stuck
PostgreSQL accepts the connection and then never answers, no socket timeout of libpq catches
that, and without a budget the request hangs until the web server kills its worker. Django turns
an exception raised anywhere (a view, the session or auth middleware) into a response through
`handler500`; `server_error` answers a database error or a spent budget with a 503 (the API's
JSON error shape for `/api/`, the 503 page for the rest, both with `Retry-After`). The connect
and statement timeouts that make a down database fail fast are in settings.
"""

from __future__ import annotations

import logging
import sys
from collections.abc import Callable

from django.conf import settings
from django.db import DatabaseError, connections
from django.http import HttpRequest, HttpResponse
from django.template.loader import render_to_string

from advisor.api.errors import error_response
from advisor.deadline import OverBudget, can_interrupt, time_budget

logger = logging.getLogger(__name__)

RETRY_AFTER_SECONDS = 30


def unavailable_response(request: HttpRequest, message: str) -> HttpResponse:
    """A 503 in the face's own form: JSON for the API, the 503 page for people."""
    response: HttpResponse
    if request.path.startswith("/api/"):
        response = error_response(f"{message}; retry later.", status_code=503)
    else:
        html = render_to_string("503.html", {"message": message})
        response = HttpResponse(html, status=503)
    response["Retry-After"] = str(RETRY_AFTER_SECONDS)
    response["Cache-Control"] = "no-store"
    return response


class RequestBudgetMiddleware:
    """Outermost: the whole request, middleware included, runs within REQUEST_SECONDS.

    Only where the budget can cut the request short (gunicorn's sync workers run requests in
    the main thread); a threaded dev server's request is left alone rather than answered 503
    after its work is done.
    """

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        if not can_interrupt():
            return self.get_response(request)
        with time_budget(settings.REQUEST_SECONDS):
            return self.get_response(request)


def server_error(request: HttpRequest) -> HttpResponse:
    """handler500: Django calls it while handling the exception that no view or middleware
    caught, so the exception is still at hand. A database error or a spent budget is a 503;
    anything else a 500 in the face's own form (and it was logged by Django)."""
    problem = sys.exception()
    if isinstance(problem, DatabaseError):
        _drop_connections()
        return unavailable_response(request, "The database is unavailable")
    if isinstance(problem, OverBudget):
        logger.error("%s %s ran out of time (%s s)", request.method, request.path, problem.seconds)
        _drop_connections()
        return unavailable_response(request, "The service did not answer in time")
    if request.path.startswith("/api/"):
        return error_response("Internal error; it has been logged.", status_code=500)
    return HttpResponse(render_to_string("500.html"), status=500)


def _drop_connections() -> None:
    """A connection that failed or was interrupted mid-query is in an unknown state: close it,
    so the next request opens a fresh one."""
    for connection in connections.all(initialized_only=True):
        try:
            connection.close()
        except DatabaseError:
            logger.warning("could not close database connection %s", connection.alias)
