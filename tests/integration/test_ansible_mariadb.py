"""The Ansible exports run under the real ansible-playbook against a throwaway MariaDB 10.11.

One play reads the `ansible` vars file, writes its drop-in with ansible.builtin.copy and
includes the `ansible-tasks` list (community.mysql.mysql_variables, from the pinned `ansible`
package). It passes --syntax-check; a --check run validates every task, skips the
mysql_variables ones (the module has no check mode) and changes nothing; a real run leaves the
server reporting every value we recommend, and the drop-in it writes holds the my.cnf export's
values; a second run changes nothing.
"""

from __future__ import annotations

import configparser
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

from lab.mariadb_server import running_server, same_value
from rules.engine import recommend
from rules.inputs.examples import raw_profile
from rules.inputs.validation import parse_profile
from rules.render import render

pytestmark = pytest.mark.mariadb

ANSIBLE_PLAYBOOK = Path(sys.executable).with_name("ansible-playbook")
PLAYBOOK = """\
- name: InnoDB IO Advisor settings
  hosts: all
  connection: local
  gather_facts: false
  vars_files:
    - vars.yml
  module_defaults:
    community.mysql.mysql_variables:
      login_unix_socket: "{{ socket }}"
      login_user: root
  tasks:
    - name: Write the drop-in
      ansible.builtin.copy:
        content: "{{ innodb_io_advisor_cnf }}"
        dest: "{{ out_dir }}/{{ innodb_io_advisor_cnf_name }}"
        mode: "0644"
    - name: Set the dynamic values on the running server
      ansible.builtin.include_tasks: tasks.yml
"""


def _result():  # a small MariaDB 10.11 host, every recommendation written
    raw = raw_profile(
        **{
            "server.flavor": "mariadb",
            "server.version": "10.11",
            "hardware.ram_gb": 2,
            "hardware.cpu_cores": 2,
            "workload.data_size_gb": 1,
            "workload.concurrency": 8,
            "workload.recovery_target_minutes": 1,
        }
    )
    raw["options"] = {"include_defaults": True}
    return recommend(parse_profile(raw))


def _playbook(work: Path, socket: Path, *args: str) -> subprocess.CompletedProcess[str]:
    env = {
        **os.environ,
        "ANSIBLE_HOME": str(work / "ansible-home"),
        "ANSIBLE_LOCAL_TEMP": str(work / "ansible-tmp"),
        "ANSIBLE_NOCOLOR": "1",
        "ANSIBLE_RETRY_FILES_ENABLED": "0",
        "ANSIBLE_PYTHON_INTERPRETER": sys.executable,  # has PyMySQL, which the module needs
        "LC_ALL": "C.UTF-8",
    }
    command = [
        str(ANSIBLE_PLAYBOOK),
        "-i",
        "localhost,",
        "-e",
        f"socket={socket}",
        "-e",
        f"out_dir={work / 'out'}",
        *args,
        str(work / "playbook.yml"),
    ]
    return subprocess.run(
        command, capture_output=True, text=True, env=env, cwd=work, timeout=300, check=False
    )


def _recap(output: str) -> dict[str, int]:
    """The play recap's counts for localhost: ok, changed, failed, skipped, ..."""
    line = next((ln for ln in output.splitlines() if ln.startswith("localhost ")), None)
    assert line is not None, output
    return {key: int(value) for key, value in re.findall(r"(\w+)=(\d+)", line)}


def _server_values(server, names: list[str]) -> dict[str, str]:
    row = server.query("SELECT " + ", ".join(f"@@global.{n}" for n in names)).rstrip("\n")
    return dict(zip(names, row.split("\t"), strict=True))


def _mysqld_values(text: str) -> dict[str, str]:
    parser = configparser.ConfigParser(interpolation=None, strict=True)
    parser.read_string(text)
    return dict(parser["mysqld"])


def test_the_ansible_exports_apply_the_recommendation_to_a_real_server(tmp_path: Path) -> None:
    result = _result()
    vars_text, tasks_text = render(result, "ansible"), render(result, "ansible-tasks")
    (tmp_path / "vars.yml").write_text(vars_text, encoding="utf-8")
    (tmp_path / "tasks.yml").write_text(tasks_text, encoding="utf-8")
    (tmp_path / "playbook.yml").write_text(PLAYBOOK, encoding="utf-8")
    (tmp_path / "out").mkdir()
    tasks = yaml.safe_load(tasks_text)
    online = {t["community.mysql.mysql_variables"]["variable"]: t for t in tasks}
    wanted = {name: t["community.mysql.mysql_variables"]["value"] for name, t in online.items()}
    assert len(wanted) >= 5, tasks_text  # a real list, not an empty one passing trivially
    names = sorted(wanted)

    with running_server("") as server:
        syntax = _playbook(tmp_path, server.socket, "--syntax-check")
        assert syntax.returncode == 0, syntax.stdout + syntax.stderr

        before = _server_values(server, names)
        differ = [n for n in names if not same_value(wanted[n], before[n])]
        assert differ, "every value is already the server's: the runs would prove nothing"

        check = _playbook(tmp_path, server.socket, "--check")
        assert check.returncode == 0, check.stdout + check.stderr
        recap = _recap(check.stdout)
        assert (recap["changed"], recap["skipped"], recap["failed"]) == (1, len(tasks), 0)
        assert _server_values(server, names) == before  # check mode changes nothing
        assert not (tmp_path / "out" / "innodb-io-advisor.cnf").exists()

        run = _playbook(tmp_path, server.socket)
        assert run.returncode == 0, run.stdout + run.stderr
        assert _recap(run.stdout)["changed"] == len(differ) + 1  # and the drop-in
        after = _server_values(server, names)
        assert {n: same_value(wanted[n], after[n]) for n in names} == dict.fromkeys(names, True)

        again = _playbook(tmp_path, server.socket)
        assert again.returncode == 0, again.stdout + again.stderr
        assert _recap(again.stdout)["changed"] == 0

    written = (tmp_path / "out" / "innodb-io-advisor.cnf").read_text(encoding="utf-8")
    assert written == yaml.safe_load(vars_text)["innodb_io_advisor_cnf"]
    assert _mysqld_values(written) == _mysqld_values(render(result, "mycnf"))
