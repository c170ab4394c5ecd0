"""What the deploy-tool exports (Ansible, Kubernetes operators, RDS) share: the settings they
write, the header every one of them starts with, and the flavor check."""

from collections.abc import Mapping, Sequence

from rules.inputs.errors import OutputRefused
from rules.output.result import Result, Setting
from rules.render.mycnf import (
    config_value,
    header_lines,
    left_out_lines,
    one_line,
    restart_line,
    server_settings,
    variable_name,
)
from rules.render.yamltext import printable

MYSQL_FAMILY = frozenset({"mysql", "percona"})


def deploy_settings(result: Result) -> tuple[Setting, ...]:
    """The settings a deploy export writes (as the my.cnf does); refused results raise."""
    if result.output_refused is not None:
        raise OutputRefused(result.output_refused)
    return server_settings(result)


def deploy_header(
    result: Result, what: str, use: Sequence[str], *, base_url: str = ""
) -> list[str]:
    """The header lines (no comment mark): inputs, versions, permalink, warnings, what needs a
    restart, what was left out, and how to use the file."""
    settings = server_settings(result)
    return [
        *header_lines(result, what, base_url=base_url),
        *(f"Warning: {warning}" for warning in result.warnings),
        restart_line(settings),
        *left_out_lines(result),
        *use,
    ]


def mycnf_body(
    settings: Sequence[Setting], *, group: str = "mysqld", values: Mapping[str, str] | None = None
) -> str:
    """A my.cnf fragment: the group line, then each value (its my.cnf spelling unless `values`
    gives another) under its one-line reason."""
    lines = [f"[{group}]"]
    for setting in settings:
        text = (values or {}).get(setting.name) or no_template(config_value(setting))
        lines.append(f"# {printable(no_template(one_line(setting.reason)))}".rstrip())
        lines.append(f"{variable_name(setting)} = {text}")
    return "\n".join(lines) + "\n"


# Jinja (Ansible) and pongo2 (the Percona Operator) read these as the start of a template tag.
_TEMPLATE_STARTS = ("{{", "{%", "{#")


def no_template(text: str) -> str:
    """`text` with every template tag opening broken up (`{{` becomes `{ {`), so a tool that
    templates the file writes it as it is."""
    for start in _TEMPLATE_STARTS:
        while start in text:
            text = text.replace(start, start[0] + " " + start[1])
    return text


def require_flavor(result: Result, flavors: frozenset[str], tool: str, runs: str) -> None:
    """Refuse an export for a tool that runs another server than the result's."""
    server = result.profile.server
    if server.flavor.value not in flavors:
        raise OutputRefused(
            f"{tool} runs {runs}; this result is for {server.flavor.value} {server.version_text}"
        )
