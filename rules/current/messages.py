"""Pieces of the error messages and notes: short, safe renderings of untrusted input, and hints."""

from collections.abc import Mapping, Sequence

from rules.current.kept import looks_like_credential
from rules.current.names import NAME


def form_hint(lines: list[str], other: str) -> str:
    """Suggest the other text form when the lines look like it."""
    if other == "show_variables":
        if any(line.lstrip().startswith("|") or "\t" in line for line in lines):
            return "; this looks like SHOW GLOBAL VARIABLES output: give it as show_variables"
        return ""
    if any(NAME.match(line.strip().lower()) and "=" in line for line in lines):
        return "; this looks like a my.cnf: give it as mycnf"
    return ""


def unread_note(unread: list[tuple[int, str]], what: str) -> str:
    """How many lines were not read, with the first as an example unless it may hold a secret."""
    number, text = unread[0]
    example = (
        "(not shown: it may hold a credential)" if looks_like_credential(text) else repr(clip(text))
    )
    return f"ignored {len(unread)} line(s) that are not {what}, e.g. line {number}: {example}"


def names_note(names: Sequence[str], most: int = 5) -> str:
    """A few names of a list that may be very long, and how many more there are."""
    shown = ", ".join(names[:most])
    return shown + (f" and {len(names) - most:,} more" if len(names) > most else "")


def clip(text: str, limit: int = 60) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "…"


def show(value: object) -> str:
    """A short, safe rendering of an untrusted key for an error message."""
    if isinstance(value, str):
        return repr(clip(value, 40))
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
