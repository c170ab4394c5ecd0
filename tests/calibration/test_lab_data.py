"""The lab's calibration points (calibration/data/lab): they load, each row is the `--to-csv` of
a committed raw record that states its host, limits and commands, the device's measured IOPS
come from a committed fio record, and no run repeats benchmarks/real_gain.py's load, which is
kept for checking the advice on this host, not for fitting it."""

import importlib.util
import io
import sys
from pathlib import Path
from typing import Any

import pytest

from calibration.labs import LABS, lab_of
from calibration.points import LAB_HELD_OUT, load_points
from lab import fio, to_csv

ROOT = Path(__file__).resolve().parents[2]
FOLDER = ROOT / "calibration" / "data" / "lab"
RECORDS = to_csv.read_records(FOLDER / "sweep-20261129.jsonl.gz")
RUNS = [r for r in RECORDS if r["record"] == "innodb-io-advisor lab run"]
DEVICES = [r for r in RECORDS if r["record"] == fio.RECORD]
POINTS = load_points(FOLDER / "lab.csv")
LAB = "InnoDB IO Advisor lab"
_SPEC = importlib.util.spec_from_file_location("real_gain", ROOT / "benchmarks" / "real_gain.py")
assert _SPEC is not None
assert _SPEC.loader is not None
real_gain = importlib.util.module_from_spec(_SPEC)
sys.modules["real_gain"] = real_gain  # its dataclasses look their module up by name
_SPEC.loader.exec_module(real_gain)


def test_the_lab_points_load_as_calibration_points_of_one_lab() -> None:
    shipped = {p.id for p in load_points()}
    assert len(POINTS) >= 150
    assert {p.id for p in POINTS} <= shipped
    sources = {p.source for p in POINTS}
    assert len(sources) >= 6
    assert sources == set(LABS[LAB])
    assert {lab_of(source) for source in sources} == {LAB}
    assert all("lab" in p.flags for p in POINTS)


def test_the_rows_are_the_to_csv_of_the_committed_records() -> None:
    out = io.StringIO()
    to_csv.write(RECORDS, out, pytest.fail)
    assert out.getvalue() == (FOLDER / "lab.csv").read_text("utf-8")


@pytest.mark.parametrize("run", RUNS, ids=lambda r: f"{r['source']}-{r['run']['config']}")
def test_every_run_states_its_host_limits_and_commands(run: dict[str, Any]) -> None:
    host, limits = run["host"], run["limits"]
    assert host["name"]
    assert host["cpu_model"]
    assert host["kernel"]
    assert host["probe"]["hardware"]
    assert limits["applied"]
    assert limits["refused"] is None
    settings = limits["cgroup"]["settings"]
    assert settings
    assert all(value for value in settings.values())
    assert limits["not_reproduced"]
    assert run["sysbench"]["command"].startswith(f"sysbench {run['run']['test']} ")
    assert run["sysbench"]["warmup_command"]
    assert "[mysqld]" in run["server"]["mycnf"]
    assert run["server"]["variables"]["innodb_buffer_pool_size"]


def test_every_run_has_its_device_measured_with_fio_under_the_same_limits() -> None:
    measured = {to_csv.device_key_of(d): d for d in DEVICES}
    assert all(to_csv.device_key_of(run) in measured for run in RUNS)
    for device in DEVICES:
        assert len(device["fio"]["commands"]) == len(fio.JOBS)
        assert device["fio"]["random_read_iops"] > 0
        assert device["fio"]["random_write_iops"] > 0
    assert all(p.measured_read_iops and p.measured_write_iops for p in POINTS)


def test_no_run_repeats_real_gains_load() -> None:
    """real_gain.py runs oltp_read_write (and point selects) on TABLES tables sized for
    --size-gb at --threads, its defaults: no lab run has its data size, let alone all three."""
    defaults = real_gain.parse_args([])
    forbidden = (real_gain.TABLES, real_gain.table_size_for(defaults.size_gb), defaults.threads)
    for run in RUNS:
        load = run["run"]
        assert (load["tables"], load["table_size"], load["threads"]) != forbidden
        assert load["tables"] * load["table_size"] != forbidden[0] * forbidden[1]


def test_the_shipped_data_holds_the_lab_out_of_the_fit_and_says_why() -> None:
    """Until the model has a page-cache term (calibration.points.LAB_HELD_OUT)."""
    shipped = {p.id: p for p in load_points()}
    assert all(shipped[p.id].excluded == LAB_HELD_OUT for p in POINTS)
    assert not any(shipped[p.id].used for p in POINTS)
    published = [p for p in shipped.values() if "lab" not in p.flags and p.used]
    assert len(published) == 369  # the points the shipped artifact was fitted on
