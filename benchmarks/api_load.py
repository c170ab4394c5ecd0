"""Load on the web API beside a trivial endpoint, in interleaved slices of one run.

Three endpoints take turns, SLICE seconds each, ROUNDS times, so a noisy neighbour slows all
three alike and their ratios survive it:

    GET  /healthz                              one SELECT 1: the cost of the stack alone
    POST /api/v1/recommendations?store=false   validation, every rule, the estimate, JSON
    POST /api/v1/recommendations               the same, stored

Every POST body is a profile no earlier request sent (wrk's Lua numbers them per thread), so
nothing can be answered from a cache. For each endpoint it prints requests/s, p50 and p99
latency and the gunicorn workers' CPU milliseconds per request (from /proc), then the ratios
to /healthz: over the whole run, and the median and range of each round's own ratio (shorter
slices and more rounds make those sturdier: ROUNDS=8 SLICE=5). It measures; it exits 1 only
when a request failed.

Run by benchmarks/api_load.sh, which starts gunicorn with the production settings.
"""

from __future__ import annotations

import itertools
import json
import os
import statistics
import subprocess
import sys
import tempfile
from dataclasses import dataclass, field
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from rules.inputs.examples import raw_profile
from rules.inputs.validation import parse_profile

SLICE = int(os.environ.get("SLICE", "10"))
ROUNDS = int(os.environ.get("ROUNDS", "4"))
CONNECTIONS = int(os.environ.get("CONNECTIONS", "16"))
WRK_THREADS = int(os.environ.get("WRK_THREADS", "2"))
TICKS = os.sysconf("SC_CLK_TCK")
# The unique number goes in the data size: 1 + 100 x the wrk thread's id GB, plus a millionth
# per request (ids are distinct across slices and endpoints, so no body is ever sent twice).
UNIQUE = "__UNIQUE__"

REPORT_LUA = """
wrk.headers["X-Forwarded-Proto"] = "https"
done = function(summary, latency, requests)
  local e = summary.errors
  io.write(string.format(
    'RESULT {"requests": %d, "seconds": %.3f, "errors": %d, "p50_ms": %.3f, "p99_ms": %.3f}\\n',
    summary.requests, summary.duration / 1e6, e.connect + e.read + e.write + e.status + e.timeout,
    latency:percentile(50) / 1000, latency:percentile(99) / 1000))
end
"""


@dataclass
class Tally:
    requests: int = 0
    seconds: float = 0.0
    errors: int = 0
    cpu_seconds: float = 0.0
    p50: list[float] = field(default_factory=list)
    p99: list[float] = field(default_factory=list)
    rates: list[float] = field(default_factory=list)  # one per round


def post_script(first_thread: int) -> str:
    """A wrk script whose every request is a profile never sent before in this run."""
    servers = [("mysql", "8.0.36"), ("mysql", "8.4"), ("percona", "8.0.36"), ("mariadb", "10.11")]
    storage = [
        {"media": "hdd", "rpm": 15000, "device_count": 8, "raid_level": "raid10"},
        {"media": "hdd", "rpm": 7200, "device_count": 6, "raid_level": "raid5"},
        {"media": "sata_ssd", "device_count": 2, "raid_level": "raid1"},
        {"media": "nvme", "device_count": 4, "raid_level": "raid10"},
    ]
    kinds = ["oltp", "read_write", "update_heavy", "bulk_insert", "read_mostly"]
    templates = []
    for (flavor, version), disks, kind in itertools.product(servers, storage, kinds):
        raw = raw_profile(
            **{
                "server.flavor": flavor,
                "server.version": version,
                "hardware.storage": {**disks, "controller_cache": "write_back_bbu"},
                "workload.kind": kind,
                "workload.data_size_gb": 1.5,
            }
        )
        parse_profile(raw)  # valid: any error in the run is the server's
        text = json.dumps(raw).replace('"data_size_gb": 1.5', f'"data_size_gb": {UNIQUE}')
        templates.append(json.dumps(text))  # a Lua string literal
    return (
        "local templates = {"
        + ",\n".join(templates)
        + "}\n"
        + f"local counter = 0\nlocal first = {first_thread}\n"
        + """
local next_id = 0
setup = function(thread)
  next_id = next_id + 1
  thread:set("thread_id", first + next_id)
end
wrk.method = "POST"
wrk.headers["Content-Type"] = "application/json"
request = function()
  counter = counter + 1
  local template = templates[counter % #templates + 1]
  local size = string.format("%d.%06d", 1 + (thread_id or 0) * 100
                             + math.floor(counter / 1000000), counter % 1000000)
  return wrk.format(nil, nil, nil, (template:gsub("__UNIQUE__", size)))
end
"""
        + REPORT_LUA
    )


def worker_cpu_seconds(master: int) -> float:
    """user + system CPU of gunicorn's workers (the master's children) so far."""
    children = subprocess.run(
        ["pgrep", "-P", str(master)], capture_output=True, text=True, check=False
    ).stdout.split()
    total = 0
    for pid in children:
        try:
            fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        except FileNotFoundError:
            continue
        total += int(fields[11]) + int(fields[12])  # utime, stime (fields 14 and 15)
    return total / TICKS


def run_slice(url: str, script: Path, master: int) -> dict[str, float]:
    before = worker_cpu_seconds(master)
    out = subprocess.run(
        ["wrk", "-t", str(WRK_THREADS), "-c", str(CONNECTIONS), "-d", f"{SLICE}s",
         "--timeout", "10s", "-s", str(script), url],
        capture_output=True, text=True, check=True,
    ).stdout  # fmt: skip
    line = next(row for row in out.splitlines() if row.startswith("RESULT "))
    figures = json.loads(line.removeprefix("RESULT "))
    figures["cpu_seconds"] = worker_cpu_seconds(master) - before
    return figures


def main() -> int:
    base, master = sys.argv[1], int(sys.argv[2])
    work = Path(tempfile.mkdtemp())
    health = work / "health.lua"
    health.write_text(REPORT_LUA)
    endpoints = {"GET  /healthz": (f"{base}/healthz", [health])}
    for name, query in (("POST .../recommendations?store=false", "?store=false"),
                        ("POST .../recommendations (stored)", "")):  # fmt: skip
        scripts = []
        for round_number in range(ROUNDS):  # thread ids never repeat, so neither do bodies
            script = work / f"post-{len(endpoints)}-{round_number}.lua"
            script.write_text(post_script(first_thread=(len(endpoints) * 100 + round_number) * 10))
            scripts.append(script)
        endpoints[name] = (f"{base}/api/v1/recommendations{query}", scripts)
    tallies = {name: Tally() for name in endpoints}
    for round_number in range(ROUNDS):
        for name, (url, scripts) in endpoints.items():
            figures = run_slice(url, scripts[round_number % len(scripts)], master)
            tally = tallies[name]
            tally.requests += int(figures["requests"])
            tally.seconds += figures["seconds"]
            tally.errors += int(figures["errors"])
            tally.cpu_seconds += figures["cpu_seconds"]
            tally.p50.append(figures["p50_ms"])
            tally.p99.append(figures["p99_ms"])
            tally.rates.append(figures["requests"] / figures["seconds"])
    print(f"{ROUNDS} rounds of {SLICE:g} s per endpoint, interleaved; {CONNECTIONS} connections")
    rates = {}
    for name, t in tallies.items():
        rates[name] = t.requests / t.seconds
        cpu_ms = 1000 * t.cpu_seconds / max(t.requests, 1)
        print(
            f"{name:40} {rates[name]:8.0f} req/s  p50 {sorted(t.p50)[len(t.p50) // 2]:6.2f} ms"
            f"  p99 {max(t.p99):7.2f} ms  server CPU {cpu_ms:5.2f} ms/req  errors {t.errors}"
        )
    health = tallies["GET  /healthz"]
    for name, rate in rates.items():
        if name == "GET  /healthz":
            continue
        # Each round's ratio sets a slice beside the /healthz slice run just before it, so a
        # drift of the machine's speed over the run cancels; their median shrugs off a burst.
        by_round = sorted(
            post / hz for post, hz in zip(tallies[name].rates, health.rates, strict=True)
        )
        print(
            f"ratio to /healthz: {rate / rates['GET  /healthz']:.2f}  {name.strip()}"
            f"  (per round: median {statistics.median(by_round):.2f},"
            f" {by_round[0]:.2f}-{by_round[-1]:.2f} over {len(by_round)})"
        )
    return 1 if any(t.errors for t in tallies.values()) else 0


if __name__ == "__main__":
    sys.exit(main())
