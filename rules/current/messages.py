"""Pieces of the error messages and notes: short, safe renderings of untrusted input, and hints."""

from collections.abc import Mapping

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
    number, text = unread[0]
    return f"ignored {len(unread)} line(s) that are not {what}, e.g. line {number}: {clip(text)!r}"


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
