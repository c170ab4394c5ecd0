"""Who is asking: the client's address, the same for request limits and login lockouts.

The address is the connection's own unless REST_FRAMEWORK["NUM_PROXIES"] says how many proxies
in front of the app append to X-Forwarded-For; then it is the entry that many places from the
end (what DRF's throttles do), so a client cannot choose its own identity by sending the header.
"""

from __future__ import annotations

from django.conf import settings
from django.http import HttpRequest


def client_address(request: HttpRequest) -> str:
    remote = str(request.META.get("REMOTE_ADDR", ""))
    proxies = int(settings.REST_FRAMEWORK.get("NUM_PROXIES") or 0)
    forwarded = str(request.META.get("HTTP_X_FORWARDED_FOR", ""))
    if proxies <= 0 or not forwarded:
        return remote
    addresses = [part.strip() for part in forwarded.split(",") if part.strip()]
    return addresses[-min(proxies, len(addresses))] if addresses else remote
