"""The probe on this machine for real: its /proc and sysfs, a real MariaDB started here (read
through the real client) and a real fio run. Each value is checked against another tool's
answer (os, findmnt, lsblk, the server itself), not against the probe's own code."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

import pytest

from lab.mariadb_server import RunningServer, mariadbd_version
from tests.probe.run import SYSTEM_PYTHON, run_probe, source, storage

pytestmark = pytest.mark.mariadb
GIB = 1024**3


def _tool(*args: str) -> str:
    return subprocess.run(args, capture_output=True, text=True, check=True, timeout=30).stdout


@pytest.fixture(scope="module")
def with_data(mariadb: RunningServer) -> RunningServer:
    """About 24 MB of InnoDB rows (12,000 x 2,000 bytes), so the data size is not zero."""
    mariadb.query(
        "CREATE DATABASE IF NOT EXISTS probe_data; USE probe_data; "
        "CREATE TABLE IF NOT EXISTS probe_data.t (id INT PRIMARY KEY, pad CHAR(255), "
        "body VARBINARY(2000)) ENGINE=InnoDB; "
        "INSERT IGNORE INTO probe_data.t SELECT seq, 'x', REPEAT('y', 2000) FROM seq_1_to_12000; "
        "ANALYZE TABLE probe_data.t"
    )
    return mariadb


@pytest.fixture(scope="module")
def probed(with_data: RunningServer, client_defaults: Path):
    run = run_probe("--defaults-file", str(client_defaults), python=SYSTEM_PYTHON)
    run.no_traceback()
    assert run.code == 0, run.stderr
    return run


def test_it_reads_memory_cores_and_kernel_as_the_os_reports_them(probed) -> None:
    hardware = probed.profile["hardware"]
    physical = os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES") / GIB
    assert hardware["ram_gb"] == pytest.approx(physical, abs=0.02)
    assert hardware["cpu_cores"] <= len(os.sched_getaffinity(0))
    assert hardware["kernel"] == os.uname().release


def test_it_reads_the_servers_flavor_version_and_settings_through_the_client(
    probed, mariadb: RunningServer
) -> None:
    profile = probed.profile
    assert profile["server"] == {"flavor": "mariadb", "version": mariadbd_version()}
    text = profile["current"]["show_variables"]
    pool = mariadb.query("SELECT @@global.innodb_buffer_pool_size").strip()
    assert f"innodb_buffer_pool_size\t{pool}\n" in text
    connections = int(mariadb.query("SELECT @@global.max_connections"))
    assert profile["workload"]["concurrency"] == connections
    assert source(profile, "workload.concurrency") == "assumed"
    assert source(profile, "workload.kind") == "assumed"


def test_the_data_size_covers_the_rows_written(probed) -> None:
    size = probed.profile["workload"]["data_size_gb"]
    assert 12_000 * 2_000 / GIB <= size <= 0.2  # at least the row bodies, far below 200 MB
    assert source(probed.profile, "workload.data_size_gb") == "detected"


def test_the_datadir_devices_are_those_findmnt_and_lsblk_name(probed, mariadb) -> None:
    profile = probed.profile
    fstype, device = _tool(
        "findmnt", "-n", "-o", "FSTYPE,SOURCE", "--target", str(mariadb.datadir)
    ).split()
    assert profile["hardware"]["filesystem"] == (fstype if fstype in ("xfs", "ext4") else "other")
    rows = [
        line.split()
        for line in _tool(
            "lsblk", "-s", "-n", "-r", "-o", "NAME,TYPE,ROTA,SCHED", device
        ).splitlines()
    ]
    disks = [row for row in rows if row[1] == "disk"]
    assert disks, rows
    name, _, rota, *sched = disks[0]
    assert profile["current"]["os"]["io_scheduler"] == (sched[0] if sched else None)
    expected_media = "nvme" if name.startswith("nvme") else ("hdd" if rota == "1" else "sata_ssd")
    assert storage(profile)["media"] == expected_media
    assert storage(profile)["device_count"] == len(disks)
    assert name in probed.stderr  # the chain is shown to the user


def test_a_real_fio_run_fills_measured_iops_and_leaves_nothing_behind(
    with_data: RunningServer, client_defaults: Path
) -> None:
    before = set(os.listdir(with_data.datadir))
    run = run_probe(
        "--defaults-file",
        str(client_defaults),
        "--fio",
        "--fio-seconds",
        "4",
        "--fio-size",
        "32M",
        "--quiet",
        python=SYSTEM_PYTHON,
    )
    run.no_traceback()
    assert run.code == 0, run.stderr
    iops = storage(run.profile)["measured_iops"]
    assert iops["random_read"] >= 1
    assert iops["random_write"] >= 1
    assert source(run.profile, "hardware.storage.measured_iops") == "measured"
    assert "fio" in run.profile["provenance"]["hardware.storage.measured_iops"]["from"]
    assert set(os.listdir(with_data.datadir)) == before
    assert run.seconds < 30  # a 4 s budget; generous for a busy 2-core runner
