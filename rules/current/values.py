"""What a server runs today for one variable, and which way a recommendation moves it."""

import functools

from rules.current import parse_number
from rules.inputs.profile import Current
from rules.output.result import Change
from rules.reference.catalog import ServerCatalog, VariableSpec
from rules.reference.defaults import default_of, io_capacity_max_default

REDO_CAPACITY = "innodb_redo_log_capacity"
# From MySQL 8.0.30, with innodb_redo_log_capacity unset, the server sizes the redo log as
# innodb_log_file_size x innodb_log_files_in_group (both deprecated; catalog notes).
LEGACY_REDO = ("innodb_log_file_size", "innodb_log_files_in_group")

# Variables whose current value, when not pasted, is worked out from other pasted ones.
DERIVED = frozenset({REDO_CAPACITY, "innodb_io_capacity_max"})
_TRUE = {"ON", "1", "TRUE", "YES"}
_FALSE = {"OFF", "0", "FALSE", "NO"}


def current_value(
    current: Current | None, spec: VariableSpec, catalog: ServerCatalog
) -> tuple[str | None, bool]:
    """(value, is_default): the pasted value, else what the server derives from what was pasted
    or from its defaults; (None, False) when unknown."""
    if current is None:
        return None, False
    if spec.name in current.variables:
        return current.variables[spec.name], False
    if spec.name == REDO_CAPACITY and legacy_redo_pasted(current, catalog):
        return str(legacy_redo_bytes(current, catalog)), False
    if spec.name == "innodb_io_capacity_max":
        capacity = _number(current, catalog, "innodb_io_capacity")
        if capacity is not None:
            return str(io_capacity_max_default(catalog, int(capacity))), True
    return running_default(catalog, spec.name)


@functools.lru_cache(maxsize=4096)  # per release and variable: a few hundred of each
def running_default(catalog: ServerCatalog, name: str) -> tuple[str | None, bool]:
    """(the version's default as the server prints it, True), or (None, False) when unknown."""
    default = default_of(catalog, name)
    if default is None:
        return None, False
    return _spell_default(default), True


def legacy_redo_pasted(current: Current, catalog: ServerCatalog) -> bool:
    """Whether the paste sizes the redo log the pre-8.0.30 way on a server that still reads it."""
    return catalog.exists(REDO_CAPACITY) and any(
        name in current.variables and catalog.exists(name) for name in LEGACY_REDO
    )


def legacy_redo_bytes(current: Current, catalog: ServerCatalog) -> int:
    """innodb_log_file_size x innodb_log_files_in_group, each pasted or the version's default."""
    size, files = (_number(current, catalog, name) or 0 for name in LEGACY_REDO)
    return int(size) * int(files)


def _number(current: Current, catalog: ServerCatalog, name: str) -> int | float | None:
    """The pasted value of a numeric variable, else the version's default."""
    text = current.variables.get(name)
    number = parse_number(text) if text is not None else None
    if number is not None:
        return number
    default = catalog.default(name)
    return default if isinstance(default, int | float) else None


def change_between(current: str | None, value: int | float | str, kind: str) -> Change | None:
    """Which way `value` moves the server from `current`; None when the current one is unknown."""
    if current is None:
        return None
    if kind == "enum" or isinstance(value, str):
        return _enum_change(current, str(value))
    before = parse_number(current)
    if before is None:
        return Change.CHANGE
    if before == value:
        return Change.KEEP
    return Change.RAISE if value > before else Change.LOWER


@functools.lru_cache(maxsize=4096)  # pasted text in the key: bounded
def _enum_change(current: str, value: str) -> Change:
    return Change.KEEP if _enum_key(current) == _enum_key(value) else Change.CHANGE


def is_off(value: object) -> bool:
    """Whether a server would read `value` as a boolean OFF (OFF, 0, FALSE, NO; any case)."""
    return _enum_key(str(value)) == "OFF"


def _enum_key(text: str) -> str:
    upper = text.strip().strip("'\"").upper()
    if upper in _TRUE:
        return "ON"
    if upper in _FALSE:
        return "OFF"
    return upper


def _spell_default(default: int | float | str) -> str:
    if isinstance(default, float) and default.is_integer():
        return str(int(default))
    return str(default)
