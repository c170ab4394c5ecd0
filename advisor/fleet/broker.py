"""Kombu's Redis transport with one repair: anything that needs a Redis client after its broker
connection was closed (an acknowledgement above all) fails as a connection error, which Celery
logs and survives.

With `acks_late`, a chunk that is running when Redis goes away is acknowledged only when it
ends. By then Celery may have closed the old connection: kombu clears the transport's client
and the channel's connection pool, so kombu 5.7 raises `AttributeError` while rebuilding the
pool, on an acknowledgement, a reject, a restore of unacknowledged messages or a poll alike.
Celery catches only connection errors there, and an `AttributeError` stopped a whole worker in
CI (`tests/worker/test_broker_down.py`), once on an acknowledgement and once, after that alone
was repaired, on another of these paths; so the repair sits where they all meet, the pool's
connection parameters. Nothing is lost by not acknowledging: the message was restored when its
channel closed, or was lost with the broker, and the items of a chunk are done exactly once
whatever the number of deliveries (`advisor.fleet.processing`).

Chosen in settings as `CELERY_BROKER_TRANSPORT` for `redis://` brokers. No Django here.
"""

from __future__ import annotations

from typing import Any

from kombu.transport import redis as kombu_redis
from redis.exceptions import ConnectionError as RedisConnectionError


class ConnectionClosed(RedisConnectionError):
    """The channel's broker connection was closed: there is no client to build a pool from."""


class Channel(kombu_redis.Channel):
    def _connparams(self, asynchronous: bool = False) -> Any:
        """A closed connection has no client to take the parameters from: a connection error,
        not kombu 5.7's `AttributeError`; an open one's parameters are kombu's own."""
        transport = self.connection
        if transport is None or transport.client is None:
            raise ConnectionClosed("the broker connection was closed")
        return super()._connparams(asynchronous=asynchronous)  # type: ignore[no-untyped-call]


class Transport(kombu_redis.Transport):
    Channel = Channel
