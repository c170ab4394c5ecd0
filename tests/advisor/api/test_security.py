"""Production settings: `check --deploy` is clean, secrets have no defaults, and responses carry
the security headers. Run in subprocesses with production-like environments, because under
pytest the settings use development defaults."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

PROJECT = Path(__file__).resolve().parents[3]
PRODUCTION = {
    "DJANGO_DEBUG": "0",
    "DJANGO_SECRET_KEY": "k" * 20 + "A-very-long-random-production-secret-0123456789",
    "DJANGO_ALLOWED_HOSTS": "advisor.example.com",
    "DJANGO_BEHIND_HTTPS_PROXY": "1",
    "DJANGO_STATIC_MANIFEST": "0",  # no collectstatic in a test
}


def run(code: str, **env: str) -> subprocess.CompletedProcess[str]:
    clean = {k: v for k, v in os.environ.items() if not k.startswith(("DJANGO_", "PYTEST"))}
    return subprocess.run(
        [sys.executable, "-c", code],
        cwd=PROJECT,
        env={**clean, "DJANGO_SETTINGS_MODULE": "advisor.settings", **env},
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )


def test_check_deploy_finds_nothing_with_production_settings():
    code = (
        "import sys, django; django.setup(); from django.core.management import call_command; "
        "call_command('check', deploy=True, fail_level='WARNING')"
    )
    done = run(code, **PRODUCTION)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "System check identified no issues" in done.stdout


@pytest.mark.parametrize("missing", ["DJANGO_SECRET_KEY", "DJANGO_ALLOWED_HOSTS"])
def test_production_refuses_to_start_without_its_secrets(missing):
    env = {k: v for k, v in PRODUCTION.items() if k != missing}
    done = run("import django; django.setup()", **env)
    assert done.returncode != 0
    assert f"{missing} is required" in done.stderr


HEADERS_CODE = """
import json, django
django.setup()
from django.test import Client
client = Client(HTTP_HOST="advisor.example.com")
plain = client.get("/api/v1/rules")
secure = client.get("/batches/", HTTP_X_FORWARDED_PROTO="https")
health = client.get("/healthz")
limited = [client.get("/sources/", HTTP_X_FORWARDED_PROTO="https") for _ in range(2)][-1]
print(json.dumps({
    "limited": [limited.status_code, dict(limited.headers)],
    "plain": [plain.status_code, plain.get("Location")],
    "health": health.status_code,
    "headers": dict(secure.headers),
}))
"""


@pytest.fixture(scope="module")
def production_responses():
    env = {**PRODUCTION, "DATABASE_URL": os.environ.get("DATABASE_URL", "")}
    env["DJANGO_PAGE_RATE"] = "1/minute"  # the second GET of /sources/ is refused
    done = run(HEADERS_CODE, **env)
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout.strip().splitlines()[-1])


def test_plain_http_is_redirected_to_https(production_responses):
    status, location = production_responses["plain"]
    assert status == 301
    assert location == "https://advisor.example.com/api/v1/rules"


def test_healthz_answers_over_plain_http_for_container_checks(production_responses):
    assert production_responses["health"] in (200, 503)  # 503: no database in this subprocess


@pytest.mark.parametrize("response", ["page", "refusal"])
def test_https_responses_carry_the_security_headers(production_responses, response):
    """A page, and a 429 answered before most of the middleware (advisor.page_limits)."""
    if response == "refusal":
        status, headers = production_responses["limited"]
        assert status == 429
    else:
        headers = production_responses["headers"]
    assert headers["Strict-Transport-Security"] == ("max-age=31536000; includeSubDomains; preload")
    assert headers["X-Content-Type-Options"] == "nosniff"
    assert headers["Referrer-Policy"] == "same-origin"
    assert headers["X-Frame-Options"] == "DENY"
    policy = dict(
        part.strip().split(" ", 1) for part in headers["Content-Security-Policy"].split(";")
    )
    assert policy["script-src"] == "'self'"
    assert policy["default-src"] == "'self'"
    assert policy["frame-ancestors"] == "'none'"
    assert "unsafe-inline" not in headers["Content-Security-Policy"]


def test_the_test_client_gets_the_csp_too(client):
    response = client.get("/api/v1/docs")
    assert "script-src 'self'" in response["Content-Security-Policy"]
