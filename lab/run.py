"""A lab run: throwaway MariaDB servers under chosen configurations, sysbench A/B/A/B, records.

Safety, in order: the lab never connects to a server it did not start (each server listens on
a private socket in a fresh directory and on a free port of 127.0.0.1, and is asked for its
datadir and port before any load); it refuses a --datadir that exists; it removes every
server, directory and cgroup it made, also on SIGINT, SIGTERM and SIGHUP. A configuration's
text may not set the plumbing (datadir, socket, port...): lab.mariadb_server refuses it.

Each measured run boots a copy of data prepared once per table size, so every run starts from
the same pages; it warms up, then measures with one figure a second. One JSON line per run
(lab.record) holds every input a calibration point needs.
"""

from __future__ import annotations

import contextlib
import shutil
import signal
import socket
import tempfile
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from types import FrameType
from typing import Any, TextIO

from lab import cgroups, host, record, sysbench
from lab.mariadb_server import (
    RunningServer,
    binaries_available,
    make_template_datadir,
    mariadbd_version,
    remove_template_datadir,
    running_server,
)

TOOLS = {"sysbench": "sysbench"}  # command -> Debian package
SYSTEM_PORT = 3306  # the port a system server listens on: never the lab's
# The server variables a calibration point reads (calibration.points.Point), read back from
# each lab server after its run: what it really ran with, not what the my.cnf asked.
VARIABLES = (
    "version",
    "version_comment",
    "innodb_buffer_pool_size",
    "innodb_flush_log_at_trx_commit",
    "innodb_flush_method",
    "innodb_max_dirty_pages_pct",
    "innodb_io_capacity",
    "innodb_io_capacity_max",
    "innodb_log_file_size",
    "innodb_doublewrite",
    "innodb_flush_neighbors",
    "innodb_change_buffering",
    "innodb_random_read_ahead",
    "innodb_read_ahead_threshold",
    "log_bin",
    "sync_binlog",
)

Progress = Callable[[str], None]


class CannotRun(RuntimeError):
    """Something the lab will not or cannot do here; the message says what and why."""


class Interrupted(RuntimeError):
    """A signal asked the lab to stop; everything it made is removed on the way out."""


@dataclass(frozen=True)
class Config:
    """One configuration under test: a name (A, B, ...) and its my.cnf text."""

    name: str
    mycnf: str


@dataclass(frozen=True)
class Plan:
    """Everything a lab run does, decided before it starts."""

    tests: tuple[str, ...]
    threads: tuple[int, ...]
    table_sizes: tuple[int, ...]
    configs: tuple[Config, ...]
    tables: int = 1
    rounds: int = 2  # A/B/A/B: every configuration runs once per round, in turn
    seconds: int = 60
    warmup: int = 10
    limits: cgroups.Limits = field(default_factory=cgroups.Limits)
    allow_unlimited: bool = False
    parent: Path = Path("/var/tmp")  # on the filesystem under test
    datadir: Path | None = None  # the lab's own directory; must not exist
    keep: bool = False

    def runs(self) -> int:
        per_load = self.rounds * len(self.configs)
        return len(self.tests) * len(self.threads) * len(self.table_sizes) * per_load


def check_tools() -> None:
    missing = sorted({pkg for cmd, pkg in TOOLS.items() if shutil.which(cmd) is None})
    if missing:
        raise CannotRun(f"missing: apt-get update && apt-get install -y {' '.join(missing)}")
    if not binaries_available():
        raise CannotRun("MariaDB server binaries missing: apt-get install -y mariadb-server")


def free_port() -> int:
    """A port of 127.0.0.1 nobody listens on now (the kernel's choice), never 3306."""
    while True:
        with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as probe:
            probe.bind(("127.0.0.1", 0))
            port = int(probe.getsockname()[1])
        if port != SYSTEM_PORT:
            return port


def check_ours(server: RunningServer) -> None:
    """Refuse to load a server whose datadir and port are not the ones this lab gave it."""
    datadir, port = server.query("SELECT @@datadir, @@port").strip().split("\t")
    if Path(datadir).resolve() != server.datadir.resolve() or int(port) != server.port:
        raise CannotRun(
            f"the server at {server.socket} reports datadir {datadir} and port {port}, not "
            f"the lab's {server.datadir} and {server.port}: refusing to touch it"
        )


def read_variables(server: RunningServer) -> dict[str, str]:
    names = ", ".join(f"'{name}'" for name in VARIABLES)
    text = server.query(f"SHOW GLOBAL VARIABLES WHERE Variable_name IN ({names})")
    return dict(line.split("\t", 1) for line in text.splitlines() if "\t" in line)


def data_bytes(server: RunningServer) -> dict[str, int]:
    sql = (
        "SELECT COALESCE(SUM(data_length + index_length), 0) FROM information_schema.tables "
        "WHERE table_schema = 'sbtest'"
    )
    files = sum(f.stat().st_size for f in (server.datadir / "sbtest").iterdir())
    return {"innodb": int(server.query(sql).strip()), "files": files}


@contextlib.contextmanager
def signals_raise() -> Iterator[None]:
    """SIGTERM and SIGHUP raise Interrupted (SIGINT raises KeyboardInterrupt already), so every
    `finally` on the way out stops the servers and removes what the lab made."""

    def stop(number: int, _frame: FrameType | None) -> None:
        raise Interrupted(f"stopped by signal {signal.Signals(number).name}")

    before = {sig: signal.signal(sig, stop) for sig in (signal.SIGTERM, signal.SIGHUP)}
    try:
        yield
    finally:
        for sig, handler in before.items():
            signal.signal(sig, handler)


@contextlib.contextmanager
def lab_directory(plan: Plan) -> Iterator[Path]:
    """The lab's own directory on the filesystem under test, removed at the end (--keep
    leaves it). An existing --datadir is refused: the lab never touches one."""
    if plan.datadir is not None:
        if plan.datadir.exists() or plan.datadir.is_symlink():
            raise CannotRun(f"{plan.datadir} exists: the lab only uses a directory it creates")
        plan.datadir.mkdir(parents=False)
        top = plan.datadir
    else:
        if not plan.parent.is_dir():
            raise CannotRun(f"{plan.parent} is not a directory")
        top = Path(tempfile.mkdtemp(prefix="ia-lab-", dir=plan.parent))
    try:
        yield top
    finally:
        if not plan.keep:
            shutil.rmtree(top, ignore_errors=True)


@dataclass
class Emulation:
    """The limits asked, whether this machine applies them, and why not where it does not."""

    limits: cgroups.Limits
    version: int
    refused: str | None = None

    @contextlib.contextmanager
    def group(self, where: Path) -> Iterator[cgroups.Cgroup | None]:
        """A fresh group for one server (page cache charged by an earlier server must not
        count against the next), removed when the server has stopped."""
        if not self.limits.any or self.refused is not None:
            yield None
            return
        made = cgroups.create(self.limits, where)
        try:
            yield made
        finally:
            made.remove()

    def describe(self, made: cgroups.Cgroup | None) -> dict[str, Any]:
        return {
            "asked": record.plain(self.limits),
            "applied": made is not None,
            "refused": self.refused,
            "cgroup": made.describe() if made is not None else None,
            "not_reproduced": cgroups.not_reproduced(self.limits, self.version)
            if made is not None
            else [],
        }


def emulation_for(plan: Plan, top: Path) -> Emulation:
    """Try the limits once before any work: refuse, or go on unlimited with --allow-unlimited."""
    emulation = Emulation(plan.limits, cgroups.cgroup_version())
    if not plan.limits.any:
        return emulation
    try:
        cgroups.create(plan.limits, top).remove()
    except cgroups.CgroupRefused as refused:
        if not plan.allow_unlimited:
            raise CannotRun(f"cannot emulate {plan.limits.label()}: {refused}") from refused
        emulation.refused = str(refused)
    return emulation


def prepare(template: Path, top: Path, load: sysbench.Load, progress: Progress) -> Path:
    """Load sysbench's tables once with a defaults server; its datadir is every run's copy."""
    progress(f"preparing {load.tables} table(s) x {load.table_size:,} rows")
    with running_server(
        "", template_datadir=template, parent=top, keep=True, port=free_port()
    ) as server:
        check_ours(server)
        server.query("CREATE DATABASE sbtest")
        prepare_load = sysbench.Load("oltp_read_write", load.tables, load.tables, load.table_size)
        sysbench.run(prepare_load.command(server.socket, "prepare"))
    return server.datadir


@dataclass
class Session:
    """What one lab invocation shares between its runs."""

    plan: Plan
    top: Path
    emulation: Emulation
    out: TextIO
    progress: Progress
    host_facts: dict[str, Any] | None = None
    records: list[dict[str, Any]] = field(default_factory=list)


def measure(
    session: Session, prepared: Path, load: sysbench.Load, config: Config, order: dict[str, int]
) -> dict[str, Any]:
    """Boot a copy of the prepared data under `config` (in a fresh cgroup), warm up, measure."""
    plan = session.plan
    started = time.time()
    with (
        session.emulation.group(session.top) as made,
        running_server(
            config.mycnf,
            template_datadir=prepared,
            parent=session.top,
            port=free_port(),
            before_exec=made.join if made is not None else None,
        ) as server,
    ):
        check_ours(server)
        if made is not None and not made.holds(server.pid):
            raise CannotRun(f"mariadbd {server.pid} is not in its cgroup {made.directories}")
        if session.host_facts is None:
            session.progress("reading the host with the probe")
            session.host_facts = host.describe(server.socket, server.datadir)
        warmup = load.command(server.socket, "run", f"--time={plan.warmup}")
        if plan.warmup > 0:
            sysbench.run(warmup)
        command = load.command(
            server.socket, "run", f"--time={plan.seconds}", "--report-interval=1"
        )
        figures = sysbench.parse(sysbench.run(command))
        facts = record.ServerFacts(
            version=mariadbd_version(),
            mycnf=server.mycnf.read_text(encoding="utf-8"),
            config_mycnf=config.mycnf,
            variables=read_variables(server),
            boot_s=round(server.boot_seconds, 2),
            data=data_bytes(server),
        )
        limits = session.emulation.describe(made)
    return record.build(
        plan=plan,
        load=load,
        config=config.name,
        order=order,
        host=session.host_facts,
        limits=limits,
        server=facts,
        commands=(warmup if plan.warmup > 0 else None, command),
        figures=figures,
        started=started,
    )


def run(plan: Plan, out: TextIO, progress: Progress) -> list[dict[str, Any]]:
    """Every run of the plan, each record written to `out` as one JSON line when it ends."""
    check_tools()
    unknown = sorted(set(plan.tests) - set(sysbench.TESTS))
    if unknown:
        raise CannotRun(f"unknown test(s) {unknown}; the lab runs {sorted(sysbench.TESTS)}")
    with signals_raise(), lab_directory(plan) as top:
        emulation = emulation_for(plan, top)
        if emulation.refused:
            progress(f"running UNLIMITED (--allow-unlimited): {emulation.refused}")
        session = Session(plan, top, emulation, out, progress)
        template = make_template_datadir(top)
        try:
            done = 0
            for table_size in plan.table_sizes:
                base = sysbench.Load("oltp_read_write", 1, plan.tables, table_size)
                prepared = prepare(template, top, base, progress)
                for test in plan.tests:
                    for threads in plan.threads:
                        load = sysbench.Load(test, threads, plan.tables, table_size)
                        for round_number in range(1, plan.rounds + 1):
                            for position, config in enumerate(plan.configs):
                                done += 1
                                progress(
                                    f"[{done}/{plan.runs()}] {test}, {threads} thread(s), "
                                    f"{table_size:,} rows, round {round_number} {config.name}: "
                                    f"warm-up {plan.warmup} s, run {plan.seconds} s"
                                )
                                order = {"round": round_number, "position": position + 1}
                                line = measure(session, prepared, load, config, order)
                                out.write(record.dumps(line) + "\n")
                                out.flush()
                                session.records.append(line)
                                progress(f"  {record.summary(line)}")
                shutil.rmtree(prepared.parent, ignore_errors=True)
        finally:
            remove_template_datadir(template)
    return session.records
