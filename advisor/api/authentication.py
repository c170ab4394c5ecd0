"""Token authentication with a limit on failures per address.

Each failed token check was a database lookup that nothing counted, so one client could try
tokens (or load the database) as fast as it liked. Failures are counted per client address
against AUTH_FAILURE_RATE; past it, a request that carries a token is answered 429 before its
token is looked up, until the window ends. A right token does not count, so a client that
authenticates correctly is never slowed by this limit.
"""

from __future__ import annotations

from typing import Any

from django.conf import settings
from rest_framework import exceptions
from rest_framework.authentication import TokenAuthentication, get_authorization_header
from rest_framework.request import Request

from advisor.client import client_address
from advisor.ratelimit import over_limit, wait_if_over

SCOPE = "auth-failure"


class AddressLimitedTokenAuthentication(TokenAuthentication):
    """DRF's TokenAuthentication, refused with 429 once the address has failed too often."""

    def authenticate(self, request: Request) -> tuple[Any, Any] | None:
        words = get_authorization_header(request).split()
        if not words or words[0].lower() != self.keyword.lower().encode():
            return None  # no token offered: nothing to look up, nothing to count
        ident = f"addr:{client_address(request)}"
        wait = wait_if_over(SCOPE, ident, settings.AUTH_FAILURE_RATE)
        if wait is not None:
            raise exceptions.Throttled(wait, "Too many failed token checks from this address.")
        try:
            return super().authenticate(request)
        except exceptions.AuthenticationFailed:
            over_limit(SCOPE, ident, settings.AUTH_FAILURE_RATE)
            raise
