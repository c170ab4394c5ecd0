"""Settle what was pasted against the server's own catalog: keep the variables the advisor reads,
read each value as that server reads it, and name every value the server would refuse.

The server's option parser (mysys `my_getopt.cc`) takes a whole number with one K/M/G/T/P/E
suffix for integer options, a decimal for double options and ON/OFF/TRUE/FALSE/1/0 for booleans;
any other text stops the server at startup ("Unknown suffix", "Invalid decimal value"). A number
outside the variable's range is adjusted to the nearest bound with a warning, so such a value is
read as the server would read it and the adjustment is noted.
"""

from rules.current.kept import keep_read_variables
from rules.current.messages import clip
from rules.current.server_numbers import parse_number
from rules.inputs.profile import Current
from rules.reference.catalog import NUMERIC_TYPES, ServerCatalog, VariableSpec
from rules.reference.removed import REMOVED_NAMES, removed_from
from rules.units import ascii_digits

_BOOL_WORDS = frozenset({"on", "off", "true", "false", "1", "0"})
_EXPECTED = {
    "int": "a whole number such as 200",
    "bytes": "a size in bytes such as 134217728 or 128M",
    "float": "a number such as 75 or 7.5",
}


def settle_current(
    current: Current, catalog: ServerCatalog, read: frozenset[str]
) -> tuple[Current, dict[str, list[str]]]:
    """(the current configuration as the server would read it, errors by field path)."""
    removed = [
        name
        for name in current.variables
        if name in REMOVED_NAMES and removed_from(name, catalog.flavor, catalog.version) is not None
    ]
    kept, notes = keep_read_variables(current.variables, read, removed)
    errors: dict[str, list[str]] = {}
    settled: dict[str, str] = {}
    for name, text in kept.items():
        spec = catalog.get(name)
        if spec is None:  # not a variable of this release: reported by the audit, not read
            settled[name] = text
            continue
        value, problem = _read_value(spec, text, catalog)
        if problem is not None:
            errors.setdefault(f"current.{current.origin}.{name}", []).append(problem)
            continue
        if value != text.strip():
            notes.append(
                f"{name} = {clip(text.strip(), 40)!r} is read as {value}, as the server would"
            )
        settled[name] = value
    dropped = len(current.variables) - len(kept)
    # Built directly: dataclasses.replace looks every field up again (a fifth of this function)
    replaced = Current(
        variables=settled,
        os=current.os,
        origin=current.origin,
        notes=(*current.notes, *notes),
        dropped=dropped,
        loose=current.loose,
    )
    return replaced, errors


def _read_value(spec: VariableSpec, text: str, catalog: ServerCatalog) -> tuple[str, str | None]:
    """(the value the server would run with, or a message why the server would refuse it)."""
    if spec.type == "bool":
        if text.strip().lower() in _BOOL_WORDS:
            return text.strip(), None
        return text, f"{_where(spec, text)}: not a value the server reads; use ON or OFF"
    if spec.type == "enum":
        allowed = {value.casefold(): value for value in spec.values}
        word = text.strip().strip("'\"")
        if not allowed or word.casefold() in allowed:
            return word, None
        if ascii_digits(word) and int(word) < len(spec.values):  # my_getopt takes an index
            return word, None
        one_of = ", ".join(spec.values)
        return text, f"{_where(spec, text)}: not a value this server accepts; one of {one_of}"
    if spec.type not in NUMERIC_TYPES:
        return text.strip(), None
    number = parse_number(text)
    whole = spec.type != "float"
    if number is None or (whole and number != int(number)):
        expected = _EXPECTED[spec.type]
        return text, f"{_where(spec, text)}: not {expected}; the server would refuse to start"
    clamped, moved = catalog.clamp(spec.name, number)
    if not moved or (spec.block_size and _within(spec, number)):
        return text.strip(), None
    return _spell(clamped), None


def _where(spec: VariableSpec, text: str) -> str:
    """How a refused value is named (built only for one: every pasted value is read)."""
    return f"{spec.name} = {clip(text.strip(), 40)!r}"


def _within(spec: VariableSpec, number: int | float) -> bool:
    """In range: a value off the block size only is rounded by the server at run time."""
    low = spec.minimum is None or number >= spec.minimum
    return low and (spec.maximum is None or number <= spec.maximum)


def _spell(number: int | float) -> str:
    return str(int(number)) if float(number).is_integer() else repr(float(number))
