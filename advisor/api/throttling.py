"""Per-client request limits: a fixed-window counter in the shared cache.

DRF's own throttles keep a list of every request time per client, which costs O(limit) per
request; a counter per (client, window) costs one `incr`. The client is the token's user when
there is one, else the address (REST_FRAMEWORK["NUM_PROXIES"] says how many proxies to trust).
When the cache is down the request is let through: a limit must not take the API down with it.
"""

from __future__ import annotations

import logging
import time
from typing import Any

from django.conf import settings
from django.core.cache import cache
from rest_framework.request import Request
from rest_framework.throttling import BaseThrottle

logger = logging.getLogger(__name__)

PERIODS = {"second": 1, "minute": 60, "hour": 3600, "day": 86400}


def parse_rate(rate: str) -> tuple[int, int]:
    """'120/minute' -> (120, 60)."""
    count, _, period = rate.partition("/")
    return int(count), PERIODS[period]


class ClientRateThrottle(BaseThrottle):
    """API_RATE_USER for token users, API_RATE_ANON for everyone else."""

    def __init__(self) -> None:
        self._wait = 0.0

    def allow_request(self, request: Request, view: Any) -> bool:
        user = getattr(request, "user", None)
        if user is not None and user.is_authenticated:
            ident, rate = f"user:{user.pk}", settings.API_RATE_USER
        else:
            ident, rate = f"addr:{self.get_ident(request)}", settings.API_RATE_ANON
        limit, period = parse_rate(rate)
        now = time.time()
        window = int(now // period)
        key = f"throttle:{period}:{window}:{ident}"
        try:
            count = _count(key, period)
        except Exception:  # any cache failure: fail open, loudly
            logger.warning("throttle cache unavailable; request let through", exc_info=True)
            return True
        if count <= limit:
            return True
        self._wait = (window + 1) * period - now
        return False

    def wait(self) -> float | None:
        return self._wait or None


def _count(key: str, period: int) -> int:
    """This request's number in its window; the first request of a window creates the key."""
    try:
        return int(cache.incr(key))
    except ValueError:  # no such key yet
        if cache.add(key, 1, timeout=period + 1):
            return 1
        return int(cache.incr(key))  # another process created it meanwhile
