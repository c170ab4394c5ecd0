"""The request counter on a real Redis: one pipelined round trip, a window that expires, and
a cache that went down counted in this process instead, without waiting for it."""

import time

import redis
from django.test import override_settings

from advisor.ratelimit import over_limit


def redis_cache(url: str) -> dict[str, dict[str, object]]:
    return {
        "default": {
            "BACKEND": "django.core.cache.backends.redis.RedisCache",
            "LOCATION": url,
            "OPTIONS": {"socket_connect_timeout": 0.5, "socket_timeout": 0.5},
        }
    }


def test_the_counter_counts_in_one_window_that_expires(shared_redis_url) -> None:
    with override_settings(CACHES=redis_cache(shared_redis_url)):
        verdicts = [over_limit("api", "addr:198.51.100.7", "2/minute") for _ in range(3)]
    assert verdicts[:2] == [None, None]
    assert verdicts[2] is not None
    assert 0 < verdicts[2] <= 60
    client = redis.Redis.from_url(shared_redis_url)
    (key,) = [k for k in client.keys("*") if b"198.51.100.7" in k]
    assert int(client.get(key)) == 3
    assert 0 < client.ttl(key) <= 61  # set once, by the window's first request
    client.close()


def test_a_cache_that_is_down_still_limits_and_answers_at_once(own_redis) -> None:
    own_redis.kill()
    with override_settings(CACHES=redis_cache(own_redis.url)):
        started = time.monotonic()
        verdicts = [over_limit("api", "addr:198.51.100.8", "1/minute") for _ in range(50)]
    assert verdicts[0] is None
    assert all(v is not None for v in verdicts[1:])
    assert time.monotonic() - started < 5
