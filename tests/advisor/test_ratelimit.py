"""The fixed-window counter on a real Redis: counts, windows' lifetimes, one round trip."""

from __future__ import annotations

import uuid

import pytest
import redis

from advisor.ratelimit import over_limit

REDIS_URL = "redis://127.0.0.1:6379/14"


@pytest.fixture
def on_redis(settings) -> redis.Redis:
    settings.CACHES = {
        "default": {"BACKEND": "django.core.cache.backends.redis.RedisCache", "LOCATION": REDIS_URL}
    }
    return redis.Redis.from_url(REDIS_URL)


def _key(scope: str, ident: str, period: int) -> str:
    """The Redis key of the one window counted so far (the cache prefixes and versions it)."""
    (key,) = redis.Redis.from_url(REDIS_URL).keys(f"*throttle:{scope}:{period}:*:{ident}")
    return str(key.decode())


def test_requests_within_the_rate_pass_and_the_next_is_told_how_long_to_wait(on_redis):
    scope = f"test-{uuid.uuid4().hex}"
    assert [over_limit(scope, "addr:a", "3/minute") for _ in range(3)] == [None] * 3
    wait = over_limit(scope, "addr:a", "3/minute")
    assert wait is not None
    assert 0 < wait <= 60
    assert over_limit(scope, "addr:b", "3/minute") is None  # another client, its own count


def test_a_window_s_counter_expires_just_after_the_window(on_redis):
    scope = f"test-{uuid.uuid4().hex}"
    over_limit(scope, "addr:a", "5/hour")
    key = _key(scope, "addr:a", 3600)
    assert on_redis.get(key) == b"1"
    assert 3590 < on_redis.ttl(key) <= 3601


def test_a_counter_left_without_a_lifetime_gets_one_and_keeps_its_count(on_redis):
    scope = f"test-{uuid.uuid4().hex}"
    over_limit(scope, "addr:a", "5/minute")
    key = _key(scope, "addr:a", 60)
    on_redis.persist(key)
    assert on_redis.ttl(key) == -1
    over_limit(scope, "addr:a", "5/minute")
    assert on_redis.get(key) == b"2"
    assert 0 < on_redis.ttl(key) <= 61


def test_a_redis_that_forgot_the_script_gets_it_again(on_redis):
    scope = f"test-{uuid.uuid4().hex}"
    over_limit(scope, "addr:a", "5/minute")
    on_redis.script_flush()  # as after a restart of Redis
    assert over_limit(scope, "addr:a", "5/minute") is None
    assert on_redis.get(_key(scope, "addr:a", 60)) == b"2"


def test_a_redis_that_does_not_answer_lets_the_request_through(settings, caplog):
    settings.CACHES = {
        "default": {
            "BACKEND": "django.core.cache.backends.redis.RedisCache",
            "LOCATION": "redis://127.0.0.1:1/0",  # nothing listens on port 1
        }
    }
    assert over_limit("test-down", "addr:a", "1/minute") is None
    assert over_limit("test-down", "addr:a", "1/minute") is None
    assert "rate-limit cache unavailable" in caplog.text
