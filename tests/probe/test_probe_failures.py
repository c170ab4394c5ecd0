"""Bad situations: no client, a refused login, an unreadable sysfs node, no fio, bad usage.
Each gives a clear message and, where there is anything to say, a partial profile with its
provenance; never a traceback."""

from __future__ import annotations

import shutil
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest

from lab.mariadb_server import RunningServer
from tests.probe.run import FIXTURES, NOBODY, PROBE, SYSTEM_PYTHON, run_probe

NO_TOOLS = "/nonexistent"  # a PATH with no client, no fio, no vendor tool


def test_without_a_client_it_says_so_and_prints_the_host_part() -> None:
    run = run_probe(path=NO_TOOLS)
    run.no_traceback()
    assert run.code == 3
    assert "no mysql or mariadb client found" in run.stderr
    profile = run.profile
    assert "server" not in profile
    assert profile["provenance"]["hardware.ram_gb"]["source"] == "detected"
    assert any(line.startswith("server flavor") for line in profile["undetected"])
    assert "server.version: not detected; required by the advisor" in profile["undetected"]


@pytest.mark.mariadb
def test_a_refused_login_is_named_and_no_password_is_shown(
    mariadb: RunningServer, tmp_path: Path
) -> None:
    mariadb.query(
        "CREATE USER IF NOT EXISTS 'probe_pw'@'localhost' IDENTIFIED BY 'Right-Pa55word-x1'"
    )
    wrong = "Wrong-Pa55word-never-shown-7"
    defaults = tmp_path / "client.cnf"
    defaults.write_text(
        f"[client]\nsocket={mariadb.socket}\nuser=probe_pw\npassword={wrong}\n", encoding="utf-8"
    )
    run = run_probe("--defaults-file", str(defaults))
    run.no_traceback()
    assert run.code == 3
    assert "the server refused the login" in run.stderr
    assert "--defaults-file" in run.stderr
    for secret in (wrong, "Right-Pa55word-x1"):
        assert secret not in run.stdout
        assert secret not in run.stderr
    assert run.profile["hardware"]["cpu_cores"] >= 1


def test_a_missing_client_given_by_path_is_named() -> None:
    run = run_probe("--client", "/nonexistent/mariadb", path=NO_TOOLS)
    run.no_traceback()
    assert run.code == 3
    assert "--client /nonexistent/mariadb: not an executable file" in run.stderr


@pytest.fixture
def shared_copy() -> Iterator[Path]:
    """The md RAID10 tree and the probe, copied where the user `nobody` can read them."""
    where = Path(tempfile.mkdtemp(prefix="probe-nobody-"))
    try:
        where.chmod(0o755)
        shutil.copytree(FIXTURES / "md-raid10", where / "tree")
        shutil.copy(PROBE, where / "advisor_probe.py")
        yield where
    finally:
        shutil.rmtree(where, ignore_errors=True)


def test_an_unreadable_sysfs_node_is_listed_and_the_rest_still_read(shared_copy: Path) -> None:
    node = shared_copy / "tree/sys/block/sda/queue/rotational"
    node.chmod(0)
    # Root reads a mode-000 file anyway, so the probe runs as the user nobody (setpriv).
    run = run_probe(
        str(shared_copy / "advisor_probe.py"),
        "--root",
        str(shared_copy / "tree"),
        "--datadir",
        "/var/lib/mysql",
        python=SYSTEM_PYTHON,
        path=NO_TOOLS,
        prefix=[*NOBODY],
        probe_path=None,
    )
    run.no_traceback()
    assert run.code == 3, run.stderr
    profile = run.profile
    assert any("/sys/block/sda/queue/rotational" in line for line in profile["undetected"])
    assert profile["hardware"]["storage"]["raid_level"] == "raid10"  # md0 was still readable
    assert profile["hardware"]["storage"]["media"] == "hdd"  # sdb-sdd say rotational 1
    assert profile["provenance"]["hardware.storage.media"]["source"] == "detected"


def test_as_an_ordinary_user_it_says_what_root_would_add(shared_copy: Path) -> None:
    run = run_probe(
        str(shared_copy / "advisor_probe.py"),
        python=SYSTEM_PYTHON,
        path=NO_TOOLS,
        prefix=[*NOBODY],
        probe_path=None,
    )
    run.no_traceback()
    assert "not running as root" in run.stderr
    assert run.profile["hardware"]["ram_gb"] > 0


def test_fio_not_installed_is_a_clear_partial_result(tmp_path: Path) -> None:
    run = run_probe("--fio", "--datadir", str(tmp_path), path=NO_TOOLS)
    run.no_traceback()
    assert run.code == 3
    assert any("fio is not installed" in line for line in run.profile["undetected"])
    assert "measured_iops" not in run.profile["hardware"]["storage"]
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--format", "mycnf"], "--format mycnf needs --post URL"),
        (["--password", "x"], "unrecognized arguments: --password"),
        (["--fio-seconds", "61"], "a whole number from 1 to 60"),
        (["--fio-size", "1T"], "a size such as 256M or 1G"),
        (["--provisioned-iops", "-5"], "a whole number from 1 to"),
        (["--volume-type", "floppy"], "invalid choice"),
    ],
)
def test_bad_usage_exits_2_with_the_reason(args: list[str], message: str) -> None:
    run = run_probe(*args, path=NO_TOOLS)
    run.no_traceback()
    assert run.code == 2
    assert message in run.stderr
    assert run.stdout == ""


def test_a_partial_profile_is_not_posted() -> None:
    run = run_probe("--post", "http://127.0.0.1:9/", path=NO_TOOLS)
    run.no_traceback()
    assert run.code == 3
    assert "not posted: missing server.flavor" in run.stderr
    assert run.profile["provenance"]


@pytest.mark.mariadb
def test_a_saved_variables_file_gives_the_server_without_a_client(
    mariadb: RunningServer, tmp_path: Path
) -> None:
    saved = tmp_path / "variables.txt"
    saved.write_text(mariadb.query("SHOW GLOBAL VARIABLES"), encoding="utf-8")
    run = run_probe("--variables-file", str(saved), "--datadir", str(tmp_path), path=NO_TOOLS)
    run.no_traceback()
    profile = run.profile
    version = mariadb.query("SELECT VERSION()").strip()
    assert profile["server"]["flavor"] == "mariadb"
    assert version.startswith(profile["server"]["version"] + "-")
    assert run.code == 3  # the data size needs the server itself
    assert any(line.startswith("data size") for line in profile["undetected"])


def test_a_variables_file_of_garbage_is_refused_by_name(tmp_path: Path) -> None:
    garbage = tmp_path / "garbage.bin"
    garbage.write_bytes(bytes(range(256)) * 4000)
    run = run_probe("--variables-file", str(garbage), path=NO_TOOLS)
    run.no_traceback()
    assert run.code == 3
    assert "--variables-file garbage.bin: no variables in the output" in run.stderr
    assert "server" not in run.profile


def test_fio_refuses_a_test_file_the_free_space_cannot_spare(tmp_path: Path) -> None:
    """The file may take at most a quarter of the free space (FIO_MAX_SHARE_OF_FREE)."""
    free = shutil.disk_usage(tmp_path).free
    size_gib = free // 4 // 1024**3 + 1  # just over a quarter of the free space
    if size_gib > 64:
        pytest.fail(f"{free} bytes free: more than --fio-size's 64G maximum can refuse")
    run = run_probe(
        "--fio",
        "--fio-size",
        f"{size_gib}G",
        "--datadir",
        str(tmp_path),
        "--variables-file",
        "/dev/null",  # no server here: this test is about the disk
    )
    run.no_traceback()
    assert run.code == 3
    assert any("fio refused" in line for line in run.profile["undetected"])
    assert list(tmp_path.iterdir()) == []
