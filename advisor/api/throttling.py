"""Per-client request limits for the API (advisor.ratelimit's counter).

The client is the token's user when there is one, else the address
(REST_FRAMEWORK["NUM_PROXIES"] says how many proxies to trust). A request counts its body's
units (`advisor.ratelimit.body_units`: one per started 32 KiB), so four 1 MB pastes use the
allowance of some 120 small requests, not of four.
"""

from __future__ import annotations

from typing import Any

from django.conf import settings
from rest_framework.request import Request
from rest_framework.throttling import BaseThrottle

from advisor.ratelimit import body_units, over_limit


class ClientRateThrottle(BaseThrottle):
    """API_RATE_USER for token users, API_RATE_ANON for everyone else."""

    def __init__(self) -> None:
        self._wait: float | None = None

    def allow_request(self, request: Request, view: Any) -> bool:
        user = getattr(request, "user", None)
        if user is not None and user.is_authenticated:
            ident, rate = f"user:{user.pk}", settings.API_RATE_USER
        else:
            ident, rate = f"addr:{self.get_ident(request)}", settings.API_RATE_ANON
        self._wait = over_limit("api", ident, rate, cost=body_units(request))
        return self._wait is None

    def wait(self) -> float | None:
        return self._wait
