"""`parse_current`: pick the one form given, read it and the optional `os` object."""

from collections.abc import Callable, Mapping

from rules.current.errors import CurrentParseError
from rules.current.mycnf import read_mycnf
from rules.current.show_variables import read_show_variables
from rules.current.system import read_os
from rules.current.text import Parsed
from rules.current.variables import read_variables
from rules.inputs.field_table import CURRENT_FORMS
from rules.inputs.profile import Current

_FORMS = ", ".join(CURRENT_FORMS)
# How a result names where the current configuration came from, by `Current.origin`.
ORIGIN_LABELS: dict[str, str] = {
    "variables": "current variables",
    "mycnf": "pasted my.cnf",
    "show_variables": "pasted SHOW GLOBAL VARIABLES",
}
_READERS: dict[str, Callable[[object], Parsed]] = {
    "variables": read_variables,
    "mycnf": read_mycnf,
    "show_variables": read_show_variables,
}


def parse_current(raw: Mapping[str, object]) -> Current:
    """Read `current` (one of `variables`, `mycnf`, `show_variables`, plus optional `os`)."""
    if not isinstance(raw, Mapping):
        raise CurrentParseError("variables", "current must be an object with one of: " + _FORMS)
    forms = [key for key in CURRENT_FORMS if key in raw]
    if len(forms) != 1:
        field = forms[1] if len(forms) > 1 else "variables"
        raise CurrentParseError(field, "give exactly one of: " + _FORMS)
    form = forms[0]
    os_settings = read_os(raw.get("os"))
    parsed = _READERS[form](raw[form])
    if not parsed.variables and not os_settings:
        raise CurrentParseError(form, "no server variables given; add e.g. innodb_io_capacity")
    return Current(
        variables=parsed.variables,
        os=os_settings,
        origin=form,
        notes=tuple(parsed.notes),
        loose=parsed.loose,
    )
