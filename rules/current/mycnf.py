"""The my.cnf form: `{"mycnf": "..."}`, read with the server's option-file rules (mysys
`my_default.cc`: groups, `#` comments outside quotes, quotes and escapes, the `loose-`, `skip-`,
`disable-` and `enable-` prefixes)."""

import re

from rules.current.errors import CurrentParseError
from rules.current.messages import form_hint, names_note, path_label, section_label, unread_note
from rules.current.names import LooseNames, is_loose, is_name, normalise_name
from rules.current.text import CONTROL, LINE_BREAK, Parsed, checked_text, unescape

# Option groups the server reads (MySQL "Using Option Files"; MariaDB "Configuring MariaDB with
# Option Files"), with or without a version suffix such as [mysqld-8.0] or [mariadb-10.11].
_SERVER_SECTION = re.compile(r"(mysqld|server|mariadb|mariadbd)(-[0-9]+\.[0-9]+)?")
# Variables whose own name starts with skip_ (so `skip-name-resolve` sets skip_name_resolve=ON).
_SKIP_VARIABLES = frozenset(
    {
        "skip_external_locking",
        "skip_name_resolve",
        "skip_networking",
        "skip_replica_start",
        "skip_show_database",
        "skip_slave_start",
    }
)
_PREFIXES = ("skip_", "disable_", "enable_")  # what _apply_prefix resolves
_TRUE_WORDS = frozenset({"1", "on", "true", "yes"})
_FALSE_WORDS = frozenset({"0", "off", "false", "no"})
_MYSQL_ESCAPES = {"n": "\n", "t": "\t", "r": "\r", "b": "\b", "s": " ", '"': '"', "'": "'"}
_INCLUDE = re.compile(r"!(include|includedir)\s+(\S.*)")


class _OptionFile:
    """The state of one pass over a my.cnf: which group we are in, and what was found."""

    def __init__(self, has_groups: bool) -> None:
        self.section: str | None = None if has_groups else "mysqld"
        self.in_server = not has_groups  # whether self.section is a group the server reads
        self.variables: dict[str, str] = {}
        self.loose = LooseNames()
        self.notes: list[str] = []
        # dicts as ordered sets: a paste of 150k distinct sections must stay linear
        self.other_sections: dict[str, None] = {}
        self.version_sections: dict[str, None] = {}
        self.server_section_seen = False
        self.lines_outside = 0
        self.unread: list[int] = []  # numbers of lines not read
        if not has_groups:
            self.notes.append(
                "found no [mysqld] section header; every line was read as a server option"
            )

    def read_line(self, number: int, line: str) -> None:
        text = line.strip()
        if not text or text[0] in "#;":
            return
        if text[0] == "!":
            self.read_directive(number, text)
        elif text[0] == "[":
            self.enter_section(number, text)
        elif self.section is None:
            self.lines_outside += 1
        elif self.in_server and not self.read_option(_strip_end_comment(text)):
            self.unread.append(number)

    def read_directive(self, number: int, text: str) -> None:
        include = _INCLUDE.fullmatch(text)
        if include is None:
            self.unread.append(number)
            return
        kind, path = include.group(1), include.group(2).strip()
        them = "that file" if kind == "include" else "the files in it"
        self.notes.append(f"!{kind} {path_label(path)} was not followed; paste {them} too")

    def enter_section(self, number: int, text: str) -> None:
        close = text.find("]")
        if close < 0:
            self.unread.append(number)
            return
        self.section = text[1:close].strip().lower()
        match = _SERVER_SECTION.fullmatch(self.section)
        self.in_server = match is not None
        if match is None:
            self.other_sections[self.section] = None
            return
        self.server_section_seen = True
        if match.group(2):
            self.version_sections[self.section] = None

    def read_option(self, body: str, *, nested: bool = False) -> bool:
        """Store one `name[=value]` line; False when it is not an option line."""
        name_part, equals, value_part = body.partition("=")
        name = normalise_name(name_part)
        value = _option_value(value_part) if equals else None
        if name == "set_variable":  # MySQL 4 and older: `set-variable = name=value`
            return not nested and value is not None and self.read_option(value, nested=True)
        if name.startswith("maximum_"):  # limits SET for that variable; not a setting
            return is_name(name)
        target, value = _apply_prefix(name, value)
        if not is_name(target) or value is None or CONTROL.search(value):
            return False
        self.variables[target] = value
        self.loose.record(target, is_loose(name_part))
        return True

    def finish(self) -> Parsed:
        notes = self.notes
        if self.version_sections:
            sections = names_note([section_label(name) for name in self.version_sections])
            notes.append(
                f"read {sections} as applying; the server reads such a section only "
                "when its version matches"
            )
        ignored = []
        if self.other_sections:
            ignored.append(names_note([section_label(name) for name in self.other_sections]))
        if self.lines_outside:
            ignored.append(f"{self.lines_outside} line(s) before the first section")
        if ignored:
            notes.append("ignored what is not for the server: " + ", ".join(ignored))
        if self.unread:
            notes.append(unread_note(self.unread, "option lines"))
        return Parsed(self.variables, notes, self.loose.names())


def read_mycnf(raw: object) -> Parsed:
    text = checked_text("mycnf", raw)
    lines = LINE_BREAK.split(text)
    has_groups = any(line.lstrip().startswith("[") and "]" in line for line in lines)
    state = _OptionFile(has_groups)
    for number, line in enumerate(lines, 1):
        state.read_line(number, line)
    parsed = state.finish()
    if not parsed.variables:
        found = ""
        if state.other_sections and not state.server_section_seen:
            found = "; found only " + names_note([section_label(n) for n in state.other_sections])
        hint = form_hint(lines, "show_variables") if not has_groups else ""
        if state.unread:
            hint += "; " + unread_note(state.unread, "option lines")
        raise CurrentParseError(
            "mycnf",
            "no server variables found; expected lines like innodb_io_capacity=200 under "
            f"[mysqld]{found}{hint}",
        )
    return parsed


def _apply_prefix(name: str, value: str | None) -> tuple[str, str | None]:
    """Resolve skip-/disable-/enable- and a bare name to (variable, value)."""
    if name in _SKIP_VARIABLES or not name.startswith(_PREFIXES):  # most lines: a plain name
        return name, "ON" if value is None else value
    for prefix, turns_on in (("skip_", False), ("disable_", False), ("enable_", True)):
        if name.startswith(prefix):
            target = name.removeprefix(prefix)
            if value is None:
                return target, "ON" if turns_on else "OFF"
            if turns_on:
                return target, value
            return target, _negate(value)
    return name, "ON" if value is None else value


def _negate(value: str) -> str | None:
    word = value.strip().lower()
    if word in _TRUE_WORDS:
        return "OFF"
    if word in _FALSE_WORDS:
        return "ON"
    return None


def _strip_end_comment(text: str) -> str:
    """Cut a `#` comment that is not inside quotes (mysys remove_end_comment)."""
    if "#" not in text:
        return text
    quote = ""
    escape = False
    for index, char in enumerate(text):
        if char in "'\"" and not escape:
            if not quote:
                quote = char
            elif quote == char:
                quote = ""
        elif not quote and char == "#":
            return text[:index]
        escape = bool(quote) and char == "\\" and not escape
    return text


def _option_value(text: str) -> str:
    """Trim, drop one pair of enclosing quotes, then apply the option-file escapes."""
    value = text.strip()
    if len(value) >= 2 and value[0] in "'\"" and value[-1] == value[0]:
        value = value[1:-1]
    return unescape(value, _MYSQL_ESCAPES) if "\\" in value else value
