"""Boot a real, throwaway ``mariadbd`` from an exported my.cnf and read values back.

The product promises that a my.cnf we export starts a real server of that flavor and
version, and that the server reports the values we wrote.  This module is the harness
that checks it against the MariaDB installed on this machine (Debian's 10.11 packages:
``/usr/sbin/mariadbd``, ``/usr/bin/mariadb-install-db``).  It is plain standard library,
with no pytest or Django in it; ``conftest.py`` wraps it in fixtures.

How a boot works
----------------
1. A template datadir is made ONCE (``make_template_datadir``): ``mariadb-install-db
   --no-defaults --datadir=<tmp>/data --auth-root-authentication-method=normal
   --skip-test-db --skip-name-resolve`` (plus ``--user=root`` when running as root).
   ``--no-defaults`` keeps /etc/mysql/my.cnf (the system server's file) out of it.
   "normal" gives ``root@localhost`` with an empty password, so the client logs in as
   ``-uroot`` whatever the OS user is.  Takes about 0.6 s; the datadir is ~114 MB, most of
   it the default 96 MiB ``ib_logfile0``.
2. Every boot copies the template into a fresh ``/tmp/ia-XXXX/data`` (shutil.copytree,
   ~0.1 s), so boots are independent.  The directory lives directly under /tmp so the
   socket path stays far below the 107-byte limit of a unix socket path.
3. ``mariadbd --defaults-file=/tmp/ia-XXXX/my.cnf`` where that file is OUR text verbatim,
   then a harness-only group appended after it::

       [mysqld]
       datadir=/tmp/ia-XXXX/data
       socket=/tmp/ia-XXXX/mysqld.sock
       pid-file=/tmp/ia-XXXX/mysqld.pid
       log-error=/tmp/ia-XXXX/error.log
       skip-networking
       user=root                      (only when running as root)

   mariadbd reads option files top to bottom and the LAST setting of an option wins, so
   the harness block would silently override ours.  ``find_clashes`` therefore refuses
   (ValueError) any text whose server-read groups (``mysqld server mysqld-10.11 mariadb
   mariadb-10.11 mariadbd mariadbd-10.11 client-server galera``, as ``mariadbd --help
   --verbose`` lists them) set one of these options, also when spelled with dashes, a
   ``loose-``/``skip-``/``enable-``/``disable-`` prefix, or abbreviated: mariadbd accepts
   unambiguous prefixes (``datad=/x`` sets datadir).  ``!include``/``!includedir`` are
   refused too, as the harness cannot see what they would pull in.
   Deliberately NOT added: ``skip-log-bin`` (the binary log is off by default in MariaDB,
   and adding it would forbid exporting ``log_bin``), ``skip-grant-tables`` (a normal
   root login over the socket works), ``innodb_use_native_aio=0`` (io_uring works in this
   sandbox: the log says "InnoDB: Using io_uring").
4. Readiness: ``mariadb-admin --no-defaults --socket=... -uroot ping`` every 50 ms until it
   answers, the process exits (started=False, with the error log), or ``timeout_s``
   passes (the server is killed, started=False).
5. Values: ONE query ``SELECT @@global.a, @@global.b, ...`` through ``mariadb --no-defaults
   -N -B``.  If it fails (a variable that does not exist: ERROR 1193 "Unknown system
   variable"; a session-only one: ERROR 1238), each is read alone and
   ``VariableReadError`` names every variable that could not be read.
6. Shutdown: SQL ``SHUTDOWN`` (0.1 s; ``mariadb-admin shutdown`` polls the pid file and
   always takes 1 s), wait up to 60 s, then SIGTERM, then SIGKILL; the temp dir is removed
   in a ``finally``, whatever happened.

Benchmarks use ``running_server`` instead: the same copy, my.cnf and readiness steps, but
the server stays up for the body of a ``with`` block (its socket is given), the temp dir
may live on a chosen filesystem (``parent``), and may be kept afterwards (``keep``).

Measured here (2 idle cores, MariaDB 10.11.19), start to first answered ping / whole
``boot_and_read`` (copy, boot, read, shutdown, cleanup): defaults 0.2 s / 0.55 s;
``innodb_log_file_size=1G`` 0.2 s / 0.5 s; ``8G`` 0.2 s / 0.55 s; ``8G`` with
``innodb_buffer_pool_size=8G`` 0.3 s / 0.6 s; ``innodb_buffer_pool_size=16G`` 0.5-1.1 s /
1.2-1.7 s.  The redo log is resized at startup ("Resizing redo log from 96.000MiB to
8192.000MiB"); the file is allocated, not written, so size costs no time, but it does
take its 8 GiB of disk until the temp dir is removed.  Under load (other test runs on the
2 cores) everything is 2-4 times slower.

How mariadbd reports values through ``SELECT @@global.x``
---------------------------------------------------------
* sizes and integers: plain decimal bytes (``8G`` -> ``8589934592``, ``256M`` ->
  ``268435456``).  my.cnf accepts the suffixes K M G T P E, either case.
* booleans: ``1``/``0`` (SHOW VARIABLES would say ON/OFF).  my.cnf accepts ON/OFF,
  TRUE/FALSE, 1/0 in any case; anything else (YES, NO, 2) is NOT an error: the server
  logs "[Warning] option 'x': boolean value 'YES' wasn't recognized. Set to OFF." and
  starts with OFF.
* enums: the name, upper case as the server spells it (``O_DIRECT``, ``none``).
* doubles: six decimals (``innodb_max_dirty_pages_pct=80`` -> ``80.000000``).
* strings: as stored (``ibdata1:12M:autoextend``); SQL NULL comes back as the text
  ``NULL`` (the mariadb client's batch convention).  Tabs, newlines and backslashes in
  values are unescaped.
``same_value(written, reported)`` compares a my.cnf value with such a reported value.

What mariadbd does with bad values (10.11.19, checked here)
-----------------------------------------------------------
* An unknown variable (``innodb_no_such_thing=1``): refuses to start.  The error log
  says "[ERROR] /usr/sbin/mariadbd: unknown variable 'innodb_no_such_thing=1'" and
  "[ERROR] Aborting"; exit code 7.  (A ``loose-`` prefix would turn this into a warning.)
* An out-of-range integer (``innodb_io_capacity=50``, minimum 100): STARTS, clamps the
  value and logs "[Warning] option 'innodb-io-capacity': unsigned value 50 adjusted to
  100"; ``@@global.innodb_io_capacity`` is then 100.  So "it booted" is not enough: the
  read-back comparison is what catches a clamped value.
* A value the engine itself rejects after clamping (``innodb_buffer_pool_size=1k``: clamped
  to 2 MiB, then "InnoDB: innodb_page_size=16384 requires innodb_buffer_pool_size >= 6
  MiB") aborts the start.
* The same option twice: the last one wins, silently.
"""

from __future__ import annotations

import atexit
import contextlib
import functools
import os
import re
import shutil
import signal
import subprocess
import tempfile
import threading
import time
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from decimal import Decimal, InvalidOperation
from pathlib import Path

__all__ = [
    "HARNESS_OPTIONS",
    "BootResult",
    "RunningServer",
    "ServerStartError",
    "VariableReadError",
    "binaries_available",
    "boot_and_read",
    "find_clashes",
    "make_template_datadir",
    "mariadbd_version",
    "remove_template_datadir",
    "running_server",
    "same_value",
    "server_option_groups",
    "shared_template_datadir",
]

_SEARCH_PATH = os.pathsep.join([os.environ.get("PATH", ""), "/usr/sbin", "/usr/bin", "/sbin"])

#: Options the harness block sets; the exported text must set none of them.
HARNESS_OPTIONS: tuple[str, ...] = (
    "datadir",
    "socket",
    "pid_file",
    "log_error",
    "skip_networking",
    "user",
)

#: Options the harness block sets too when the server listens on a port.
NETWORK_OPTIONS: tuple[str, ...] = ("port", "bind_address")

_POLL_INTERVAL_S = 0.05
_CLIENT_TIMEOUT_S = 30.0
_SHUTDOWN_TIMEOUT_S = 60.0
_KILL_TIMEOUT_S = 10.0
_MAX_SOCKET_PATH = 107
_NAME_RE = re.compile(r"^[a-z0-9_]+$")
_BOOLEAN_PREFIXES = ("skip_", "enable_", "disable_")
_TRUE_WORDS = frozenset({"1", "on", "true"})
_FALSE_WORDS = frozenset({"0", "off", "false"})
_SIZE_RE = re.compile(r"^([+-]?\d+)([kmgtpe])$", re.IGNORECASE)
_SIZE_FACTORS = {s: 1024 ** (i + 1) for i, s in enumerate("kmgtpe")}


@dataclass(frozen=True)
class BootResult:
    """What one boot of a throwaway server gave."""

    started: bool
    error_log: str  # the server's error log text (for failure messages)
    values: dict[str, str]  # @@global values read back, keyed by variable name (lower case)
    boot_seconds: float = 0.0  # from process start to the first answered ping (or failure)


class VariableReadError(RuntimeError):
    """The server started, but some requested variables could not be read back."""

    def __init__(self, problems: dict[str, str], values: dict[str, str], error_log: str) -> None:
        self.problems = problems
        self.values = values
        self.error_log = error_log
        lines = [f"  {name}: {message}" for name, message in problems.items()]
        super().__init__("could not read back from mariadbd:\n" + "\n".join(lines))


class ServerStartError(RuntimeError):
    """mariadbd exited, or did not answer in time, before accepting connections."""

    def __init__(self, message: str, error_log: str) -> None:
        self.error_log = error_log
        super().__init__(message)


@dataclass(frozen=True)
class RunningServer:
    """A server ``running_server`` keeps up for the body of a ``with`` block."""

    work: Path  # the temp dir: data/, my.cnf, error.log, mysqld.sock
    socket: Path
    boot_seconds: float
    pid: int = 0  # mariadbd's process id
    port: int | None = None  # the TCP port on 127.0.0.1, or None: skip-networking

    @property
    def datadir(self) -> Path:
        return self.work / "data"

    @property
    def mycnf(self) -> Path:
        """The complete option file the server was started with (ours, then the harness's)."""
        return self.work / "my.cnf"

    def error_log(self) -> str:
        """The server's error log so far."""
        return _collect_log(self.work)

    def query(self, sql: str) -> str:
        """Run SQL as root over the socket; the batch output, or RuntimeError with stderr."""
        proc = _run_sql(self.socket, sql)
        if proc.returncode != 0:
            raise RuntimeError(f"{sql!r} failed: {proc.stderr.strip()}")
        return proc.stdout


# --------------------------------------------------------------------------- binaries


def _find_binary(name: str) -> str | None:
    return shutil.which(name, path=_SEARCH_PATH)


def _binary(name: str) -> str:
    path = _find_binary(name)
    if path is None:
        raise FileNotFoundError(f"{name} not found (looked in PATH, /usr/sbin, /usr/bin)")
    return path


def binaries_available() -> bool:
    """Whether mariadbd, mariadb-install-db, mariadb and mariadb-admin are all installed."""
    names = ("mariadbd", "mariadb-install-db", "mariadb", "mariadb-admin")
    return all(_find_binary(name) is not None for name in names)


@functools.cache
def mariadbd_version() -> str:
    """The installed server's version, e.g. ``"10.11.19"``."""
    out = subprocess.run(
        [_binary("mariadbd"), "--version"],
        capture_output=True,
        text=True,
        check=True,
        timeout=_CLIENT_TIMEOUT_S,
    ).stdout
    match = re.search(r"\bVer\s+(\d+\.\d+\.\d+)", out)
    if match is None:
        raise RuntimeError(f"cannot parse the mariadbd version from {out!r}")
    return match.group(1)


@functools.cache
def server_option_groups() -> tuple[str, ...]:
    """The my.cnf groups mariadbd reads, as its own ``--help --verbose`` lists them."""
    if _find_binary("mariadbd") is None:  # keeps find_clashes usable without a server
        return ("mysqld", "server", "mariadb", "mariadbd", "client-server", "galera")
    out = subprocess.run(
        [_binary("mariadbd"), "--no-defaults", "--help", "--verbose"],
        capture_output=True,
        text=True,
        check=False,
        timeout=_CLIENT_TIMEOUT_S,
    ).stdout
    match = re.search(r"^The following groups are read:(.*)$", out, re.MULTILINE)
    if match is not None and match.group(1).split():
        return tuple(group.lower() for group in match.group(1).split())
    series = ".".join(mariadbd_version().split(".")[:2])
    return (
        "mysqld",
        "server",
        f"mysqld-{series}",
        "mariadb",
        f"mariadb-{series}",
        "mariadbd",
        f"mariadbd-{series}",
        "client-server",
        "galera",
    )


# --------------------------------------------------------------------------- clash guard


def _normalise_option(name: str) -> str:
    return name.strip().lower().replace("-", "_")


def _spellings(option: str) -> set[str]:
    """An option name with and without the loose_/skip_/enable_/disable_ prefixes."""
    name = _normalise_option(option)
    if name.startswith("loose_"):
        name = name[len("loose_") :]
    names = {name}
    for prefix in _BOOLEAN_PREFIXES:
        if name.startswith(prefix) and len(name) > len(prefix):
            names.add(name[len(prefix) :])
    return names


def _clashes_with(text_option: str, harness_option: str) -> bool:
    """Same option, or an abbreviation mariadbd could resolve to the harness option."""
    ours = {name for name in _spellings(text_option) if name}
    theirs = _spellings(harness_option)
    return any(h.startswith(o) for o in ours for h in theirs)


def _iter_server_options(mycnf_text: str) -> Iterator[tuple[int, str, str]]:
    """(line number, group, option name) for each option in a group mariadbd reads."""
    groups = set(server_option_groups())
    group: str | None = None
    for number, raw in enumerate(mycnf_text.splitlines(), start=1):
        line = raw.strip()
        if not line or line[0] in "#;":
            continue
        if line.startswith("!"):
            raise ValueError(
                f"line {number}: {line!r}: the harness cannot check included files; "
                "export a self-contained my.cnf"
            )
        if line.startswith("["):
            group = line[1:].split("]", 1)[0].strip().lower()
            continue
        if group is None or group not in groups:
            continue
        yield number, group, line.split("=", 1)[0]


def find_clashes(mycnf_text: str, more: tuple[str, ...] = ()) -> list[str]:
    """Describe every option in the text that the harness block (with `more`) would override."""
    clashes: list[str] = []
    for number, group, option in _iter_server_options(mycnf_text):
        for harness_option in HARNESS_OPTIONS + more:
            if _clashes_with(option, harness_option):
                clashes.append(
                    f"line {number} [{group}] {option.strip()!r} "
                    f"would be overridden by the harness's {harness_option}"
                )
    return clashes


# --------------------------------------------------------------------------- datadirs


def _temp_parent() -> str | None:
    """/tmp when it exists: short enough for a unix socket path, whatever TMPDIR says."""
    return "/tmp" if os.path.isdir("/tmp") else None


def make_template_datadir(where: Path | None = None) -> Path:
    """Run mariadb-install-db into a new temp dir (under ``where``, else /tmp); returns its
    ``data`` subdirectory."""
    place = str(where) if where is not None else _temp_parent()
    parent = Path(tempfile.mkdtemp(prefix="ia-template-", dir=place))
    datadir = parent / "data"
    args = [
        _binary("mariadb-install-db"),
        "--no-defaults",
        f"--datadir={datadir}",
        "--auth-root-authentication-method=normal",
        "--skip-test-db",
        "--skip-name-resolve",
    ]
    if os.geteuid() == 0:
        args.append("--user=root")
    try:
        proc = subprocess.run(
            args,
            capture_output=True,
            text=True,
            check=False,
            timeout=300,
            stdin=subprocess.DEVNULL,
        )
    except BaseException:
        shutil.rmtree(parent, ignore_errors=True)
        raise
    if proc.returncode != 0:
        shutil.rmtree(parent, ignore_errors=True)
        raise RuntimeError(
            f"mariadb-install-db failed with exit code {proc.returncode}:\n"
            f"{proc.stdout}\n{proc.stderr}"
        )
    return datadir


def remove_template_datadir(datadir: Path) -> None:
    """Remove a datadir made by ``make_template_datadir`` (and its temp parent)."""
    parent = datadir.parent
    if parent.name.startswith("ia-template-"):
        shutil.rmtree(parent, ignore_errors=True)
    else:
        shutil.rmtree(datadir, ignore_errors=True)


_shared_lock = threading.Lock()
_shared_template: Path | None = None


def shared_template_datadir() -> Path:
    """A template datadir made once per process and removed when the process exits."""
    global _shared_template
    with _shared_lock:
        if _shared_template is None or not _shared_template.is_dir():
            _shared_template = make_template_datadir()
            atexit.register(remove_template_datadir, _shared_template)
        return _shared_template


# --------------------------------------------------------------------------- clients


def _client_args(socket_path: Path) -> list[str]:
    return ["--no-defaults", f"--socket={socket_path}", "--user=root", "--connect-timeout=5"]


def _run_sql(socket_path: Path, sql: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [_binary("mariadb"), *_client_args(socket_path), "-N", "-B", "-e", sql],
        capture_output=True,
        text=True,
        check=False,
        timeout=_CLIENT_TIMEOUT_S,
        stdin=subprocess.DEVNULL,
    )


def _ping(socket_path: Path) -> bool:
    try:
        proc = subprocess.run(
            [_binary("mariadb-admin"), *_client_args(socket_path), "ping"],
            capture_output=True,
            text=True,
            check=False,
            timeout=_CLIENT_TIMEOUT_S,
            stdin=subprocess.DEVNULL,
        )
    except subprocess.TimeoutExpired:
        return False
    return proc.returncode == 0


_BATCH_ESCAPES = {"n": "\n", "t": "\t", "0": "\0", "\\": "\\"}


def _unescape_batch(field: str) -> str:
    """Undo the escaping ``mariadb -B`` applies to tabs, newlines, NULs and backslashes."""
    return re.sub(r"\\(.)", lambda m: _BATCH_ESCAPES.get(m.group(1), m.group(0)), field)


def _select(names: list[str]) -> str:
    return "SELECT " + ", ".join(f"@@global.{name}" for name in names)


def _read_row(socket_path: Path, names: list[str]) -> tuple[dict[str, str] | None, str]:
    proc = _run_sql(socket_path, _select(names))
    if proc.returncode != 0:
        return None, (proc.stderr.strip() or f"exit code {proc.returncode}")
    line = proc.stdout[:-1] if proc.stdout.endswith("\n") else proc.stdout
    fields = line.split("\t")
    if len(fields) != len(names):
        return None, f"expected {len(names)} columns, got {proc.stdout!r}"
    return {name: _unescape_batch(f) for name, f in zip(names, fields, strict=True)}, ""


def _read_values(socket_path: Path, names: list[str]) -> tuple[dict[str, str], dict[str, str]]:
    """(values, problems): one query, or one query per variable when that fails."""
    if not names:
        return {}, {}
    row, _ = _read_row(socket_path, names)
    if row is not None:
        return row, {}
    values: dict[str, str] = {}
    problems: dict[str, str] = {}
    for name in names:
        single, message = _read_row(socket_path, [name])
        if single is None:
            problems[name] = message
        else:
            values.update(single)
    if not problems:  # the combined query failed for another reason; the singles worked
        return values, {}
    return values, problems


def _normalise_names(names: Iterable[str]) -> list[str]:
    out: list[str] = []
    for raw in names:
        name = _normalise_option(raw)
        if not _NAME_RE.match(name):
            raise ValueError(f"not a server variable name: {raw!r}")
        if name not in out:
            out.append(name)
    return out


# --------------------------------------------------------------------------- process


def _stop(proc: subprocess.Popen[bytes], socket_path: Path, *, polite: bool) -> None:
    """Shut the server down cleanly if possible, otherwise terminate, then kill."""
    if proc.poll() is not None:
        return
    if polite:
        try:
            asked = _run_sql(socket_path, "SHUTDOWN").returncode == 0
        except subprocess.TimeoutExpired:
            asked = False
        if asked:
            with contextlib.suppress(subprocess.TimeoutExpired):
                proc.wait(timeout=_SHUTDOWN_TIMEOUT_S)
                return
    with contextlib.suppress(ProcessLookupError):
        proc.send_signal(signal.SIGTERM)
    try:
        proc.wait(timeout=_KILL_TIMEOUT_S)
    except subprocess.TimeoutExpired:
        with contextlib.suppress(ProcessLookupError):
            proc.kill()
        proc.wait()


def _read_text(path: Path) -> str:
    try:
        return path.read_text(encoding="utf-8", errors="replace")
    except FileNotFoundError:
        return ""


def _collect_log(work: Path, note: str = "") -> str:
    text = _read_text(work / "error.log")
    stderr = _read_text(work / "mariadbd.out").strip()
    if stderr:
        text += f"\n--- mariadbd stdout/stderr ---\n{stderr}\n"
    if note:
        text += f"\n--- harness ---\n{note}\n"
    return text


def _harness_block(work: Path, port: int | None = None) -> str:
    """The harness's group; with a port, the server listens on 127.0.0.1 only, at that port."""
    network = ["skip-networking"] if port is None else ["bind-address=127.0.0.1", f"port={port}"]
    lines = [
        "[mysqld]",
        "# appended by lab/mariadb_server.py: throwaway-server plumbing only",
        f"datadir={work / 'data'}",
        f"socket={work / 'mysqld.sock'}",
        f"pid-file={work / 'mysqld.pid'}",
        f"log-error={work / 'error.log'}",
        *network,
    ]
    if os.geteuid() == 0:
        lines.append("user=root")
    return "\n".join(lines) + "\n"


def boot_and_read(
    mycnf_text: str,
    names: Iterable[str],
    *,
    timeout_s: float = 60,
    template_datadir: Path | None = None,
) -> BootResult:
    """Boot mariadbd from ``mycnf_text`` plus the harness block and read ``names`` back.

    Raises ValueError (before anything is started) when the text sets an option the
    harness block needs, and VariableReadError when the server started but a variable
    could not be read.  Returns started=False, with the error log, when the server exits
    or does not answer within ``timeout_s``.  The server is always stopped and its temp
    dir always removed.
    """
    wanted = _normalise_names(names)
    work, cnf, socket_path = _make_work(mycnf_text, template_datadir, _temp_parent())
    try:
        return _boot(work, cnf, socket_path, wanted, timeout_s)
    finally:
        shutil.rmtree(work, ignore_errors=True)


@contextlib.contextmanager
def running_server(
    mycnf_text: str,
    *,
    template_datadir: Path | None = None,
    parent: Path | None = None,
    timeout_s: float = 120,
    keep: bool = False,
    port: int | None = None,
    before_exec: Callable[[], None] | None = None,
) -> Iterator[RunningServer]:
    """Boot as ``boot_and_read`` does, but keep the server up for the ``with`` block.

    For benchmarks, which run a load against the server for minutes.  ``parent`` puts the
    temp dir (and so the datadir copy) on a chosen filesystem instead of /tmp, e.g. the
    disk being measured; the socket path must still fit 107 bytes.  ``keep`` leaves the
    temp dir (datadir, my.cnf, error log) after the server stops, for inspection or as
    the template of later boots.  Raises ServerStartError, carrying the error log, when
    the server exits or does not answer within ``timeout_s``; the server is always
    stopped (cleanly: SQL SHUTDOWN) when the block ends.

    ``port`` opens networking on 127.0.0.1 at that port (the text may then set neither
    ``port`` nor ``bind_address``); ``before_exec`` runs in the child between fork and exec,
    e.g. to join a cgroup before the server allocates anything (lab.cgroups).
    """
    where = str(parent) if parent is not None else _temp_parent()
    work, cnf, socket_path = _make_work(mycnf_text, template_datadir, where, port)
    try:
        proc, elapsed, note = _launch(work, cnf, socket_path, timeout_s, before_exec)
        if note:
            raise ServerStartError(note, _collect_log(work, note))
        try:
            yield RunningServer(work, socket_path, elapsed, proc.pid, port)
        finally:
            _stop(proc, socket_path, polite=True)
    finally:
        if not keep:
            shutil.rmtree(work, ignore_errors=True)


def _make_work(
    mycnf_text: str, template_datadir: Path | None, parent: str | None, port: int | None = None
) -> tuple[Path, Path, Path]:
    """Check the text, copy the template into a new temp dir, write the my.cnf there.

    Returns (temp dir, my.cnf path, socket path); the caller removes the temp dir.
    """
    clashes = find_clashes(mycnf_text, NETWORK_OPTIONS if port is not None else ())
    if clashes:
        raise ValueError(
            "the exported my.cnf sets options the harness must set itself:\n  "
            + "\n  ".join(clashes)
        )
    template = template_datadir if template_datadir is not None else shared_template_datadir()
    if not template.is_dir():
        raise FileNotFoundError(f"template datadir {template} does not exist")

    work = Path(tempfile.mkdtemp(prefix="ia-", dir=parent))
    try:
        socket_path = work / "mysqld.sock"
        if len(str(socket_path)) > _MAX_SOCKET_PATH:
            raise ValueError(f"socket path too long for a unix socket: {socket_path}")
        shutil.copytree(template, work / "data")
        cnf = work / "my.cnf"
        separator = "" if mycnf_text.endswith("\n") or not mycnf_text else "\n"
        block = _harness_block(work, port)
        cnf.write_text(mycnf_text + separator + "\n" + block, encoding="utf-8")
    except BaseException:
        shutil.rmtree(work, ignore_errors=True)
        raise
    return work, cnf, socket_path


def _launch(
    work: Path,
    cnf: Path,
    socket_path: Path,
    timeout_s: float,
    before_exec: Callable[[], None] | None = None,
) -> tuple[subprocess.Popen[bytes], float, str]:
    """Start mariadbd and wait for its first answered ping.

    Returns (process, seconds from start, note): the note is empty when the server
    answers; otherwise it says why not, and the process has already been stopped.
    """
    with open(work / "mariadbd.out", "wb") as out:
        start = time.monotonic()
        proc = subprocess.Popen(
            [_binary("mariadbd"), f"--defaults-file={cnf}"],
            stdin=subprocess.DEVNULL,
            stdout=out,
            stderr=subprocess.STDOUT,
            start_new_session=True,
            preexec_fn=before_exec,  # safe: the lab starts no threads (Python docs warn of them)
        )
    try:
        deadline = start + timeout_s
        while True:
            if proc.poll() is not None:
                note = f"mariadbd exited with code {proc.returncode} before accepting connections"
                return proc, time.monotonic() - start, note
            if socket_path.exists() and _ping(socket_path):
                return proc, time.monotonic() - start, ""
            if time.monotonic() > deadline:
                elapsed = time.monotonic() - start
                _stop(proc, socket_path, polite=False)
                note = f"mariadbd did not accept connections within {timeout_s:g} s; killed"
                return proc, elapsed, note
            time.sleep(_POLL_INTERVAL_S)
    except BaseException:
        _stop(proc, socket_path, polite=False)
        raise


def _boot(
    work: Path, cnf: Path, socket_path: Path, wanted: list[str], timeout_s: float
) -> BootResult:
    proc, elapsed, note = _launch(work, cnf, socket_path, timeout_s)
    if note:
        return BootResult(False, _collect_log(work, note), {}, elapsed)
    try:
        values, problems = _read_values(socket_path, wanted)
        if problems:
            raise VariableReadError(problems, values, _collect_log(work))
        return BootResult(True, _collect_log(work), values, elapsed)
    finally:
        _stop(proc, socket_path, polite=True)


# --------------------------------------------------------------------------- comparison


def _unquote(value: str) -> str:
    value = value.strip()
    if len(value) >= 2 and value[0] == value[-1] and value[0] in "'\"":
        return value[1:-1]
    return value


def _as_number(value: str) -> Decimal | None:
    """A my.cnf number (with an optional K/M/G/T/P/E suffix) or a reported number."""
    match = _SIZE_RE.match(value)
    if match is not None:
        return Decimal(int(match.group(1)) * _SIZE_FACTORS[match.group(2).lower()])
    try:
        number = Decimal(value)
    except InvalidOperation:
        return None
    return number if number.is_finite() else None


def _same_number(written: Decimal, reported: Decimal) -> bool:
    exponent = reported.as_tuple().exponent
    if isinstance(exponent, int) and exponent < 0:
        # A double reported with N decimals: compare at the precision the server prints.
        try:
            return written.quantize(Decimal(1).scaleb(exponent)) == reported
        except InvalidOperation:
            return False
    return written == reported


def same_value(written: str, reported: str) -> bool:
    """Whether a my.cnf value and a ``SELECT @@global`` value say the same thing.

    ``written`` as in the my.cnf ("8G", "O_DIRECT", "ON", "90", "1", quoted or not);
    ``reported`` as the server prints it ("8589934592", "O_DIRECT", "1", "90.000000").
    Sizes compare in bytes, booleans by truth (ON/TRUE/1 vs OFF/FALSE/0; YES/NO are not
    booleans to mariadbd), doubles at the reported precision, names case-insensitively,
    comma lists as sets.
    """
    w = _unquote(written)
    r = reported.strip()
    if w.lower() == r.lower():
        return True
    wl, rl = w.lower(), r.lower()
    if (wl in _TRUE_WORDS and rl in _TRUE_WORDS) or (wl in _FALSE_WORDS and rl in _FALSE_WORDS):
        return True
    wn, rn = _as_number(w), _as_number(r)
    if wn is not None and rn is not None:
        return _same_number(wn, rn)
    if "," in w or "," in r:
        return sorted(p.strip() for p in wl.split(",")) == sorted(p.strip() for p in rl.split(","))
    return False
