"""One lab run as one JSON line: every input stated, so a later step can make it a calibration
point (lab.to_csv) without assuming anything the run did not record.

A record (format 1) holds:
  source     lab-<host>-<limits label>: the calibration source of this emulated machine
  run        test, threads, tables, table size, configuration name, round and position in it
             (A/B/A/B), warm-up and measured seconds, start time and wall seconds
  host       name, CPU model, CPUs, RAM, kernel, and the probe's whole document (devices,
             filesystem, media) for the lab's datadir (lab.host)
  limits     the limits asked, whether they were applied, the cgroup and every value the kernel
             read back, why not where refused, and what the emulation does not reproduce
  server     flavor, version, the complete my.cnf it started with, the configuration's own
             text, the variables it reports after the run, boot seconds, data bytes
  sysbench   its version, the warm-up and measured command lines
  result     tps, qps, p95 latency, ignored errors, the per-second figures and their spread;
             `value` in `unit`: the figure calibration.points.UNITS uses for the kind
"""

from __future__ import annotations

import dataclasses
import json
import shlex
import time
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from lab import sysbench

if TYPE_CHECKING:
    from lab.run import Plan

FORMAT = 1
UNITS = {"tps": "transactions/s", "qps": "queries/s"}


@dataclass(frozen=True)
class ServerFacts:
    version: str
    mycnf: str  # the complete option file, the harness's group included
    config_mycnf: str  # the configuration's own text
    variables: dict[str, str]
    boot_s: float
    data: dict[str, int]


def plain(value: object) -> Any:
    """A dataclass as a dict (for JSON); anything else as it is."""
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return dataclasses.asdict(value)
    return value


def source_name(host_name: str, label: str) -> str:
    """lab-<host>-<limits>, in the lower-case, dash-separated form of the data's sources."""
    safe = "".join(c if c.isalnum() else "-" for c in host_name.lower()).strip("-")
    return f"lab-{safe}-{label}"


def build(
    *,
    plan: Plan,
    load: sysbench.Load,
    config: str,
    order: dict[str, int],
    host: dict[str, Any],
    limits: dict[str, Any],
    server: ServerFacts,
    commands: tuple[list[str] | None, list[str]],
    figures: sysbench.Figures,
    started: float,
) -> dict[str, Any]:
    figure = sysbench.TESTS[load.test]
    label = plan.limits.label() if limits["applied"] else "unlimited"
    warmup, measured = commands
    return {
        "record": "innodb-io-advisor lab run",
        "format": FORMAT,
        "source": source_name(str(host.get("name", "")), label),
        "run": {
            "test": load.test,
            "threads": load.threads,
            "tables": load.tables,
            "table_size": load.table_size,
            "config": config,
            **order,
            "warmup_s": plan.warmup,
            "time_s": plan.seconds,
            "started": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(started)),
            "wall_s": round(time.time() - started, 1),
        },
        "host": host,
        "limits": limits,
        "server": {"flavor": "mariadb", **dataclasses.asdict(server)},
        "sysbench": {
            "version": sysbench.version(),
            "warmup_command": shlex.join(warmup) if warmup else None,
            "command": shlex.join(measured),
        },
        "result": {
            "tps": figures.tps,
            "qps": figures.qps,
            "p95_ms": figures.p95_ms,
            "errors": figures.errors,
            "tps_per_second": dataclasses.asdict(figures.tps_spread),
            "qps_per_second": dataclasses.asdict(figures.qps_spread),
            "unit": UNITS[figure],
            "value": getattr(figures, figure),
        },
    }


def dumps(record: dict[str, Any]) -> str:
    return json.dumps(record, sort_keys=False, separators=(",", ":"))


def summary(record: dict[str, Any]) -> str:
    result = record["result"]
    spread = result[f"{'qps' if result['unit'] == 'queries/s' else 'tps'}_per_second"]
    return (
        f"{result['value']:,.1f} {result['unit']} (per second: median {spread['median']:,.1f}, "
        f"cv {spread['cv']:.1%}), p95 {result['p95_ms']:g} ms"
    )
