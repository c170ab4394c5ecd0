"""PostgreSQL down or stuck, behind gunicorn with production settings: every face answers a
quick 503 (JSON with Retry-After for the API, the 503 page for people), /healthz names the
database, and the app recovers by itself when the database answers again."""

from __future__ import annotations

import http.cookiejar
import json
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from typing import Any

import pytest
from django.db import connection

from rules.inputs.examples import raw_profile
from tests.worker.conftest import Processes, database_url
from tests.worker.stall_proxy import StallProxy, proxy_to_test_database

pytestmark = [pytest.mark.worker, pytest.mark.django_db(transaction=True)]
# With the production defaults (a 20 s budget for the whole request), a database that stops
# answering is answered 503 within this: a web worker is not tied up for long.
ANSWER_WITHIN_S = 5.0


@pytest.fixture
def proxy() -> Iterator[StallProxy]:
    yield from proxy_to_test_database()


@pytest.fixture
def web(processes: Processes, proxy: StallProxy) -> str:
    """gunicorn with the production settings' timeouts, on a database behind the proxy."""
    proxied = database_url().replace(
        f":{connection.settings_dict['PORT'] or 5432}/", f":{proxy.port}/"
    )
    return processes.web("", env={"DATABASE_URL": proxied})


COOKIES = http.cookiejar.CookieJar()
BROWSER = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(COOKIES))


def call(method: str, url: str, body: Any = None) -> tuple[int, dict[str, str], bytes, float]:
    """(status, headers, body, seconds) as a browser with cookies would get them (the CSRF
    token of an earlier page goes along with a form post); never raises for an HTTP status."""
    data = json.dumps(body).encode() if body is not None else None
    headers = {"Content-Type": "application/json"} if data else {}
    csrf = next((c.value for c in COOKIES if c.name == "csrftoken"), None)
    if method == "POST" and csrf:
        headers["X-CSRFToken"] = csrf
    request = urllib.request.Request(url, data, headers, method=method)
    started = time.monotonic()
    try:
        with BROWSER.open(request, timeout=60) as response:
            status, got, content = response.status, dict(response.headers), response.read()
    except urllib.error.HTTPError as error:
        with error:
            status, got, content = error.code, dict(error.headers), error.read()
    return status, got, content, time.monotonic() - started


def _assert_unavailable(web: str, result_path: str) -> None:
    status, headers, body, seconds = call(
        "POST", f"{web}/api/v1/recommendations", raw_profile(**{"hardware.ram_gb": 33})
    )
    assert status == 503, body[:300]
    assert seconds < ANSWER_WITHIN_S
    assert headers["Retry-After"] == "30"
    assert set(json.loads(body)) == {"message", "errors"}

    status, headers, body, seconds = call("GET", f"{web}/healthz")
    assert status == 503
    assert seconds < ANSWER_WITHIN_S
    assert json.loads(body)["checks"] == {"database": "unavailable"}

    for method, path in [("GET", result_path), ("POST", "/presets/nvme-modern/"),
                         ("POST", "/wizard/server/")]:  # fmt: skip
        status, headers, body, seconds = call(method, f"{web}{path}")
        assert status == 503, (path, body[:300])
        assert seconds < ANSWER_WITHIN_S, path
        assert b"Unavailable for a moment" in body
        assert headers["Retry-After"] == "30"


@pytest.mark.parametrize("failure", ["stall", "down"])
def test_a_database_that_stops_answering_gets_quick_503s_and_the_app_recovers(
    web: str, proxy: StallProxy, failure: str
) -> None:
    status, _, body, _ = call("POST", f"{web}/api/v1/recommendations", raw_profile())
    assert status == 201, body[:300]
    result_path = f"/r/{json.loads(body)['id']}/"
    assert call("GET", f"{web}{result_path}")[0] == 200  # and the CSRF cookie, as a browser

    getattr(proxy, failure)()
    _assert_unavailable(web, result_path)
    if failure == "stall":
        proxy.resume()
        status, _, body, _ = call("GET", f"{web}/healthz")
        assert status == 200, body
        assert call("GET", f"{web}{result_path}")[0] == 200
