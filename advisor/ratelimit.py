"""Request limits per client: a fixed-window counter in the shared cache, weighed by cost.

A counter per (scope, client, window) costs one round trip, where DRF's own throttles keep a list
of every request time per client. A request adds its cost to the counter (a big body costs more
than a small one: `body_units`), so a limit bounds the work a client makes, not only its count.
Used by the API's throttle, by the failed-token limit and by the pages that compute or store
(`advisor.page_limits`).

When the shared cache does not answer, limits fail to this process's memory, not open and not
closed: each web process counts on its own (a client spread over N processes may make up to N
times the rate) until the shared cache answers again. Failing open let one client slow everyone
whenever Redis was down; failing closed would turn a cache outage into a site outage. After a
failure the shared cache is left alone for SHARED_RETRY_SECONDS, so that a cache that hangs
(rather than refuses) costs one connect timeout per process per interval, not one per request.
"""

from __future__ import annotations

import logging
import math
import threading
import time
from typing import Any
from weakref import WeakKeyDictionary

from django.core.cache import caches
from django.core.cache.backends.base import BaseCache
from django.core.cache.backends.locmem import LocMemCache
from django.core.cache.backends.redis import RedisCache
from django.core.signals import setting_changed
from django.dispatch import receiver
from django.http import HttpRequest
from redis.commands.core import Script

logger = logging.getLogger(__name__)

PERIODS = {"second": 1, "minute": 60, "hour": 3600, "day": 86400}

# advisor-engineering-judgement, measured with benchmarks/paste_cost.py (least of 9 requests, two
# runs on this project's shared 2-vCPU host): POST /api/v1/recommendations took 4-10 ms without a
# pasted my.cnf, 15-36 ms with 64 KiB of it and 49-177 ms with 256 KiB, so each 32 KiB of paste
# costs about one to two requests without one. One unit per started 32 KiB of body is that,
# rounded towards the client; a profile without a paste is 1 unit.
COST_UNIT_BYTES = 32 * 1024

# How long a process counts on its own after the shared cache failed, before asking it again.
SHARED_RETRY_SECONDS = 5.0

# The per-process fallback: LocMemCache for its lock, expiry and bounded size (past MAX_ENTRIES
# it drops a third of its keys; an attacker with that many addresses in one window can thereby
# reset some counts, and no more).
_LOCAL = LocMemCache("advisor-ratelimit-fallback", {"OPTIONS": {"MAX_ENTRIES": 50_000}})
_shared_down_until = 0.0
_state_lock = threading.Lock()

# Counter keys this process has seen over their limit, with the end of their window.
_refused: dict[str, float] = {}
REFUSED_MAX = 50_000  # as many as the fallback's; a few MB at most


def parse_rate(rate: str) -> tuple[int, int]:
    """'120/minute' -> (120, 60)."""
    count, _, period = rate.partition("/")
    return int(count), PERIODS[period]


def body_units(request: HttpRequest) -> int:
    """What a request costs: one unit per started COST_UNIT_BYTES of its declared body, at
    least one. Django reads no more of a body than its Content-Length says (a body without one
    reads as empty), so the header bounds the work the body can make."""
    declared = str(request.META.get("CONTENT_LENGTH") or "0")
    size = int(declared) if declared.isascii() and declared.isdigit() else 0
    return max(1, math.ceil(size / COST_UNIT_BYTES))


def over_limit(scope: str, ident: str, rate: str, *, cost: int = 1) -> float | None:
    """Count this request's `cost`; None when the window's total is within `rate`, else the
    seconds until the window ends. A cost above the whole rate counts as the whole rate, so the
    costliest request still passes in an otherwise empty window."""
    limit, period = parse_rate(rate)
    now = time.time()
    window = int(now // period)
    key = f"throttle:{scope}:{period}:{window}:{ident}"
    end = (window + 1) * period
    if _refused.get(key, 0.0) > now:
        return end - now
    count = _counted(key, period, min(max(cost, 1), limit))
    if count <= limit:
        return None
    _refuse_until(key, end)
    return end - now


def _refuse_until(key: str, end: float) -> None:
    """Remember that `key` is over its limit until its window ends: every later request of
    that window is refused whatever it adds, so it need not be counted. A refusal then costs
    no round trip to the cache, which matters while one client floods (advisor.page_limits)."""
    if len(_refused) >= REFUSED_MAX:
        now = time.time()
        for stale in [k for k, until in list(_refused.items()) if until <= now]:
            _refused.pop(stale, None)
        if len(_refused) >= REFUSED_MAX:
            _refused.clear()  # that many clients refused at once: forget, and ask the cache
    _refused[key] = end


def wait_if_over(scope: str, ident: str, rate: str) -> float | None:
    """Like `over_limit` without counting: the seconds left in the window when `ident` has
    already used the whole of `rate` in it, else None (for limits counted only on failure)."""
    limit, period = parse_rate(rate)
    now = time.time()
    window = int(now // period)
    key = f"throttle:{scope}:{period}:{window}:{ident}"
    backend = _shared()
    if backend is not None:
        try:
            return _wait(backend.get(key), limit, window, period, now)
        except Exception:
            _shared_failed()
    return _wait(_LOCAL.get(key), limit, window, period, now)


def _wait(count: Any, limit: int, window: int, period: int, now: float) -> float | None:
    return (window + 1) * period - now if int(count or 0) >= limit else None


def _counted(key: str, period: int, cost: int) -> int:
    """The window's total after adding `cost`: in the shared cache, or this process's memory
    while the shared cache does not answer."""
    backend = _shared()
    if backend is not None:
        try:
            return _count(backend, key, period, cost)
        except Exception:
            _shared_failed()
    return _count(_LOCAL, key, period, cost)


def _shared() -> BaseCache | None:
    """The shared cache, or None while it is presumed down."""
    return caches["default"] if time.monotonic() >= _shared_down_until else None


def _shared_failed() -> None:
    global _shared_down_until
    with _state_lock:
        _shared_down_until = time.monotonic() + SHARED_RETRY_SECONDS
    logger.warning(
        "rate-limit cache unavailable; counting in this process for %.0f s",
        SHARED_RETRY_SECONDS,
        exc_info=True,
    )


@receiver(setting_changed)
def _caches_changed(*, setting: str, **kwargs: Any) -> None:
    """A change of settings (tests, `override_settings`) forgets the refusals this process
    remembers (a rate may have changed); a new cache configuration is asked at once, and
    starts with an empty fallback."""
    global _shared_down_until
    _refused.clear()
    if setting == "CACHES":
        _shared_down_until = 0.0
        _LOCAL.clear()


def _count(backend: BaseCache, key: str, period: int, cost: int) -> int:
    """The window's total with this request's cost; the first request of a window creates the
    key.

    On Redis: one EVALSHA of a script that runs INCRBY and EXPIRE NX, on a client kept for the
    cache's connection pool (Django's incr checks the key exists first, two round trips, and
    Django builds a new client object for every call, which cost more CPU than the round
    trip). Elsewhere (the local memory cache of `make run`, the fallback), incr and add."""
    if isinstance(backend, RedisCache):
        redis_key = backend.make_and_validate_key(key)
        return int(_count_script(backend)(keys=[redis_key], args=[period + 1, cost]))
    try:
        return int(backend.incr(key, cost))
    except ValueError:  # no such key yet
        if backend.add(key, cost, timeout=period + 1):
            return cost
        return int(backend.incr(key, cost))  # another thread created it meanwhile


# INCRBY, and a lifetime for a key that has none (EXPIRE NX: Redis 7), in one atomic command.
_COUNT_LUA = """
local count = redis.call('INCRBY', KEYS[1], ARGV[2])
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
