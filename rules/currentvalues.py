"""What a server runs today for one variable, and which way a recommendation moves it."""

from rules.catalog import VariableSpec
from rules.current import parse_number
from rules.profile import Current
from rules.result import Change

_TRUE = {"ON", "1", "TRUE", "YES"}
_FALSE = {"OFF", "0", "FALSE", "NO"}


def current_value(current: Current | None, spec: VariableSpec) -> tuple[str | None, bool]:
    """(value, is_default): the pasted value, else the version's default; (None, False) unknown."""
    if current is None:
        return None, False
    if spec.name in current.variables:
        return current.variables[spec.name], False
    if spec.default is None:
        return None, False
    return _spell_default(spec.default), True


def change_between(current: str | None, value: int | float | str, kind: str) -> Change | None:
    if current is None:
        return None
    if kind == "enum" or isinstance(value, str):
        return Change.KEEP if _enum_key(current) == _enum_key(str(value)) else Change.CHANGE
    before = parse_number(current)
    if before is None:
        return Change.CHANGE
    if before == value:
        return Change.KEEP
    return Change.RAISE if value > before else Change.LOWER


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
