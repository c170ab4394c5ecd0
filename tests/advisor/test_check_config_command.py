"""`manage.py check_config`, run in a subprocess as a CI job would: exit 0, 1 or 2."""

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from rules.inputs.examples import raw_profile

ROOT = Path(__file__).resolve().parents[2]
PROFILE = raw_profile(**{"hardware.storage.controller_cache": "none"})


def _run(*args: str) -> subprocess.CompletedProcess[str]:
    bare = {k: v for k, v in os.environ.items() if not k.startswith(("DJANGO_", "DATABASE_"))}
    return subprocess.run(
        [sys.executable, "manage.py", "check_config", *args],
        cwd=ROOT,
        env=bare,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )


@pytest.fixture
def profile(tmp_path: Path) -> str:
    path = tmp_path / "host.json"
    path.write_text(json.dumps(PROFILE), encoding="utf-8")
    return str(path)


def _file(tmp_path: Path, name: str, text: str) -> str:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return str(path)


def test_a_safe_my_cnf_exits_0_and_lists_the_changes(profile: str, tmp_path: Path) -> None:
    mycnf = _file(tmp_path, "my.cnf", "[mysqld]\ninnodb_flush_method = O_DIRECT\n")
    done = _run(profile, "--mycnf", mycnf)
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("PASS: nothing unsafe\n")
    assert "innodb_io_capacity: 200 -> " in done.stdout


def test_an_unsafe_value_exits_1_naming_it(profile: str, tmp_path: Path) -> None:
    mycnf = _file(tmp_path, "my.cnf", "[mysqld]\ninnodb_flush_method = O_DIRECT_NO_FSYNC\n")
    done = _run(profile, "--mycnf", mycnf)
    assert done.returncode == 1, done.stderr
    assert done.stdout.startswith("FAIL: 1 unsafe value\n")
    assert "  unsafe  innodb_flush_method = O_DIRECT_NO_FSYNC\n" in done.stdout


def test_show_variables_and_json_give_the_apis_report(profile: str, tmp_path: Path) -> None:
    text = _file(tmp_path, "vars.txt", "innodb_doublewrite\tOFF\ninnodb_io_capacity\t200\n")
    done = _run(profile, "--show-variables", text, "--json")
    assert done.returncode == 1, done.stderr
    report = json.loads(done.stdout)
    assert report["passed"] is False
    assert [u["variable"] for u in report["unsafe"]] == ["innodb_doublewrite"]


@pytest.mark.parametrize(
    "args",
    [
        (),  # no profile
        ("PROFILE",),  # no current configuration anywhere
        ("PROFILE", "--mycnf", "/nonexistent/my.cnf"),
        ("PROFILE", "--mycnf", "BINARY"),
        ("PROFILE", "--mycnf", "A", "--show-variables", "A"),
    ],
    ids=["no-profile", "no-current", "missing-file", "binary-file", "both-sources"],
)
def test_usage_and_input_errors_exit_2_without_a_traceback(
    args: tuple[str, ...], profile: str, tmp_path: Path
) -> None:
    binary = tmp_path / "bin.cnf"
    binary.write_bytes(b"\xff\xfe\x00\x01")
    names = {"PROFILE": profile, "BINARY": str(binary), "A": profile}
    done = _run(*(names.get(a, a) for a in args))
    assert done.returncode == 2, (done.stdout, done.stderr)
    assert done.stdout == ""
    assert "Traceback" not in done.stderr


def test_a_variable_the_release_removed_exits_1_naming_it(tmp_path: Path) -> None:
    raw = raw_profile(**{"server.version": "8.4.3"})
    host = _file(tmp_path, "host.json", json.dumps(raw))
    mycnf = _file(tmp_path, "my.cnf", "[mysqld]\nexpire_logs_days = 7\ninnodb_io_capacity = 200\n")
    done = _run(host, "--mycnf", mycnf)
    assert done.returncode == 1, done.stderr
    assert "  unsafe  expire_logs_days = 7\n" in done.stdout
    loose = _file(tmp_path, "loose.cnf", "[mysqld]\nloose-expire_logs_days = 7\n")
    assert _run(host, "--mycnf", loose).returncode == 0


def test_a_replication_option_mysql_8_3_removed_exits_1_naming_it(tmp_path: Path) -> None:
    # The review's profile 01 (issue #41, F2): MySQL 8.4 will not start with it.
    raw = raw_profile(**{"server.version": "8.4.2"})
    host = _file(tmp_path, "host.json", json.dumps(raw))
    paste = "[mysqld]\ninnodb_buffer_pool_size=20G\nmaster_info_repository=TABLE\n"
    done = _run(host, "--mycnf", _file(tmp_path, "my.cnf", paste))
    assert done.returncode == 1, done.stderr
    assert "  unsafe  master_info_repository = TABLE\n" in done.stdout
    assert "MySQL 8.3.0 removed it" in done.stdout


def test_a_pool_over_the_containers_memory_limit_exits_1_naming_the_limit(tmp_path: Path) -> None:
    # The review's profile 12 (issue #41, F1): it printed "PASS: nothing unsafe".
    raw = raw_profile(
        **{"server.version": "8.4.3", "hardware.ram_gb": 256, "hardware.memory_limit_gb": 8}
    )
    host = _file(tmp_path, "host.json", json.dumps(raw))
    mycnf = _file(tmp_path, "my.cnf", "[mysqld]\ninnodb_buffer_pool_size = 12884901888\n")
    done = _run(host, "--mycnf", mycnf)
    assert done.returncode == 1, done.stderr
    assert "  unsafe  innodb_buffer_pool_size = 12884901888\n" in done.stdout
    assert "larger than the container's 8 GiB memory limit" in done.stdout
