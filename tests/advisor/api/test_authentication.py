"""Failed token checks are limited per address, before the token is looked up."""

from __future__ import annotations

import pytest
from django.test import Client

pytestmark = pytest.mark.django_db
URL = "/api/v1/rules"


def _with_token(client: Client, key: str) -> int:
    return client.get(URL, HTTP_AUTHORIZATION=f"Token {key}").status_code


def test_wrong_tokens_past_the_rate_get_429_without_a_database_lookup(
    settings, django_assert_num_queries
):
    """300 wrong tokens were 300 x 401, each a database lookup."""
    settings.AUTH_FAILURE_RATE = "3/minute"
    client = Client(REMOTE_ADDR="192.0.2.20")
    assert [_with_token(client, f"wrong-{i}") for i in range(3)] == [401] * 3
    with django_assert_num_queries(0):
        refused = client.get(URL, HTTP_AUTHORIZATION="Token wrong-again")
    assert refused.status_code == 429
    assert 1 <= int(refused["Retry-After"]) <= 60
    assert "failed token checks" in refused.json()["message"]


def test_a_malformed_token_header_counts_as_a_failure(settings):
    settings.AUTH_FAILURE_RATE = "2/minute"
    client = Client(REMOTE_ADDR="192.0.2.21")
    assert [_with_token(client, "two words") for _ in range(2)] == [401, 401]
    assert _with_token(client, "wrong") == 429


def test_the_failure_limit_counts_each_address_apart(settings):
    settings.AUTH_FAILURE_RATE = "2/minute"
    first, second = Client(REMOTE_ADDR="192.0.2.22"), Client(REMOTE_ADDR="192.0.2.23")
    assert [_with_token(first, "wrong") for _ in range(3)] == [401, 401, 429]
    assert _with_token(second, "wrong") == 401


def test_right_tokens_and_requests_without_one_are_not_counted(settings, token):
    settings.AUTH_FAILURE_RATE = "1/minute"
    client = Client(REMOTE_ADDR="192.0.2.24")
    assert [_with_token(client, token) for _ in range(3)] == [200] * 3
    assert [client.get(URL).status_code for _ in range(3)] == [200] * 3
    assert _with_token(client, "wrong") == 401
    assert _with_token(client, token) == 429  # past the limit the address is not checked at all
    assert client.get(URL).status_code == 200  # anonymous use goes on


def test_the_lean_post_path_is_limited_too(settings):
    settings.AUTH_FAILURE_RATE = "1/minute"
    client = Client(REMOTE_ADDR="192.0.2.25")
    codes = [
        client.post(
            "/api/v1/recommendations",
            "{}",
            content_type="application/json",
            HTTP_AUTHORIZATION="Token wrong",
        ).status_code
        for _ in range(2)
    ]
    assert codes == [401, 429]
