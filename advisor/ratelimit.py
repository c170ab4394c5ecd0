"""Request limits per client: a fixed-window counter in the shared cache.

A counter per (scope, client, window) costs one `incr`, where DRF's own throttles keep a list
of every request time per client. When the cache is down the request is let through: a limit
must not take the site down with it. Used by the API's throttle and by the pages that compute
or store (`advisor.page_limits`).
"""

from __future__ import annotations

import logging
import time

from django.core.cache import cache, caches
from django.core.cache.backends.redis import RedisCache

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

    On Redis: INCR and EXPIRE NX in one pipelined round trip on the cache's pooled connection
    (Django's own incr checks the key exists first: two round trips). Elsewhere (the local
    memory cache of `make run`), Django's incr and add."""
    backend = caches["default"]
    if isinstance(backend, RedisCache):
        redis_key = backend.make_and_validate_key(key)
        client = backend._cache.get_client(redis_key, write=True)
        pipeline = client.pipeline(transaction=False)
        pipeline.incr(redis_key)
        pipeline.expire(redis_key, period + 1, nx=True)
        count, _ = pipeline.execute()
        return int(count)
    try:
        return int(cache.incr(key))
    except ValueError:  # no such key yet
        if cache.add(key, 1, timeout=period + 1):
            return 1
        return int(cache.incr(key))  # another process created it meanwhile
