"""Read what a server runs today: the profile's `current`, in any of its three forms.

`{"variables": {...}}` is taken as given, `{"mycnf": "..."}` is read with the server's option-file
rules (mysys `my_default.cc`: groups, `#` comments outside quotes, quotes and escapes, the
`loose-`, `skip-`, `disable-` and `enable-` prefixes), and `{"show_variables": "..."}` accepts what
the mysql client prints in batch (tab), table and vertical (`\\G`) modes. An optional `os` object
gives the kernel settings. Whatever the input, the only exception raised is `CurrentParseError`.
"""

import math
import re
from collections.abc import Callable, Mapping

from rules.profile import Current
from rules.schema import CURRENT_FORMS, MAX_CURRENT_TEXT_BYTES
from rules.units import GIB, KIB, MIB, TIB

MAX_VARIABLES = 5000
MAX_NAME_CHARS = 64  # the server's own limit on a system variable name (NAME_CHAR_LEN)
MAX_VALUE_CHARS = 65_536
# Share of control characters above which a text is taken for binary data, not a config.
MAX_UNPRINTABLE_SHARE = 0.1

OS_KEYS: tuple[str, ...] = ("io_scheduler", "read_ahead_kb", "swappiness")
MAX_SWAPPINESS = 200  # vm.swappiness range since Linux 5.8

# Option groups the server reads (MySQL "Using Option Files"; MariaDB "Configuring MariaDB with
# Option Files"), with or without a version suffix such as [mysqld-8.0] or [mariadb-10.11].
_SERVER_SECTION = re.compile(r"(mysqld|server|mariadb|mariadbd)(-[0-9]+\.[0-9]+)?")
_SIZE_SUFFIX_BYTES = {"K": KIB, "M": MIB, "G": GIB, "T": TIB, "P": TIB * 1024, "E": TIB * 1024**2}
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
_TRUE_WORDS = frozenset({"1", "on", "true", "yes"})
_FALSE_WORDS = frozenset({"0", "off", "false", "no"})
_MYSQL_ESCAPES = {"n": "\n", "t": "\t", "r": "\r", "b": "\b", "s": " ", '"': '"', "'": "'"}
_BATCH_ESCAPES = {"n": "\n", "t": "\t", "\\": "\\"}

_NAME = re.compile(r"[a-z][a-z0-9_]*(?:\.[a-z][a-z0-9_]*)?")
_INTEGER = re.compile(r"[+-]?[0-9]{1,40}")
_SUFFIXED = re.compile(r"([+-]?[0-9]{1,40})([KMGTPE])", re.IGNORECASE)
_DECIMAL = re.compile(
    r"[+-]?(?:[0-9]{1,40}\.[0-9]{0,40}|\.[0-9]{1,40}|[0-9]{1,40}(?=[eE]))"
    r"(?:[eE][+-]?[0-9]{1,3})?"
)
_LINE_BREAK = re.compile(r"\r\n|\r|\n")
_CONTROL = re.compile(r"[\x00-\x1f\x7f-\x9f\u2028\u2029\ud800-\udfff]")
_UNPRINTABLE = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f\ufffd\ufffe\uffff]")
_SURROGATE = re.compile(r"[\ud800-\udfff]")
_INCLUDE = re.compile(r"!(include|includedir)\s+(\S.*)")
_SYSFS_ACTIVE = re.compile(r"\[([^\]\s]+)\]")
_SCHEDULER = re.compile(r"[a-z][a-z0-9_-]{0,31}")
# What the mysql client prints around a result: prompts, row counts, warnings.
_CLIENT_CHATTER = re.compile(
    r"(?:mysql|mariadb|MariaDB\s*\[[^\]]*\])>|[0-9]+ rows? in set|Empty set|Query OK"
    r"|Warning \(Code|Warnings:",
    re.IGNORECASE,
)
_VERTICAL = re.compile(r"(Variable_name|Value):(.*)", re.IGNORECASE | re.DOTALL)

_Parsed = tuple[dict[str, str], list[str]]


class CurrentParseError(ValueError):
    """`current` cannot be read; `field` is the key under `current` at fault."""

    field: str

    def __init__(self, field: str, message: str) -> None:
        super().__init__(message)
        self.field = field
        self.message = message

    def __reduce__(self) -> tuple[type["CurrentParseError"], tuple[str, str]]:
        return type(self), (self.field, self.message)


def parse_current(raw: Mapping[str, object]) -> Current:
    """Read `current` (one of `variables`, `mycnf`, `show_variables`, plus optional `os`)."""
    if not isinstance(raw, Mapping):
        raise CurrentParseError("variables", "current must be an object with one of: " + _FORMS)
    forms = [key for key in CURRENT_FORMS if key in raw]
    if len(forms) != 1:
        field = forms[1] if len(forms) > 1 else "variables"
        raise CurrentParseError(field, "give exactly one of: " + _FORMS)
    form = forms[0]
    os_settings = _read_os(raw.get("os"))
    variables, notes = _READERS[form](raw[form])
    if not variables and not os_settings:
        raise CurrentParseError(form, "no server variables given; add e.g. innodb_io_capacity")
    return Current(variables=variables, os=os_settings, origin=form, notes=tuple(notes))


def normalise_name(name: str) -> str:
    """The server's spelling of an option name: lower case, underscores, no `loose-` prefix."""
    text = name.strip().lower().replace("-", "_")
    if text.startswith("__"):  # a command-line spelling such as --innodb-io-capacity
        text = text[2:]
    return text.removeprefix("loose_")


def parse_number(text: str) -> int | float | None:
    """A number as the server reads it: 200, 1900M (bytes, 1024-based), 0.5; else None."""
    if not isinstance(text, str) or len(text) > 100:
        return None
    text = text.strip()
    if _INTEGER.fullmatch(text):
        return int(text)
    suffixed = _SUFFIXED.fullmatch(text)
    if suffixed:
        return int(suffixed.group(1)) * _SIZE_SUFFIX_BYTES[suffixed.group(2).upper()]
    if _DECIMAL.fullmatch(text):
        value = float(text)
        return value if math.isfinite(value) else None
    return None


# --- the variables form ----------------------------------------------------------------------


def _read_variables(raw: object) -> _Parsed:
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
    size = 0
    for key, value in raw.items():
        name = _variable_name(key)
        text = _variable_value(key, value)
        size += len(name) + len(text)
        if name in variables and variables[name] != text:
            notes.append(f"{name} was given twice; the later value {text!r} was used")
        variables[name] = text
    if size > MAX_CURRENT_TEXT_BYTES:
        raise CurrentParseError(
            "variables", f"is larger than the limit of {MAX_CURRENT_TEXT_BYTES:,} bytes"
        )
    return variables, notes


def _variable_name(key: object) -> str:
    name = normalise_name(key) if isinstance(key, str) and len(key) <= 2 * MAX_NAME_CHARS else ""
    if not _is_name(name):
        raise CurrentParseError(
            "variables",
            f"{_show(key)} is not a variable name (letters, digits, _ and -, up to "
            f"{MAX_NAME_CHARS} characters)",
        )
    return name


def _variable_value(key: object, value: object) -> str:
    where = f"{_show(key)}: "
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
        if _CONTROL.search(value):
            raise CurrentParseError("variables", where + "the value holds control characters")
        return value.strip()
    raise CurrentParseError(
        "variables", where + f"must be text, a number or true/false; got {_kind(value)}"
    )


# --- the my.cnf form -------------------------------------------------------------------------


class _OptionFile:
    """The state of one pass over a my.cnf: which group we are in, and what was found."""

    def __init__(self, has_groups: bool) -> None:
        self.section: str | None = None if has_groups else "mysqld"
        self.variables: dict[str, str] = {}
        self.notes: list[str] = []
        self.other_sections: list[str] = []
        self.version_sections: list[str] = []
        self.server_section_seen = False
        self.lines_outside = 0
        self.unread: list[tuple[int, str]] = []
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
        elif _SERVER_SECTION.fullmatch(self.section) and not self.read_option(
            _strip_end_comment(text)
        ):
            self.unread.append((number, text))

    def read_directive(self, number: int, text: str) -> None:
        include = _INCLUDE.fullmatch(text)
        if include is None:
            self.unread.append((number, text))
            return
        kind, path = include.group(1), include.group(2).strip()
        them = "that file" if kind == "include" else "the files in it"
        self.notes.append(f"!{kind} {_clip(path)} was not followed; paste {them} too")

    def enter_section(self, number: int, text: str) -> None:
        close = text.find("]")
        if close < 0:
            self.unread.append((number, text))
            return
        self.section = text[1:close].strip().lower()
        match = _SERVER_SECTION.fullmatch(self.section)
        if match is None:
            if self.section not in self.other_sections:
                self.other_sections.append(self.section)
            return
        self.server_section_seen = True
        if match.group(2) and self.section not in self.version_sections:
            self.version_sections.append(self.section)

    def read_option(self, body: str, *, nested: bool = False) -> bool:
        """Store one `name[=value]` line; False when it is not an option line."""
        name_part, equals, value_part = body.partition("=")
        name = normalise_name(name_part)
        value = _option_value(value_part) if equals else None
        if name == "set_variable":  # MySQL 4 and older: `set-variable = name=value`
            return not nested and value is not None and self.read_option(value, nested=True)
        if name.startswith("maximum_"):  # limits SET for that variable; not a setting
            return _is_name(name)
        target, value = _apply_prefix(name, value)
        if not _is_name(target) or value is None or _CONTROL.search(value):
            return False
        self.variables[target] = value
        return True

    def finish(self) -> _Parsed:
        notes = self.notes
        if self.version_sections:
            sections = ", ".join(f"[{name}]" for name in self.version_sections)
            notes.append(
                f"read {sections} as applying; the server reads such a section only "
                "when its version matches"
            )
        ignored = [f"[{name}]" for name in self.other_sections]
        if self.lines_outside:
            ignored.append(f"{self.lines_outside} line(s) before the first section")
        if ignored:
            notes.append("ignored what is not for the server: " + ", ".join(ignored))
        if self.unread:
            notes.append(_unread_note(self.unread, "option lines"))
        return self.variables, notes


def _read_mycnf(raw: object) -> _Parsed:
    text = _checked_text("mycnf", raw)
    lines = _LINE_BREAK.split(text)
    has_groups = any(line.lstrip().startswith("[") and "]" in line for line in lines)
    state = _OptionFile(has_groups)
    for number, line in enumerate(lines, 1):
        state.read_line(number, line)
    variables, notes = state.finish()
    if not variables:
        found = ""
        if state.other_sections and not state.server_section_seen:
            found = "; found only " + ", ".join(f"[{name}]" for name in state.other_sections)
        hint = _form_hint(lines, "show_variables") if not has_groups else ""
        if state.unread:
            hint += "; " + _unread_note(state.unread, "option lines")
        raise CurrentParseError(
            "mycnf",
            "no server variables found; expected lines like innodb_io_capacity=200 under "
            f"[mysqld]{found}{hint}",
        )
    return variables, notes


def _apply_prefix(name: str, value: str | None) -> tuple[str, str | None]:
    """Resolve skip-/disable-/enable- and a bare name to (variable, value)."""
    if name in _SKIP_VARIABLES:
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
    return _unescape(value, _MYSQL_ESCAPES) if "\\" in value else value


# --- the SHOW GLOBAL VARIABLES form ----------------------------------------------------------


def _read_show_variables(raw: object) -> _Parsed:
    text = _checked_text("show_variables", raw)
    lines = _LINE_BREAK.split(text)
    variables: dict[str, str] = {}
    unread: list[tuple[int, str]] = []
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
                unread.append((number, stripped))
            continue
        name, value = _split_row(line, stripped)
        if name.strip().lower() == "variable_name":
            continue
        if not _store(variables, name, value):
            unread.append((number, stripped))
    if not variables:
        raise CurrentParseError(
            "show_variables",
            "no server variables found; expected the rows of SHOW GLOBAL VARIABLES, e.g. "
            "'innodb_io_capacity<TAB>200' or '| innodb_io_capacity | 200 |'"
            + _form_hint(lines, "mycnf"),
        )
    return variables, [_unread_note(unread, "rows")] if unread else []


def _split_row(line: str, stripped: str) -> tuple[str, str]:
    """(name, value) of a table (`| a | b |`), batch (tab) or space-separated row."""
    if stripped.startswith("|"):
        body = stripped[1:-1] if stripped.endswith("|") and len(stripped) > 1 else stripped[1:]
        name, _, value = body.partition("|")
        return name, value.strip()
    if "\t" in line:
        name, _, value = line.strip(" \r\n").partition("\t")
        return name, _unescape(value, _BATCH_ESCAPES).strip()
    name, *rest = stripped.split(None, 1)
    if rest and rest[0].startswith("="):  # `name = value` is a my.cnf line, not a row
        return "", ""
    return name, rest[0] if rest else ""


def _store(variables: dict[str, str], name: str, value: str) -> bool:
    key = normalise_name(name)
    if not _is_name(key) or len(value) > MAX_VALUE_CHARS or _CONTROL.search(value):
        return False
    variables[key] = value
    return True


# --- the os object ---------------------------------------------------------------------------


def _read_os(raw: object) -> dict[str, str]:
    if raw is None:
        return {}
    if not isinstance(raw, Mapping):
        raise CurrentParseError("os", "must be an object with the keys " + ", ".join(OS_KEYS))
    settings: dict[str, str] = {}
    for key, value in raw.items():
        if not isinstance(key, str) or key not in _OS_READERS:
            raise CurrentParseError(
                "os", f"{_show(key)} is not a known OS setting; allowed: " + ", ".join(OS_KEYS)
            )
        settings[key] = _OS_READERS[key](value)
    return settings


def _read_scheduler(value: object) -> str:
    if not isinstance(value, str) or len(value) > 200:
        raise CurrentParseError("os", "io_scheduler must be text such as mq-deadline")
    active = _SYSFS_ACTIVE.search(value)
    name = (active.group(1) if active else value).strip().lower()
    if not _SCHEDULER.fullmatch(name):
        raise CurrentParseError(
            "os",
            "io_scheduler must be one scheduler name (e.g. mq-deadline) or the line of "
            "/sys/block/<dev>/queue/scheduler, such as '[mq-deadline] none bfq'",
        )
    return name


def _read_os_integer(key: str, maximum: int) -> Callable[[object], str]:
    def read(value: object) -> str:
        number: int | None = None
        if isinstance(value, int) and not isinstance(value, bool):
            number = value
        elif isinstance(value, str) and value.strip().isascii() and value.strip().isdigit():
            number = int(value.strip()) if len(value.strip()) <= 12 else None
        if number is None or not 0 <= number <= maximum:
            raise CurrentParseError("os", f"{key} must be a whole number from 0 to {maximum}")
        return str(number)

    return read


_OS_READERS: dict[str, Callable[[object], str]] = {
    "io_scheduler": _read_scheduler,
    "read_ahead_kb": _read_os_integer("read_ahead_kb", 2**31 - 1),
    "swappiness": _read_os_integer("swappiness", MAX_SWAPPINESS),
}


# --- shared helpers --------------------------------------------------------------------------


def _checked_text(field: str, raw: object) -> str:
    """The text of a mycnf / show_variables form, after the size and binary checks."""
    if not isinstance(raw, str):
        raise CurrentParseError(field, f"must be text; got {_kind(raw)}")
    too_long = len(raw) > MAX_CURRENT_TEXT_BYTES
    if too_long or len(raw.encode("utf-8", "surrogatepass")) > MAX_CURRENT_TEXT_BYTES:
        raise CurrentParseError(
            field,
            f"is longer than the limit of {MAX_CURRENT_TEXT_BYTES:,} bytes "
            "(paste only the server's part)",
        )
    text = raw.removeprefix("\ufeff")
    unprintable = len(_UNPRINTABLE.findall(text))
    if "\x00" in text or _SURROGATE.search(text) or unprintable > MAX_UNPRINTABLE_SHARE * len(text):
        raise CurrentParseError(
            field,
            "does not look like a my.cnf / SHOW GLOBAL VARIABLES output (it holds binary data)",
        )
    return text


def _unescape(text: str, escapes: Mapping[str, str]) -> str:
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


def _is_name(name: str) -> bool:
    return len(name) <= MAX_NAME_CHARS and _NAME.fullmatch(name) is not None


def _form_hint(lines: list[str], other: str) -> str:
    """Suggest the other text form when the lines look like it."""
    if other == "show_variables":
        if any(line.lstrip().startswith("|") or "\t" in line for line in lines):
            return "; this looks like SHOW GLOBAL VARIABLES output: give it as show_variables"
        return ""
    if any(_NAME.match(line.strip().lower()) and "=" in line for line in lines):
        return "; this looks like a my.cnf: give it as mycnf"
    return ""


def _unread_note(unread: list[tuple[int, str]], what: str) -> str:
    number, text = unread[0]
    return f"ignored {len(unread)} line(s) that are not {what}, e.g. line {number}: {_clip(text)!r}"


def _clip(text: str, limit: int = 60) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "…"


def _show(value: object) -> str:
    """A short, safe rendering of an untrusted key for an error message."""
    if isinstance(value, str):
        return repr(_clip(value, 40))
    if isinstance(value, bool) or (isinstance(value, int) and value.bit_length() <= 64):
        return repr(value)
    return _kind(value)


def _kind(value: object) -> str:
    if value is None:
        return "null"
    if isinstance(value, Mapping):
        return "an object"
    names = {bool: "true/false", int: "a number", float: "a number", str: "text", list: "a list"}
    return names.get(type(value), type(value).__name__)


_FORMS = ", ".join(CURRENT_FORMS)
_READERS: dict[str, Callable[[object], _Parsed]] = {
    "variables": _read_variables,
    "mycnf": _read_mycnf,
    "show_variables": _read_show_variables,
}
