"""The broker transport (`advisor.fleet.broker`): a message acknowledged (or anything else that
needs a client) after its connection closed fails with a connection error Celery logs, never
with the `AttributeError` that stopped a worker, and the workers really use this transport."""

from __future__ import annotations

import subprocess
import sys

import pytest
from kombu import Connection, Exchange, Message, Queue
from kombu.common import ignore_errors
from kombu.transport import redis as kombu_redis

from advisor.fleet import broker
from tests.worker.conftest import PROJECT, OwnRedis, app_env

pytestmark = pytest.mark.worker

QUEUE = Queue("ack-after-close", Exchange("ack-after-close"), "ack-after-close")


def publish_one(connection: Connection) -> None:
    connection.Producer().publish({"n": 1}, exchange=QUEUE.exchange, routing_key="ack-after-close",
                                  declare=[QUEUE])  # fmt: skip


@pytest.fixture
def delivered(own_redis: OwnRedis) -> tuple[Connection, Message]:
    """A message delivered and not yet acknowledged, then its broker killed and its connection
    closed, as a worker's connection is when Redis goes away mid-task."""
    with Connection(own_redis.url, transport=broker.Transport) as producer:
        publish_one(producer)
    connection = Connection(own_redis.url, transport=broker.Transport)
    received: list[Message] = []
    consumer = connection.Consumer([QUEUE], callbacks=[lambda _, m: received.append(m)])
    consumer.consume()
    connection.drain_events(timeout=5)
    own_redis.kill()
    ignore_errors(connection, connection.close)
    return connection, received[0]


@pytest.mark.django_db
def test_a_redis_broker_url_chooses_this_transport_and_another_scheme_keeps_kombus():
    chosen = {}
    for url in ("redis://127.0.0.1:1/0", "memory://"):
        probe = "from advisor.celery import app; print(app.connection_for_write().transport_cls)"
        ran = subprocess.run([sys.executable, "-c", probe], env=app_env(url), cwd=PROJECT,
                             capture_output=True, text=True, timeout=60, check=True)  # fmt: skip
        chosen[url] = ran.stdout.strip()
    assert chosen == {
        "redis://127.0.0.1:1/0": "advisor.fleet.broker:Transport",
        "memory://": "memory",
    }


@pytest.mark.parametrize("pool_torn_down", [False, True], ids=["pool kept", "pool torn down"])
def test_an_ack_after_the_connection_closed_is_a_connection_error(
    delivered: tuple[Connection, Message], pool_torn_down: bool
):
    connection, message = delivered
    if pool_torn_down:  # the state CI hit: kombu rebuilds the pool from a client that is gone
        message.channel._disconnect_pools()
    with pytest.raises(connection.connection_errors) as raised:
        message.ack()
    assert not isinstance(raised.value, AttributeError)


def test_stock_kombu_raises_the_attribute_error_this_transport_repairs(own_redis: OwnRedis):
    """Kept so that the repair is dropped once kombu stops raising it."""
    with Connection(own_redis.url) as producer:
        publish_one(producer)
    connection = Connection(own_redis.url)
    message = QUEUE(connection.default_channel).get(no_ack=False)
    assert isinstance(connection.transport, kombu_redis.Transport)
    own_redis.kill()
    ignore_errors(connection, connection.close)
    message.channel._disconnect_pools()
    with pytest.raises(AttributeError):
        message.ack()


def test_an_open_connection_builds_its_client_as_kombu_does(own_redis: OwnRedis):
    """The repair only answers a closed connection: an open one acknowledges, and its pool's
    parameters are kombu's own."""
    with Connection(own_redis.url, transport=broker.Transport) as connection:
        publish_one(connection)
        message = QUEUE(connection.default_channel).get(no_ack=False)
        message.ack()
        assert message.acknowledged
        channel = connection.default_channel
        stock = kombu_redis.Channel._connparams(channel)
        assert channel._connparams() == stock
        assert stock["port"] == own_redis.port


def test_any_path_needing_a_client_after_the_connection_closed_is_a_connection_error(
    delivered: tuple[Connection, Message],
):
    """Not only acknowledgements: restoring unacknowledged messages and polling build a client
    too, and stock kombu fails there with the same AttributeError."""
    connection, message = delivered
    channel = message.channel
    channel._disconnect_pools()
    with pytest.raises(connection.connection_errors) as raised:
        channel.qos.restore_visible()
    assert isinstance(raised.value, broker.ConnectionClosed)
    with pytest.raises(broker.ConnectionClosed):
        channel._create_client()
