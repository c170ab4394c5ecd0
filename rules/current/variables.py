"""The variables form: `{"variables": {...}}`, names to values, taken as given."""

import math
from collections.abc import Mapping

from rules.current.errors import CurrentParseError
from rules.current.kept import holds_secret
from rules.current.messages import kind, show
from rules.current.names import MAX_NAME_CHARS, LooseNames, is_loose, is_name, normalise_name
from rules.current.text import CONTROL, MAX_VALUE_CHARS, Parsed
from rules.inputs.field_table import MAX_TEXT_BYTES

MAX_VARIABLES = 5000


def read_variables(raw: object) -> Parsed:
    if not isinstance(raw, Mapping):
        raise CurrentParseError(
            "variables", 'must be an object of names to values, e.g. {"innodb_io_capacity": "200"}'
        )
    if len(raw) > MAX_VARIABLES:
        raise CurrentParseError(
            "variables", f"has {len(raw):,} entries; the limit is {MAX_VARIABLES:,}"
        )
    variables: dict[str, str] = {}
    notes: list[str] = []
    loose = LooseNames()
    size = 0
    for key, value in raw.items():
        name = _variable_name(key)
        loose.record(name, is_loose(key))  # a str: _variable_name checked it
        text = _variable_value(key, value)
        size += len(name) + len(text)
        if name in variables and variables[name] != text:
            later = "" if holds_secret(name) or holds_secret(text) else f" {text!r}"
            notes.append(f"{name} was given twice; the later value{later} was used")
        variables[name] = text
    if size > MAX_TEXT_BYTES["variables"]:
        raise CurrentParseError(
            "variables", f"is larger than the limit of {MAX_TEXT_BYTES['variables']:,} bytes"
        )
    return Parsed(variables, notes, loose.names())


def _variable_name(key: object) -> str:
    name = normalise_name(key) if isinstance(key, str) and len(key) <= 2 * MAX_NAME_CHARS else ""
    if not is_name(name):
        raise CurrentParseError(
            "variables",
            f"{show(key)} is not a variable name (letters, digits, _ and -, up to "
            f"{MAX_NAME_CHARS} characters)",
        )
    return name


def _variable_value(key: object, value: object) -> str:
    where = f"{show(key)}: "
    if isinstance(value, bool):
        return "ON" if value else "OFF"
    if isinstance(value, int):
        if value.bit_length() > 128:
            raise CurrentParseError("variables", where + "the number is too large")
        return str(value)
    if isinstance(value, float):
        if not math.isfinite(value):
            raise CurrentParseError("variables", where + "must be a finite number")
        return str(int(value)) if value.is_integer() and abs(value) < 1e18 else repr(value)
    if isinstance(value, str):
        if len(value) > MAX_VALUE_CHARS:
            raise CurrentParseError(
                "variables", where + f"the value is longer than {MAX_VALUE_CHARS:,} characters"
            )
        if CONTROL.search(value):
            raise CurrentParseError("variables", where + "the value holds control characters")
        return value.strip()
    raise CurrentParseError(
        "variables", where + f"must be text, a number or true/false; got {kind(value)}"
    )
