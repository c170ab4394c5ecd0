"""The server's CPU per unit of each sysbench workload kind, against a point select, measured here.

calibration.benchmarks counts a unit's CPU work in primary-key point selects so that every kind
shares one CPU capacity; for the sysbench kinds that count can be measured instead of judged. This
boots a throwaway MariaDB with its data cached, runs each sysbench test in turn (interleaved over
rounds, so a noisy neighbour hits them alike), and reads the server process's CPU time from
/proc around each run: CPU microseconds per transaction, and that over a point select's, and
the kernel's share of it. The client's CPU is not counted, so sysbench sharing the machine
does not bias the ratios.

With `--binlog` a second server runs beside the first with the binary log on (row events,
sync_binlog=0, as a replication source commonly runs it), measured in the same rounds
(interleaved: the machine's drift hits both alike), and the report gives the binary log's CPU
per unit of each kind that changes rows: what calibration.fit.BOUNDS["binlog_cpu"] rests on.

Run by hand (`python benchmarks/statement_costs.py [--binlog]`, about 5 minutes on 2 cores, 9
with --binlog). Needs Debian's `sysbench` and MariaDB's server binaries (exit 2 when missing).
It measures; it asserts nothing.
"""

from __future__ import annotations

import argparse
import math
import os
import statistics
import sys
import tempfile
import time
from collections.abc import Sequence
from contextlib import ExitStack
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from benchmarks.real_gain import (
    EXIT_CANNOT_RUN,
    CannotRun,
    check_tools,
    parse_sysbench,
    sysbench,
    table_size_for,
)
from calibration.benchmarks import BENCHMARKS
from lab.mariadb_server import RunningServer, running_server

# sysbench test -> the workload kind whose unit it is (update_heavy averages the two updates)
TESTS = {
    "oltp_point_select": "read_mostly",
    "oltp_read_write": "read_write",
    "oltp_update_index": "update_heavy",
    "oltp_update_non_index": "update_heavy",
}
# A pool far above the data keeps every run cached: only CPU work is measured.
MYCNF = "[mysqld]\ninnodb_buffer_pool_size=2G\ninnodb_log_file_size=512M\n"
# The binary log as a replication source commonly runs it: row events, not synced per commit
# (sync_binlog=0), so its CPU is measured and not the device's fsyncs (mysql-manual-sync-binlog).
BINLOG = "log_bin=binlog\nbinlog_format=ROW\nsync_binlog=0\nserver_id=1\n"
CONFIGS = {"binlog off": MYCNF, "binlog on": MYCNF + BINLOG}

Runs = dict[str, list[tuple[float, float]]]  # test -> (tps, server CPU us) per round


def parse_args(argv: Sequence[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--threads", type=int, default=16, help="sysbench threads [16]")
    parser.add_argument("--time", type=int, default=20, help="seconds measured per run [20]")
    parser.add_argument("--warmup", type=int, default=5, help="seconds discarded per run [5]")
    parser.add_argument("--rounds", type=int, default=3, help="runs of each test [3]")
    parser.add_argument("--size-gb", type=float, default=0.5, help="data size in GiB [0.5]")
    parser.add_argument(
        "--binlog", action="store_true", help="also measure a server with the binary log on"
    )
    return parser.parse_args(argv)


def server_pid(server: RunningServer) -> int:
    """The mariadbd process, from the pid file it writes."""
    path = Path(server.query("SELECT @@pid_file").strip().splitlines()[-1])
    if not path.is_absolute():
        path = server.datadir / path
    return int(path.read_text(encoding="utf-8").strip())


def cpu_seconds(pid: int) -> tuple[float, float]:
    """(user, system) CPU seconds of a process so far, from /proc/<pid>/stat."""
    fields = Path(f"/proc/{pid}/stat").read_text(encoding="utf-8").rsplit(")", 1)[1].split()
    tick = os.sysconf("SC_CLK_TCK")
    return int(fields[11]) / tick, int(fields[12]) / tick


def cpu_per_transaction(
    server: RunningServer, pid: int, test: str, table_size: int, args: argparse.Namespace
) -> tuple[float, float, float]:
    """(transactions/s, server CPU microseconds per transaction, the kernel's share of that
    CPU) of one measured run. The kernel's share tells the server's own work from the system
    calls it makes (reads, writes, fsyncs, the client sockets)."""
    load = (f"--threads={args.threads}", "--report-interval=0")
    if args.warmup > 0:
        sysbench(server, "run", table_size, *load, f"--time={args.warmup}", test=test)
    before, start = cpu_seconds(pid), time.monotonic()
    output = sysbench(server, "run", table_size, *load, f"--time={args.time}", test=test)
    after, wall = cpu_seconds(pid), time.monotonic() - start
    user, system = after[0] - before[0], after[1] - before[1]
    tps = parse_sysbench(output)[0]
    return tps, (user + system) / (tps * wall) * 1e6, system / max(user + system, 1e-9)


def measure(args: argparse.Namespace, top: Path) -> dict[str, Runs]:
    """Per configuration (CONFIGS; the first alone without --binlog), each test's runs. Every
    server is up for the whole measurement and the rounds visit them in turn."""
    table_size = table_size_for(args.size_gb)
    names = list(CONFIGS) if args.binlog else list(CONFIGS)[:1]
    runs: dict[str, Runs] = {name: {test: [] for test in TESTS} for name in names}
    with ExitStack() as stack:
        servers = {name: stack.enter_context(running_server(CONFIGS[name], parent=top))
                   for name in names}  # fmt: skip
        for server in servers.values():
            server.query("CREATE DATABASE sbtest")
            sysbench(server, "prepare", table_size, f"--threads={min(8, os.cpu_count() or 1)}")
        pids = {name: server_pid(server) for name, server in servers.items()}
        for number in range(1, args.rounds + 1):
            for name, server in servers.items():
                for test in TESTS:
                    tps, micros, kernel = cpu_per_transaction(
                        server, pids[name], test, table_size, args
                    )
                    runs[name][test].append((tps, micros))
                    print(
                        f"  round {number} {name} {test}: {tps:,.0f} tps, "
                        f"{micros:,.1f} us of server CPU ({kernel:.0%} in the kernel)"
                    )
    return runs


def medians(runs: Runs) -> dict[str, float]:
    return {test: statistics.median(m for _, m in rows) for test, rows in runs.items()}


def report(runs: Runs, name: str) -> None:
    micros = medians(runs)
    point = micros["oltp_point_select"]
    print(f"{name}: median server CPU per transaction, and in point selects (model's count):")
    for test, kind in TESTS.items():
        ratio, model = micros[test] / point, BENCHMARKS[kind].statements
        print(f"  {test:24} {micros[test]:9,.1f} us  {ratio:6.1f}  ({kind}: {model:g})")
    updates = (micros["oltp_update_index"] + micros["oltp_update_non_index"]) / 2
    print(f"  the two updates averaged: {updates / point:.1f} point selects")


def binlog_ratios(off: Runs, on: Runs) -> dict[str, float]:
    """Per test that changes rows, the binary log's factor on its CPU per transaction: the two
    servers' CPU per transaction, each over its own point select (which writes no events), so
    that the two servers' own speeds cancel. Its log is calibration.model's binlog_cpu."""
    off_us, on_us = medians(off), medians(on)
    return {
        test: (on_us[test] / on_us["oltp_point_select"])
        / (off_us[test] / off_us["oltp_point_select"])
        for test in TESTS
        if test != "oltp_point_select"
    }


def report_binlog(off: Runs, on: Runs) -> None:
    print("binary log on over off, CPU per transaction, each over its own point select:")
    for test, ratio in binlog_ratios(off, on).items():
        print(f"  {test:24} x{ratio:.3f}  log {math.log(ratio):+.3f}")


def main(argv: Sequence[str] | None = None) -> int:
    args = parse_args(argv)
    try:
        check_tools()
    except CannotRun as reason:
        print(f"cannot run: {reason}", file=sys.stderr)
        return EXIT_CANNOT_RUN
    print(f"statement costs: {args.rounds} rounds x {len(TESTS)} tests, {args.threads} threads")
    with tempfile.TemporaryDirectory(prefix="statement-costs-", dir="/var/tmp") as top:
        runs = measure(args, Path(top))
    for name, of_config in runs.items():
        report(of_config, name)
    if args.binlog:
        report_binlog(runs["binlog off"], runs["binlog on"])
    return 0


if __name__ == "__main__":
    sys.exit(main())
