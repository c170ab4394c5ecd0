"""Warnings a DBA expects about a pasted configuration and the storage described.

Each warning names the variable (or the profile field) it is about and says what to do. Pure:
the profile and the version's catalog in, sentences out; the engine adds them to the result.
"""

from rules.catalog import ServerCatalog
from rules.currentvalues import LEGACY_REDO, REDO_CAPACITY, legacy_redo_bytes
from rules.defaults import server_name
from rules.profile import Current, Profile
from rules.units import bytes_for_config


def audit(profile: Profile, catalog: ServerCatalog) -> list[str]:
    """Every warning about the paste and the storage, in a stable order."""
    current = profile.current
    if current is None:
        return []
    return _legacy_redo(current, catalog)


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
