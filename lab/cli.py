"""The lab's command line, shared by `python -m lab` (a checkout on the probe's host, no Django)
and `manage.py lab` (advisor/management/commands/lab.py adds the same arguments)."""

from __future__ import annotations

import argparse
import re
import sys
from pathlib import Path
from typing import TextIO

from lab import cgroups, fio, record, sysbench, to_csv
from lab.mariadb_server import ServerStartError
from lab.run import CannotRun, Config, Interrupted, Plan, run

EXIT_CANNOT_RUN = 2
EXIT_SERVER_REFUSED = 1
MIB = 1024**2
# Emulated devices. "two-spindle": two 7,200 rpm disks' random rate, as issue #43 sets it;
# "gp3": an EBS gp3 volume's baseline, 3,000 IOPS and 125 MiB/s ("gp3 volumes deliver a
# consistent baseline IOPS performance of 3,000 IOPS ... and 125 MiB/s",
# https://docs.aws.amazon.com/ebs/latest/userguide/general-purpose.html).
MACHINES = {
    "two-spindle": cgroups.Limits(read_iops=300, write_iops=300),
    "gp3": cgroups.Limits(read_iops=3000, write_iops=3000, read_bps=125 * MIB, write_bps=125 * MIB),
}
_SIZE = re.compile(r"^(\d+)([kmgt]?)$", re.IGNORECASE)


def size(text: str) -> int:
    """A byte count with an optional K/M/G/T suffix (powers of 1024), as my.cnf writes them."""
    found = _SIZE.match(text.strip())
    if found is None:
        raise argparse.ArgumentTypeError(f"{text!r}: a whole number with K, M, G or T")
    power = " kmgt".index(found.group(2).lower() or " ")
    return int(found.group(1)) * int(1024**power)


def config(text: str) -> Config:
    """NAME=FILE (the my.cnf text of FILE) or NAME= (the server's defaults)."""
    name, sep, path = text.partition("=")
    if not sep or not re.fullmatch(r"[A-Za-z0-9_-]{1,20}", name):
        raise argparse.ArgumentTypeError(f"{text!r}: NAME=FILE, or NAME= for the defaults")
    try:
        return Config(name, Path(path).read_text(encoding="utf-8") if path else "")
    except OSError as error:
        raise argparse.ArgumentTypeError(f"{path}: {error.strerror}") from error


def add_arguments(parser: argparse.ArgumentParser) -> None:
    load = parser.add_argument_group("the load")
    load.add_argument("--test", nargs="+", default=list(sysbench.TESTS), choices=sysbench.TESTS)
    load.add_argument("--threads", nargs="+", type=int, default=[1, 4, 16])
    load.add_argument("--table-size", nargs="+", type=int, default=[100_000], help="rows")
    load.add_argument("--tables", type=int, default=8)
    load.add_argument(
        "--config",
        action="append",
        type=config,
        metavar="NAME=FILE",
        help="a configuration (repeat: A/B/A/B); NAME= is the server's defaults [A=]",
    )
    load.add_argument("--rounds", type=int, default=2, help="A/B rounds [2]")
    load.add_argument("--time", type=int, default=60, help="seconds measured per run [60]")
    load.add_argument("--warmup", type=int, default=10, help="seconds of warm-up per run [10]")
    load.add_argument(
        "--fio",
        action="store_true",
        help="start no server: measure the emulated device with fio (random 16 KiB reads, "
        "then writes, --time seconds each) and write one JSON line",
    )
    place = parser.add_argument_group("where")
    place.add_argument("--dir", type=Path, default=Path("/var/tmp"), help="filesystem under test")
    place.add_argument("--datadir", type=Path, help="the lab's directory; must not exist")
    place.add_argument("--keep", action="store_true", help="keep the lab's directory")
    machine = parser.add_argument_group("emulated machine (cgroups)")
    machine.add_argument("--machine", choices=MACHINES, help="a preset device limit")
    machine.add_argument("--memory", type=size, help="memory limit, page cache included")
    machine.add_argument("--cpus", type=float, help="CPU time limit in cores")
    machine.add_argument("--cpuset", help="CPUs to run on, e.g. 0-1")
    for name in ("read-iops", "write-iops", "read-bps", "write-bps"):
        machine.add_argument(f"--{name}", type=size if "bps" in name else int)
    machine.add_argument(
        "--allow-unlimited",
        action="store_true",
        help="where the limits cannot be set, run unlimited (the records say why)",
    )
    out = parser.add_argument_group("output")
    out.add_argument("--out", type=Path, help="append the JSON lines here [stdout]")
    out.add_argument(
        "--to-csv",
        type=Path,
        metavar="JSONL",
        help="run nothing: print the records of JSONL as rows of calibration/data/benchmarks.csv",
    )


def limits_of(args: argparse.Namespace) -> cgroups.Limits:
    preset = MACHINES[args.machine] if args.machine else cgroups.Limits()
    return cgroups.Limits(
        memory_bytes=args.memory,
        cpus=args.cpus,
        cpuset=args.cpuset,
        read_iops=args.read_iops if args.read_iops is not None else preset.read_iops,
        write_iops=args.write_iops if args.write_iops is not None else preset.write_iops,
        read_bps=args.read_bps if args.read_bps is not None else preset.read_bps,
        write_bps=args.write_bps if args.write_bps is not None else preset.write_bps,
    )


def plan_of(args: argparse.Namespace) -> Plan:
    configs = tuple(args.config or [Config("A", "")])
    if len({c.name for c in configs}) != len(configs):
        raise CannotRun("two configurations share a name")
    return Plan(
        tests=tuple(args.test),
        threads=tuple(args.threads),
        table_sizes=tuple(args.table_size),
        configs=configs,
        tables=args.tables,
        rounds=args.rounds,
        seconds=args.time,
        warmup=args.warmup,
        limits=limits_of(args),
        allow_unlimited=args.allow_unlimited,
        parent=args.dir,
        datadir=args.datadir,
        keep=args.keep,
    )


def main(args: argparse.Namespace, stdout: TextIO, stderr: TextIO) -> int:
    def progress(line: str) -> None:
        print(f"lab: {line}", file=stderr, flush=True)

    try:
        if args.to_csv is not None:
            to_csv.write(to_csv.read_records(args.to_csv), stdout, progress)
            return 0
        if args.fio:
            line = record.dumps(fio.measure(limits_of(args), args.dir, args.time, progress))
            if args.out is None:
                print(line, file=stdout)
            else:
                with args.out.open("a", encoding="utf-8") as out:
                    print(line, file=out)
            return 0
        plan = plan_of(args)
        if args.out is None:
            run(plan, stdout, progress)
        else:
            with args.out.open("a", encoding="utf-8") as out:
                run(plan, out, progress)
    except (CannotRun, Interrupted, fio.FioFailed, cgroups.CgroupRefused) as problem:
        progress(f"cannot run: {problem}")
        return EXIT_CANNOT_RUN
    except KeyboardInterrupt:
        progress("interrupted; everything the lab made is removed")
        return EXIT_CANNOT_RUN
    except ServerStartError as refused:
        progress(f"mariadbd refused to start: {refused}\n{refused.error_log[-3000:]}")
        return EXIT_SERVER_REFUSED
    return 0


def entry(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m lab", description=__doc__)
    add_arguments(parser)
    return main(parser.parse_args(argv), sys.stdout, sys.stderr)
