"""What a server needs in RAM (or under its memory limit, when lower) besides the buffer pool:
the OS, the log buffer, the buffers every connection may allocate at once, in-memory temporary
tables, and the server's own caches (performance_schema, the key buffer, the table cache).

Per connection the sort, join and read buffers may each grow to their limit
(mysql-manual-memory); the limits are the pasted current values where given, else the version's
defaults from the catalog. In-memory internal temporary tables are counted where the server
bounds them: on MySQL and Percona Server 8.0 and later the TempTable engine keeps all of them
together under one global cap, temptable_max_ram (mysql-manual-internal-temporary-tables),
counted once (or one tmp_table_size per connection where that is less); on MariaDB, on MySQL
5.7 and wherever internal_tmp_mem_storage_engine=MEMORY, each is a MEMORY table of up to the
smaller of tmp_table_size and max_heap_table_size (mariadb-docs-tmp-table-size), counted once per
connection.
"""

from collections.abc import Mapping
from dataclasses import dataclass

from rules.current import parse_number
from rules.current.values import is_off
from rules.inputs.enums import Flavor
from rules.inputs.profile import Profile
from rules.inputs.version import ServerVersion
from rules.reference.catalog import ServerCatalog
from rules.units import GIB, KIB, MIB

# max_connections when the paste leaves it out: 151 on MySQL 5.7 to 9.x and on MariaDB (both
# manuals' server system variables).
DEFAULT_MAX_CONNECTIONS = 151

# The buffers every connection may allocate, each to its own limit (mysql-manual-memory).
CONNECTION_BUFFERS = (
    "sort_buffer_size",
    "join_buffer_size",
    "read_buffer_size",
    "read_rnd_buffer_size",
)
# The limits of one in-memory internal temporary table where it is a MEMORY table.
TEMP_TABLE_LIMITS = ("tmp_table_size", "max_heap_table_size")
SESSION_BUFFERS = (*CONNECTION_BUFFERS, "tmp_table_size")
# Where a version's catalog has no row (MySQL before 5.5): MySQL 5.6's defaults (catalog rows).
FALLBACK_BYTES = {
    "sort_buffer_size": 256 * KIB,
    "join_buffer_size": 256 * KIB,
    "read_buffer_size": 128 * KIB,
    "read_rnd_buffer_size": 256 * KIB,
    "tmp_table_size": 16 * MIB,
}
# max_heap_table_size has no catalog row: 16 MiB on MySQL 5.7 to 8.4 and on MariaDB (MySQL 8.0
# Reference Manual, 7.1.8 Server System Variables, max_heap_table_size; MariaDB Server System
# Variables, max_heap_table_size).
MAX_HEAP_TABLE_DEFAULT_BYTES = 16 * MIB
# MySQL 8.0 made TempTable the engine of in-memory internal temporary tables
# (mysql-manual-internal-temporary-tables).
TEMPTABLE_FROM = ServerVersion(8, 0)
# temptable_max_ram: 1 GiB on MySQL 8.0; from 8.4, 3% of the host's memory within 1 to 4 GiB
# (mysql-manual-84-temptable-max-ram). The host's RAM, not a container limit, is taken: the
# larger figure is the cautious one.
TEMPTABLE_MAX_RAM_80_BYTES = GIB
TEMPTABLE_SHARE_FROM = ServerVersion(8, 4)
TEMPTABLE_SHARE = 0.03
TEMPTABLE_MAX_RAM_CAP_BYTES = 4 * GIB
# From MySQL 8.0.28 tmp_table_size also bounds each TempTable table, so the cap is never reached
# by fewer connections than temptable_max_ram / tmp_table_size, one table each
# (mysql-manual-internal-temporary-tables).
TEMPTABLE_TABLE_LIMIT_FROM = ServerVersion(8, 0, 28)
# performance_schema allocates as the load grows and never frees while the server runs
# (mysql-manual-performance-schema-memory); the manual gives no typical total, so a few hundred
# MiB are kept for it (advisor-engineering-judgement). ON by default on MySQL 5.6 and later,
# OFF by default on MariaDB (MariaDB Server System Variables, performance_schema).
PERFORMANCE_SCHEMA_BYTES = 256 * MIB
# key_buffer_size (the MyISAM index cache, allocated whole): 8 MiB on MySQL, 128 MiB on MariaDB
# (MySQL 8.0 Reference Manual, 7.1.8, key_buffer_size; MariaDB MyISAM System Variables,
# key_buffer_size).
KEY_BUFFER_DEFAULT_BYTES = {
    Flavor.MYSQL: 8 * MIB,
    Flavor.PERCONA: 8 * MIB,
    Flavor.MARIADB: 128 * MIB,
}
# table_open_cache: 4000 on MySQL 8.0 and later, 2000 on MySQL 5.7 and on MariaDB (each manual's
# server system variables). What one cached table costs depends on its columns and indexes; 16
# KiB an entry is the figure used here (advisor-engineering-judgement).
TABLE_OPEN_CACHE_DEFAULT = 4000
TABLE_OPEN_CACHE_OLD_DEFAULT = 2000
TABLE_CACHE_ENTRY_BYTES = 16 * KIB
# The OS, mysqld's own structures (thread stacks, the pool's control blocks) and the page cache
# for redo and binary logs: 512 MiB plus 5% of RAM (advisor-engineering-judgement; no published
# figure).
OS_RESERVE_BYTES = 512 * MIB
OS_RESERVE_SHARE = 0.05


@dataclass(frozen=True, slots=True)
class Budget:
    """Bytes kept outside the buffer pool, by purpose."""

    os_reserve: int
    log_buffer: int
    per_session: int  # the buffers one connection may hold at their limits
    sessions: int  # per_session x concurrency
    temp_tables: int  # TempTable's global cap; 0 where temp tables count per connection
    caches: int  # performance_schema, the key buffer and the table cache

    @property
    def total(self) -> int:
        return self.os_reserve + self.log_buffer + self.sessions + self.temp_tables + self.caches


@dataclass(frozen=True, slots=True)
class Buffer:
    """One per-connection limit: what the server runs with, and the version's default."""

    name: str
    value: int
    default: int
    pasted: bool


def pasted_variables(profile: Profile) -> Mapping[str, str]:
    return profile.current.variables if profile.current is not None else {}


def _pasted_bytes(pasted: Mapping[str, str], name: str) -> int | None:
    number = parse_number(pasted[name]) if name in pasted else None
    return int(number) if isinstance(number, int | float) and number >= 0 else None


def temp_tables_shared(profile: Profile) -> bool:
    """Whether in-memory internal temporary tables share TempTable's global cap."""
    server = profile.server
    if server.flavor is Flavor.MARIADB or server.version.key() < TEMPTABLE_FROM.key():
        return False
    engine = pasted_variables(profile).get("internal_tmp_mem_storage_engine", "")
    return engine.strip().strip("'\"").upper() != "MEMORY"


def session_buffers(profile: Profile, catalog: ServerCatalog) -> tuple[Buffer, ...]:
    """The limits counted for every connection, with their defaults: the sort, join and read
    buffers, and, where temporary tables are MEMORY tables, tmp_table_size and
    max_heap_table_size (the smaller of the two bounds a table)."""
    pasted = pasted_variables(profile)
    names = CONNECTION_BUFFERS if temp_tables_shared(profile) else SESSION_BUFFERS
    buffers = [_buffer(name, pasted, catalog) for name in names]
    if not temp_tables_shared(profile):
        heap = _pasted_bytes(pasted, "max_heap_table_size")
        value = MAX_HEAP_TABLE_DEFAULT_BYTES if heap is None else heap
        buffers.append(
            Buffer("max_heap_table_size", value, MAX_HEAP_TABLE_DEFAULT_BYTES, heap is not None)
        )
    return tuple(buffers)


def _buffer(name: str, pasted: Mapping[str, str], catalog: ServerCatalog) -> Buffer:
    default = catalog.default(name)
    default_bytes = int(default) if isinstance(default, int | float) else FALLBACK_BYTES[name]
    value = _pasted_bytes(pasted, name)
    return Buffer(name, default_bytes if value is None else value, default_bytes, value is not None)


def per_session_bytes(buffers: tuple[Buffer, ...], *, defaults: bool = False) -> int:
    """One connection's buffers at their limits (or at the defaults): a temporary table counts
    once, at the smaller of tmp_table_size and max_heap_table_size."""
    sizes = {b.name: b.default if defaults else b.value for b in buffers}
    temp = [sizes.pop(name) for name in TEMP_TABLE_LIMITS if name in sizes]
    return sum(sizes.values()) + (min(temp) if temp else 0)


def session_bytes(profile: Profile, catalog: ServerCatalog) -> int:
    return per_session_bytes(session_buffers(profile, catalog))


def temptable_bytes(profile: Profile, catalog: ServerCatalog) -> int:
    """TempTable's cap on the RAM all in-memory temporary tables take together, and from
    8.0.28 no more than one tmp_table_size per connection; 0 where it does not apply."""
    if not temp_tables_shared(profile):
        return 0
    pasted = pasted_variables(profile)
    cap = _pasted_bytes(pasted, "temptable_max_ram")
    if cap is None and profile.server.version.key() < TEMPTABLE_SHARE_FROM.key():
        cap = TEMPTABLE_MAX_RAM_80_BYTES
    elif cap is None:
        share = int(TEMPTABLE_SHARE * profile.hardware.ram_bytes)
        cap = min(TEMPTABLE_MAX_RAM_CAP_BYTES, max(TEMPTABLE_MAX_RAM_80_BYTES, share))
    if profile.server.version.key() < TEMPTABLE_TABLE_LIMIT_FROM.key():
        return cap
    per_table = _buffer("tmp_table_size", pasted, catalog).value
    return min(cap, per_table * profile.workload.concurrency)


def cache_bytes(profile: Profile) -> int:
    """performance_schema, the key buffer and the table cache."""
    pasted = pasted_variables(profile)
    flavor = profile.server.flavor
    schema = pasted.get("performance_schema")
    schema_on = flavor is not Flavor.MARIADB if schema is None else not is_off(schema)
    key_buffer = _pasted_bytes(pasted, "key_buffer_size")
    tables = _pasted_bytes(pasted, "table_open_cache")
    if tables is None:
        newer = (
            flavor is not Flavor.MARIADB and profile.server.version.key() >= TEMPTABLE_FROM.key()
        )
        tables = TABLE_OPEN_CACHE_DEFAULT if newer else TABLE_OPEN_CACHE_OLD_DEFAULT
    return (
        (PERFORMANCE_SCHEMA_BYTES if schema_on else 0)
        + (KEY_BUFFER_DEFAULT_BYTES[flavor] if key_buffer is None else key_buffer)
        + tables * TABLE_CACHE_ENTRY_BYTES
    )


def memory_budget(profile: Profile, catalog: ServerCatalog, log_buffer: int) -> Budget:
    ram = profile.hardware.memory_bytes  # a lower memory limit is what the server may use
    per_session = session_bytes(profile, catalog)
    return Budget(
        os_reserve=int(OS_RESERVE_BYTES + OS_RESERVE_SHARE * ram),
        log_buffer=log_buffer,
        per_session=per_session,
        sessions=per_session * profile.workload.concurrency,
        temp_tables=temptable_bytes(profile, catalog),
        caches=cache_bytes(profile),
    )
