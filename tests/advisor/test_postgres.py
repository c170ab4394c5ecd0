"""advisor.postgres against a real PostgreSQL behind a proxy that stalls: a server that stops
answering costs a query its answer timeout, once, and a new connection its connect timeout.

Before it, a query on a stalled server waited until the whole request's budget ran out (20 s),
and Django's health check took the stall for a dead connection and waited on a new one too.
The whole app behind gunicorn: tests/worker/test_database_down.py."""

from __future__ import annotations

import time
import uuid
from collections.abc import Iterator
from typing import Any

import pytest
from django.conf import settings
from django.db import OperationalError, connection
from django.db.utils import load_backend

from advisor.postgres.base import DatabaseNotAnswering
from tests.worker.stall_proxy import StallProxy, proxy_to_test_database

pytestmark = pytest.mark.django_db
ANSWER_S = 1.0  # shorter than the settings' own, to keep the test quick
CONNECT_S = 2  # libpq's least


@pytest.fixture
def proxy() -> Iterator[StallProxy]:
    yield from proxy_to_test_database()


@pytest.fixture
def stallable(proxy: StallProxy) -> Iterator[Any]:
    """A second connection to the test database, through the proxy, checked as requests are."""
    if connection.vendor != "postgresql":
        pytest.skip("PostgreSQL only")
    options = {**connection.settings_dict["OPTIONS"], "answer_timeout": ANSWER_S}
    options["connect_timeout"] = CONNECT_S
    settings_dict = {
        **connection.settings_dict,
        "PORT": str(proxy.port),
        "OPTIONS": options,
        "CONN_HEALTH_CHECKS": True,
    }
    wrapper = load_backend("advisor.postgres").DatabaseWrapper(settings_dict, alias="stallable")
    yield wrapper
    wrapper.close()


def _select_one(wrapper: Any) -> float:
    started = time.monotonic()
    with wrapper.cursor() as cursor:
        cursor.execute("SELECT 1")
        assert cursor.fetchone() == (1,)
    return time.monotonic() - started


def _seconds_to_fail(wrapper: Any, error: type[Exception]) -> float:
    started = time.monotonic()
    with pytest.raises(error):
        _select_one(wrapper)
    return time.monotonic() - started


def test_a_query_the_server_never_answers_fails_after_the_answer_timeout(stallable, proxy):
    assert _select_one(stallable) < ANSWER_S
    proxy.stall()
    assert ANSWER_S <= _seconds_to_fail(stallable, DatabaseNotAnswering) < ANSWER_S + 0.5
    assert stallable.connection.closed  # its state is unknown: never used again


def test_the_health_check_on_a_stalled_connection_fails_once_without_reconnecting(stallable, proxy):
    _select_one(stallable)
    stallable.close_if_unusable_or_obsolete()  # as at the start of each request
    proxy.stall()
    # Django's check runs SELECT 1 and, on a psycopg error, connects again: 1 s + 2 s.
    assert _seconds_to_fail(stallable, DatabaseNotAnswering) < ANSWER_S + 0.5


def test_a_new_connection_to_a_stalled_server_fails_after_the_connect_timeout(stallable, proxy):
    proxy.stall()
    assert _seconds_to_fail(stallable, OperationalError) < CONNECT_S + 0.5


def test_the_settings_answer_a_stalled_database_well_within_five_seconds():
    options = settings.DATABASES["default"]["OPTIONS"]
    if "answer_timeout" not in options:
        pytest.skip("PostgreSQL only")
    statement_s = settings.DATABASE_STATEMENT_TIMEOUT_MS / 1000
    assert options["answer_timeout"] > statement_s  # the server cancels a slow statement first
    assert max(options["answer_timeout"], options["connect_timeout"]) <= 4


def _tightly_bounded() -> Any:
    """A wrapper on the test database whose limits no real statement meets: 1 ms each."""
    options = {**connection.settings_dict["OPTIONS"], "answer_timeout": 0.001}
    options["options"] = "-c statement_timeout=1"
    wrapper = load_backend("advisor.postgres").DatabaseWrapper(
        {**connection.settings_dict, "OPTIONS": options}, alias="bounded"
    )
    with pytest.raises(OperationalError):  # the limits are real on an ordinary connection
        _sleep_a_little(wrapper)
    return wrapper


def _sleep_a_little(wrapper: Any) -> None:
    with wrapper.cursor() as cursor:
        cursor.execute("SELECT pg_sleep(0.05)")


def test_the_maintenance_connection_waits_for_create_and_drop_database():
    """Django creates and drops test databases through `_nodb_cursor` (a connection to the
    postgres database); DROP DATABASE waits for a checkpoint, 1-3 s on a busy disk, and the
    request limits used to cut it (pytest-django: 'Error when trying to teardown test
    databases')."""
    if connection.vendor != "postgresql":
        pytest.skip("PostgreSQL only")
    wrapper = _tightly_bounded()
    scratch = f"scratch_{uuid.uuid4().hex}"
    try:
        with wrapper._nodb_cursor() as cursor:
            cursor.execute("SHOW statement_timeout")
            assert cursor.fetchone() == ("0",)
            cursor.execute(f'CREATE DATABASE "{scratch}"')
            cursor.execute(f'DROP DATABASE "{scratch}"')
    finally:
        wrapper.close()


def test_unbounded_lifts_the_limits_until_it_ends():
    """Test-database creation, its migrations included, runs in this mode."""
    if connection.vendor != "postgresql":
        pytest.skip("PostgreSQL only")
    wrapper = _tightly_bounded()
    try:
        with wrapper.unbounded():
            _sleep_a_little(wrapper)
            assert wrapper.connection.answer_seconds is None
        assert wrapper.connection is None  # closed: no unbounded connection serves requests
        with pytest.raises(OperationalError):
            _sleep_a_little(wrapper)
    finally:
        wrapper.close()
