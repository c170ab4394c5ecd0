"""Kombu's Redis transport with one repair: anything that needs a Redis client after its broker
connection was closed (an acknowledgement above all) fails as a connection error, which Celery
logs and survives.

With `acks_late`, a chunk that is running when Redis goes away is acknowledged only when it
ends. By then Celery may have closed the old connection: kombu clears the transport's client
and the channel's connection pool, so kombu 5.7 raises `AttributeError` while rebuilding the
pool. Celery catches only connection errors there, and an `AttributeError` stopped a whole
worker in CI (`tests/worker/test_broker_down.py`). Nothing is lost by not acknowledging: the
message was restored when its channel closed, or was lost with the broker, and the items of a
chunk are done exactly once whatever the number of deliveries (`advisor.fleet.processing`).

Chosen in settings as `CELERY_BROKER_TRANSPORT` for `redis://` brokers. No Django here.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from kombu.transport import redis as kombu_redis
from redis.exceptions import ConnectionError as RedisConnectionError


class ConnectionClosed(RedisConnectionError):
    """The channel's broker connection was closed: there is no client to build a pool from."""


class ConnectionClosedBeforeAck(ConnectionClosed):
    """The message's connection was closed before it could be acknowledged."""


@contextmanager
def _closed_connection_as_connection_error(channel: Any, delivery_tag: Any) -> Iterator[None]:
    """Kombu's `AttributeError` on a closed connection becomes a connection error; any other
    `AttributeError` (a real bug) goes through unchanged."""
    try:
        yield
    except AttributeError as error:
        transport = channel.connection
        if transport is not None and transport.client is not None:
            raise
        raise ConnectionClosedBeforeAck(
            f"message {delivery_tag} was not acknowledged: its connection was closed"
        ) from error


class QoS(kombu_redis.QoS):
    def ack(self, delivery_tag: Any) -> None:
        with _closed_connection_as_connection_error(self.channel, delivery_tag):
            super().ack(delivery_tag)  # type: ignore[no-untyped-call]

    def reject(self, delivery_tag: Any, requeue: bool = False) -> None:
        with _closed_connection_as_connection_error(self.channel, delivery_tag):
            super().reject(delivery_tag, requeue=requeue)  # type: ignore[no-untyped-call]


class Channel(kombu_redis.Channel):
    QoS = QoS

    def _connparams(self, asynchronous: bool = False) -> Any:
        """Every path that needs a Redis client on a closed connection (acknowledging,
        rejecting, restoring unacknowledged messages, polling) gets here and, in kombu 5.7,
        fails with `AttributeError` on the missing client; a connection error instead, which
        Celery's consumer survives by reconnecting. CI once saw a worker stop on such a path
        after its acknowledgement had been repaired."""
        transport = self.connection
        if transport is None or transport.client is None:
            raise ConnectionClosed("the broker connection was closed")
        return super()._connparams(asynchronous=asynchronous)  # type: ignore[no-untyped-call]


class Transport(kombu_redis.Transport):
    Channel = Channel
