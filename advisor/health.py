"""`/healthz`: whether each service the app depends on answers, named one by one."""

from __future__ import annotations

import logging
from collections.abc import Callable
from functools import cache as memoize

import redis
from django.conf import settings
from django.core.cache import cache
from django.db import DatabaseError, connection
from django.http import HttpRequest, JsonResponse
from django.views.decorators.http import require_GET

from advisor.celery import app as celery_app

logger = logging.getLogger(__name__)


def _database() -> None:
    with connection.cursor() as cursor:
        cursor.execute("SELECT 1")


def _broker() -> None:
    """One PING on a pooled client when the broker is Redis (a new broker connection per call
    cost more CPU than the rest of the request); any other broker: connect and let go."""
    url = settings.CELERY_BROKER_URL
    if url.startswith(("redis://", "rediss://", "unix://")):
        _redis_client(url).ping()
        return
    with celery_app.connection_for_write() as broker:
        broker.ensure_connection(max_retries=1, timeout=1)


@memoize
def _redis_client(url: str) -> redis.Redis:
    """A client per broker URL; it keeps its connections in a pool between calls."""
    return redis.Redis.from_url(url, socket_connect_timeout=1, socket_timeout=1)


def _cache() -> None:
    cache.set("healthz", "1", timeout=5)


def _checks() -> dict[str, Callable[[], None]]:
    """The database always; the broker and the shared cache when they are configured."""
    checks: dict[str, Callable[[], None]] = {"database": _database}
    if settings.CELERY_BROKER_URL:
        checks["broker"] = _broker
    if settings.CACHE_URL:
        checks["cache"] = _cache
    return checks


@require_GET
def healthz(request: HttpRequest) -> JsonResponse:
    """200 when every dependency answers; 503 naming each one that does not."""
    results: dict[str, str] = {}
    for name, check in _checks().items():
        try:
            check()
        except DatabaseError:
            logger.exception("healthz: %s check failed", name)
            connection.close()
            results[name] = "unavailable"
        except Exception:  # a broker or cache client raises its own errors; all mean down
            logger.exception("healthz: %s check failed", name)
            results[name] = "unavailable"
        else:
            results[name] = "ok"
    failed = [name for name, state in results.items() if state != "ok"]
    if failed:
        body = {"status": "error", "message": ", ".join(failed) + " unavailable", "checks": results}
        return JsonResponse(body, status=503, headers={"Retry-After": "30"})
    return JsonResponse({"status": "ok", "checks": results})
