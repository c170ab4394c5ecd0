"""Ansible: a vars file and a task list, both from one `Result`.

`ansible` is a vars file for the widely used MySQL roles: the drop-in as one string
(`innodb_io_advisor_cnf`) for a `mysql_config_include_files` entry (geerlingguy.mysql copies
each entry's template into `mysql_config_include_dir`), every value by name, and what needs a
restart. `ansible-tasks` is a task list of `community.mysql.mysql_variables` tasks that set the
dynamic settings on the running server (persisted with `mode: persist` on MySQL/Percona 8.0+),
in the order `rules.reference.apply.apply_groups` gives the SQL export's part 1, with its apply
notes.
"""

from rules.output.result import Result, Setting
from rules.reference.apply import apply_groups
from rules.render.deploy import deploy_header, deploy_settings, mycnf_body, no_template
from rules.render.mycnf import config_value, one_line, server_value, variable_name
from rules.render.sql import NOT_PERSISTABLE, uses_set_persist
from rules.render.yamltext import Literal, Node, dump

PREFIX = "innodb_io_advisor"
CNF_NAME = "innodb-io-advisor.cnf"
# geerlingguy.mysql: `mysql_config_include_files` entries are templates (`src`) written into
# `mysql_config_include_dir` (https://github.com/geerlingguy/ansible-role-mysql, README,
# "mysql_config_include_files"); this one-line template writes the drop-in string.
TEMPLATE_NAME = f"{CNF_NAME}.j2"
TEMPLATE_TEXT = "{{ " + PREFIX + "_cnf }}"
VARIABLES_MODULE = "community.mysql.mysql_variables"


def render_ansible(result: Result, *, base_url: str = "") -> str:
    """The vars file; raises OutputRefused when no my.cnf can be written."""
    settings = deploy_settings(result)
    use = [
        "Use: vars_files (or include_vars) in a play. For geerlingguy.mysql, the",
        f"mysql_config_include_files entry below needs templates/{TEMPLATE_NAME} holding",
        f"the one line {TEMPLATE_TEXT}; elsewhere, write {PREFIX}_cnf to the server's",
        "include directory with ansible.builtin.copy (content:) and restart the server.",
    ]
    header = deploy_header(result, "Ansible vars", use, base_url=base_url)
    values: dict[str, Node] = {variable_name(s): no_template(config_value(s)) for s in settings}
    document: dict[str, Node] = {
        f"{PREFIX}_settings": values,
        f"{PREFIX}_restart_required": [s.name for s in settings if not s.dynamic],
        f"{PREFIX}_cnf_name": CNF_NAME,
        f"{PREFIX}_cnf": Literal(mycnf_body(settings)),
        "mysql_config_include_files": [{"src": TEMPLATE_NAME}],
    }
    return dump(document, header=header)


def render_ansible_tasks(result: Result, *, base_url: str = "") -> str:
    """The task list for the dynamic settings; raises OutputRefused when no my.cnf can be."""
    settings = deploy_settings(result)
    persist = uses_set_persist(result.profile.server)
    now, _ = apply_groups(settings, result.profile)  # in an order a running server accepts
    online = [s for s in now if not (persist and s.name in NOT_PERSISTABLE)]
    later = [s for s in settings if s not in online]
    mode = "persist" if persist else "global"
    use = [
        "Use: include_tasks (or import_tasks) on the database hosts; the connection comes from",
        f"module_defaults for {VARIABLES_MODULE} (login_unix_socket or login_host, login_user,",
        "login_password). The module has no check mode: --check skips these tasks.",
        (
            "mode: persist applies each value now and keeps it across restarts (SET PERSIST)."
            if persist
            else "mode: global applies each value now; the next restart forgets it, so put the "
            "Ansible vars' drop-in in place too."
        ),
    ]
    if later:
        names = ", ".join(s.name for s in later)
        use.append(f"Not here (needs the drop-in and a restart): {names}")
    use += [f"{s.name}: {s.apply_note}" for s in online if s.apply_note]
    header = deploy_header(result, "Ansible tasks", use, base_url=base_url)
    tasks: list[Node] = [_task(s, mode) for s in online]
    if not tasks:
        return dump_empty(header)
    return dump(tasks, header=header)


def _task(setting: Setting, mode: str) -> dict[str, Node]:
    name = variable_name(setting)
    return {
        "name": no_template(f"{name}: {one_line(setting.reason)}"),
        VARIABLES_MODULE: {
            "variable": name,
            "value": no_template(server_value(setting)),
            "mode": mode,
        },
    }


def dump_empty(header: list[str]) -> str:
    """An empty task list: valid for include_tasks, with its header saying why."""
    return dump([], header=[*header, "No setting here can be changed on a running server."])
