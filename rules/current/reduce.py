"""A pasted `current` reduced to what the advisor reads, before anything keeps it.

Pastes hold far more than InnoDB's IO settings, sometimes passwords. Whatever must be kept past
the request that brought it (a wizard draft, a batch's host, a user's measurement) keeps only the
variables the advisor reads, written back in the form they came in so they read back the same
(a pasted my.cnf stays a my.cnf, SHOW GLOBAL VARIABLES stays batch-mode rows).
"""

import re
from collections.abc import Collection, Mapping
from typing import Any

from rules.current.errors import CurrentParseError
from rules.current.kept import keep_read_variables
from rules.current.messages import show
from rules.current.parse import parse_current
from rules.inputs.field_table import CURRENT_FORMS
from rules.reference.catalog import known_names

_BARE_VALUE = re.compile(r"[A-Za-z0-9_.,+\-/:@%]*")


def reduce_current(raw: Mapping[str, object]) -> dict[str, object] | None:
    """`raw` (a profile's `current`) with only the variables the advisor reads, or None when it
    holds none of them; raises CurrentParseError, as validation would, when it cannot be read."""
    current = parse_current(raw)
    variables, _ = keep_read_variables(current.variables, known_names())
    if not variables and not current.os:
        return None
    form = current.origin if variables else "variables"  # an empty paste would not read back
    loose = current.loose
    text: object
    if form == "variables":  # a loose- name keeps its prefix, as in the paste
        text = {("loose_" if name in loose else "") + name: v for name, v in variables.items()}
    else:
        text = paste_text(form, variables, loose=loose)
    reduced: dict[str, object] = {form: text}
    if current.os:
        reduced["os"] = dict(current.os)
    return reduced


def reduce_profile_paste(
    profile: Mapping[str, Any],
) -> tuple[dict[str, Any], dict[str, list[str]] | None]:
    """(a profile with its pasted `current` reduced to the variables the advisor reads, the field
    errors validation would give when the paste cannot be read, or None). A paste that cannot be
    read is not kept at all."""
    current = profile.get("current")
    if not isinstance(current, Mapping):
        return dict(profile), None
    rest = {key: value for key, value in profile.items() if key != "current"}
    unknown = [str(key) for key in current if key not in (*CURRENT_FORMS, "os")]
    if unknown:
        allowed = ", ".join(CURRENT_FORMS)
        return rest, {f"current.{show(unknown[0])}": [f"is not a known field; allowed: {allowed}"]}
    try:
        return {**rest, "current": reduce_current(current)}, None
    except CurrentParseError as problem:
        return rest, {f"current.{problem.field}": [str(problem)]}


def paste_text(
    form: str,
    variables: Mapping[str, str],
    notes: list[str] | None = None,
    loose: Collection[str] = (),
) -> str:
    """Variables written back as a pasted text form (my.cnf unless `form` is show_variables), so
    they read back the same (`loose` names keep their `loose-` prefix in a my.cnf)."""
    if form == "show_variables":  # the mysql client's batch mode: name TAB value
        return "\n".join(f"{name}\t{_batch_value(value)}" for name, value in variables.items())
    lines = ["[mysqld]", *(f"# {note}" for note in notes or [])]
    lines += [
        f"{'loose-' if name in loose else ''}{name} = {_option_value(value)}"
        for name, value in variables.items()
    ]
    return "\n".join(lines)


def _batch_value(value: str) -> str:
    """A value as a batch-mode row carries it: only the backslash needs its escape."""
    return value.replace("\\", "\\\\")


def _option_value(value: str) -> str:
    """A value as a my.cnf line carries it back: bare when plain, else in double quotes."""
    if _BARE_VALUE.fullmatch(value):
        return value
    return '"' + value.replace("\\", "\\\\").replace('"', '\\"') + '"'
