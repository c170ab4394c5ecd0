"""What a few clients wait for on THIS machine: the commit's cost beside the model's price of it.

benchmarks/real_gain.py found this project's 2-vCPU host running our my.cnf at 2 clients at a
third of the estimate, with a third of its CPU idle, while at 4 to 16 clients it fell inside.
This script asks why. On cached data (a pool twice the data, so no page is read) under our
my.cnf for this machine as fio measures it, it runs sysbench at 1, 2 and 4 threads (by default):
oltp_read_write as advised, the same with innodb_flush_log_at_trx_commit=2 (the commit writes
the redo log but does not sync it), oltp_read_only (no commit work at all) and
oltp_point_select, each after a warm-up, with the machine's CPU shares. It prints, per thread
count, what the commit's sync cost each client per transaction (threads / tps at 1 less the
same at 2) beside what the model charges a commit's wait (calibration.model.commit_flushes over
the storage model's syncs per second). It measures; it asserts nothing. About 10 minutes.

Needs Debian's `sysbench` and `fio` and MariaDB's server binaries, as real_gain does.
"""

from __future__ import annotations

import argparse
import math
import re
import shutil
import sys
import tempfile
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from benchmarks.real_gain import (
    EXIT_CANNOT_RUN,
    GIB,
    MIB,
    CannotRun,
    advise,
    check_tools,
    cpu_cores,
    describe_shares,
    machine_profile,
    measure_disk,
    measured_run,
    parse_sysbench,
    prepare,
    read_into_pool,
    sysbench,
    table_size_for,
)
from calibration.model import commit_flushes
from lab.mariadb_server import running_server
from rules.inputs.validation import parse_profile
from rules.machine.storage import array_capability
from rules.render import render

TESTS = (  # label, sysbench test, lines added to our my.cnf
    ("advised", "oltp_read_write", ""),
    ("trx_commit=2", "oltp_read_write", "[mysqld]\ninnodb_flush_log_at_trx_commit=2\n"),
    ("read only", "oltp_read_only", ""),
    ("point selects", "oltp_point_select", ""),
)
WARMUP_SECONDS = 5


@dataclass(frozen=True)
class Sample:
    label: str
    threads: int
    tps: float
    qps: float
    mean_ms: float
    cpu: dict[str, float]


def parse_args(argv: Sequence[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--threads", type=int, nargs="+", default=[1, 2, 4])
    parser.add_argument("--time", type=int, default=30, help="seconds measured per run [30]")
    parser.add_argument("--size-gb", type=float, default=0.5, help="data size in GiB [0.5]")
    parser.add_argument("--dir", type=Path, default=Path("/var/tmp"), help="disk to use")
    return parser.parse_args(argv)


def one_sample(
    label: str,
    test: str,
    mycnf: str,
    prepared: Path,
    top: Path,
    threads: int,
    args: argparse.Namespace,
) -> Sample:
    """Boot a copy of the data under `mycnf`, read every table once, warm up, measure."""
    table_size = table_size_for(args.size_gb)
    with running_server(mycnf, template_datadir=prepared, parent=top, keep=False) as server:
        read_into_pool(server)
        load = (f"--threads={threads}", "--report-interval=0")
        sysbench(server, "run", table_size, *load, f"--time={WARMUP_SECONDS}", test=test)
        run = measured_run(server, table_size, *load, f"--time={args.time}", test=test)
    return Sample(
        label,
        threads,
        parse_sysbench(run.output)[0],
        _figure(r"queries:\s+\d+\s+\(([\d.]+) per sec\.\)", run.output),
        _figure(r"avg:\s+([\d.]+)", run.output),
        run.cpu,
    )


def _figure(pattern: str, output: str) -> float:
    found = re.search(pattern, output)
    if found is None:
        raise RuntimeError(f"cannot find {pattern!r} in sysbench's output:\n{output}")
    return float(found.group(1))


def commit_cost_ms(advised: Sample, relaxed: Sample) -> float:
    """What the commit's sync cost one client per transaction: each client's cycle at
    trx_commit=1 less its cycle at 2 (Little's law: a cycle is threads / tps)."""
    return (advised.threads / advised.tps - relaxed.threads / relaxed.tps) * 1000.0


def run(args: argparse.Namespace) -> int:
    check_tools()
    top = Path(tempfile.mkdtemp(prefix="few-clients-", dir=args.dir))
    try:
        iops = measure_disk(top)
        prepared, reported, _ = prepare(top, table_size_for(args.size_gb))
        cores = cpu_cores()
        profile = machine_profile(iops, round(reported / GIB, 2), cores)
        ours = advise(profile)[0]
        pool_mib = math.ceil(2 * reported / MIB)
        mycnf = render(ours, "mycnf") + f"\n[mysqld]\ninnodb_buffer_pool_size={pool_mib}M\n"
        fsync_per_s = array_capability(parse_profile(profile).hardware.storage).fsync_per_s
        print(f"fio: {iops}; data {reported / GIB:.2f} GiB, cached; {cores} cores")
        for threads in args.threads:
            samples = {}
            for label, test, extra in TESTS:
                sample = one_sample(label, test, mycnf + extra, prepared, top, threads, args)
                samples[label] = sample
                print(
                    f"{threads:3} threads  {label:14} {test:18} {sample.tps:10,.1f} tps "
                    f"{sample.qps:10,.1f} qps, mean {sample.mean_ms:.2f} ms; "
                    f"CPU {describe_shares(sample.cpu)}"
                )
            measured = commit_cost_ms(samples["advised"], samples["trx_commit=2"])
            priced = float(commit_flushes(threads)) / fsync_per_s * 1000.0
            print(
                f"{threads:3} threads  the commit's sync cost each client {measured:.2f} ms a "
                f"transaction; the model charges {priced:.3f} ms ({fsync_per_s:,.0f} syncs/s)"
            )
    finally:
        shutil.rmtree(top, ignore_errors=True)
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    try:
        return run(parse_args(argv))
    except CannotRun as problem:
        print(f"few_clients: cannot run here: {problem}", file=sys.stderr)
        return EXIT_CANNOT_RUN


if __name__ == "__main__":
    sys.exit(main())
