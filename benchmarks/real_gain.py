"""Measured gain of our my.cnf over MariaDB's defaults on THIS machine, beside our estimate.

Run by hand or by `make bench` (about 9 minutes at the defaults on 2 cores). It measures the
disk with fio, describes this machine as an advisor profile, prepares sysbench oltp_read_write
data once with a defaults server, then runs the load alternately on a copy of that data under
A (an empty my.cnf: the server's defaults) and B (our my.cnf), and prints the measured
throughputs and ratio beside the estimator's intervals, and B's estimate told A's measured
rate as a user would give it (workload.measured_throughput). The profile carries the
machine's CPU speed as sysbench oltp_point_select measures it on cached data
(hardware.measured_cpu): once before the rounds (the advice B runs) and once after each
round, the estimates taking the median, as A's and B's rates are medians: one 20-second
sample went from 69,145 to 86,929/s over three runs on this host on 2026-11-28 while B's
median went from 1,884 to 2,034 tps. The estimates without it are printed too, and whether
the machine and load lie inside the published data (with the reasons when not, as the estimate
gives them: Estimate.outside). Each run also prints where its time went: the machine's CPU
shares (busy, iowait, idle, steal) and InnoDB's page reads, pages flushed, fsyncs and redo
bytes per transaction. At few clients a commit's wait costs this host far more than its sync
rate says (benchmarks/few_clients.py). It measures; it asserts nothing.

Needs Debian's `sysbench` and `fio` (exit 2 when missing) and MariaDB's server binaries; the
throwaway servers come from lab/mariadb_server.py. Exit 1 when a server refuses
to start (its error log is printed); our my.cnf is never edited to make it start.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import math
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator, Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from calibration.artifact import load_latest
from calibration.estimator import CalibratedEstimator
from lab.mariadb_server import (
    RunningServer,
    ServerStartError,
    binaries_available,
    mariadbd_version,
    running_server,
)
from rules.engine import recommend
from rules.inputs.validation import parse_profile
from rules.output.result import Estimate, Result
from rules.render import render

GIB = 1024**3
TOOLS = {"sysbench": "sysbench", "fio": "fio"}  # command -> Debian package
TABLES = 8
# sysbench rows with the k index take ~245 bytes on disk (measured here: 2 x 1 M rows, 483 MB).
ROWS_PER_GIB = 4_400_000
FIO_FILE_GIB = 2
FIO_SECONDS = 20
FIO_IODEPTH = 32
FIO_BLOCK = "16k"  # InnoDB's page
MARIADB_DEFAULT_POOL = "134217728"  # innodb_buffer_pool_size in 10.11 when nothing sets it
NOT_DISKS = frozenset({"tmpfs", "ramfs", "devtmpfs", "overlay"})
LOG_TAIL_LINES = 40
TEST = "oltp_read_write"  # the load A and B run
MIB = 1024**2
POINT_SELECT_SECONDS = 20  # the measured point-select run (hardware.measured_cpu)
CPU_FIELDS = ("user", "nice", "system", "idle", "iowait", "irq", "softirq", "steal")  # proc(5)
# InnoDB status counters read around each run (MariaDB's server status variables), and the
# short names the per-transaction figures print under.
INNODB_COUNTERS = {
    "Innodb_buffer_pool_reads": "page_reads",
    "Innodb_buffer_pool_pages_flushed": "pages_flushed",
    "Innodb_data_fsyncs": "fsyncs",
    "Innodb_os_log_written": "redo_bytes",
}
EXIT_CANNOT_RUN = 2
EXIT_SERVER_REFUSED = 1


class CannotRun(RuntimeError):
    """Something this machine lacks (a tool, disk space, a calibration); exit 2."""


@dataclass
class Timings:
    """Wall-clock seconds per phase, in the order they ran."""

    phases: dict[str, float] = field(default_factory=dict)

    @contextlib.contextmanager
    def phase(self, name: str) -> Iterator[None]:
        start = time.monotonic()
        try:
            yield
        finally:
            self.phases[name] = self.phases.get(name, 0.0) + time.monotonic() - start


@dataclass(frozen=True)
class Run:
    """One measured sysbench run of one configuration."""

    config: str  # "A" (defaults) or "B" (ours)
    tps: float
    p95_ms: float
    errors: int
    boot_s: float
    wall_s: float  # copy, boot, warm-up, run, shutdown and removal
    # Where the measured run's time went, to name its bottleneck: the machine's CPU shares
    # (busy, iowait, idle, steal) and InnoDB's counters per transaction.
    cpu: dict[str, float] = field(default_factory=dict)
    per_transaction: dict[str, float] = field(default_factory=dict)


# --------------------------------------------------------------------------- options


def parse_args(argv: Sequence[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--threads", type=int, default=16, help="sysbench threads [16]")
    parser.add_argument("--time", type=int, default=60, help="seconds measured per run [60]")
    parser.add_argument("--warmup", type=int, default=15, help="seconds discarded per run [15]")
    parser.add_argument("--size-gb", type=float, default=2.0, help="data size in GiB [2]")
    parser.add_argument("--runs", type=int, default=2, help="runs per configuration [2]")
    parser.add_argument("--dir", type=Path, default=Path("/var/tmp"), help="disk to use")
    parser.add_argument("--json", type=Path, help="also write every figure to this file")
    parser.add_argument("--keep", action="store_true", help="keep the temp dirs afterwards")
    return parser.parse_args(argv)


# --------------------------------------------------------------------------- prerequisites


def check_tools() -> None:
    """Name the Debian package of every missing tool, so the fix is one apt-get away."""
    missing = sorted({pkg for cmd, pkg in TOOLS.items() if shutil.which(cmd) is None})
    if missing:
        raise CannotRun(
            f"missing package(s): {' '.join(missing)}; install with "
            f"`apt-get update && apt-get install -y {' '.join(missing)}`"
        )
    if not binaries_available():
        raise CannotRun("MariaDB server binaries missing; apt-get install -y mariadb-server")


def filesystem_of(path: Path) -> tuple[str, str]:
    """(mount point, type) of the filesystem holding `path`, from /proc/mounts."""
    target = str(path.resolve())
    best = ("/", "unknown")
    for line in Path("/proc/mounts").read_text(encoding="utf-8").splitlines():
        fields = line.split()
        mount, kind = fields[1], fields[2]
        inside = target == mount or target.startswith(mount.rstrip("/") + "/")
        if inside and len(mount) >= len(best[0]):
            best = (mount, kind)
    return best


def space_needed_gib(size_gb: float, ram_gb: float, runs: int, keep: bool) -> float:
    """Free space the run needs: fio's file, the prepared data, its run copies and their redo.

    A copy holds the data plus up to a quarter of growth; our redo log is sized from the
    buffer pool, so it stays below RAM. With --keep every run copy stays on disk.
    """
    copy = size_gb * 1.25
    copies_alive = 2 * runs if keep else 1
    redo_alive = runs if keep else 1
    return FIO_FILE_GIB + copy + copies_alive * copy + redo_alive * ram_gb


def check_disk(directory: Path, need_gib: float) -> str:
    """Refuse tmpfs and short space; returns a one-line description of the disk."""
    mount, kind = filesystem_of(directory)
    if kind in NOT_DISKS:
        raise CannotRun(f"{directory} is on {kind} ({mount}), not a disk; pass --dir")
    free_gib = shutil.disk_usage(directory).free / GIB
    if free_gib < need_gib:
        raise CannotRun(f"{directory}: {free_gib:.1f} GiB free, this run needs {need_gib:.1f}")
    return f"{directory} on {kind} mounted at {mount}, {free_gib:.1f} GiB free"


# --------------------------------------------------------------------------- this machine


def ram_gb() -> float:
    """MemTotal from /proc/meminfo, in GiB as the profile counts it."""
    text = Path("/proc/meminfo").read_text(encoding="utf-8")
    match = re.search(r"^MemTotal:\s+(\d+) kB", text, re.MULTILINE)
    if match is None:
        raise CannotRun("cannot read MemTotal from /proc/meminfo")
    return round(int(match.group(1)) / 1024**2, 1)


def cgroup_cpu_limit() -> float | None:
    """The CPU quota of this cgroup in cores (v2 cpu.max or v1 cfs), or None when unlimited."""
    v2 = Path("/sys/fs/cgroup/cpu.max")
    if v2.exists():
        quota, period = v2.read_text(encoding="utf-8").split()[:2]
        return None if quota == "max" else int(quota) / int(period)
    v1 = Path("/sys/fs/cgroup/cpu/cpu.cfs_quota_us")
    if v1.exists():
        quota_us = int(v1.read_text(encoding="utf-8"))
        period_us = int((v1.parent / "cpu.cfs_period_us").read_text(encoding="utf-8"))
        return None if quota_us <= 0 else quota_us / period_us
    return None


def cpu_cores() -> int:
    """os.cpu_count(), or the cgroup quota when that is lower (a container's real share)."""
    cores = os.cpu_count() or 1
    limit = cgroup_cpu_limit()
    return max(1, min(cores, int(limit))) if limit is not None else cores


# --------------------------------------------------------------------------- fio


def fio_iops(path: Path, rw: str) -> float:
    """IOPS of one bounded fio job, 16 KiB direct I/O at queue depth 32, on `path`."""
    args = [
        "fio",
        f"--name={rw}",
        f"--filename={path}",
        f"--size={FIO_FILE_GIB}G",
        f"--bs={FIO_BLOCK}",
        f"--rw={rw}",
        "--direct=1",
        "--ioengine=libaio",
        f"--iodepth={FIO_IODEPTH}",
        "--numjobs=1",
        f"--runtime={FIO_SECONDS}",
        "--time_based",
        "--output-format=json",
    ]
    proc = subprocess.run(args, capture_output=True, text=True, check=False)
    if proc.returncode != 0:
        raise RuntimeError(f"fio {rw} failed ({proc.returncode}): {proc.stderr.strip()}")
    return parse_fio_iops(proc.stdout, "read" if rw == "randread" else "write")


def parse_fio_iops(output: str, direction: str) -> float:
    """IOPS from fio's JSON; fio may print warnings before the object, so start at '{'."""
    report = json.loads(output[output.index("{") :])
    return float(sum(job[direction]["iops"] for job in report["jobs"]))


def measure_disk(directory: Path) -> dict[str, float]:
    """Random read then random write IOPS; the read job lays the file out with real data
    first, so the writes and reads touch allocated blocks. The file is always removed."""
    path = directory / "fio-16k.dat"
    try:
        read = fio_iops(path, "randread")
        write = fio_iops(path, "randwrite")
    finally:
        path.unlink(missing_ok=True)
    return {"random_read": round(read), "random_write": round(write)}


# --------------------------------------------------------------------------- advice


def machine_profile(
    iops: dict[str, float], data_gb: float, threads: int, point_select_qps: float | None = None
) -> dict[str, Any]:
    """This machine and the sysbench load in the advisor's profile contract; with a measured
    point-select rate, the machine's CPU speed too (hardware.measured_cpu)."""
    measured_cpu = (
        {"measured_cpu": {"point_select_qps": round(point_select_qps), "threads": threads}}
        if point_select_qps is not None
        else {}
    )
    return {
        "server": {"flavor": "mariadb", "version": mariadbd_version()},
        "hardware": {
            "ram_gb": ram_gb(),
            "cpu_cores": cpu_cores(),
            **measured_cpu,
            "storage": {
                "media": "nvme",
                "device_count": 1,
                "raid_level": "none",
                "controller_cache": "none",
                "measured_iops": iops,
            },
        },
        "workload": {
            "kind": "read_write",
            "data_size_gb": data_gb,
            "concurrency": threads,
            "durability": "full",
        },
    }


def estimator() -> CalibratedEstimator:
    """The newest calibration, loaded without Django as the engine benchmark does."""
    calibration = load_latest()
    if calibration is None:
        raise CannotRun("no calibration artifact in calibration/artifacts; run `make calibrate`")
    return CalibratedEstimator(calibration)


def advise(profile: dict[str, Any]) -> tuple[Result, Result]:
    """(our recommendation, the same with the server's defaults as its current config).

    The parser refuses an empty variables object, so "defaults" is said by pasting
    MariaDB 10.11's default buffer pool; every other setting then falls back to the
    catalog's default.
    """
    model = estimator()
    ours = recommend(parse_profile(profile), estimator=model)
    defaults = {
        **profile,
        "current": {"variables": {"innodb_buffer_pool_size": MARIADB_DEFAULT_POOL}},
    }
    against_defaults = recommend(parse_profile(defaults), estimator=model)
    return ours, against_defaults


def anchored_on(profile: dict[str, Any], measured_a: float) -> Estimate:
    """Our estimate for B told A's measured rate, as a user would give it
    (`workload.measured_throughput`): the engine anchors it on that rate times the gain."""
    told = {
        **profile,
        "workload": {**profile["workload"], "measured_throughput": round(measured_a, 1)},
        "current": {"variables": {"innodb_buffer_pool_size": MARIADB_DEFAULT_POOL}},
    }
    result = recommend(parse_profile(told), estimator=estimator())
    if result.estimate is None:
        raise CannotRun("the engine gave no estimate")
    return result.estimate.recommended


def ratio_interval(result: Result) -> tuple[float, float, str]:
    """The estimated B/A ratio: the estimator's gain interval (calibration.pairs)."""
    gain = result.estimate.gain if result.estimate is not None else None
    if gain is None:
        raise CannotRun("the engine gave no gain interval")
    return gain.low, gain.high, "estimate.gain"


def both_estimates(result: Result) -> tuple[Estimate, Estimate]:
    """(current, recommended) of a result computed with a current configuration."""
    estimate = result.estimate
    if estimate is None or estimate.current is None:
        raise CannotRun("the engine gave no current and recommended estimates")
    return estimate.current, estimate.recommended


# --------------------------------------------------------------------------- sysbench


def sysbench(
    server: RunningServer,
    command: str,
    table_size: int,
    *options: str,
    test: str = TEST,
) -> str:
    """Run one sysbench command of `test` over the server's socket; its stdout."""
    args = [
        "sysbench",
        test,
        "--db-driver=mysql",
        f"--mysql-socket={server.socket}",
        "--mysql-user=root",
        "--mysql-db=sbtest",
        f"--tables={TABLES}",
        f"--table-size={table_size}",
        "--rand-type=uniform",
        *options,
        command,
    ]
    proc = subprocess.run(args, capture_output=True, text=True, check=False)
    if proc.returncode != 0:
        tail = "\n".join((proc.stdout + proc.stderr).splitlines()[-LOG_TAIL_LINES:])
        raise RuntimeError(f"sysbench {command} failed ({proc.returncode}):\n{tail}")
    return proc.stdout


def cpu_times(stat: str | None = None) -> dict[str, int]:
    """The machine's CPU time counters (USER_HZ ticks), from the first line of /proc/stat."""
    text = stat if stat is not None else Path("/proc/stat").read_text(encoding="utf-8")
    numbers = text.splitlines()[0].split()[1 : 1 + len(CPU_FIELDS)]
    return dict(zip(CPU_FIELDS, (int(n) for n in numbers), strict=False))


def cpu_shares(before: dict[str, int], after: dict[str, int]) -> dict[str, float]:
    """Shares of the CPU time between two snapshots: busy (user, nice, system, irq, softirq),
    iowait, idle and steal (time the hypervisor gave to other guests)."""
    delta = {name: after.get(name, 0) - before.get(name, 0) for name in CPU_FIELDS}
    total = max(sum(delta.values()), 1)
    busy = sum(delta[n] for n in ("user", "nice", "system", "irq", "softirq"))
    shares = {"busy": busy, "iowait": delta["iowait"], "idle": delta["idle"]}
    shares["steal"] = delta["steal"]
    return {name: round(value / total, 3) for name, value in shares.items()}


def innodb_counters(server: RunningServer) -> dict[str, int]:
    """The InnoDB status counters in INNODB_COUNTERS, as numbers."""
    names = ", ".join(f"'{name}'" for name in INNODB_COUNTERS)
    text = server.query(f"SHOW GLOBAL STATUS WHERE Variable_name IN ({names})")
    return parse_status(text)


def parse_status(text: str) -> dict[str, int]:
    """SHOW STATUS batch output (name TAB value per line; a header line first) as numbers."""
    counters = {}
    for line in text.splitlines():
        name, _, value = line.partition("\t")
        if name in INNODB_COUNTERS and value.strip().isdigit():
            counters[name] = int(value)
    return counters


def per_transaction(
    before: dict[str, int], after: dict[str, int], transactions: float
) -> dict[str, float]:
    """Each counter's increase over the run per transaction, under its short name."""
    count = max(transactions, 1.0)
    return {
        short: round((after.get(name, 0) - before.get(name, 0)) / count, 2)
        for name, short in INNODB_COUNTERS.items()
    }


@dataclass(frozen=True)
class Measured:
    """One sysbench run with the machine's CPU shares and InnoDB's counters around it."""

    output: str
    cpu: dict[str, float]
    before: dict[str, int]
    after: dict[str, int]


def measured_run(server: RunningServer, table_size: int, *options: str, test: str) -> Measured:
    """sysbench `test` (its `run`) between two snapshots of /proc/stat and InnoDB's counters."""
    before, times = innodb_counters(server), cpu_times()
    output = sysbench(server, "run", table_size, *options, test=test)
    cpu = cpu_shares(times, cpu_times())
    return Measured(output, cpu, before, innodb_counters(server))


def describe_shares(cpu: dict[str, float]) -> str:
    return ", ".join(f"{name} {share:.0%}" for name, share in cpu.items())


def parse_sysbench(output: str) -> tuple[float, float, int]:
    """(transactions/s, 95th percentile latency in ms, ignored errors) of a sysbench run."""
    tps = re.search(r"transactions:\s+\d+\s+\(([\d.]+) per sec\.\)", output)
    p95 = re.search(r"95th percentile:\s+([\d.]+)", output)
    errors = re.search(r"ignored errors:\s+(\d+)", output)
    if tps is None or p95 is None:
        raise RuntimeError(f"cannot find transactions/s in sysbench's output:\n{output}")
    return float(tps.group(1)), float(p95.group(1)), int(errors.group(1)) if errors else 0


def data_bytes(server: RunningServer) -> tuple[int, int]:
    """(data + index bytes InnoDB reports, bytes the sbtest directory takes on disk)."""
    sql = (
        "SELECT SUM(data_length + index_length) FROM information_schema.tables "
        "WHERE table_schema = 'sbtest'"
    )
    reported = int(server.query(sql).strip())
    on_disk = sum(f.stat().st_size for f in (server.datadir / "sbtest").iterdir())
    return reported, on_disk


def prepare(top: Path, table_size: int) -> tuple[Path, int, int]:
    """Load the data once with a defaults server; returns (its datadir, reported, on-disk).

    The server's temp dir is kept: its datadir is the template every run copies.
    """
    with running_server("", parent=top, keep=True) as server:
        server.query("CREATE DATABASE sbtest")
        threads = str(min(TABLES, max(2, cpu_cores())))
        sysbench(server, "prepare", table_size, f"--threads={threads}")
        reported, on_disk = data_bytes(server)
    return server.datadir, reported, on_disk


@dataclass(frozen=True)
class PointSelects:
    """The cached point-select run that measures this machine's CPU (hardware.measured_cpu)."""

    qps: float
    cpu: dict[str, float]  # the machine's CPU shares during the run (cpu_shares)
    page_reads: float  # InnoDB's page reads per query: about 0 when the data is cached


def point_selects(
    prepared: Path, args: argparse.Namespace, top: Path, data_bytes: int
) -> PointSelects:
    """sysbench oltp_point_select at the run's threads, every page in a pool twice the data
    (one scan of each table's primary key loads it first): the CPU speed a user gives as
    hardware.measured_cpu."""
    table_size = table_size_for(args.size_gb)
    pool_mib = math.ceil(2 * data_bytes / MIB)
    mycnf = f"[mysqld]\ninnodb_buffer_pool_size={pool_mib}M\n"
    with running_server(mycnf, template_datadir=prepared, parent=top, keep=False) as server:
        read_into_pool(server)
        load = (f"--threads={args.threads}", "--report-interval=0")
        test = "oltp_point_select"
        sysbench(server, "run", table_size, *load, "--time=5", test=test)
        run = measured_run(server, table_size, *load, f"--time={POINT_SELECT_SECONDS}", test=test)
    queries = re.search(r"queries:\s+\d+\s+\(([\d.]+) per sec\.\)", run.output)
    if queries is None:
        raise RuntimeError(f"cannot find queries/s in sysbench's output:\n{run.output}")
    qps = float(queries.group(1))
    counts = per_transaction(run.before, run.after, qps * POINT_SELECT_SECONDS)
    return PointSelects(qps, run.cpu, counts["page_reads"])


def read_into_pool(server: RunningServer) -> None:
    """One scan of each table's primary key: every row page is then in the buffer pool."""
    for table in range(1, TABLES + 1):
        server.query(f"SELECT SUM(LENGTH(c)) FROM sbtest.sbtest{table} FORCE INDEX (PRIMARY)")


def median_qps(samples: Sequence[PointSelects]) -> float:
    """The measured_cpu rate: the median of the point-select runs (one before the rounds and
    one after each), as A's and B's rates are medians of their runs."""
    return statistics.median(sample.qps for sample in samples)


def print_point_selects(label: str, sample: PointSelects, threads: int) -> None:
    print(
        f"{label}, cached, {threads} threads, {POINT_SELECT_SECONDS} s: {sample.qps:,.0f}/s; "
        f"CPU {describe_shares(sample.cpu)}; {sample.page_reads:g} page reads a query"
    )


def one_run(config: str, mycnf: str, prepared: Path, args: argparse.Namespace, top: Path) -> Run:
    """Boot a copy of the prepared data under `mycnf`, warm up, then measure one run."""
    table_size = table_size_for(args.size_gb)
    start = time.monotonic()
    with running_server(mycnf, template_datadir=prepared, parent=top, keep=args.keep) as server:
        load = (f"--threads={args.threads}", "--report-interval=0")
        if args.warmup > 0:
            sysbench(server, "run", table_size, *load, f"--time={args.warmup}")
        run = measured_run(server, table_size, *load, f"--time={args.time}", test=TEST)
    tps, p95, errors = parse_sysbench(run.output)
    counts = per_transaction(run.before, run.after, tps * args.time)
    wall = time.monotonic() - start
    boot = round(server.boot_seconds, 2)
    return Run(config, tps, p95, errors, boot, round(wall, 1), run.cpu, counts)


def table_size_for(size_gb: float) -> int:
    """Rows per table so that the 8 tables take about `size_gb` GiB on disk."""
    return max(1000, round(size_gb * ROWS_PER_GIB / TABLES))


# --------------------------------------------------------------------------- report


def inside(value: float, low: float, high: float) -> str:
    return "inside" if low <= value <= high else "OUTSIDE"


def describe(estimate: Estimate) -> str:
    domain = "" if estimate.in_domain else ", outside the model's data"
    return (
        f"{estimate.low:g}..{estimate.high:g} {estimate.unit} (80%), "
        f"bottleneck {estimate.bottleneck}{domain}"
    )


def print_changes(advice: Result) -> list[str]:
    """The settings our my.cnf changes from the defaults, with the estimator's effect of each
    alone; returns the printed lines."""
    lines = []
    for s in advice.settings:
        if s.change is not None and s.change.value == "keep":
            continue
        effect = f" (effect {s.effect.low_pct:g}..{s.effect.high_pct:g}%)" if s.effect else ""
        lines.append(f"{s.name}: {s.current or 'server default'} -> {s.value}{effect}")
    print("our my.cnf changes from the defaults:\n  " + "\n  ".join(lines))
    return lines


def print_run(number: int, run: Run) -> None:
    name = "defaults" if run.config == "A" else "our my.cnf"
    print(
        f"  round {number} {run.config} ({name}): {run.tps:.1f} tps, p95 {run.p95_ms:g} ms, "
        f"{run.errors} ignored errors; booted in {run.boot_s:g} s, {run.wall_s:.0f} s in all"
    )
    counts = ", ".join(f"{name} {value:g}" for name, value in run.per_transaction.items())
    print(f"    CPU: {describe_shares(run.cpu)}; per transaction: {counts}")


def print_comparison(
    median_a: float, median_b: float, advice: Result, anchored: Estimate
) -> dict[str, Any]:
    """Print measured figures beside the estimates; returns the same as a dict."""
    cur, rec = both_estimates(advice)
    low, high, source = ratio_interval(advice)
    measured = median_b / median_a
    print(f"measured median: A {median_a:.1f} tps, B {median_b:.1f} tps; B/A = {measured:.2f}")
    print(f"estimate A (defaults):  {describe(cur)}")
    print(f"estimate B (our my.cnf): {describe(rec)}")
    print(f"estimate B/A ({source}): {low:.2f}..{high:.2f}")
    print(f"  A {median_a:.1f} is {inside(median_a, cur.low, cur.high)} its interval")
    print(f"  B {median_b:.1f} is {inside(median_b, rec.low, rec.high)} its interval")
    print(f"  B/A {measured:.2f} is {inside(measured, low, high)} its interval")
    told = f"told A's {median_a:.1f} tps (workload.measured_throughput)"
    print(f"estimate B {told}: {describe(anchored)}")
    print(f"  B {median_b:.1f} is {inside(median_b, anchored.low, anchored.high)} its interval")
    width = high / low
    print(f"  ratio interval high/low = {width:.2f}: {'<= 2' if width <= 2 else '> 2'}")
    outside = print_outside(advice)
    return {
        "median_tps": {"A": median_a, "B": median_b},
        "measured_ratio": measured,
        "estimate": {"A": asdict(cur), "B": asdict(rec), "B_anchored_on_A": asdict(anchored)},
        "ratio_interval": {"low": low, "high": high, "source": source, "outside": outside},
        "inside": {
            "A": cur.low <= median_a <= cur.high,
            "B": rec.low <= median_b <= rec.high,
            "ratio": low <= measured <= high,
            "B_anchored_on_A": anchored.low <= median_b <= anchored.high,
        },
        "ratio_interval_width": width,
    }


def print_outside(advice: Result) -> list[str]:
    """Whether this machine and load lie inside the published data and, where not, why
    (Estimate.outside): outside, every interval above is widened. Returns the reasons."""
    gain = advice.estimate.gain if advice.estimate is not None else None
    if gain is None or gain.in_domain:
        print("  inside the published data: the intervals are not widened")
        return []
    print("  outside the published data, so the intervals are widened:")
    for reason in gain.outside:
        print(f"    {reason}")
    return list(gain.outside)


def print_without_measured_cpu(profile: dict[str, Any]) -> dict[str, Any]:
    """The same estimates with the CPU's speed left to the model (no hardware.measured_cpu):
    what a profile that says nothing of the CPU gets."""
    hardware = {k: v for k, v in profile["hardware"].items() if k != "measured_cpu"}
    _, against_defaults = advise({**profile, "hardware": hardware})
    cur, rec = both_estimates(against_defaults)
    low, high, _ = ratio_interval(against_defaults)
    print(f"without measured_cpu: A {describe(cur)}")
    print(f"                      B {describe(rec)}; B/A {low:.2f}..{high:.2f}")
    return {"A": asdict(cur), "B": asdict(rec), "ratio_interval": {"low": low, "high": high}}


def log_tail(text: str) -> str:
    return "\n".join(text.splitlines()[-LOG_TAIL_LINES:])


# --------------------------------------------------------------------------- main


def measure(args: argparse.Namespace, top: Path, timings: Timings) -> dict[str, Any]:
    """Every step in order; returns the figures for --json."""
    with timings.phase("fio"):
        iops = measure_disk(top)
    print(f"fio 16 KiB, direct, depth {FIO_IODEPTH}, {FIO_SECONDS} s each: {iops}")

    table_size = table_size_for(args.size_gb)
    with timings.phase("prepare"):
        prepared, reported, on_disk = prepare(top, table_size)
    data_gb = round(reported / GIB, 2)
    print(
        f"data: {TABLES} tables x {table_size:,} rows; InnoDB reports {reported / GIB:.2f} GiB, "
        f"files take {on_disk / GIB:.2f} GiB"
    )

    with timings.phase("point selects"):
        samples = [point_selects(prepared, args, top, reported)]
    print_point_selects("point selects", samples[0], args.threads)
    profile = machine_profile(iops, data_gb, args.threads, samples[0].qps)
    mycnf = render(advise(profile)[0], "mycnf")

    runs: list[Run] = []
    for number in range(1, args.runs + 1):
        for config, text in (("A", ""), ("B", mycnf)):
            with timings.phase(f"runs {config}"):
                runs.append(one_run(config, text, prepared, args, top))
            print_run(number, runs[-1])
        with timings.phase("point selects"):
            samples.append(point_selects(prepared, args, top, reported))
        print_point_selects(f"  round {number} point selects", samples[-1], args.threads)
    qps = median_qps(samples)
    print(f"point selects, median of {len(samples)}: {qps:,.0f}/s (the profile's measured_cpu)")
    profile = machine_profile(iops, data_gb, args.threads, qps)
    ours, against_defaults = advise(profile)
    if render(ours, "mycnf") != mycnf:
        print("note: under the median the advice differs from the my.cnf B ran (advised first)")
    print("profile:", json.dumps(profile))
    changes = print_changes(against_defaults)
    median_a = statistics.median(r.tps for r in runs if r.config == "A")
    median_b = statistics.median(r.tps for r in runs if r.config == "B")
    anchored = anchored_on(profile, median_a)
    comparison = print_comparison(median_a, median_b, against_defaults, anchored)
    unmeasured = print_without_measured_cpu(profile)
    return {
        "fio_iops": iops,
        "point_selects": [asdict(sample) for sample in samples],
        "point_select_qps": qps,
        "without_measured_cpu": unmeasured,
        "table_size": table_size,
        "data_bytes": {"innodb": reported, "files": on_disk},
        "profile": profile,
        "mycnf": mycnf,
        "changes": changes,
        "runs": [asdict(r) for r in runs],
        **comparison,
    }


def run(args: argparse.Namespace) -> int:
    started = time.monotonic()
    timings = Timings()
    check_tools()
    args.dir.mkdir(parents=True, exist_ok=True)
    need = space_needed_gib(args.size_gb, ram_gb(), args.runs, args.keep)
    print("disk:", check_disk(args.dir, need))
    top = Path(tempfile.mkdtemp(prefix="real-gain-", dir=args.dir))
    try:
        figures = measure(args, top, timings)
    finally:
        if args.keep:
            print(f"kept {top}")
        else:
            shutil.rmtree(top, ignore_errors=True)
    timings.phases["total"] = time.monotonic() - started
    print("timings:", ", ".join(f"{k} {v:.0f} s" for k, v in timings.phases.items()))
    if args.json is not None:
        figures["timings_s"] = timings.phases
        figures["options"] = {k: str(v) for k, v in vars(args).items()}
        args.json.write_text(json.dumps(figures, indent=1) + "\n", encoding="utf-8")
        print(f"wrote {args.json}")
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    args = parse_args(argv)
    try:
        return run(args)
    except CannotRun as problem:
        print(f"real_gain: cannot run here: {problem}", file=sys.stderr)
        return EXIT_CANNOT_RUN
    except ServerStartError as refused:
        print(f"real_gain: mariadbd refused to start: {refused}", file=sys.stderr)
        print(log_tail(refused.error_log), file=sys.stderr)
        return EXIT_SERVER_REFUSED


if __name__ == "__main__":
    sys.exit(main())
