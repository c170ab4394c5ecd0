"""SQL that applies the dynamic settings online and lists the ones that need a restart.

MySQL and Percona Server 8.0 and later: `SET PERSIST` (applied now, kept across restarts) and
`SET PERSIST_ONLY` for static variables (kept for the next start). MySQL/Percona 5.7 and MariaDB:
`SET GLOBAL` for dynamic variables; static ones are listed for my.cnf.
"""

from collections.abc import Mapping

from rules.errors import OutputRefused
from rules.render.mycnf import (
    comment,
    config_value,
    header_lines,
    left_out_lines,
    restart_line,
    server_settings,
    server_value,
    variable_name,
)
from rules.result import Result, Setting
from rules.version import parse_version

_QUOTED_KINDS = frozenset({"enum"})
# Variables MySQL refuses to persist (SET PERSIST and PERSIST_ONLY fail: "non persistent"; the
# catalog's notes); they go to my.cnf only.
NOT_PERSISTABLE = frozenset({"innodb_doublewrite", "innodb_dedicated_server"})
_NUMERIC = frozenset("0123456789.-")


def render_sql(result: Result, *, base_url: str = "") -> str:
    """Statements for `result`; raises OutputRefused when it must not be written."""
    if result.output_refused is not None:
        raise OutputRefused(result.output_refused)
    settings = server_settings(result)
    persist = uses_set_persist(result.inputs)
    header = [
        *header_lines(result, "SQL for a running server", base_url=base_url),
        *(f"Warning: {warning}" for warning in result.warnings),
        restart_line(settings),
        *left_out_lines(result),
        *(_PERSIST_NOTE if persist else _GLOBAL_NOTE),
    ]
    lines = [comment("--", line) for line in header]
    mycnf_only = [s for s in settings if persist and s.name in NOT_PERSISTABLE]
    settings = tuple(s for s in settings if s not in mycnf_only)
    static = [s for s in settings if not s.dynamic]
    online = settings if persist else tuple(s for s in settings if s.dynamic)
    for setting in online:
        verb = _verb(setting, persist=persist)
        lines += ["", comment("--", setting.reason)]
        lines.append(f"{verb} {variable_name(setting)} = {sql_literal(setting)};")
    if not online:
        lines += ["", "-- Nothing here can be changed on a running server."]
    if static:
        title = (
            "-- needs a restart; SET PERSIST_ONLY above stored these for the next start:"
            if persist
            else "-- needs a restart; put these in my.cnf:"
        )
        lines += ["", title]
        lines += [f"-- {variable_name(s)} = {config_value(s)}" for s in static]
    if mycnf_only:
        lines += ["", "-- cannot be persisted; needs a restart; put these in my.cnf:"]
        lines += [f"-- {variable_name(s)} = {config_value(s)}" for s in mycnf_only]
    return "\n".join(lines) + "\n"


_PERSIST_NOTE = (
    "SET PERSIST applies a value now and keeps it in mysqld-auto.cnf across restarts;",
    "SET PERSIST_ONLY keeps it for the next start (needs PERSIST_RO_VARIABLES_ADMIN).",
)
_GLOBAL_NOTE = (
    "SET GLOBAL applies a value now but is lost at the next restart:",
    "put the my.cnf export in place as well.",
)


def _verb(setting: Setting, *, persist: bool) -> str:
    if not persist:
        return "SET GLOBAL"
    return "SET PERSIST" if setting.dynamic else "SET PERSIST_ONLY"


def uses_set_persist(inputs: Mapping[str, object]) -> bool:
    """True for MySQL and Percona Server 8.0 and later, which have SET PERSIST."""
    server = inputs.get("server")
    if not isinstance(server, Mapping):
        return False
    flavor, text = server.get("flavor"), server.get("version")
    version = parse_version(text) if isinstance(text, str) else None
    return flavor in ("mysql", "percona") and version is not None and version.major >= 8


def sql_literal(setting: Setting) -> str:
    """Numbers bare (sizes as plain byte counts), words as quoted strings ('O_DIRECT', 'ON')."""
    text = server_value(setting)
    value = setting.value
    is_number = isinstance(value, int | float) and not isinstance(value, bool)
    if is_number or (setting.kind not in _QUOTED_KINDS and _looks_numeric(text)):
        return text
    if "\\" in text:
        raise ValueError(f"{setting.name}: value cannot be written as SQL: {text!r}")
    return "'" + text.replace("'", "''") + "'"


def _looks_numeric(text: str) -> bool:
    try:
        float(text)
    except ValueError:
        return False
    return bool(text) and set(text) <= _NUMERIC
