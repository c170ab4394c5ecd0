"""One error shape for every refusal, from the one exception handler."""

from __future__ import annotations

import pytest
from rest_framework.exceptions import ValidationError

from advisor.api import errors as api_errors
from advisor.api.errors import flatten
from advisor.recommendations import api_views as recommendations
from rules.inputs.examples import raw_profile

pytestmark = pytest.mark.django_db
SHAPE = {"message", "errors"}


@pytest.mark.parametrize("method", ["get", "post", "put", "delete"])
def test_an_unknown_api_path_is_a_json_404_for_any_method(client, method):
    response = getattr(client, method)("/api/v1/no-such-thing")
    assert response.status_code == 404
    assert response["Content-Type"] == "application/json"
    assert set(response.json()) == SHAPE
    assert "/api/v1/docs" in response.json()["message"]


def test_a_trailing_slash_is_an_unknown_path_not_a_redirect(client):
    assert client.post("/api/v1/recommendations/", {}).status_code == 404


def test_a_wrong_method_is_a_405_in_the_shape(client):
    response = client.delete("/api/v1/rules")
    assert response.status_code == 405
    assert set(response.json()) == SHAPE


def test_no_token_is_a_401_that_says_how_to_authenticate(client):
    response = client.post("/api/v1/batches", "{}", content_type="application/json")
    assert response.status_code == 401
    assert response["WWW-Authenticate"] == "Token"
    assert set(response.json()) == SHAPE


def test_a_wrong_token_is_a_401(client):
    response = client.get("/api/v1/rules", HTTP_AUTHORIZATION="Token not-a-real-key")
    assert response.status_code == 401
    assert response.json()["message"] == "Invalid token."


def test_too_many_requests_are_429_with_retry_after(post_json, settings):
    settings.API_RATE_ANON = "2/minute"
    codes = [post_json("/api/v1/recommendations?store=false", raw_profile()).status_code]
    codes += [post_json("/api/v1/recommendations?store=false", raw_profile()).status_code]
    throttled = post_json("/api/v1/recommendations?store=false", raw_profile())
    assert codes == [200, 200]
    assert throttled.status_code == 429
    assert set(throttled.json()) == SHAPE
    assert 1 <= int(throttled["Retry-After"]) <= 60


def test_a_token_has_its_own_allowance(post_json, token, settings):
    settings.API_RATE_ANON = "1/minute"
    assert post_json("/api/v1/recommendations?store=false", raw_profile()).status_code == 200
    assert post_json("/api/v1/recommendations?store=false", raw_profile()).status_code == 429
    again = post_json("/api/v1/recommendations?store=false", raw_profile(), token=token)
    assert again.status_code == 200


def test_the_limit_still_holds_when_the_cache_is_down(post_json, settings):
    """Counted in this process instead (advisor.ratelimit): not open, and not a site outage."""
    settings.API_RATE_ANON = "2/minute"
    settings.CACHES = {
        "default": {
            "BACKEND": "django.core.cache.backends.redis.RedisCache",
            "LOCATION": "redis://127.0.0.1:1/0",  # nothing listens on port 1
        }
    }
    codes = [
        post_json("/api/v1/recommendations?store=false", raw_profile()).status_code
        for _ in range(3)
    ]
    assert codes == [200, 200, 429]


def _with_paste(size: int) -> dict[str, object]:
    """A profile whose current my.cnf is about `size` bytes of distinct variables."""
    lines = [f"loose_variable_{i}=value_{i}\n" for i in range(size // 28)]
    return {**raw_profile(), "current": {"mycnf": "[mysqld]\n" + "".join(lines)}}


def test_a_big_paste_uses_more_of_the_allowance_than_a_small_one(post_json, settings):
    """Four concurrent 1 MB pastes within 120 requests a minute slowed another client from 17 ms
    to 1,679 ms: a request now counts one unit per started 32 KiB of body."""
    settings.API_RATE_ANON = "20/minute"
    small = [post_json("/api/v1/recommendations?store=false", _with_paste(1000)) for _ in range(5)]
    assert [r.status_code for r in small] == [200] * 5  # 5 of the 20 units
    big = _with_paste(200_000)  # 7 units each
    assert [
        post_json("/api/v1/recommendations?store=false", big).status_code for _ in range(3)
    ] == [
        200,
        200,
        429,
    ]


# A database outage: tests/worker/test_database_down.py, against gunicorn and a real outage.


def test_a_bug_is_a_500_in_the_shape_and_is_logged(post_json, monkeypatch, caplog):
    def bug(**kwargs):
        raise RuntimeError("boom")

    monkeypatch.setattr(recommendations, "recommendation_compute", bug)
    response = post_json("/api/v1/recommendations?store=false", raw_profile())
    assert response.status_code == 500
    assert set(response.json()) == SHAPE
    assert "boom" not in response.content.decode()
    assert any(r.name == api_errors.__name__ and r.exc_info for r in caplog.records)


class TestFlatten:
    def test_nested_serializer_errors_become_dotted_paths(self):
        detail = ValidationError(
            {"profiles": [{}, {"name": ["bad"]}], "non_field_errors": ["whole"]}
        ).detail
        assert flatten(detail) == {"profiles.1.name": ["bad"], "": ["whole"]}

    def test_a_list_of_messages_stays_under_its_field(self):
        assert flatten(ValidationError({"kind": ["a", "b"]}).detail) == {"kind": ["a", "b"]}


def test_the_limit_is_shared_through_redis(post_json, settings):
    settings.CACHES = {
        "default": {
            "BACKEND": "django.core.cache.backends.redis.RedisCache",
            "LOCATION": "redis://127.0.0.1:6379/14",
        }
    }
    from django.core.cache import cache

    cache.clear()
    settings.API_RATE_ANON = "2/minute"
    codes = [post_json("/api/v1/recommendations?store=false", raw_profile()).status_code]
    codes += [post_json("/api/v1/recommendations?store=false", raw_profile()).status_code]
    codes += [post_json("/api/v1/recommendations?store=false", raw_profile()).status_code]
    assert codes == [200, 200, 429]
    cache.clear()
