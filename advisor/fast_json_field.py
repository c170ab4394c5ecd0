"""JSON columns for large documents the database stores but never looks inside.

A stored result is ~40 KB. The standard library's encoder took longer over it than the engine
took to compute it, hence orjson on the way in; and PostgreSQL's `jsonb` parses every value into
its binary form on INSERT, which no query of ours uses, hence its `json` type for what is only
kept and given back.
"""

from __future__ import annotations

import json
from typing import Any

import orjson
from django.db import models
from django.db.backends.base.base import BaseDatabaseWrapper
from psycopg.types.json import Json, Jsonb


def _dumps(value: Any) -> bytes:
    """orjson, or the standard library for what orjson refuses (an integer beyond 64 bits)."""
    try:
        return orjson.dumps(value)
    except TypeError:  # orjson.JSONEncodeError is a TypeError
        return json.dumps(value).encode()


class FastJSONField(models.JSONField):
    """The same column and the same JSON; only the encoding on the way in is faster."""

    _adapter: type[Json] | type[Jsonb] = Jsonb  # psycopg's wrapper for the column's type

    def get_db_prep_value(
        self, value: Any, connection: BaseDatabaseWrapper, prepared: bool = False
    ) -> Any:
        if connection.vendor != "postgresql" or self.encoder is not None:
            return super().get_db_prep_value(value, connection, prepared)
        if not prepared:
            value = self.get_prep_value(value)
        return self._adapter(value, dumps=_dumps)


class KeptJSONField(FastJSONField):
    """JSON kept as its text: PostgreSQL's `json` type, which checks the text and stores it as
    sent, keys in the order written. Against `jsonb`, an INSERT of a stored result cost 0.27
    instead of 0.42 ms of PostgreSQL's CPU here (LZ4 on both). The price: no `jsonb` operators
    or indexes on the column (no lookup inside it). Other databases get JSONField's own column."""

    _adapter = Json

    def db_type(self, connection: BaseDatabaseWrapper) -> str | None:
        if connection.vendor == "postgresql":
            return "json"
        return super().db_type(connection)

    def from_db_value(self, value: Any, expression: Any, connection: BaseDatabaseWrapper) -> Any:
        """psycopg has decoded a `json` column already (Django turns that off only for `jsonb`):
        a document that is itself a string must not be decoded twice."""
        if connection.vendor == "postgresql":
            return value
        return super().from_db_value(value, expression, connection)


def compress_with_lz4(schema_editor: Any, table: str, columns: tuple[str, ...]) -> None:
    """Compress `columns` of `table` with LZ4 where PostgreSQL has it (14+, built with it):
    inserting a stored result (~37 KB of JSON) took 1.9 ms instead of 3.2 ms with pglz here
    (PostgreSQL manual, "ALTER TABLE ... SET COMPRESSION" and default_toast_compression).
    Changing a column's type drops the setting, so a migration that does must call this again."""
    connection = schema_editor.connection
    if connection.vendor != "postgresql":
        return
    quote = connection.ops.quote_name
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT 1 FROM pg_settings WHERE name = 'default_toast_compression' "
            "AND 'lz4' = ANY(enumvals)"
        )
        if cursor.fetchone() is None:  # PostgreSQL 13, or built without LZ4: keep pglz
            return
        for column in columns:
            cursor.execute(
                f"ALTER TABLE {quote(table)} ALTER COLUMN {quote(column)} SET COMPRESSION lz4"
            )
