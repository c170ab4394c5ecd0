"""sysbench 1.0 against a lab server: the command, its per-second figures and their spread.

The OLTP tests are Lua scripts Debian's `sysbench` package ships in /usr/share/sysbench
(oltp_common.lua defines the sbtest tables every one of them prepares alike). With
`--report-interval=1` sysbench prints one line a second (`[ 3s ] thds: 1 tps: 5374.33 qps:
5374.33 ...`), then its totals. No TPC-C-like load is packaged for Debian (sysbench-tpcc is a
separate Percona-Lab repository of Lua scripts), so the lab offers none.
"""

from __future__ import annotations

import math
import re
import shlex
import statistics
import subprocess
from dataclasses import dataclass
from pathlib import Path

# The tests the lab runs, and the figure of each that the calibration data uses as its unit
# (calibration.points.UNITS): point selects count queries, the others transactions.
TESTS = {
    "oltp_read_write": "tps",
    "oltp_update_index": "tps",
    "oltp_point_select": "qps",
    "oltp_insert": "tps",
}
LOG_TAIL_LINES = 40
_INTERVAL = re.compile(
    r"^\[\s*(\d+)s\s*\]\s+thds:\s*(\d+)\s+tps:\s*([\d.]+)\s+qps:\s*([\d.]+).*?"
    r"lat \(ms,95%\):\s*([\d.]+)",
    re.MULTILINE,
)
_TOTAL = {
    "tps": re.compile(r"transactions:\s+\d+\s+\(([\d.]+) per sec\.\)"),
    "qps": re.compile(r"queries:\s+\d+\s+\(([\d.]+) per sec\.\)"),
    "p95_ms": re.compile(r"95th percentile:\s+([\d.]+)"),
    "errors": re.compile(r"ignored errors:\s+(\d+)"),
}


class SysbenchError(RuntimeError):
    """sysbench failed; the message carries the tail of its output."""


@dataclass(frozen=True)
class Load:
    """What sysbench is asked: a test, its threads and the data it runs on."""

    test: str
    threads: int
    tables: int
    table_size: int

    def command(self, socket: Path, action: str, *options: str) -> list[str]:
        """The sysbench command line over the server's private socket (never a port)."""
        return [
            "sysbench",
            self.test,
            "--db-driver=mysql",
            f"--mysql-socket={socket}",
            "--mysql-user=root",
            "--mysql-db=sbtest",
            f"--tables={self.tables}",
            f"--table-size={self.table_size}",
            "--rand-type=uniform",
            f"--threads={self.threads}",
            *options,
            action,
        ]


def run(command: list[str]) -> str:
    """Run one sysbench command; its stdout, or SysbenchError with the output's tail."""
    proc = subprocess.run(command, capture_output=True, text=True, check=False)
    if proc.returncode != 0:
        tail = "\n".join((proc.stdout + proc.stderr).splitlines()[-LOG_TAIL_LINES:])
        raise SysbenchError(f"`{shlex.join(command)}` failed ({proc.returncode}):\n{tail}")
    return proc.stdout


@dataclass(frozen=True)
class Spread:
    """The per-second figures of one run and how far they stray."""

    per_second: tuple[float, ...]
    mean: float
    median: float
    stdev: float
    cv: float  # stdev / mean
    low: float
    high: float


def spread(values: list[float]) -> Spread:
    if not values:
        raise SysbenchError("sysbench printed no per-second line (--report-interval=1)")
    mean = statistics.fmean(values)
    stdev = statistics.stdev(values) if len(values) > 1 else 0.0
    return Spread(
        tuple(values),
        round(mean, 2),
        round(statistics.median(values), 2),
        round(stdev, 2),
        round(stdev / mean, 4) if mean > 0 else math.inf,
        min(values),
        max(values),
    )


@dataclass(frozen=True)
class Figures:
    """One measured run: sysbench's totals and per-second spread of tps and qps."""

    tps: float
    qps: float
    p95_ms: float
    errors: int
    tps_spread: Spread
    qps_spread: Spread


def parse(output: str) -> Figures:
    """sysbench's totals and its per-second lines, from a run with --report-interval=1."""
    totals = {}
    for name, pattern in _TOTAL.items():
        found = pattern.search(output)
        if found is None and name != "errors":
            raise SysbenchError(f"no {name} in sysbench's output:\n{output}")
        totals[name] = float(found.group(1)) if found else 0.0
    lines = _INTERVAL.findall(output)
    return Figures(
        totals["tps"],
        totals["qps"],
        totals["p95_ms"],
        int(totals["errors"]),
        spread([float(line[2]) for line in lines]),
        spread([float(line[3]) for line in lines]),
    )


def version() -> str:
    return run(["sysbench", "--version"]).strip()
