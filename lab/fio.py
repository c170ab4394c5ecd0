"""The emulated machine's device as fio measures it: the measured IOPS a calibration point takes.

A lab run's throttle caps the rate of the host's device; what the server can get from it is
min(the device, the throttle), which only a measurement says (the host's own device is a
virtual disk whose media the probe can only assume). This runs fio's random 16 KiB reads,
then writes, direct, libaio at queue depth 32 (the job benchmarks/real_gain.py and the
advisor's fio submissions run), in a fresh cgroup with the machine's io limits only (memory
and CPU do not bound direct IO), on a file in a fresh `ia-lab-fio-*` directory under the lab's
`--dir`, and writes one JSON line; lab.to_csv fills the measured IOPS of every run record of
the same host and io limits from it. The file, the directory and the group are always removed.
"""

from __future__ import annotations

import json
import os
import shlex
import shutil
import socket
import subprocess
import tempfile
import time
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path
from typing import Any

from lab import cgroups, host, record

RECORD = "innodb-io-advisor lab fio"
BLOCK = "16k"  # InnoDB's page
IODEPTH = 32
FILE_GIB = 1
JOBS = ("randread", "randwrite")  # the read job lays the file out first, so writes hit blocks


class FioFailed(RuntimeError):
    """fio is missing or exited with an error; the message says which."""


def io_only(limits: cgroups.Limits) -> cgroups.Limits:
    """The machine's device limits, without its memory and CPU."""
    return replace(limits, memory_bytes=None, cpus=None, cpuset=None)


def device_key(hostname: str, limits: dict[str, Any]) -> tuple[Any, ...]:
    """What a fio record and a run record must share: the host and the io limits applied."""
    rates = ("read_iops", "write_iops", "read_bps", "write_bps")
    return (hostname, *(limits.get(rate) for rate in rates))


def command(path: Path, job: str, seconds: int, size: str = f"{FILE_GIB}G") -> list[str]:
    return [
        "fio",
        f"--name={job}",
        f"--filename={path}",
        f"--size={size}",
        f"--bs={BLOCK}",
        f"--rw={job}",
        "--direct=1",
        "--ioengine=libaio",
        f"--iodepth={IODEPTH}",
        "--numjobs=1",
        f"--runtime={seconds}",
        "--time_based",
        "--output-format=json",
    ]


def iops_of(output: str, job: str) -> float:
    """IOPS from fio's JSON (it may print warnings before the object)."""
    report = json.loads(output[output.index("{") :])
    direction = "read" if job == "randread" else "write"
    return float(sum(entry[direction]["iops"] for entry in report["jobs"]))


def measure(
    limits: cgroups.Limits,
    parent: Path,
    seconds: int,
    progress: Callable[[str], None],
    size: str = f"{FILE_GIB}G",
) -> dict[str, Any]:
    """One fio record for the device `limits` emulate under `parent` (a file of `size`)."""
    if shutil.which("fio") is None:
        raise FioFailed("missing: apt-get update && apt-get install -y fio")
    device = io_only(limits)
    top = Path(tempfile.mkdtemp(prefix="ia-lab-fio-", dir=parent))
    group = cgroups.create(device, parent) if device.io else None
    figures: dict[str, float] = {}
    commands = []
    started = time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())
    try:
        for job in JOBS:
            progress(f"fio {job}, {BLOCK}, depth {IODEPTH}, {seconds} s, {device.label()}")
            args = command(top / "fio-16k.dat", job, seconds, size)
            proc = subprocess.run(
                args,
                capture_output=True,
                text=True,
                check=False,
                preexec_fn=group.join if group else None,  # the lab starts no threads
            )
            if proc.returncode != 0:
                raise FioFailed(f"fio {job} exited {proc.returncode}: {proc.stderr.strip()}")
            figures[job] = round(iops_of(proc.stdout, job))
            commands.append(shlex.join(args))
        described = group.describe() if group else None
    finally:
        if group is not None:
            group.remove()
        shutil.rmtree(top, ignore_errors=True)
    version = subprocess.run(["fio", "--version"], capture_output=True, text=True, check=False)
    name = socket.gethostname()
    return {
        "record": RECORD,
        "format": record.FORMAT,
        "source": record.source_name(name, device.label()),
        "host": {"name": name, "cpu_model": host.cpu_model(), "kernel": os.uname().release},
        "limits": {
            "asked": record.plain(device),
            "applied": group is not None,
            "cgroup": described,
        },
        "fio": {
            "version": version.stdout.strip(),
            "directory": str(parent),
            "commands": commands,
            "started": started,
            "random_read_iops": figures["randread"],
            "random_write_iops": figures["randwrite"],
        },
    }
