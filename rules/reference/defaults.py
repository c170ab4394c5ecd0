"""Defaults a server works out at startup from other variables, and how an explanation names one.

The catalog stores a compiled default where there is one; where the server computes the default
(`default` None, described by `default_text`) this module computes it the way the server does.
"""

import functools

from rules.inputs.version import FLAVOR_NAMES
from rules.reference.catalog import ServerCatalog

# innodb_io_capacity_max when not set: twice innodb_io_capacity, at least 2000 (MySQL
# storage/innobase/handler/ha_innodb.cc and MariaDB's innodb_init: std::max(2 *
# srv_io_capacity, 2000UL); mysql-manual-io-capacity), never above the variable's maximum.
IO_CAPACITY_MAX_PER_IO_CAPACITY = 2
IO_CAPACITY_MAX_FLOOR_IOPS = 2000


@functools.lru_cache(maxsize=256)  # as many as catalog_for keeps; named ~6 times per result
def server_name(catalog: ServerCatalog) -> str:
    """'MySQL 8.4', 'MariaDB 10.11': the flavor and series whose defaults the catalog holds."""
    major, minor = catalog.version.series
    return f"{FLAVOR_NAMES[catalog.flavor]} {major}.{minor}"


def io_capacity_max_default(catalog: ServerCatalog, io_capacity: int) -> int:
    """The innodb_io_capacity_max the server runs with when only io_capacity is given."""
    value = max(IO_CAPACITY_MAX_PER_IO_CAPACITY * io_capacity, IO_CAPACITY_MAX_FLOOR_IOPS)
    spec = catalog.get("innodb_io_capacity_max")
    if spec is not None and spec.maximum is not None:
        value = min(value, int(spec.maximum))
    return value


def default_of(catalog: ServerCatalog, name: str) -> int | float | str | None:
    """The version's default for `name`, computed where the server computes it; None unknown."""
    if name == "innodb_io_capacity_max":
        capacity = catalog.default("innodb_io_capacity")
        return None if capacity is None else io_capacity_max_default(catalog, int(capacity))
    return catalog.default(name)


def is_default(catalog: ServerCatalog, name: str, value: int | float | str) -> bool:
    return matches_default(default_of(catalog, name), value)


def matches_default(default: int | float | str | None, value: int | float | str) -> bool:
    """Whether `value` is `default` as the server reads it (enums in any case); False when the
    default is unknown (None)."""
    if default is None:
        return False
    if isinstance(value, str) or isinstance(default, str):
        return str(value).upper() == str(default).upper()
    return float(value) == float(default)


def default_note(catalog: ServerCatalog, name: str, value: int | float | str) -> str:
    """' (the default of MySQL 8.4)' when `value` is this version's own default, else ''."""
    if is_default(catalog, name, value):
        return f" (the default of {server_name(catalog)})"
    return ""
