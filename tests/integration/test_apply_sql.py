"""The SQL export's two parts on a real MariaDB 10.11: part 1 runs on the server as it is
configured today and the server then reports every value; part 2's my.cnf lines boot."""

from pathlib import Path
from typing import Any

import pytest

from lab.mariadb_server import boot_and_read, running_server, same_value
from rules.engine import recommend
from rules.inputs.examples import raw_profile
from rules.inputs.validation import parse_profile
from rules.output.result import Result
from rules.render import render_revert
from rules.render.mycnf import config_value
from rules.render.sql import NOW_TITLE, RESTART_TITLE, render_sql

pytestmark = pytest.mark.mariadb

# What the server runs today, as its my.cnf: io capacity far above what the disks give (so the
# export lowers both, and must lower innodb_io_capacity first), a small pool and redo log.
HIGH_CAPACITY = {
    "innodb_io_capacity": "10000",
    "innodb_io_capacity_max": "20000",
    "innodb_buffer_pool_size": "256M",
    "innodb_log_file_size": "96M",
    "innodb_flush_log_at_trx_commit": "2",
}
# ... and io capacity at the old defaults on flash, which the export raises (maximum first).
LOW_CAPACITY = {
    "innodb_io_capacity": "200",
    "innodb_io_capacity_max": "2000",
    "innodb_buffer_pool_size": "1G",
    "innodb_log_file_size": "256M",
    "innodb_flush_method": "fsync",
}
HDD = {
    "media": "hdd",
    "rpm": 7200,
    "device_count": 2,
    "raid_level": "raid1",
    "controller_cache": "none",
}
NVME = {"media": "nvme", "device_count": 1, "raid_level": "none", "controller_cache": "none"}
CASES = [("hdd-high-capacity", HDD, HIGH_CAPACITY), ("nvme-low-capacity", NVME, LOW_CAPACITY)]


def _result(storage: dict[str, Any], current: dict[str, str]) -> Result:
    raw = raw_profile(
        **{
            "server.flavor": "mariadb",
            "server.version": "10.11.19",
            "hardware.ram_gb": 4,
            "hardware.cpu_cores": 2,
            "hardware.storage": storage,
            "workload.data_size_gb": 20,
            "workload.concurrency": 8,
        }
    )
    raw["current"] = {"variables": current}
    return recommend(parse_profile(raw))


def _mycnf(values: dict[str, str]) -> str:
    return "[mysqld]\n" + "".join(f"{name} = {value}\n" for name, value in values.items())


def _part(text: str, title: str, end: str | None) -> list[str]:
    lines = text.splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith(title))
    stop = next((i for i, line in enumerate(lines) if end and line.startswith(end)), len(lines))
    return lines[start + 1 : stop]


def _restart_mycnf_lines(sql: str) -> dict[str, str]:
    """Part 2's `-- name = value` lines (MariaDB has no SET PERSIST_ONLY)."""
    values = {}
    for line in _part(sql, RESTART_TITLE, None):
        body = line.removeprefix("-- ")
        name, sep, value = body.partition(" = ")
        if sep and line.startswith("-- ") and name.isidentifier():
            values[name] = value
    return values


def _read(server: Any, names: list[str]) -> dict[str, str]:
    row = server.query("SELECT " + ", ".join(f"@@global.{n}" for n in names)).rstrip("\n")
    return dict(zip(names, row.split("\t"), strict=True))


@pytest.mark.parametrize(("storage", "current"), [c[1:] for c in CASES], ids=[c[0] for c in CASES])
def test_part_one_applies_on_the_running_server_and_reads_back(
    storage: dict[str, Any], current: dict[str, str], mariadb_template_datadir: Path
) -> None:
    result = _result(storage, current)
    sql = render_sql(result)
    now = [s for s in result.written_settings() if s.dynamic]
    assert len(now) >= 4
    statements = [line for line in _part(sql, NOW_TITLE, RESTART_TITLE) if line.startswith("SET")]
    assert len(statements) == len(now)
    with running_server(_mycnf(current), template_datadir=mariadb_template_datadir) as server:
        before = _read(server, list(current))
        assert all(same_value(current[n], before[n]) for n in current), before
        warnings = server.query("\n".join(f"{sql} SHOW WARNINGS;" for sql in statements))
        after = _read(server, [s.name for s in now])
        log = server.error_log()
    wrong = {
        s.name: (config_value(s), after[s.name])
        for s in now
        if not same_value(config_value(s), after[s.name])
    }
    assert not wrong, f"set vs reported: {wrong}\n{log[-2000:]}"
    assert warnings.strip() == "", warnings  # no value moved by the server


def test_the_io_capacity_cases_move_in_both_directions() -> None:
    high = _result(HDD, HIGH_CAPACITY).setting("innodb_io_capacity_max")
    low = _result(NVME, LOW_CAPACITY).setting("innodb_io_capacity")
    assert high is not None
    assert isinstance(high.value, int)
    assert low is not None
    assert isinstance(low.value, int)
    assert high.value < 10000  # lowered below today's innodb_io_capacity
    assert low.value > 2000  # raised above today's innodb_io_capacity_max


@pytest.mark.parametrize(("storage", "current"), [c[1:] for c in CASES], ids=[c[0] for c in CASES])
def test_part_two_boots_with_todays_my_cnf(
    storage: dict[str, Any], current: dict[str, str], mariadb_template_datadir: Path
) -> None:
    result = _result(storage, current)
    restart = _restart_mycnf_lines(render_sql(result))
    expected = {s.name for s in result.written_settings() if not s.dynamic}
    assert set(restart) == expected
    text = _mycnf(current) + "".join(f"{n} = {v}\n" for n, v in restart.items())
    boot = boot_and_read(text, restart, template_datadir=mariadb_template_datadir)
    assert boot.started, boot.error_log[-3000:]
    wrong = {
        n: (v, boot.values.get(n))
        for n, v in restart.items()
        if not same_value(v, boot.values.get(n, ""))
    }
    assert not wrong, wrong


def test_the_pool_grows_online_up_to_8_tib_unless_innodb_buffer_pool_size_max_is_set(
    mariadb_template_datadir: Path,
) -> None:
    """The figure rules.reference.apply cites for MariaDB 10.11.12+ (MDEV-29445)."""
    with running_server(_mycnf({}), template_datadir=mariadb_template_datadir) as server:
        assert server.query("SELECT @@global.innodb_buffer_pool_size_max").strip() == str(8 << 40)
        server.query("SET GLOBAL innodb_buffer_pool_size = 536870912")
        assert server.query("SELECT @@global.innodb_buffer_pool_size").strip() == "536870912"


@pytest.mark.parametrize(("storage", "current"), [c[1:] for c in CASES], ids=[c[0] for c in CASES])
def test_the_revert_sql_puts_todays_values_back_after_part_one(
    storage: dict[str, Any], current: dict[str, str], mariadb_template_datadir: Path
) -> None:
    result = _result(storage, current)
    forward = _statements(render_sql(result))
    backward = _statements(render_revert(result, "sql"))
    assert backward
    with running_server(_mycnf(current), template_datadir=mariadb_template_datadir) as server:
        names = [s.name for s in result.written_settings() if s.dynamic]
        before = _read(server, names)
        server.query("\n".join(forward))
        moved = _read(server, names)
        warnings = server.query("\n".join(f"{sql} SHOW WARNINGS;" for sql in backward))
        after = _read(server, names)
    assert moved != before
    assert after == before, {n: (before[n], after[n]) for n in names if before[n] != after[n]}
    assert warnings.strip() == "", warnings


def _statements(sql: str) -> list[str]:
    return [line for line in _part(sql, NOW_TITLE, RESTART_TITLE) if line.startswith("SET")]
