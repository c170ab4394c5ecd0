"""When a change takes effect: now on the running server, or at the next restart.

The catalog says per flavor and release whether `SET GLOBAL` works (`VariableSpec.dynamic`);
the engine copies that into `Setting.dynamic` unless the rule knows this change needs a restart
anyway. Some variables are dynamic only within limits; `apply_note` says which, per version, so
the SQL export, the result page and the API can tell the user what "now" means for each.

Pure: a variable name and the version's catalog in, a sentence out.
"""

from collections.abc import Callable, Mapping

from rules.current import parse_number
from rules.inputs.enums import Flavor
from rules.inputs.profile import Profile
from rules.inputs.version import ServerVersion
from rules.output.result import Setting
from rules.reference.catalog import Number, ServerCatalog, as_number, catalog_for

# MariaDB reorganised the buffer pool (MDEV-29445) in 10.11.12, 11.4.6 and 11.8.2: the chunk
# size is ignored, and the pool grows online only up to the read-only innodb_buffer_pool_size_max
# (MariaDB KB, "InnoDB System Variables": innodb_buffer_pool_size, innodb_buffer_pool_size_max;
# https://mariadb.com/docs/server/server-usage/storage-engines/innodb/innodb-system-variables).
# On 10.11.19 (Debian 12 package, booted with --no-defaults) @@innodb_buffer_pool_size_max
# reads 8796093022208 (8 TiB) when unset: measured by tests/integration/test_apply_sql.py.
MARIADB_POOL_MAX_FROM: dict[tuple[int, int], int] = {(10, 11): 12, (11, 4): 6, (11, 8): 2}


def _pool_size(catalog: ServerCatalog) -> str:
    # MySQL 8.0 Reference Manual, 17.8.3.1 "Configuring InnoDB Buffer Pool Size" (online
    # resizing: chunks, rounding, Innodb_buffer_pool_resize_status); MariaDB KB "Setting Innodb
    # Buffer Pool Size Dynamically" says the same of MariaDB before MDEV-29445.
    if catalog.flavor is Flavor.MARIADB and _pool_max_applies(catalog.version):
        return (
            "Resized online; it grows only up to innodb_buffer_pool_size_max (read-only, "
            "8 TiB unless set), beyond that at the next restart."
        )
    return (
        "Resized online in chunks of innodb_buffer_pool_chunk_size; the server rounds the size "
        "up to whole chunks and the resize waits for running transactions "
        "(SHOW STATUS LIKE 'Innodb_buffer_pool_resize_status' shows its progress)."
    )


def _pool_max_applies(version: ServerVersion) -> bool:
    """Whether this MariaDB release caps online growth at innodb_buffer_pool_size_max."""
    if version.series > max(MARIADB_POOL_MAX_FROM):
        return True
    first_patch = MARIADB_POOL_MAX_FROM.get(version.series)
    return first_patch is not None and version.patch is not None and version.patch >= first_patch


def _redo_capacity(_catalog: ServerCatalog) -> str:
    # MySQL 8.0 Reference Manual, 17.6.5 "Redo Log", "Configuring Redo Log Capacity (MySQL
    # 8.0.30 or Higher)": resized at runtime, the server adds or removes redo files.
    return "Resized online: the server adds or removes redo log files in the background."


def _log_file_size(catalog: ServerCatalog) -> str:
    # MariaDB 10.9 made it dynamic (MDEV-27812); a value below innodb_log_buffer_size is
    # refused (catalog notes, checked on mariadbd 10.11.19).
    if catalog.flavor is Flavor.MARIADB:
        return "Resized online (MariaDB 10.9 and later); not below innodb_log_buffer_size."
    return ""


def _io_capacity(_catalog: ServerCatalog) -> str:
    # MySQL 8.0 Reference Manual, 17.8.7 "Configuring InnoDB I/O Capacity": innodb_io_capacity
    # cannot exceed innodb_io_capacity_max; the SQL export orders the two (rules.render.sql).
    return "Never above innodb_io_capacity_max: the SQL export sets the two in a safe order."


def _doublewrite(catalog: ServerCatalog) -> str:
    # Catalog notes (MySQL 8.0.30+ source): switching between enabled and disabled at runtime is
    # rejected, and SET PERSIST refuses the variable ("non persistent"); rules.render.sql.
    if catalog.flavor is Flavor.MARIADB:
        return ""
    return "Switching it on or off needs a restart, and it cannot be persisted: my.cnf only."


_NOTES: Mapping[str, Callable[[ServerCatalog], str]] = {
    "innodb_buffer_pool_size": _pool_size,
    "innodb_redo_log_capacity": _redo_capacity,
    "innodb_log_file_size": _log_file_size,
    "innodb_io_capacity": _io_capacity,
    "innodb_io_capacity_max": _io_capacity,
    "innodb_doublewrite": _doublewrite,
}


def apply_note(name: str, catalog: ServerCatalog, *, dynamic: bool) -> str:
    """What "now" means for this variable on this release; empty when nothing needs saying.

    Only the doublewrite note speaks of a restart; the others qualify an online change."""
    note = _NOTES.get(name)
    if note is None:
        return ""
    if not dynamic and name != "innodb_doublewrite":
        return ""
    if name == "innodb_doublewrite" and dynamic:
        return ""
    return note(catalog)


CAPACITY, CAPACITY_MAX = "innodb_io_capacity", "innodb_io_capacity_max"


def apply_groups(
    settings: tuple[Setting, ...], profile: Profile
) -> tuple[tuple[Setting, ...], tuple[Setting, ...]]:
    """(now, at the next restart), each in result order, except that the now group sets
    innodb_io_capacity and innodb_io_capacity_max in the order a running server accepts.

    innodb_io_capacity may not exceed innodb_io_capacity_max (MySQL 8.0 Reference Manual,
    17.8.7 "Configuring InnoDB I/O Capacity"): set one past the other and the server moves the
    other with a warning (MariaDB 10.11.19: warning 1210, "Setting innodb_max_io_capacity to
    10000"; tests/integration/test_apply_sql.py runs the statements warning-free). So the
    maximum goes first unless it falls below the capacity the server runs with now."""
    now = tuple(s for s in settings if s.dynamic)
    restart = tuple(s for s in settings if not s.dynamic)
    return _capacity_order(now, profile), restart


def _capacity_order(now: tuple[Setting, ...], profile: Profile) -> tuple[Setting, ...]:
    names = [s.name for s in now]
    if CAPACITY not in names or CAPACITY_MAX not in names:
        return now
    capacity = now[names.index(CAPACITY)]
    maximum = now[names.index(CAPACITY_MAX)]
    running = _running_capacity(capacity, profile)
    new_max = as_number(maximum.value)
    first, second = (capacity, maximum)
    if running is None or new_max is None or new_max >= running:
        first, second = maximum, capacity
    rest = [s for s in now if s.name not in (CAPACITY, CAPACITY_MAX)]
    at = min(names.index(CAPACITY), names.index(CAPACITY_MAX))
    return (*rest[:at], first, second, *rest[at:])


def _running_capacity(capacity: Setting, profile: Profile) -> Number | None:
    """innodb_io_capacity on the running server: the current value given, else the version's
    default; None when neither is known (the maximum then goes first)."""
    if capacity.current is not None:
        return parse_number(capacity.current)
    default = catalog_of(profile).default(CAPACITY)
    return default if isinstance(default, int | float) else None


def catalog_of(profile: Profile) -> ServerCatalog:
    """The catalog of the profile's server."""
    return catalog_for(profile.server.flavor, profile.server.version)
