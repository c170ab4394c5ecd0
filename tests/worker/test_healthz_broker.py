"""/healthz and a Redis broker: one PING on a pooled client, down and back without a restart."""

from __future__ import annotations

import time

import pytest

from advisor import health

pytestmark = pytest.mark.django_db


def test_healthz_pings_a_redis_broker_on_one_pooled_connection(client, settings, own_redis):
    settings.CELERY_BROKER_URL = own_redis.url
    for _ in range(5):
        response = client.get("/healthz")
        assert response.status_code == 200
        assert response.json()["checks"] == {"database": "ok", "broker": "ok"}
    pool = health._redis_client(own_redis.url).connection_pool
    assert pool._created_connections == 1  # five checks, one connection kept between them


def test_healthz_names_a_broker_that_went_away_and_recovers_when_it_is_back(
    client, settings, own_redis
):
    settings.CELERY_BROKER_URL = own_redis.url
    assert client.get("/healthz").status_code == 200
    own_redis.kill()
    started = time.monotonic()
    response = client.get("/healthz")
    assert response.status_code == 503
    assert response.json()["checks"] == {"database": "ok", "broker": "unavailable"}
    assert time.monotonic() - started < 5  # the client's one-second timeouts, not a hang
    own_redis.start()
    assert client.get("/healthz").json()["checks"]["broker"] == "ok"
