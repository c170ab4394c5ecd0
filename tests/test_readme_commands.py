"""The README's curl line that installs a my.cnf, run as written against a live server: a
refused profile prints the error and leaves the installed file as it was; a good one replaces
it. (Only the host, the target folder and `sudo` are swapped for the test's.)"""

from __future__ import annotations

import json
import re
import subprocess
from pathlib import Path

import pytest

from rules.inputs.examples import raw_profile

README = Path(__file__).resolve().parents[1] / "README.md"


def _install_command() -> str:
    """The README's first command that writes innodb.cnf into /etc/mysql/conf.d."""
    blocks = re.findall(r"```sh\n(.*?)```", README.read_text(), re.S)
    command = next(b for b in blocks if "/etc/mysql/conf.d/innodb.cnf" in b)
    lines = command.replace("\\\n", " ").splitlines()
    return next(line for line in lines if "/etc/mysql/conf.d/innodb.cnf" in line)


def test_no_readme_command_redirects_a_download_into_a_file() -> None:
    """`curl ... > file` creates or empties the file before an error arrives."""
    for block in re.findall(r"```sh\n(.*?)```", README.read_text(), re.S):
        for line in block.replace("\\\n", " ").splitlines():
            if line.lstrip().startswith("curl"):
                assert not re.search(r"(?<!2)>\s*\S", line.split("#")[0]), line


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("good", [True, False])
def test_the_readme_install_line_replaces_the_file_only_on_success(
    live_server, tmp_path: Path, good: bool
) -> None:
    target = tmp_path / "conf.d"
    target.mkdir()
    (target / "innodb.cnf").write_text("# what the server runs today\n")
    profile = raw_profile() if good else {**raw_profile(), "hardware": {"ram_gb": -1}}
    (tmp_path / "profile.json").write_text(json.dumps(profile))
    command = (
        _install_command()
        .replace("http://127.0.0.1:8000", live_server.url)
        .replace("/etc/mysql/conf.d", str(target))
        .replace("sudo ", "")
    )
    run = subprocess.run(
        ["bash", "-c", command], cwd=tmp_path, capture_output=True, text=True, check=False
    )
    installed = (target / "innodb.cnf").read_text()
    if good:
        assert "\n# InnoDB IO Advisor: my.cnf drop-in\n" in installed, run.stdout + run.stderr
    else:
        assert installed == "# what the server runs today\n"
        assert '"errors"' in run.stdout
        assert "hardware" in run.stdout
    assert not (tmp_path / "innodb.cnf").exists()
