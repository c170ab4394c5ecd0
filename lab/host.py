"""The host a lab run measured, as the advisor's probe reads it, plus what the probe omits.

The probe (probe/advisor_probe.py) is the one reader of a host's facts: RAM and cores (and the
lab's own cgroup limits), the datadir's block devices, filesystem and scheduler, the kernel,
and the server's variables. The lab runs it as a user would, against the lab's own server
(its private socket) and datadir, and keeps its whole document. The CPU model, which the
profile does not ask for, is read here from /proc/cpuinfo.
"""

from __future__ import annotations

import json
import os
import re
import socket
import subprocess
import sys
from pathlib import Path
from typing import Any

PROBE = Path(__file__).resolve().parent.parent / "probe" / "advisor_probe.py"
PROBE_TIMEOUT_S = 120


def cpu_model(cpuinfo: str | None = None) -> str:
    """The first "model name" of /proc/cpuinfo ("" where the kernel gives none, e.g. arm64)."""
    text = cpuinfo if cpuinfo is not None else Path("/proc/cpuinfo").read_text(encoding="utf-8")
    found = re.search(r"^model name\s*:\s*(.+)$", text, re.MULTILINE)
    return found.group(1).strip() if found else ""


def ram_bytes() -> int:
    text = Path("/proc/meminfo").read_text(encoding="utf-8")
    found = re.search(r"^MemTotal:\s+(\d+) kB", text, re.MULTILINE)
    return int(found.group(1)) * 1024 if found else 0


def probe(socket_path: Path, datadir: Path) -> dict[str, Any]:
    """The probe's document for the lab server: {"error": ...} when it printed none."""
    command = [
        sys.executable,
        str(PROBE),
        f"--socket={socket_path}",
        "--user=root",
        f"--datadir={datadir}",
        "--quiet",
    ]
    proc = subprocess.run(
        command, capture_output=True, text=True, check=False, timeout=PROBE_TIMEOUT_S
    )
    try:
        document: dict[str, Any] = json.loads(proc.stdout)
    except json.JSONDecodeError:
        return {"error": f"the probe exited {proc.returncode}: {proc.stderr.strip()[-500:]}"}
    return document


def describe(socket_path: Path, datadir: Path) -> dict[str, Any]:
    """The host's facts for a record: a short summary, and the probe's whole document."""
    document = probe(socket_path, datadir)
    hardware = document.get("hardware", {})
    storage = hardware.get("storage", {})
    return {
        "name": socket.gethostname(),
        "cpu_model": cpu_model(),
        "cpu_count": os.cpu_count() or 0,
        "ram_bytes": ram_bytes(),
        "kernel": os.uname().release,
        "ram_gb": hardware.get("ram_gb"),
        "cpu_cores": hardware.get("cpu_cores"),
        "media": storage.get("media"),
        "device_count": storage.get("device_count"),
        "filesystem": hardware.get("filesystem"),
        "io_scheduler": document.get("current", {}).get("os", {}).get("io_scheduler"),
        "probe": document,
    }
