"""Rows written by plain INSERTs sent together: psycopg pipelines `executemany`, and on
PostgreSQL the parameters travel apart from the statement.

Django's `bulk_create` on PostgreSQL sends each column as an array for UNNEST, and psycopg
escapes every JSON text into that array with a regular expression: recording a 10,000-host
fleet spent most of its second there, and storing large results was 20x slower than this.
"""

from collections.abc import Sequence
from typing import Any
from weakref import WeakKeyDictionary

import psycopg
from django.db import InterfaceError, OperationalError, connection, models

from advisor.postgres.base import DatabaseNotAnswering


def insert_rows(rows: Sequence[models.Model], *, ignore_conflicts: bool = False) -> None:
    """INSERT each of `rows` (one model), its fields as `save()` would write them; with
    `ignore_conflicts`, a row whose key is already there is left as it is."""
    if not rows:
        return
    model = type(rows[0])
    values = [_written_values(row) for row in rows]
    sql = _insert_sql(model, ignore_conflicts)
    with _parameters_apart_cursor() as cursor:
        if len(values) == 1:
            cursor.execute(sql, values[0])
        else:
            cursor.executemany(sql, values)


def store_row(row: models.Model) -> None:
    """INSERT one row unless its key is there already, for a request that stores one result.

    The statement can run twice to the same end, so in autocommit it is not preceded by
    Django's per-request health check (a `SELECT 1` round trip: 80 us of this process's CPU and
    150 us of wall time here). A connection that died since the last request fails the INSERT
    instead; it is then closed and the INSERT runs once more on a new one, as the health check
    would have had it (not when the connection was new, or the server never answered: a second
    try would wait as long again). A failure on a live connection is raised as it is. In a
    transaction, or where queries are logged or wrapped (DEBUG, tests counting queries),
    `insert_rows` does it."""
    if (
        connection.vendor != "postgresql"
        or connection.in_atomic_block
        or connection.queries_logged
        or connection.execute_wrappers
    ):
        insert_rows([row], ignore_conflicts=True)
        return
    sql = _insert_sql(type(row), True)
    values = _written_values(row)
    kept = connection.connection is not None
    try:
        _execute_on_kept_cursor(sql, values)
    except DatabaseNotAnswering:
        raise  # the server is stuck: another connection would wait as long again
    except (OperationalError, InterfaceError):
        if not kept or connection.is_usable():
            raise  # the statement failed, or a new connection could not be made: not again
        connection.close()
        _execute_on_kept_cursor(sql, values)
    connection.health_check_done = True  # it just answered: no check later in this request


_KEPT_CURSORS: WeakKeyDictionary[psycopg.Connection[Any], psycopg.Cursor[Any]] = WeakKeyDictionary()


def _execute_on_kept_cursor(sql: str, values: list[Any]) -> None:
    """`sql` with its parameters bound apart, on a cursor kept for the current connection
    (making one copies the connection's adapters: 27 us), errors as Django's."""
    connection.ensure_connection()
    raw = connection.connection
    cursor = _KEPT_CURSORS.get(raw)
    if cursor is None or cursor.closed:
        cursor = _KEPT_CURSORS[raw] = psycopg.Cursor(raw)
    with connection.wrap_database_errors:
        cursor.execute(sql, values)


_FIELDS: dict[type[models.Model], tuple[Any, ...]] = {}


def _written_fields(model: type[models.Model]) -> tuple[Any, ...]:
    """Every column but an automatic primary key, which the database numbers; once per model."""
    known = _FIELDS.get(model)
    if known is None:
        meta = model._meta
        known = _FIELDS[model] = tuple(f for f in meta.concrete_fields if f is not meta.auto_field)
    return known


def _written_values(row: models.Model) -> list[Any]:
    """`row`'s column values, prepared as `save()` would write them."""
    return [
        f.get_db_prep_save(f.pre_save(row, True), connection) for f in _written_fields(type(row))
    ]


def _parameters_apart_cursor() -> Any:
    """A Django cursor whose parameters travel apart from the statement on PostgreSQL
    (psycopg's server-side binding). Django's own cursors quote every parameter into the SQL
    text, so a row's ~40 KB of JSON was escaped by this process and parsed back out of the
    statement by PostgreSQL; apart, an insert measured 0.19 -> 0.12 ms of CPU here, 0.51 ->
    0.44 ms in PostgreSQL and 0.86 -> 0.67 ms in all. Django's wrapper stays around it (query
    logging, execute wrappers, its error classes); another database gets Django's cursor."""
    if connection.vendor != "postgresql":
        return connection.cursor()
    connection.close_if_health_check_failed()
    connection.ensure_connection()
    connection.validate_thread_sharing()
    raw = psycopg.Cursor(connection.connection)
    if connection.queries_logged:
        return connection.make_debug_cursor(raw)
    return connection.make_cursor(raw)


_SQL: dict[tuple[type[models.Model], bool], str] = {}


def _insert_sql(model: type[models.Model], ignore_conflicts: bool) -> str:
    """The INSERT of one row of `model`, written once per process."""
    known = _SQL.get((model, ignore_conflicts))
    if known is not None:
        return known
    quote = connection.ops.quote_name
    fields = _written_fields(model)
    sql = _SQL[(model, ignore_conflicts)] = "INSERT INTO {} ({}) VALUES ({}){}".format(
        quote(model._meta.db_table),
        ", ".join(quote(f.column) for f in fields),
        ", ".join(["%s"] * len(fields)),
        " ON CONFLICT DO NOTHING" if ignore_conflicts else "",
    )
    return sql
