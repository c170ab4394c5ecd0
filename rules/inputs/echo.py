"""The profile's inputs as a result echoes them (JSON `inputs`, `Profile.raw`), in order, and back.

The echo follows the declaration in `rules.inputs.profile` (sections and fields in their order,
defaults
filled in); `current` comes last as its origin, the count of dropped variables and the variables
kept, sorted. A stored result's inputs come back in that order (`echo_ordered`: PostgreSQL's jsonb
keeps keys in its own order), and `profile_from_echo` turns them into a profile again.
"""

import copy
from collections.abc import Mapping
from functools import cache
from typing import Any

from rules.current.kept import ECHO_META_KEYS
from rules.inputs.field_spec import echo, input_sections
from rules.inputs.profile import Profile

_CURRENT_HEAD = ("origin", "dropped_variables")  # then the variables, sorted
_NOT_ECHOED = frozenset({"current"})  # echoed below, in its own form


def inputs_echo(profile: Profile) -> dict[str, object]:
    """The normalised input in the contract's nesting, defaults filled in."""
    echoed = echo(profile, skip=_NOT_ECHOED)
    if not profile.options.include_defaults:  # echoed only when asked, so ids stay stable
        del echoed["options"]
    current = profile.current
    echoed["current"] = (
        None
        if current is None
        else {
            "origin": current.origin,
            **({"dropped_variables": current.dropped} if current.dropped else {}),
            **dict(sorted(current.variables.items())),
        }
    )
    return echoed


@cache
def _echo_order() -> dict[str, Any]:
    """The echo's keys as nested dicts (None for a leaf), in the order `inputs_echo` writes."""
    sections = input_sections(Profile)

    def keys(path: str) -> dict[str, Any]:
        order: dict[str, Any] = {}
        for name in sections[path]:
            inner = f"{path}.{name}" if path else name
            order[name] = keys(inner) if inner in sections else None
        return order

    order = keys("")
    del order["current"]
    order["current"] = dict.fromkeys(_CURRENT_HEAD)
    return order


def echo_ordered(stored: Mapping[str, Any]) -> dict[str, Any]:
    """Stored inputs with their keys back in the echo's order (unknown keys last, sorted)."""
    return _ordered(stored, _echo_order())


def _ordered(stored: Mapping[str, Any], reference: Mapping[str, Any]) -> dict[str, Any]:
    known = [k for k in reference if k in stored]
    ordered: dict[str, Any] = {}
    for key in [*known, *sorted(k for k in stored if k not in reference)]:
        value, model = stored[key], reference.get(key)
        if isinstance(value, Mapping) and isinstance(model, Mapping):
            value = _ordered(value, model)
        ordered[key] = value
    return ordered


def profile_from_echo(inputs: Mapping[str, Any]) -> dict[str, Any]:
    """The raw profile behind a result's echoed inputs (its `current` back in the API's form)."""
    raw = copy.deepcopy(dict(inputs))
    current = raw.get("current")
    if isinstance(current, Mapping):
        variables = {str(k): str(v) for k, v in current.items() if k not in ECHO_META_KEYS}
        raw["current"] = {"variables": variables} if variables else None
    return raw
