"""Lab records as rows of calibration/data/benchmarks.csv, every input taken from the record.

Each field comes from what the run recorded: the load, the server's variables as it reported
them after the run, the emulated machine's limits as the kernel read them back, the host as the
probe read it. A field the record cannot give is left empty where the data allows "not stated"
(measured IOPS, where no fio record of the same host and io limits is given: lab.fio); a model
input the probe itself assumed is listed in `assumed_fields` with the probe's reason. A test
with no reference kind (oltp_insert: the bulk_insert kind is iibench, 3 secondary indexes per
row) is reported and skipped. Every row is read back through calibration.points.point_of_row,
so a row the model cannot load is never printed. Nothing is written into calibration/data
here: the sweep's rows are committed there by hand (calibration/data/lab/README.md).
"""

from __future__ import annotations

import csv
import gzip
import json
import math
from collections.abc import Callable, Iterable
from importlib import resources
from pathlib import Path
from typing import Any, TextIO

from calibration.points import UNITS, point_of_row
from lab import fio

GIB = 1024**3
MIB = 1024**2
# sysbench test -> the workload kind whose reference benchmark it is (calibration.benchmarks)
KINDS = {
    "oltp_read_write": "read_write",
    "oltp_update_index": "update_heavy",
    "oltp_point_select": "read_mostly",
}
# Profile fields the probe reports, and the CSV column each fills.
PROBED = {
    "hardware.storage.media": "media",
    "hardware.storage.flash_class": "flash_class",
    "hardware.storage.rpm": "rpm",
    "hardware.storage.device_count": "device_count",
    "hardware.storage.raid_level": "raid_level",
    "hardware.storage.controller_cache": "controller_cache",
    "current.os.io_scheduler": "io_scheduler",
}


def columns() -> list[str]:
    """benchmarks.csv's columns, then the optional ones point_of_row reads that lab rows fill."""
    header = resources.files("calibration.data").joinpath("benchmarks.csv").read_text("utf-8")
    return [*header.splitlines()[0].split(","), "flush_neighbors"]


def read_records(path: Path) -> list[dict[str, Any]]:
    """The JSON lines of `path` (gzip-compressed when its name ends in .gz)."""
    raw = path.read_bytes()
    text = (gzip.decompress(raw) if path.suffix == ".gz" else raw).decode("utf-8")
    return [json.loads(line) for line in text.splitlines() if line.strip()]


def device_key_of(record: dict[str, Any]) -> tuple[Any, ...]:
    """lab.fio.device_key of a run or fio record: its host and the io limits it ran under."""
    limits = record["limits"]
    return fio.device_key(record["host"]["name"], limits["asked"] if limits["applied"] else {})


def _probed(document: dict[str, Any], path: str) -> Any:
    node: Any = document
    for key in path.split("."):
        node = node.get(key) if isinstance(node, dict) else None
    return node


def _cores(record: dict[str, Any]) -> tuple[int, str]:
    """(cores, an assumption or ""): a cpuset's CPUs, else a quota rounded up, else the host's."""
    asked = record["limits"]["asked"] if record["limits"]["applied"] else {}
    if asked.get("cpuset"):
        count = 0
        for part in asked["cpuset"].split(","):
            low, _, high = part.partition("-")
            count += int(high or low) - int(low) + 1
        return count, ""
    if asked.get("cpus"):
        cores = math.ceil(asked["cpus"])
        note = "" if cores == asked["cpus"] else f"a quota of {asked['cpus']:g} cores as {cores}"
        return cores, note
    return int(record["host"]["cpu_count"]), ""


def row_of(
    record: dict[str, Any], number: int, device: dict[str, Any] | None = None
) -> dict[str, str]:
    """One CSV row, with the measured IOPS of `device` (a lab.fio record of the same host and
    io limits) when given; ValueError when the record's test has no reference kind."""
    run, server, result = record["run"], record["server"], record["result"]
    kind = KINDS.get(run["test"])
    if kind is None:
        raise ValueError(f"{run['test']} is no reference benchmark of any workload kind")
    if result["unit"] != UNITS[kind]:
        raise ValueError(f"{run['test']} measured {result['unit']}, {kind} needs {UNITS[kind]}")
    variables = server["variables"]
    limits = record["limits"]
    asked = limits["asked"] if limits["applied"] else {}
    ram = asked.get("memory_bytes") or record["host"]["ram_bytes"]
    cores, core_note = _cores(record)
    document = record["host"]["probe"]
    provenance = document.get("provenance", {})
    row = dict.fromkeys(columns(), "")
    assumed = []
    assumptions = [core_note] if core_note else []
    for path, column in PROBED.items():
        value = _probed(document, path)
        row[column] = "" if value is None else str(value)
        if provenance.get(path, {}).get("source") == "assumed":
            assumed.append(column)
            assumptions.append(f"{column}: {provenance[path].get('from', '')}")
    if core_note:
        assumed.append("cpu_cores")
    binlog = "off" if variables["log_bin"] == "OFF" else "on"
    if binlog == "on" and variables.get("sync_binlog") == "1":
        binlog = "sync"
    spread = result["qps_per_second" if result["unit"] == "queries/s" else "tps_per_second"]
    row.update(
        id=f"{record['source']}:{number}",
        source=record["source"],
        year=run["started"][:4],
        kind=kind,
        tool="sysbench",
        unit=result["unit"],
        value=f"{result['value']:g}",
        data_gb=f"{server['data']['innodb'] / GIB:.4g}",
        bp_gb=f"{int(variables['innodb_buffer_pool_size']) / GIB:.4g}",
        ram_gb=f"{ram / GIB:.4g}",
        cpu_cores=str(cores),
        concurrency=str(run["threads"]),
        trx_commit=variables["innodb_flush_log_at_trx_commit"],
        flush_method=variables["innodb_flush_method"],
        max_dirty_pct=f"{float(variables['innodb_max_dirty_pages_pct']):g}",
        read_ahead="off" if variables.get("innodb_read_ahead_threshold") == "0" else "on",
        io_capacity=variables["innodb_io_capacity"],
        log_mb=f"{int(variables['innodb_log_file_size']) / MIB:g}",
        server=f"mariadb {server['version']}",
        flags="lab",
        assumed_fields=";".join(assumed),
        assumptions="; ".join(assumptions),
        notes=_notes(record, spread, device),
        doublewrite="on" if variables["innodb_doublewrite"] in ("ON", "1") else "off",
        access="uniform",
        binlog=binlog,
        flush_neighbors=variables["innodb_flush_neighbors"],
    )
    if device is not None:
        row["measured_read_iops"] = str(device["fio"]["random_read_iops"])
        row["measured_write_iops"] = str(device["fio"]["random_write_iops"])
    point_of_row(row)  # a row the model cannot load is a bug here, never printed
    return row


def _notes(record: dict[str, Any], spread: dict[str, Any], device: dict[str, Any] | None) -> str:
    run, limits = record["run"], record["limits"]
    parts = [
        f"lab {run['test']}, "
        f"config {run['config']}, round {run['round']}, {run['tables']} x {run['table_size']} "
        f"rows, {run['time_s']} s after {run['warmup_s']} s warm-up",
        f"per second median {spread['median']:g}, cv {spread['cv']:.3f}",
        f"host {record['host']['cpu_model']}, kernel {record['host']['kernel']}",
    ]
    if limits["applied"]:
        asked = ", ".join(f"{k} {v}" for k, v in limits["asked"].items() if v is not None)
        parts.append(f"cgroup v{limits['cgroup']['version']} limits: {asked}")
        parts.extend(f"not reproduced: {note}" for note in limits["not_reproduced"])
    elif limits["refused"]:
        parts.append(f"limits refused, run unlimited: {limits['refused']}")
    if device is not None:
        measured = device["fio"]
        parts.append(
            f"measured IOPS: {measured['version']} random {fio.BLOCK} direct, depth "
            f"{fio.IODEPTH}, under the same io limits, {measured['started']}"
        )
    return "; ".join(parts)


def write(records: Iterable[dict[str, Any]], out: TextIO, progress: Callable[[str], None]) -> None:
    """The run records as rows; a fio record (lab.fio) gives its measured IOPS to every run
    record of the same host and io limits."""
    records = list(records)
    devices = {device_key_of(r): r for r in records if r.get("record") == fio.RECORD}
    runs = [r for r in records if r.get("record") != fio.RECORD]
    writer = csv.DictWriter(out, fieldnames=columns(), lineterminator="\n")
    writer.writeheader()
    for number, record in enumerate(runs, start=1):
        try:
            writer.writerow(row_of(record, number, devices.get(device_key_of(record))))
        except ValueError as skipped:
            progress(f"record {number} skipped: {skipped}")
