"""The harness boots a real mariadbd from a my.cnf, reads values back, and can fail."""

from __future__ import annotations

import shutil
import tempfile
from pathlib import Path

import pytest

from lab.mariadb_server import (
    BootResult,
    VariableReadError,
    boot_and_read,
    find_clashes,
    mariadbd_version,
    same_value,
)

pytestmark = pytest.mark.mariadb

HAND_WRITTEN = {
    "innodb_io_capacity": "1600",
    "innodb_io_capacity_max": "3200",
    "innodb_buffer_pool_size": "256M",
    "innodb_log_file_size": "512M",
    "innodb_flush_method": "O_DIRECT",
    "innodb_flush_log_at_trx_commit": "2",
    "innodb_flush_neighbors": "1",
    "innodb_read_ahead_threshold": "0",
    "innodb_max_dirty_pages_pct": "80",
    "innodb_max_dirty_pages_pct_lwm": "10",
    "sync_binlog": "0",
}


def _mycnf(settings: dict[str, str]) -> str:
    body = "\n".join(f"{name} = {value}" for name, value in settings.items())
    return f"# hand-written for the harness test\n[mysqld]\n{body}\n"


def _boot(text: str, names: list[str], template: Path) -> BootResult:
    return boot_and_read(text, names, template_datadir=template, timeout_s=60)


def test_version_is_the_installed_10_11(mariadb_template_datadir: Path) -> None:
    assert mariadbd_version().startswith("10.11.")


def test_hand_written_mycnf_boots_and_reads_back_every_value(
    mariadb_template_datadir: Path,
) -> None:
    result = _boot(_mycnf(HAND_WRITTEN), list(HAND_WRITTEN), mariadb_template_datadir)

    assert result.started, result.error_log
    assert set(result.values) == set(HAND_WRITTEN)
    mismatches = {
        name: (written, result.values[name])
        for name, written in HAND_WRITTEN.items()
        if not same_value(written, result.values[name])
    }
    assert not mismatches, f"{mismatches}\n{result.error_log}"
    # Pin the report formats the module docstring documents.
    assert result.values["innodb_buffer_pool_size"] == str(256 * 1024**2)
    assert result.values["innodb_flush_method"] == "O_DIRECT"
    assert result.values["innodb_max_dirty_pages_pct"] == "80.000000"
    assert "[ERROR]" not in result.error_log


def test_unknown_variable_does_not_start(mariadb_template_datadir: Path) -> None:
    text = "[mysqld]\ninnodb_io_capacity = 1600\ninnodb_no_such_thing=1\n"

    result = _boot(text, ["innodb_io_capacity"], mariadb_template_datadir)

    assert not result.started
    assert result.values == {}
    assert "unknown variable 'innodb_no_such_thing=1'" in result.error_log
    assert "[ERROR] Aborting" in result.error_log


def test_out_of_range_io_capacity_is_clamped_with_a_warning(
    mariadb_template_datadir: Path,
) -> None:
    # mariadbd 10.11 starts anyway: it clamps 50 to the minimum, 100, and logs a warning.
    result = _boot(
        "[mysqld]\ninnodb_io_capacity=50\n", ["innodb_io_capacity"], mariadb_template_datadir
    )

    assert result.started, result.error_log
    assert result.values == {"innodb_io_capacity": "100"}
    assert not same_value("50", result.values["innodb_io_capacity"])
    assert (
        "[Warning] option 'innodb-io-capacity': unsigned value 50 adjusted to 100"
        in result.error_log
    )


def test_a_variable_the_server_does_not_have_is_named(mariadb_template_datadir: Path) -> None:
    with pytest.raises(VariableReadError) as caught:
        _boot(
            "[mysqld]\ninnodb_io_capacity=400\n",
            ["innodb_io_capacity", "no_such_variable", "timestamp"],
            mariadb_template_datadir,
        )

    assert set(caught.value.problems) == {"no_such_variable", "timestamp"}
    assert "Unknown system variable 'no_such_variable'" in caught.value.problems["no_such_variable"]
    assert "SESSION variable" in caught.value.problems["timestamp"]
    assert caught.value.values == {"innodb_io_capacity": "400"}


def test_boot_without_names_only_checks_the_start(mariadb_template_datadir: Path) -> None:
    result = _boot("[mysqld]\n", [], mariadb_template_datadir)

    assert result.started, result.error_log
    assert result.values == {}


def _free_gib() -> float:
    return shutil.disk_usage(tempfile.gettempdir()).free / 1024**3


@pytest.mark.parametrize("log_size", ["1G", "8G"])
def test_large_redo_log_and_buffer_pool(mariadb_template_datadir: Path, log_size: str) -> None:
    assert _free_gib() >= 2 * int(log_size[:-1]) + 2, f"not enough free disk for {log_size}"
    settings = {"innodb_log_file_size": log_size, "innodb_buffer_pool_size": "8G"}

    result = _boot(_mycnf(settings), list(settings), mariadb_template_datadir)

    assert result.started, result.error_log
    for name, written in settings.items():
        assert same_value(written, result.values[name]), (name, result.values)
    assert result.boot_seconds < 30


def test_temp_dirs_are_removed_and_a_timeout_kills(
    mariadb_template_datadir: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    made: list[Path] = []
    real_mkdtemp = tempfile.mkdtemp

    def recording_mkdtemp(
        suffix: str | None = None, prefix: str | None = None, dir: str | None = None
    ) -> str:
        path = real_mkdtemp(suffix, prefix, dir)
        made.append(Path(path))
        return path

    monkeypatch.setattr(tempfile, "mkdtemp", recording_mkdtemp)

    assert _boot("[mysqld]\n", ["innodb_io_capacity"], mariadb_template_datadir).started
    assert not _boot("[mysqld]\nbogus_option=1\n", [], mariadb_template_datadir).started
    timed_out = boot_and_read(
        "[mysqld]\n", [], template_datadir=mariadb_template_datadir, timeout_s=0
    )

    assert not timed_out.started
    assert "did not accept connections within 0 s" in timed_out.error_log
    assert len(made) == 3
    assert not [path for path in made if path.exists()]


@pytest.mark.parametrize(
    ("written", "reported", "expected"),
    [
        ("8G", "8589934592", True),
        ("256M", "268435456", True),
        ("512m", "536870912", True),
        ("64K", "65536", True),
        ("1T", "1099511627776", True),
        ("8G", "8589934593", False),
        ("1600", "1600", True),
        ("1600", "100", False),
        ("O_DIRECT", "O_DIRECT", True),
        ("o_direct", "O_DIRECT", True),
        ('"O_DIRECT"', "O_DIRECT", True),
        ("O_DIRECT", "O_DIRECT_NO_FSYNC", False),
        ("fsync", "O_DIRECT", False),
        ("ON", "1", True),
        ("on", "1", True),
        ("TRUE", "1", True),
        ("OFF", "0", True),
        ("false", "0", True),
        ("ON", "0", False),
        ("OFF", "1", False),
        ("YES", "0", False),
        ("YES", "1", False),
        ("1", "1", True),
        ("1", "ON", True),
        ("0", "OFF", True),
        ("2", "1", False),
        ("90", "90.000000", True),
        ("90.0", "90.000000", True),
        ("0.5", "0.500000", True),
        ("33.3333333", "33.333333", True),
        ("90", "90.000001", False),
        ("10", "90.000000", False),
        ("ibdata1:12M:autoextend", "ibdata1:12M:autoextend", True),
        ("a,b", "B,A", True),
        ("a,b", "a", False),
        ("", "", True),
        ("abc", "", False),
    ],
)
def test_same_value(written: str, reported: str, expected: bool) -> None:
    assert same_value(written, reported) is expected


@pytest.mark.parametrize(
    ("text", "option"),
    [
        ("[mysqld]\ndatadir=/var/lib/mysql\n", "datadir"),
        ("[mysqld]\nsocket = /run/mysqld/mysqld.sock\n", "socket"),
        ("[mysqld]\npid-file=/run/mysqld/mysqld.pid\n", "pid_file"),
        ("[mysqld]\npid_file=/run/mysqld/mysqld.pid\n", "pid_file"),
        ("[mysqld]\nlog_error = /var/log/mysql/error.log\n", "log_error"),
        ("[mysqld]\nskip-networking\n", "skip_networking"),
        ("[mysqld]\nskip_networking=0\n", "skip_networking"),
        ("[mysqld]\nuser = mysql\n", "user"),
        ("[mysqld]\nLOOSE-DATADIR=/x\n", "datadir"),
        ("[mysqld]\ndatad=/x\n", "datadir"),
        ("[mariadb]\nsocket=/x.sock\n", "socket"),
        ("[server]\nlog-error=/x\n", "log_error"),
        ("[client-server]\nsocket=/x.sock\n", "socket"),
        ("[mysqld-10.11]\ndatadir=/x\n", "datadir"),
    ],
)
def test_clash_guard_refuses_to_override_our_values(text: str, option: str) -> None:
    full = "[mysqld]\ninnodb_io_capacity=1600\n" + text
    with pytest.raises(ValueError, match=option):
        boot_and_read(full, ["innodb_io_capacity"], template_datadir=Path("/nonexistent"))


def test_clash_guard_ignores_groups_the_server_does_not_read() -> None:
    text = "[client]\nsocket=/run/mysqld/mysqld.sock\nuser=app\n[mysqld]\ninnodb_io_capacity=1600\n"
    assert find_clashes(text) == []


def test_clash_guard_allows_the_settings_we_export() -> None:
    assert find_clashes(_mycnf(HAND_WRITTEN) + "log_bin=mysql-bin\nsync_binlog=1\n") == []


def test_includes_are_refused() -> None:
    with pytest.raises(ValueError, match="include"):
        find_clashes("[mysqld]\n!includedir /etc/mysql/conf.d/\n")
