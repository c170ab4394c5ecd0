"""Warnings a DBA expects about a pasted configuration and the storage described.

Each warning names the variable (or the profile field) it is about and says what to do. Pure:
the profile and the version's catalog in, sentences out; the engine adds them to the result.
"""

from rules.current.hazards import pool_over_memory, relaxed_durability
from rules.current.kept import AUDITED_NAMES, UNCATALOGUED_SESSION_BUFFERS
from rules.current.server_numbers import parse_number
from rules.current.values import LEGACY_REDO, REDO_CAPACITY, is_off, legacy_redo_bytes
from rules.inputs.enums import FlashClass, Flavor, Media, RaidLevel
from rules.inputs.profile import Current, Profile, Storage
from rules.inputs.version import FLAVOR_NAMES, ServerVersion
from rules.machine.memory import (
    DEFAULT_MAX_CONNECTIONS,
    MAX_HEAP_TABLE_DEFAULT_BYTES,
    SESSION_BUFFERS,
    temp_tables_shared,
)
from rules.machine.storage import describe_array
from rules.reference.catalog import ServerCatalog
from rules.reference.defaults import server_name
from rules.reference.removed import Removed, removed_from
from rules.units import GIB, bytes_for_config

# The buffers the memory budget counts per connection (rules/machine/memory.py), plus the binary-log
# cache and the thread stack, which every connection also holds.
SESSION_BUFFER_NAMES = (*SESSION_BUFFERS, *UNCATALOGUED_SESSION_BUFFERS)

# MySQL 8.0 removed the query cache and its variables (MySQL 8.0 release notes, 8.0.3); an
# option file that still sets one stops the server ("unknown variable"). MariaDB keeps it.
QUERY_CACHE_REMOVED_FROM = ServerVersion(8, 0)
QUERY_CACHE_VARIABLES = tuple(sorted(n for n in AUDITED_NAMES if n.startswith("query_cache_")))
PARITY_RAID_IOS_PER_WRITE = {RaidLevel.RAID5: 4, RaidLevel.RAID6: 6}  # rules/machine/devices.py


def audit(profile: Profile, catalog: ServerCatalog) -> list[str]:
    """Every warning about the paste and the storage, in a stable order."""
    storage = profile.hardware.storage
    warnings = _parity_raid(storage)
    current = profile.current
    if current is not None:
        warnings += [warning for _, warning in relaxed_durability(profile)]
        warnings += [warning for _, warning in pool_over_memory(profile, catalog)]
        warnings += _legacy_redo(current, catalog)
        warnings += _query_cache(current, profile, catalog)
        warnings += [warning for _, warning in _removed_variables(current, catalog)]
        warnings += _doublewrite_off(current, storage)
        warnings += _no_fsync(current, storage)
        warnings += _dedicated_server(current, profile, catalog)
    return warnings


def unsafe_current(profile: Profile, catalog: ServerCatalog) -> list[tuple[str, str]]:
    """(variable, warning) for each pasted value that can lose data or stop the server: the
    audit's warnings that the check mode (rules.check) fails on."""
    current = profile.current
    if current is None:
        return []
    storage = profile.hardware.storage
    found = [("innodb_doublewrite", w) for w in _doublewrite_off(current, storage)]
    found += [("innodb_flush_method", w) for w in _no_fsync(current, storage)]
    pasted = [n for n in QUERY_CACHE_VARIABLES if n in current.variables]
    found += [(pasted[0], w) for w in _query_cache(current, profile, catalog)]
    if current.origin != "show_variables":  # a running server's list: an upgrade hazard only
        removed = _removed_variables(current, catalog)
        found += [(name, w) for name, w in removed if name not in current.loose]
    return found + relaxed_durability(profile) + pool_over_memory(profile, catalog)


def _parity_raid(storage: Storage) -> list[str]:
    ios = PARITY_RAID_IOS_PER_WRITE.get(storage.raid_level)
    if ios is None or storage.has_protected_write_cache:
        return []
    level = storage.raid_level.value
    return [
        f"raid_level {level} without a battery- or flash-backed write cache "
        f"({describe_array(storage)}): every small write costs {ios} device IOs "
        f"(read-modify-write of data and parity), so the array writes at 1/{ios} of its "
        "devices' rate; each commit's redo sync waits for the reads before its writes, about "
        "half the commits per second of a mirror; and a power cut mid-stripe can leave parity "
        "wrong (the write hole). Add a protected write-back cache or use raid10."
    ]


def _legacy_redo(current: Current, catalog: ServerCatalog) -> list[str]:
    pasted = [name for name in LEGACY_REDO if name in current.variables]
    if not pasted or not catalog.exists(REDO_CAPACITY):
        return []
    server, both = server_name(catalog), " and ".join(LEGACY_REDO)
    if not all(catalog.exists(name) for name in pasted):
        return [
            f"{both} were deprecated in MySQL 8.0.30 and may be gone in {server}: "
            f"remove {' and '.join(pasted)}, and set {REDO_CAPACITY} instead."
        ]
    if REDO_CAPACITY in current.variables:
        return [
            f"{both} are deprecated in {server} and ignored because {REDO_CAPACITY} is set: "
            f"remove {' and '.join(pasted)}."
        ]
    size, files = (current.variables.get(name) for name in LEGACY_REDO)
    default_size, default_files = (catalog.default(name) for name in LEGACY_REDO)
    size_text = size or bytes_for_config(int(default_size or 0))
    files_text = files or str(default_files)
    total = bytes_for_config(legacy_redo_bytes(current, catalog))
    return [
        f"{both} are deprecated in {server}: with {REDO_CAPACITY} unset the server sizes the "
        f"redo log from them, {total} ({size_text} x {files_text}). Remove "
        f"{' and '.join(pasted)}, and set {REDO_CAPACITY} instead."
    ]


def _query_cache(current: Current, profile: Profile, catalog: ServerCatalog) -> list[str]:
    server = profile.server
    if server.flavor is Flavor.MARIADB or server.version.key() < QUERY_CACHE_REMOVED_FROM.key():
        return []
    pasted = [name for name in QUERY_CACHE_VARIABLES if name in current.variables]
    if not pasted:
        return []
    return [
        f"{' and '.join(pasted)}: MySQL 8.0 removed the query cache, so {server_name(catalog)} "
        "will not start with these in its option file (unknown variable). Remove them."
    ]


def _removed_variables(current: Current, catalog: ServerCatalog) -> list[tuple[str, str]]:
    """(variable, warning) for each pasted variable this release no longer has
    (rules.reference.removed).

    In an option file or a variables object it stops the server, unless given as `loose-name`;
    in SHOW GLOBAL VARIABLES it shows the paste came from an older server, which lists every
    variable it has whether set or not: one warning, an upgrade hazard for the option file."""
    found = [
        row
        for name in current.variables
        if (row := removed_from(name, catalog.flavor, catalog.version)) is not None
    ]
    if not found:
        return []
    server = server_name(catalog)
    if current.origin == "show_variables":
        names = "; ".join(f"{row.name} ({_removal(row)})" for row in found)
        return [
            (
                found[0].name,
                f"The pasted SHOW GLOBAL VARIABLES comes from a server older than the {server} "
                f"this profile names: it lists variables {server} no longer has: {names}. If the "
                "option file sets any of them, remove it before upgrading, or the upgraded "
                "server will not start (unknown variable).",
            )
        ]
    return [(row.name, _removed_warning(row, server, row.name in current.loose)) for row in found]


def _removed_warning(row: Removed, server: str, loose: bool) -> str:
    remedy = f"Set {row.replacement} instead." if row.replacement else "Remove it."
    release = f"{_flavor_of(row)} {row.removed_in}"
    if loose:
        return (
            f"loose-{row.name}: {release} removed it, so {server} skips it with a warning at "
            f"startup (the loose- prefix keeps the server from stopping) and it has no effect. "
            f"{remedy}"
        )
    return (
        f"{row.name}: {server} will not start with it in its option file (unknown variable); "
        f"{release} removed it. {remedy}"
    )


def _removal(row: Removed) -> str:
    """'removed in MySQL 8.2.0; binlog_expire_logs_seconds replaces it'."""
    text = f"removed in {_flavor_of(row)} {row.removed_in}"
    return text + (f"; {row.replacement} replaces it" if row.replacement else "")


def _flavor_of(row: Removed) -> str:
    """The vendor that removed it: MySQL for rows Percona inherits."""
    return FLAVOR_NAMES[Flavor.MYSQL if Flavor.MYSQL in row.flavors else Flavor.MARIADB]


def session_buffer_warnings(profile: Profile, buffer_pool_bytes: int | None) -> list[str]:
    """Each connection may allocate its own sort, join and read buffers (mysql-manual-memory):
    warn when the pasted ones times max_connections exceed the RAM beside the buffer pool the
    result sets (the engine calls this once the settings are decided)."""
    current = profile.current
    if current is None:
        return []
    sizes = {name: _bytes(current.variables.get(name)) for name in SESSION_BUFFER_NAMES}
    temp = sizes.pop("tmp_table_size")
    if temp is not None and not temp_tables_shared(profile):
        # a MEMORY table: the smaller of the two limits (rules/machine/memory.py); under TempTable
        # one
        # global cap holds every session's temporary tables, so none is counted per connection
        heap = _bytes(current.variables.get("max_heap_table_size")) or MAX_HEAP_TABLE_DEFAULT_BYTES
        if temp <= heap:
            sizes["tmp_table_size"] = temp
        else:  # the lower limit binds: name it
            sizes["max_heap_table_size"] = heap
    pasted = {name: size for name, size in sizes.items() if size is not None}
    if not pasted:
        return []
    connections = _bytes(current.variables.get("max_connections")) or DEFAULT_MAX_CONNECTIONS
    sessions = sum(pasted.values()) * connections
    ram = profile.hardware.memory_bytes  # a lower memory limit is what the server may use
    memory = "of the memory limit" if profile.hardware.is_memory_limited else "of RAM"
    pool = buffer_pool_bytes or 0
    if sessions + pool <= ram:
        return []
    names = ", ".join(f"{name} ({bytes_for_config(size)})" for name, size in pasted.items())
    beside = f" beside the {_gib(pool)} buffer pool this result sets" if pool else ""
    return [
        f"{names} x max_connections {connections:,} = {_gib(sessions)} of session buffers, "
        f"more than the {_gib(max(ram - pool, 0))} {memory} left{beside} ({_gib(ram)} in all): "
        "each connection may allocate its own, so a busy hour can run the host out of memory "
        "and the server be killed. Lower max_connections or these buffers (the defaults suit "
        "most workloads; raise one per session where a query needs it)."
    ]


def _bytes(text: str | None) -> int | None:
    number = parse_number(text) if text is not None else None
    return int(number) if isinstance(number, int | float) and number > 0 else None


def _gib(value: int) -> str:
    return f"{value / GIB:,.1f} GiB"


def _doublewrite_off(current: Current, storage: Storage) -> list[str]:
    """OFF (or MySQL's DETECT_ONLY, which finds torn pages but cannot repair them) is safe only
    where the storage writes a whole page atomically; the profile cannot say so, so always."""
    value = current.variables.get("innodb_doublewrite")
    if value is None:
        return []
    word = value.strip().strip("'\"").upper()
    if not is_off(value) and word != "DETECT_ONLY":
        return []
    setting = f"innodb_doublewrite is {word}"
    if storage.flash_class is FlashClass.CONSUMER:
        return [
            f"{setting} on consumer flash, which has no power-loss protection: a power cut can "
            "tear a 16 KiB page write in half, and without the doublewrite buffer InnoDB cannot "
            "repair the page. Set innodb_doublewrite=ON."
        ]
    return [
        f"{setting}, which is safe only on storage that writes a whole 16 KiB page atomically, "
        "and nothing here says this storage does: a power cut in mid-write can leave a torn "
        "page that InnoDB cannot repair. Set innodb_doublewrite=ON unless the storage "
        "guarantees atomic page writes."
    ]


def _dedicated_server(current: Current, profile: Profile, catalog: ServerCatalog) -> list[str]:
    """innodb_dedicated_server=ON sizes the pool and the redo log itself; explicit values win
    (mysql-manual-dedicated-server), so say which the drop-in overrides."""
    value = current.variables.get("innodb_dedicated_server")
    if value is None or is_off(value) or not catalog.exists("innodb_dedicated_server"):
        return []
    redo = (
        "innodb_redo_log_capacity"
        if catalog.exists("innodb_redo_log_capacity")
        else ("innodb_log_file_size")
    )
    return [
        f"innodb_dedicated_server is ON: {server_name(catalog)} then sizes "
        f"innodb_buffer_pool_size and {redo} itself, but only where they are not set, and this "
        "drop-in sets both, so its values win (the server logs a warning). Keep them, or remove "
        "them from the drop-in to let the option decide."
    ]


def _no_fsync(current: Current, storage: Storage) -> list[str]:
    value = current.variables.get("innodb_flush_method")
    if value is None or value.strip().strip("'\"").upper() != "O_DIRECT_NO_FSYNC":
        return []
    enterprise_flash = storage.media is not Media.HDD and (
        storage.flash_class is not FlashClass.CONSUMER
    )
    if storage.has_protected_write_cache or enterprise_flash:
        return []
    return [
        "innodb_flush_method = O_DIRECT_NO_FSYNC skips the fsync after data-file writes, but "
        "no write cache here is protected (no battery-backed controller cache, and the drives' "
        "own cache is volatile): writes the drives acknowledged can be lost in a power cut. "
        "Use O_DIRECT."
    ]
