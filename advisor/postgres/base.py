"""Django's PostgreSQL backend whose connections give up on a server that stops answering.

A stuck server, or one behind a proxy or a network path that stalls, can accept a connection or
a query and then say nothing. libpq's `connect_timeout` covers the connection (psycopg applies
it to the whole start-up, the server's reply included), but nothing covers a query: PostgreSQL's
`statement_timeout` is the server's own and never fires, and TCP keepalives and
`tcp_user_timeout` stay quiet while the far side's kernel acknowledges what was sent. Without a
limit of our own a request waits until its whole budget (advisor.unavailable) is spent.

psycopg waits for every answer (a query, a fetch, a commit, the health check's `SELECT 1`) in
`Connection.wait`, which takes a timeout; `AnswerBoundConnection` always passes one, the
`answer_timeout` of the database's OPTIONS (settings: the statement timeout plus a margin, so
that a slow query is cancelled by the server first and the connection stays usable). A wait
that runs out closes the connection, whose state is then unknown, and raises
`DatabaseNotAnswering`: a Django `OperationalError`, so every face answers 503 as for a database
that is down. It is not a psycopg error, so Django's health check does not take it for a dead
connection and spend a connect timeout more on opening a new one.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any, TypeVar

import psycopg
from django.core.exceptions import ImproperlyConfigured
from django.db import OperationalError
from django.db.backends.base.base import NO_DB_ALIAS
from django.db.backends.postgresql import base, creation
from psycopg.abc import PQGen

RV = TypeVar("RV")
ANSWER_OPTION = "answer_timeout"  # seconds; an OPTIONS key of ours, never given to libpq
WAIT_INTERVAL_S = 0.1  # psycopg's own default (psycopg/connection.py, _WAIT_INTERVAL)


class DatabaseNotAnswering(OperationalError):
    """The database server did not answer within the connection's answer timeout."""


class AnswerBoundConnection(psycopg.Connection[Any]):
    """A psycopg connection whose waits for an answer end after `answer_seconds`."""

    answer_seconds: float | None = None

    def wait(
        self, gen: PQGen[RV], interval: float = WAIT_INTERVAL_S, timeout: float | None = None
    ) -> RV:
        if timeout is not None or self.answer_seconds is None:
            return super().wait(gen, interval, timeout)  # psycopg's own deadline, or none
        try:
            return super().wait(gen, interval, self.answer_seconds)
        except psycopg.errors._WaitTimeout:  # what psycopg raises when the wait runs out
            self.close()
            raise DatabaseNotAnswering(
                f"the database did not answer within {self.answer_seconds:g} s"
            ) from None


class DatabaseCreation(creation.DatabaseCreation):
    """Creates a test database, its migrations included, on an unbounded connection."""

    def create_test_db(self, *args: Any, **kwargs: Any) -> str:
        with self.connection.unbounded():
            name: str = super().create_test_db(*args, **kwargs)
        return name


class DatabaseWrapper(base.DatabaseWrapper):
    """Opens `AnswerBoundConnection`s, unbounded ones for maintenance; the rest is Django's
    backend as it is."""

    creation_class = DatabaseCreation

    def __init__(self, settings_dict: dict[str, Any], alias: str = "default") -> None:
        super().__init__(settings_dict, alias)
        # Django's maintenance connection (CREATE and DROP DATABASE) is always unbounded.
        self.is_unbounded = alias == NO_DB_ALIAS

    @contextmanager
    def unbounded(self) -> Iterator[None]:
        """Within: connections wait as long as the server takes (closed on entry and exit, so
        that no connection outlives the mode it was opened in)."""
        self.close()
        self.is_unbounded = True
        try:
            yield
        finally:
            self.close()
            self.is_unbounded = self.alias == NO_DB_ALIAS

    def get_connection_params(self) -> dict[str, Any]:
        params: dict[str, Any] = super().get_connection_params()
        params.pop(ANSWER_OPTION, None)
        return params

    def get_new_connection(self, conn_params: dict[str, Any]) -> AnswerBoundConnection:
        """Django's own steps without a pool or a chosen isolation level (settings use
        neither): connect, at the server's default isolation level, READ COMMITTED."""
        options = self.settings_dict["OPTIONS"]
        if self.pool or "isolation_level" in options:
            raise ImproperlyConfigured(
                "advisor.postgres supports neither a connection pool nor an isolation_level "
                "option; use django.db.backends.postgresql for those."
            )
        self.isolation_level = psycopg.IsolationLevel.READ_COMMITTED
        connection = AnswerBoundConnection.connect(**conn_params)
        if not self.is_unbounded:
            connection.answer_seconds = options.get(ANSWER_OPTION)
        return connection

    def init_connection_state(self) -> None:
        super().init_connection_state()
        if self.is_unbounded:
            with self.connection.cursor() as cursor:
                cursor.execute("SET statement_timeout = 0")  # for this session only
            if not self.get_autocommit():
                self.connection.commit()
