"""Fixtures for the API tests: a client, a token, and rate limits out of the way."""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Callable
from typing import Any

import pytest
from django.core.cache import cache
from django.core.management import call_command
from django.test import Client


@pytest.fixture(autouse=True)
def _generous_rates_and_empty_cache(settings: Any) -> None:
    settings.API_RATE_ANON = "1000000/minute"
    settings.API_RATE_USER = "1000000/minute"
    cache.clear()


@pytest.fixture
def token(db: None, capsys: pytest.CaptureFixture[str]) -> str:
    call_command("create_api_token", "ansible-test")
    return capsys.readouterr().out.strip()


@pytest.fixture
def other_token(db: None, capsys: pytest.CaptureFixture[str]) -> str:
    call_command("create_api_token", "someone-else")
    return capsys.readouterr().out.strip()


Post = Callable[..., Any]


@pytest.fixture
def post_json(client: Client) -> Post:
    """POST a JSON body: post_json(url, body, token=..., **headers)."""

    def post(url: str, body: Any, *, token: str | None = None, **extra: Any) -> Any:
        if token:
            extra["HTTP_AUTHORIZATION"] = f"Token {token}"
        return client.post(url, json.dumps(body), content_type="application/json", **extra)

    return post


@pytest.fixture
def get(client: Client) -> Callable[..., Any]:
    def do_get(url: str, *, token: str | None = None, **extra: Any) -> Any:
        if token:
            extra["HTTP_AUTHORIZATION"] = f"Token {token}"
        return client.get(url, **extra)

    return do_get


SCHEMATHESIS_CALLS: Counter[str] = Counter()


@pytest.fixture
def schemathesis_calls() -> Counter[str]:
    """Requests schemathesis made, per operation; the total is printed at the end of the run."""
    return SCHEMATHESIS_CALLS


def pytest_terminal_summary(terminalreporter: Any) -> None:
    if SCHEMATHESIS_CALLS:
        per_operation = ", ".join(f"{k}: {n}" for k, n in sorted(SCHEMATHESIS_CALLS.items()))
        total = sum(SCHEMATHESIS_CALLS.values())
        terminalreporter.write_line(f"schemathesis: {total} requests ({per_operation})")
