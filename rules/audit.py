"""Warnings a DBA expects about a pasted configuration and the storage described.

Each warning names the variable (or the profile field) it is about and says what to do. Pure:
the profile and the version's catalog in, sentences out; the engine adds them to the result.
"""

from rules.catalog import ServerCatalog
from rules.current.kept import AUDITED_NAMES
from rules.currentvalues import LEGACY_REDO, REDO_CAPACITY, is_off, legacy_redo_bytes
from rules.defaults import server_name
from rules.enums import FlashClass, Flavor, Media, RaidLevel
from rules.profile import Current, Profile, Storage
from rules.units import bytes_for_config
from rules.version import ServerVersion

# MySQL 8.0 removed the query cache and its variables (MySQL 8.0 release notes, 8.0.3); an
# option file that still sets one stops the server ("unknown variable"). MariaDB keeps it.
QUERY_CACHE_REMOVED_FROM = ServerVersion(8, 0)
QUERY_CACHE_VARIABLES = tuple(sorted(n for n in AUDITED_NAMES if n.startswith("query_cache_")))
PARITY_RAID_IOS_PER_WRITE = {RaidLevel.RAID5: 4, RaidLevel.RAID6: 6}  # rules/devices.py


def audit(profile: Profile, catalog: ServerCatalog) -> list[str]:
    """Every warning about the paste and the storage, in a stable order."""
    storage = profile.hardware.storage
    warnings = _parity_raid(storage)
    current = profile.current
    if current is not None:
        warnings += _legacy_redo(current, catalog)
        warnings += _query_cache(current, profile, catalog)
        warnings += _doublewrite_off(current, storage)
        warnings += _no_fsync(current, storage)
    return warnings


def _parity_raid(storage: Storage) -> list[str]:
    ios = PARITY_RAID_IOS_PER_WRITE.get(storage.raid_level)
    if ios is None or storage.has_protected_write_cache:
        return []
    level = storage.raid_level.value
    return [
        f"raid_level {level} without a battery- or flash-backed write cache: every random "
        f"write costs {ios} device IOs (read-modify-write of data and parity), so the array "
        f"writes at 1/{ios} of its devices' rate, and a power cut mid-stripe can leave parity "
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


def _doublewrite_off(current: Current, storage: Storage) -> list[str]:
    value = current.variables.get("innodb_doublewrite")
    if value is None or not is_off(value):
        return []
    if storage.flash_class is not FlashClass.CONSUMER:
        return []
    return [
        "innodb_doublewrite is OFF on consumer flash, which has no power-loss protection: a "
        "power cut can tear a 16 KiB page write in half, and without the doublewrite buffer "
        "InnoDB cannot repair the page. Set innodb_doublewrite=ON."
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
