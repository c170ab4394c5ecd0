"""The emulated device as fio measures it (lab.fio), and how its record reaches the rows."""

from __future__ import annotations

import copy
import io
import shutil
from pathlib import Path
from typing import Any

import pytest

from lab import cgroups, fio, to_csv

DISK_DIR = Path("/var/tmp")  # ext4 on a virtio disk on this project's machines
SWEEP = Path(__file__).resolve().parents[2] / "calibration/data/lab/sweep-20261129.jsonl.gz"
FIO_JSON = '{"jobs": [{"read": {"iops": 301.5}, "write": {"iops": 0.0}}]}'


def test_it_reads_the_iops_after_fios_warnings() -> None:
    assert fio.iops_of("fio: note: something\n" + FIO_JSON, "randread") == 301.5


def test_the_device_has_no_memory_or_cpu_limit() -> None:
    limits = cgroups.Limits(memory_bytes=2**30, cpus=1.0, read_iops=300, write_iops=300)
    assert fio.io_only(limits) == cgroups.Limits(read_iops=300, write_iops=300)


def _run_and_device(**other_limits: int) -> tuple[dict[str, Any], dict[str, Any]]:
    """A committed run record, and a fio record of its host and io limits (or `other_limits`)."""
    run = next(r for r in to_csv.read_records(SWEEP) if r["record"] != fio.RECORD)
    device = {
        "record": fio.RECORD,
        "host": {"name": run["host"]["name"]},
        "limits": {"asked": {**run["limits"]["asked"], **other_limits}, "applied": True},
        "fio": {
            "version": "fio-3.33",
            "started": "2026-11-29T04:00:00Z",
            "random_read_iops": 123,
            "random_write_iops": 45,
        },
    }
    return copy.deepcopy(run), device


def test_a_fio_record_gives_its_iops_to_the_runs_of_the_same_host_and_io_limits() -> None:
    run, device = _run_and_device()
    out = io.StringIO()
    to_csv.write([run, device], out, pytest.fail)
    assert ",123,45," in out.getvalue()
    assert "measured IOPS: fio-3.33" in out.getvalue()


def test_a_fio_record_of_other_io_limits_gives_nothing() -> None:
    run, device = _run_and_device(write_iops=7)
    out = io.StringIO()
    to_csv.write([run, device], out, pytest.fail)
    assert ",123,45," not in out.getvalue()


def test_it_measures_a_throttled_device_and_leaves_nothing_behind() -> None:
    if shutil.which("fio") is None:
        pytest.skip("fio is not installed")
    before = sorted(DISK_DIR.glob("ia-lab-fio-*"))
    limits = cgroups.Limits(read_iops=200, write_iops=200)
    try:
        made = fio.measure(limits, DISK_DIR, 1, lambda line: None, size="32M")
    except cgroups.CgroupRefused as refused:
        pytest.skip(f"cgroups cannot be set here: {refused}")
    measured = made["fio"]
    assert 0 < measured["random_read_iops"] <= 220
    assert 0 < measured["random_write_iops"] <= 220
    assert made["limits"]["applied"]
    assert made["limits"]["asked"]["read_iops"] == 200
    assert sorted(DISK_DIR.glob("ia-lab-fio-*")) == before
    assert not [Path(g) for g in made["limits"]["cgroup"]["groups"] if Path(g).exists()]
