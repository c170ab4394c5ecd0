"""SQL in two parts: what changes now on the running server, and what waits for a restart.

Part 1, now: `SET PERSIST` on MySQL and Percona Server 8.0 and later (applied now and kept in
mysqld-auto.cnf), `SET GLOBAL` on 5.7 and MariaDB (applied now, lost at the next restart:
MariaDB has no SET PERSIST; MariaDB KB, "SET" and "Configuring MariaDB with Option Files").
Part 2, at the next restart: `SET PERSIST_ONLY` on 8.0+ (MySQL 8.0 Reference Manual, 15.7.6.1
"SET Syntax for Variable Assignment"), and the my.cnf lines for what cannot be persisted and for
5.7 and MariaDB. `rules.reference.apply.apply_groups` decides the parts and the order.
"""

from rules.inputs.enums import Flavor
from rules.inputs.errors import OutputRefused
from rules.inputs.profile import Server
from rules.output.result import Result, Setting
from rules.reference.apply import apply_groups
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

_QUOTED_KINDS = frozenset({"enum"})
# Variables MySQL refuses to persist (SET PERSIST and PERSIST_ONLY fail: "non persistent"; the
# catalog's notes); they go to my.cnf only.
NOT_PERSISTABLE = frozenset({"innodb_doublewrite", "innodb_dedicated_server"})
_NUMERIC = frozenset("0123456789.-")
NOW_TITLE = "-- Part 1 of 2, now: on the running server"
RESTART_TITLE = "-- Part 2 of 2, at the next restart"


def render_sql(result: Result, *, base_url: str = "") -> str:
    """Statements for `result`; raises OutputRefused when it must not be written."""
    if result.output_refused is not None:
        raise OutputRefused(result.output_refused)
    settings = server_settings(result)
    persist = uses_set_persist(result.profile.server)
    header = [
        *header_lines(result, "SQL for a running server", base_url=base_url),
        *(f"Warning: {warning}" for warning in result.warnings),
        restart_line(settings),
        *left_out_lines(result),
        *(_PERSIST_NOTE if persist else _GLOBAL_NOTE),
    ]
    lines = [comment("--", line) for line in header]
    now, restart = apply_groups(settings, result.profile)
    lines += ["", NOW_TITLE + (" (SET PERSIST also keeps it):" if persist else " (SET GLOBAL):")]
    for setting in now:
        lines += [
            "",
            comment("--", setting.reason),
            f"{_verb(setting, persist=persist)} {_assign(setting)};",
        ]
    if not now:
        lines.append("-- Nothing here can be changed on a running server.")
    lines += ["", RESTART_TITLE + ":"]
    lines += _restart_part(restart, persist=persist)
    return "\n".join(lines) + "\n"


def _restart_part(restart: tuple[Setting, ...], *, persist: bool) -> list[str]:
    if not restart:
        return ["-- Nothing waits for a restart."]
    stored = [s for s in restart if persist and s.name not in NOT_PERSISTABLE]
    mycnf = [s for s in restart if s not in stored]
    lines: list[str] = []
    for setting in stored:
        lines += ["", comment("--", setting.reason), f"SET PERSIST_ONLY {_assign(setting)};"]
    if mycnf:
        why = "cannot be persisted; " if persist else ""
        lines.append("")
        lines.append(f"-- {why}put these in the [mysqld] section of my.cnf, then restart:")
        lines += [f"-- {variable_name(s)} = {config_value(s)}" for s in mycnf]
    return lines


def _assign(setting: Setting) -> str:
    return f"{variable_name(setting)} = {sql_literal(setting)}"


_PERSIST_NOTE = (
    "SET PERSIST applies a value now and keeps it in mysqld-auto.cnf across restarts;",
    "SET PERSIST_ONLY keeps it for the next start (needs PERSIST_RO_VARIABLES_ADMIN).",
)
_GLOBAL_NOTE = (
    "SET GLOBAL applies a value now but is lost at the next restart:",
    "put the my.cnf export in place as well.",
)


def _verb(setting: Setting, *, persist: bool) -> str:
    return "SET PERSIST" if persist else "SET GLOBAL"


def uses_set_persist(server: Server) -> bool:
    """True for MySQL and Percona Server 8.0 and later, which have SET PERSIST."""
    return server.flavor in (Flavor.MYSQL, Flavor.PERCONA) and server.version.major >= 8


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
