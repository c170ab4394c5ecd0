"""The fixed-window counter on a real Redis: counts weighed by cost, windows' lifetimes, one round
trip, and the per-process count while the cache does not answer."""

from __future__ import annotations

import uuid

import pytest
import redis
from django.test import RequestFactory

from advisor.ratelimit import body_units, over_limit, wait_if_over

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


def test_a_refused_client_costs_the_cache_nothing_until_its_window_ends(on_redis):
    """Every later request of a window that is already over is refused whatever it adds: this
    process answers it without a round trip (a flood of refusals is cheap, advisor.page_limits)."""
    scope = f"test-{uuid.uuid4().hex}"
    assert [over_limit(scope, "addr:a", "2/minute") for _ in range(2)] == [None] * 2
    assert over_limit(scope, "addr:a", "2/minute") is not None
    key = _key(scope, "addr:a", 60)
    assert on_redis.get(key) == b"3"
    assert all(over_limit(scope, "addr:a", "2/minute") is not None for _ in range(20))
    assert on_redis.get(key) == b"3"
    assert over_limit(scope, "addr:b", "2/minute") is None  # only that client


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


CLOSED_PORT = "redis://127.0.0.1:1/0"  # nothing listens on port 1: connections are refused


@pytest.fixture
def cache_down(settings) -> None:
    settings.CACHES = {
        "default": {
            "BACKEND": "django.core.cache.backends.redis.RedisCache",
            "LOCATION": CLOSED_PORT,
        }
    }


def test_a_request_counts_its_cost(on_redis):
    scope = f"test-{uuid.uuid4().hex}"
    assert over_limit(scope, "addr:a", "10/minute", cost=4) is None
    assert over_limit(scope, "addr:a", "10/minute", cost=6) is None
    assert on_redis.get(_key(scope, "addr:a", 60)) == b"10"
    assert over_limit(scope, "addr:a", "10/minute") is not None  # the 11th unit


def test_a_cost_above_the_rate_passes_once_in_an_empty_window(on_redis):
    scope = f"test-{uuid.uuid4().hex}"
    assert over_limit(scope, "addr:a", "5/minute", cost=500) is None
    assert over_limit(scope, "addr:a", "5/minute") is not None


@pytest.mark.parametrize(
    ("length", "units"),
    [(None, 1), ("", 1), ("0", 1), ("425", 1), ("32768", 1), ("32769", 2), ("1000000", 31)],
)
def test_a_body_costs_one_unit_per_started_32_kib(length, units):
    meta = {} if length is None else {"CONTENT_LENGTH": length}
    assert body_units(RequestFactory().generic("POST", "/", **meta)) == units


def test_a_peek_does_not_count_and_says_when_the_rate_is_used(on_redis):
    scope = f"test-{uuid.uuid4().hex}"
    assert wait_if_over(scope, "addr:a", "2/minute") is None
    over_limit(scope, "addr:a", "2/minute")
    assert wait_if_over(scope, "addr:a", "2/minute") is None
    over_limit(scope, "addr:a", "2/minute")
    wait = wait_if_over(scope, "addr:a", "2/minute")
    assert wait is not None
    assert 0 < wait <= 60
    assert on_redis.get(_key(scope, "addr:a", 60)) == b"2"


def test_a_redis_that_does_not_answer_still_limits_in_this_process(cache_down, caplog):
    """The limit fails to this process's memory: neither open (one client could slow everyone
    while Redis is down) nor closed (a cache outage would be a site outage)."""
    assert over_limit("test-down", "addr:a", "2/minute") is None
    assert over_limit("test-down", "addr:a", "2/minute") is None
    assert over_limit("test-down", "addr:a", "2/minute") is not None
    assert over_limit("test-down", "addr:b", "2/minute") is None  # each client its own count
    assert wait_if_over("test-down", "addr:a", "2/minute") is not None
    assert "rate-limit cache unavailable" in caplog.text


def test_after_a_failure_the_shared_cache_is_left_alone_for_a_while(cache_down, caplog):
    """A cache that hangs would otherwise cost every request its connect timeout."""
    over_limit("test-down", "addr:a", "5/minute")
    over_limit("test-down", "addr:a", "5/minute")
    failures = [r for r in caplog.records if "rate-limit cache unavailable" in r.getMessage()]
    assert len(failures) == 1
