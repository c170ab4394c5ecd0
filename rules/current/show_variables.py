"""The SHOW GLOBAL VARIABLES form: `{"show_variables": "..."}`, what the mysql client prints in
batch (tab), table and vertical (`\\G`) modes."""

import re

from rules.current.errors import CurrentParseError
from rules.current.messages import form_hint, unread_note
from rules.current.names import is_name, normalise_name
from rules.current.text import CONTROL, LINE_BREAK, MAX_VALUE_CHARS, Parsed, checked_text, unescape

_BATCH_ESCAPES = {"n": "\n", "t": "\t", "\\": "\\"}
# What the mysql client prints around a result: prompts, row counts, warnings.
_CLIENT_CHATTER = re.compile(
    r"(?:mysql|mariadb|MariaDB\s*\[[^\]]*\])>|[0-9]+ rows? in set|Empty set|Query OK"
    r"|Warning \(Code|Warnings:",
    re.IGNORECASE,
)
_VERTICAL = re.compile(r"(Variable_name|Value):(.*)", re.IGNORECASE | re.DOTALL)


def read_show_variables(raw: object) -> Parsed:
    text = checked_text("show_variables", raw)
    lines = LINE_BREAK.split(text)
    variables: dict[str, str] = {}
    unread: list[int] = []  # numbers of rows not read
    pending: str | None = None  # the name from a vertical-form `Variable_name:` line
    for number, line in enumerate(lines, 1):
        stripped = line.strip()
        if not stripped or stripped[0] in "+*" or _CLIENT_CHATTER.match(stripped):
            pending = None if stripped.startswith("*") else pending
            continue
        vertical = _VERTICAL.fullmatch(stripped)
        if vertical:
            label, value = vertical.group(1).lower(), vertical.group(2).strip()
            if label == "variable_name":
                pending = value
            elif pending is not None and not _store(variables, pending, value):
                unread.append(number)
            continue
        name, value = _split_row(line, stripped)
        if name.strip().lower() == "variable_name":
            continue
        if not _store(variables, name, value):
            unread.append(number)
    if not variables:
        raise CurrentParseError(
            "show_variables",
            "no server variables found; expected the rows of SHOW GLOBAL VARIABLES, e.g. "
            "'innodb_io_capacity<TAB>200' or '| innodb_io_capacity | 200 |'"
            + form_hint(lines, "mycnf"),
        )
    return Parsed(variables, [unread_note(unread, "rows")] if unread else [])


def _split_row(line: str, stripped: str) -> tuple[str, str]:
    """(name, value) of a table (`| a | b |`), batch (tab) or space-separated row."""
    if stripped.startswith("|"):
        body = stripped[1:-1] if stripped.endswith("|") and len(stripped) > 1 else stripped[1:]
        name, _, value = body.partition("|")
        return name, value.strip()
    if "\t" in line:
        name, _, value = line.strip(" \r\n").partition("\t")
        return name, unescape(value, _BATCH_ESCAPES).strip()
    name, *rest = stripped.split(None, 1)
    if rest and rest[0].startswith("="):  # `name = value` is a my.cnf line, not a row
        return "", ""
    return name, rest[0] if rest else ""


def _store(variables: dict[str, str], name: str, value: str) -> bool:
    key = normalise_name(name)
    if not is_name(key) or len(value) > MAX_VALUE_CHARS or CONTROL.search(value):
        return False
    variables[key] = value
    return True
