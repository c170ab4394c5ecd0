"""Request limits per client: a fixed-window counter in the shared cache.

A counter per (scope, client, window) costs one round trip, where DRF's own throttles keep a list
of every request time per client. When the cache is down the request is let through: a limit
must not take the site down with it. Used by the API's throttle and by the pages that compute
or store (`advisor.page_limits`).
"""

from __future__ import annotations

import logging
import time
from typing import Any
from weakref import WeakKeyDictionary

from django.core.cache import cache, caches
from django.core.cache.backends.redis import RedisCache
from redis.commands.core import Script

logger = logging.getLogger(__name__)

PERIODS = {"second": 1, "minute": 60, "hour": 3600, "day": 86400}


def parse_rate(rate: str) -> tuple[int, int]:
    """'120/minute' -> (120, 60)."""
    count, _, period = rate.partition("/")
    return int(count), PERIODS[period]


def over_limit(scope: str, ident: str, rate: str) -> float | None:
    """Count this request; None when it is within `rate`, else the seconds until the window ends."""
    limit, period = parse_rate(rate)
    now = time.time()
    window = int(now // period)
    key = f"throttle:{scope}:{period}:{window}:{ident}"
    try:
        count = _count(key, period)
    except Exception:  # any cache failure: fail open, loudly
        logger.warning("rate-limit cache unavailable; request let through", exc_info=True)
        return None
    if count <= limit:
        return None
    return (window + 1) * period - now


def _count(key: str, period: int) -> int:
    """This request's number in its window; the first request of a window creates the key.

    On Redis: one EVALSHA of a script that runs INCR and EXPIRE NX, on a client kept for the
    cache's connection pool (Django's incr checks the key exists first, two round trips, and
    Django builds a new client object for every call, which cost more CPU than the round
    trip). Elsewhere (the local memory cache of `make run`), Django's incr and add."""
    backend = caches["default"]
    if isinstance(backend, RedisCache):
        redis_key = backend.make_and_validate_key(key)
        return int(_count_script(backend)(keys=[redis_key], args=[period + 1]))
    try:
        return int(cache.incr(key))
    except ValueError:  # no such key yet
        if cache.add(key, 1, timeout=period + 1):
            return 1
        return int(cache.incr(key))  # another process created it meanwhile


# INCR, and a lifetime for a key that has none (EXPIRE NX: Redis 7), in one atomic command.
_COUNT_LUA = """
local count = redis.call('INCR', KEYS[1])
redis.call('EXPIRE', KEYS[1], ARGV[1], 'NX')
return count
"""
_SCRIPTS: WeakKeyDictionary[Any, Script] = WeakKeyDictionary()


def _count_script(backend: RedisCache) -> Script:
    """The counting script on a client of the backend's write pool, made once per backend
    client (Django's cache handler keeps one per thread); redis-py loads the script into a
    server that does not know it yet (EVALSHA, then SCRIPT LOAD on NOSCRIPT)."""
    pools = backend._cache
    script = _SCRIPTS.get(pools)
    if script is None:
        client = pools.get_client(write=True)
        script = _SCRIPTS[pools] = client.register_script(_COUNT_LUA)
    return script
