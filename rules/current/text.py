"""Checks and unescaping shared by the forms: the size and binary checks on pasted text, the
control characters a value may not hold, and backslash escapes."""

import re
from collections.abc import Mapping
from dataclasses import dataclass, field

from rules.current.errors import CurrentParseError
from rules.current.messages import kind
from rules.inputs.field_table import MAX_TEXT_BYTES

MAX_VALUE_CHARS = 65_536
# Share of control characters above which a text is taken for binary data, not a config.
MAX_UNPRINTABLE_SHARE = 0.1

LINE_BREAK = re.compile(r"\r\n|\r|\n")
CONTROL = re.compile(r"[\x00-\x1f\x7f-\x9f\u2028\u2029\ud800-\udfff]")
_UNPRINTABLE = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f\ufffd\ufffe\uffff]")
_SURROGATE = re.compile(r"[\ud800-\udfff]")


@dataclass(frozen=True, slots=True)
class Parsed:
    """What a form's reader returns: the variables, notes on what it read, and the names given
    only with the `loose-` prefix (a server that does not know one warns and starts anyway)."""

    variables: dict[str, str]
    notes: list[str]
    loose: frozenset[str] = field(default_factory=frozenset)


def checked_text(field: str, raw: object) -> str:
    """The text of a mycnf / show_variables form, after the size and binary checks."""
    if not isinstance(raw, str):
        raise CurrentParseError(field, f"must be text; got {kind(raw)}")
    limit = MAX_TEXT_BYTES[field]
    too_long = len(raw) > limit
    if too_long or len(raw.encode("utf-8", "surrogatepass")) > limit:
        raise CurrentParseError(
            field,
            f"is longer than the limit of {limit:,} bytes (paste only the server's part)",
        )
    text = raw.removeprefix("\ufeff")
    unprintable = len(_UNPRINTABLE.findall(text))
    if "\x00" in text or _SURROGATE.search(text) or unprintable > MAX_UNPRINTABLE_SHARE * len(text):
        raise CurrentParseError(
            field,
            "does not look like a my.cnf / SHOW GLOBAL VARIABLES output (it holds binary data)",
        )
    return text


def unescape(text: str, escapes: Mapping[str, str]) -> str:
    """Apply backslash escapes; an unknown one keeps its backslash, as the server does."""
    out: list[str] = []
    index = 0
    while index < len(text):
        char = text[index]
        if char == "\\" and index + 1 < len(text):
            following = text[index + 1]
            if following == "\\":
                out.append("\\")
            elif following in escapes:
                out.append(escapes[following])
            else:
                out.append(char + following)
            index += 2
            continue
        out.append(char)
        index += 1
    return "".join(out)
