"""Pieces of the error messages and notes: short, safe renderings of untrusted input, and hints.

A note is stored with the result and shown to anyone who opens its permalink, so a note never
quotes a line it did not read (a shell prompt above a paste can hold `mysql -pSecret`): it says
where the line was and why it was not read. Names and paths are quoted only when they are plain
and hold no credential shape (`holds_secret`).
"""

import re
from collections.abc import Mapping, Sequence

from rules.current.kept import holds_secret
from rules.current.names import NAME

# A section name or an include path quoted in a note: plain characters only.
_PLAIN_SECTION = re.compile(r"[A-Za-z0-9_.-]{1,40}")
_PLAIN_PATH = re.compile(r"[A-Za-z0-9_./-]{1,120}")


def form_hint(lines: list[str], other: str) -> str:
    """Suggest the other text form when the lines look like it."""
    if other == "show_variables":
        if any(line.lstrip().startswith("|") or "\t" in line for line in lines):
            return "; this looks like SHOW GLOBAL VARIABLES output: give it as show_variables"
        return ""
    if any(NAME.match(line.strip().lower()) and "=" in line for line in lines):
        return "; this looks like a my.cnf: give it as mycnf"
    return ""


def unread_note(unread: Sequence[int], what: str) -> str:
    """How many lines were not read, and where: their numbers, never their text."""
    lines = names_note([str(number) for number in unread])
    return f"ignored {len(unread)} line(s) that are not {what}: line {lines}"


def section_label(name: str) -> str:
    """A my.cnf section as a note names it: `[client]`, or a description when it is not plain."""
    if _PLAIN_SECTION.fullmatch(name) and not holds_secret(name):
        return f"[{name}]"
    return "[a section with an unusual name]"


def path_label(path: str) -> str:
    """An include path as a note names it, when it is a plain path with no credential shape."""
    if _PLAIN_PATH.fullmatch(path) and not holds_secret(path):
        return path
    return "(its path is not shown)"


def names_note(names: Sequence[str], most: int = 5) -> str:
    """A few names of a list that may be very long, and how many more there are."""
    shown = ", ".join(names[:most])
    return shown + (f" and {len(names) - most:,} more" if len(names) > most else "")


def clip(text: str, limit: int = 60) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "…"


def show(value: object) -> str:
    """A short, safe rendering of an untrusted key for an error message."""
    if isinstance(value, str):
        return repr(clip(value, 40)) if not holds_secret(value) else "(a text not shown)"
    if isinstance(value, bool) or (isinstance(value, int) and value.bit_length() <= 64):
        return repr(value)
    return kind(value)


def kind(value: object) -> str:
    if value is None:
        return "null"
    if isinstance(value, Mapping):
        return "an object"
    names = {bool: "true/false", int: "a number", float: "a number", str: "text", list: "a list"}
    return names.get(type(value), type(value).__name__)
