"""The lab drives a real MariaDB and real sysbench: a tiny A/B run (seconds), its records, what
it leaves behind (nothing), and what it refuses."""

from __future__ import annotations

import io
import json
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest

from calibration.points import point_of_row
from lab import cgroups, to_csv
from lab.mariadb_server import binaries_available
from lab.run import CannotRun, Config, Plan, run

pytestmark = pytest.mark.mariadb

ROOT = Path(__file__).resolve().parents[2]
SMALL_POOL = "[mysqld]\ninnodb_buffer_pool_size=64M\n"
LIMITS = cgroups.Limits(memory_bytes=512 * 1024**2, cpus=1.0)


def tools_or_fail() -> None:
    if not binaries_available() or shutil.which("sysbench") is None:
        pytest.fail("mariadb-server and sysbench are needed; `make test` installs them")


def cgroups_allowed(where: Path) -> str | None:
    """None when this machine lets the lab set memory and cpu limits, else why not."""
    try:
        cgroups.create(LIMITS, where).remove()
    except cgroups.CgroupRefused as refused:
        return str(refused)
    return None


def mariadbd_processes_under(path: Path) -> list[int]:
    """Pids of mariadbd processes whose command line names a file under `path`."""
    pids = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            cmdline = (entry / "cmdline").read_bytes().decode(errors="replace")
        except OSError:
            continue
        if "mariadbd" in cmdline and str(path) in cmdline:
            pids.append(int(entry.name))
    return pids


@pytest.fixture(scope="module")
def lab_run(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    """One real run: oltp_point_select, 1 thread, 1 table x 1000 rows, 2 s, A/B twice, under
    memory and cpu limits where this machine allows them."""
    tools_or_fail()
    where = tmp_path_factory.mktemp("lab")
    refused = cgroups_allowed(where)
    plan = Plan(
        tests=("oltp_point_select",),
        threads=(1,),
        table_sizes=(1000,),
        configs=(Config("A", ""), Config("B", SMALL_POOL)),
        tables=1,
        rounds=2,
        seconds=2,
        warmup=1,
        limits=LIMITS if refused is None else cgroups.Limits(),
        datadir=where / "lab",
    )
    out = io.StringIO()
    records = run(plan, out, lambda line: None)
    return {"plan": plan, "records": records, "lines": out.getvalue(), "refused": refused}


def test_it_writes_one_record_per_run_in_a_b_a_b_order(lab_run: dict[str, Any]) -> None:
    lines = [json.loads(line) for line in lab_run["lines"].splitlines()]
    assert lines == [json.loads(json.dumps(record)) for record in lab_run["records"]]
    order = [(r["run"]["round"], r["run"]["config"]) for r in lines]
    assert order == [(1, "A"), (1, "B"), (2, "A"), (2, "B")]


def test_every_record_carries_every_input_and_a_positive_rate(lab_run: dict[str, Any]) -> None:
    for record in lab_run["records"]:
        host, server, result = record["host"], record["server"], record["result"]
        assert host["cpu_model"] is not None
        assert host["cpu_count"] > 0
        assert host["ram_bytes"] > 0
        assert host["kernel"]
        assert host["filesystem"]
        assert host["media"]
        assert host["probe"]["hardware"]["storage"]["device_count"] >= 1
        assert server["version"].startswith("10.") or server["version"][:2].isdigit()
        assert f"datadir={lab_run['plan'].datadir}" in server["mycnf"]
        assert "bind-address=127.0.0.1" in server["mycnf"]
        assert server["config_mycnf"] in server["mycnf"]
        assert server["variables"]["innodb_flush_log_at_trx_commit"] == "1"
        assert record["sysbench"]["command"].startswith("sysbench oltp_point_select ")
        assert "--mysql-socket=" in record["sysbench"]["command"]
        assert result["unit"] == "queries/s"
        assert result["value"] > 0
        per_second = result["qps_per_second"]
        assert 1 <= len(per_second["per_second"]) <= 2  # the last second may go unreported
        assert per_second["low"] > 0
        assert {"mean", "median", "stdev", "cv", "high"} <= set(per_second)
        assert record["source"].startswith(f"lab-{record['host']['name'].lower()[:3]}")
    pools = {
        r["run"]["config"]: r["server"]["variables"]["innodb_buffer_pool_size"]
        for r in lab_run["records"]
    }
    assert pools == {"A": str(128 * 1024**2), "B": str(64 * 1024**2)}


def test_the_limits_are_stated_applied_or_why_not(lab_run: dict[str, Any]) -> None:
    for record in lab_run["records"]:
        limits = record["limits"]
        if lab_run["refused"] is not None:
            assert not limits["applied"]
            continue
        assert limits["applied"]
        assert limits["cgroup"]["settings"]
        assert record["source"].endswith("-mem512m-cpu1")
        assert any("page cache" in note for note in limits["not_reproduced"])
        for group in limits["cgroup"]["groups"]:
            assert not Path(group).exists(), f"{group} left behind"


def test_nothing_is_left_behind(lab_run: dict[str, Any]) -> None:
    datadir = lab_run["plan"].datadir
    assert not datadir.exists()
    assert mariadbd_processes_under(datadir) == []


def test_the_records_become_rows_the_calibration_loads(lab_run: dict[str, Any]) -> None:
    out = io.StringIO()
    to_csv.write(lab_run["records"], out, pytest.fail)
    rows = out.getvalue().splitlines()
    assert rows[0].split(",")[:7] == ["id", "source", "year", "kind", "tool", "unit", "value"]
    assert len(rows) == 1 + len(lab_run["records"])
    point = point_of_row(to_csv.row_of(lab_run["records"][1], 2))
    assert point.kind == "read_mostly"
    assert point.unit == "queries/s"
    assert point.value > 0
    assert point.bp_gb == pytest.approx(64 / 1024)
    assert point.concurrency == 1
    assert point.server.startswith("mariadb 10.")


def test_it_refuses_a_datadir_that_exists(tmp_path: Path) -> None:
    existing = tmp_path / "data"
    existing.mkdir()
    (existing / "ibdata1").write_text("somebody's data")
    plan = Plan(("oltp_point_select",), (1,), (1000,), (Config("A", ""),), datadir=existing)
    tools_or_fail()
    with pytest.raises(CannotRun, match="exists"):
        run(plan, io.StringIO(), lambda line: None)
    assert (existing / "ibdata1").read_text() == "somebody's data"


def test_a_sigterm_mid_run_stops_the_server_and_removes_everything(tmp_path: Path) -> None:
    tools_or_fail()
    datadir = tmp_path / "lab"
    command = [sys.executable, "-m", "lab", "--test", "oltp_point_select", "--threads", "1"]
    command += ["--table-size", "1000", "--tables", "1", "--time", "60", "--warmup", "0"]
    command += ["--rounds", "1", "--datadir", str(datadir)]
    with subprocess.Popen(
        command, cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE
    ) as lab:
        assert lab.stderr is not None
        for raw in lab.stderr:  # wait until the measured run has started
            if b"run 60 s" in raw:
                break
        time.sleep(1.5)
        assert mariadbd_processes_under(datadir), "the lab's server should be up"
        lab.send_signal(signal.SIGTERM)
        assert lab.wait(timeout=60) == 2
    assert not datadir.exists()
    assert mariadbd_processes_under(datadir) == []
