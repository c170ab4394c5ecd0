"""Published results as calibration points: one row of data/benchmarks.csv each."""

import csv
import re
from collections.abc import Iterable
from dataclasses import dataclass
from importlib import resources
from pathlib import Path

# The shared data set as imported (scripts/import_benchmarks.py), further published results
# collected for the project, each row with its URL, author and date, then this project's own lab
# runs (`python3 -m lab --to-csv` of the raw records beside it: data/lab/README.md).
DATA_FILES = ("benchmarks.csv", "published.csv", "lab/lab.csv")
# Reference unit of each workload kind (product contract, "Input: the profile").
UNITS = {
    "oltp": "NOTPM",
    "read_write": "transactions/s",
    "update_heavy": "transactions/s",
    "bulk_insert": "rows/s",
    "read_mostly": "queries/s",
}


@dataclass(frozen=True, slots=True)
class Point:
    """One published (or approved user-submitted) measurement in normalised terms."""

    id: str
    source: str
    year: int
    kind: str
    unit: str
    value: float
    data_gb: float
    bp_gb: float
    ram_gb: float
    cpu_cores: int
    concurrency: int
    media: str
    flash_class: str  # enterprise | consumer | "" for disks
    rpm: int | None
    device_count: int
    raid_level: str
    controller_cache: str  # none | write_through | write_back_bbu | volatile
    measured_read_iops: float | None
    measured_write_iops: float | None
    trx_commit: int
    flush_method: str
    max_dirty_pct: float | None
    read_ahead: str  # on | off | "" (unknown: the server default, on)
    io_scheduler: str
    flags: frozenset[str]  # notes on the run; "other_settings" keeps it out of the pairs (pairs.py)
    excluded: str
    assumed_fields: frozenset[str]  # model inputs that are guesses, not facts from the source
    assumptions: str
    server: str = ""  # flavor and version as the source gives them
    doublewrite: str = ""  # on | off | "" (unknown: the server default, on)
    access: str = ""  # uniform | pareto | special | "" (the benchmark's default then)
    binlog: str = ""  # sync (sync_binlog=1) | on | off | "" (not stated)
    log_mb: float | None = None  # total redo size; None: not stated
    io_capacity_max: float | None = None  # the checkpoint flushing's cap; None: not stated
    io_capacity: float | None = None  # background pages/s (buffer merges); None: not stated
    change_buffer: bool = True  # the release buffers secondary-index changes by default
    flush_neighbors: int = 0  # innodb_flush_neighbors: as the run set it, else the release's
    mysql_8: bool = False  # MySQL (or Percona Server) 8.0 or later: more CPU per statement
    update_test: str = ""  # index | non_index | "" (not named): which sysbench update test ran
    # One 16 KiB read at queue depth 1 where the storage is a network volume: 1 ms for EBS
    # gp2/gp3/io1, the low end of "single-digit millisecond" (aws-ebs-volume-latency); None:
    # a local device, the storage model's figure.
    read_latency_ms: float | None = None

    @property
    def used(self) -> bool:
        return not self.excluded


# The lab's rows are loaded, listed and reported, but held out of the fit for now. Fitted with
# them (docs/lab.md, "Calibrate before and after"), 35 pairs went the wrong way: with a 32 MiB
# pool inside a cgroup the group's page cache served the reads, so fsync ran 1.5 to 3.2 times
# faster than O_DIRECT, and the model has no page-cache term; the shipped fit stays the 369
# published points until it has one.
LAB_FILE = "lab/lab.csv"
LAB_HELD_OUT = (
    "the lab of this project, held out of the fit until the model has a page-cache term (fitted "
    "with it, 35 pairs of a small pool under fsync against O_DIRECT went the wrong way)"
)


def load_points(path: Path | None = None) -> tuple[Point, ...]:
    """Every row of the shipped data files (excluded rows too, each with its reason), or of the
    one file at `path`."""
    if path is not None:
        return tuple(
            point_of_row(row) for row in csv.DictReader(path.read_text("utf-8").splitlines())
        )
    folder = resources.files("calibration.data")
    points: list[Point] = []
    for name in DATA_FILES:
        for row in csv.DictReader(folder.joinpath(name).read_text("utf-8").splitlines()):
            if name == LAB_FILE and not row["excluded"]:
                row = {**row, "excluded": LAB_HELD_OUT}
            points.append(point_of_row(row))
    return tuple(points)


def used_points(points: Iterable[Point]) -> tuple[Point, ...]:
    return tuple(p for p in points if p.used)


def point_of_row(row: dict[str, str]) -> Point:
    excluded = row["excluded"]
    number = _number if not excluded else _number_or_zero
    return Point(
        id=row["id"],
        source=row["source"],
        year=int(row["year"] or 0),
        kind=row["kind"],
        unit=row["unit"],
        value=float(row["value"]),
        data_gb=number(row["data_gb"]),
        bp_gb=number(row["bp_gb"]),
        ram_gb=number(row["ram_gb"]),
        cpu_cores=int(number(row["cpu_cores"])),
        concurrency=int(number(row["concurrency"])),
        media=row["media"],
        flash_class=row["flash_class"],
        rpm=int(row["rpm"]) if row["rpm"] else None,
        device_count=int(number(row["device_count"])),
        raid_level=row["raid_level"],
        controller_cache=row["controller_cache"],
        measured_read_iops=float(row["measured_read_iops"]) if row["measured_read_iops"] else None,
        measured_write_iops=(
            float(row["measured_write_iops"]) if row["measured_write_iops"] else None
        ),
        trx_commit=int(number(row["trx_commit"])),
        flush_method=row["flush_method"],
        max_dirty_pct=float(row["max_dirty_pct"]) if row["max_dirty_pct"] else None,
        read_ahead=row["read_ahead"],
        io_scheduler=row["io_scheduler"],
        flags=frozenset(f for f in row["flags"].split(";") if f),
        excluded=excluded,
        assumed_fields=frozenset(f for f in row["assumed_fields"].split(";") if f),
        assumptions=row["assumptions"],
        server=row.get("server", ""),
        doublewrite=row.get("doublewrite", ""),
        access=row.get("access", ""),
        binlog=row.get("binlog") or binlog_of(f"{row['notes']} {row['assumptions']}"),
        log_mb=float(row["log_mb"]) if row.get("log_mb") else None,
        io_capacity_max=io_capacity_max_of(row),
        io_capacity=float(row["io_capacity"]) if row.get("io_capacity") else None,
        change_buffer=change_buffer_default(row.get("server", "")),
        flush_neighbors=flush_neighbors_of_row(row),
        mysql_8=mysql_8_or_later(row.get("server", "")),
        update_test=update_test_of(row["kind"], row["notes"]),
        read_latency_ms=float(row["read_latency_ms"]) if row.get("read_latency_ms") else None,
    )


_IO_CAPACITY_MAX = re.compile(r"io_capacity_max[ =:]*([0-9]+)")
_VERSION = re.compile(r"(mysql|percona server|mariadb)[^0-9]*([0-9]+)\.([0-9]+)")


def change_buffer_default(server: str) -> bool:
    """The release's default: buffered until MySQL 8.4 made innodb_change_buffering=none the
    default (mysql-manual-8-4-defaults) and MariaDB 10.6 did the same (rules/data/variables.json:
    default none since 10.5.15 and 10.6.7, gone in 11.0); a run that does not name its release
    is taken as buffering, as every release before those did."""
    version = _VERSION.search(server.lower())
    if version is None:
        return True
    release = (int(version[2]), int(version[3]))
    return release < ((10, 6) if version[1] == "mariadb" else (8, 4))


# MySQL 5.6.10, the first GA release with innodb_flush_neighbors, shipped on 2013-02-05
# (https://dev.mysql.com/doc/relnotes/mysql/5.6/en/news-5-6-10.html); a run before then that
# does not name its release ran one that flushed every dirty neighbour of its extent.
FLUSH_NEIGHBORS_SINCE_YEAR = 2013


def flush_neighbors_default(server: str, year: int) -> int:
    """The release's innodb_flush_neighbors (calibration.device_terms.EXTENT_PAGES): 2 before MySQL
    5.6 (no variable: the whole extent) and on MariaDB before 10.0 (5.5's XtraDB), 1 on 5.6
    and 5.7 and on MariaDB since 10.0 (MySQL 5.6's InnoDB), 0 since MySQL 8.0
    (rules/data/variables.json, mysql-wl-9631); by the run's year where the release is not
    named."""
    version = _VERSION.search(server.lower())
    if version is None:
        return 2 if 0 < year < FLUSH_NEIGHBORS_SINCE_YEAR else 1
    release = (int(version[2]), int(version[3]))
    if version[1] == "mariadb":
        return 2 if release < (10, 0) else 1
    if release < (5, 6):
        return 2
    return 1 if release < (8, 0) else 0


def flush_neighbors_of_row(row: dict[str, str]) -> int:
    """The run's innodb_flush_neighbors where its row states it (0 none, 1 contiguous, 2 the
    whole extent: XtraDB 5.5's innodb_flush_neighbor_pages none, cont and area), else its
    release's default (flush_neighbors_default)."""
    if row.get("flush_neighbors"):
        return int(row["flush_neighbors"])
    return flush_neighbors_default(row.get("server", ""), int(row["year"] or 0))


def mysql_8_or_later(server: str) -> bool:
    """Whether a run named MySQL or Percona Server 8.0 or later (calibration.model's mysql8_cpu);
    MariaDB never took 8.0's code, and a run that does not name its release is taken as older."""
    version = _VERSION.search(server.lower())
    return version is not None and version[1] != "mariadb" and int(version[2]) >= 8


def io_capacity_max_of(row: dict[str, str]) -> float | None:
    """The cap on checkpoint flushing a run had: io_capacity_max as the notes state it, else
    the server's default from io_capacity (twice it, at least 2000, since 5.6; io_capacity
    itself before, when no max existed: mysql-manual-io-capacity), else unknown."""
    stated = _IO_CAPACITY_MAX.search(f"{row.get('notes', '')} {row.get('assumptions', '')}")
    if stated:
        return float(stated.group(1))
    if not row.get("io_capacity"):
        return None
    io_capacity = float(row["io_capacity"])
    version = _VERSION.search(row.get("server", "").lower())
    if version and version.group(1) != "mariadb" and (int(version[2]), int(version[3])) < (5, 6):
        return io_capacity
    return max(2000.0, 2.0 * io_capacity)


_BINLOG_OFF = ("binary log disabled", "binlog disabled", "no binlog", "binlog off", "skip-log-bin")
_BINLOG_NO_SYNC = re.compile(r"sync_binlog ?=? ?0\b")  # stated first wins ("=0; with =1, bad")
_BINLOG_SYNC = re.compile(r"sync_binlog ?= ?1\b")
_BINLOG_ON = re.compile(
    r"binary log on|binlog (on|row|statement|mixed)|binary log with|sync_binlog ?=? ?[0-9]+"
)


def binlog_of(text: str) -> str:
    """What a row's notes say of the binary log: sync (sync_binlog=1), on, off or ""."""
    lowered = text.lower()
    if any(words in lowered for words in _BINLOG_OFF):
        return "off"
    if _BINLOG_SYNC.search(lowered) and not _BINLOG_NO_SYNC.search(lowered):
        return "sync"
    return "on" if _BINLOG_ON.search(lowered) else ""


_UPDATE_NON_INDEX = re.compile(r"update[-_ ]?non[-_ ]?index")
_UPDATE_INDEX = re.compile(r"update[-_ ]?index")


def update_test_of(kind: str, notes: str) -> str:
    """Which sysbench update test an update_heavy run's notes name (update-index or
    update-nonindex, as Callaghan's result files call them): its own statement and page
    counts (calibration.benchmarks.UPDATE_TESTS); "" where they name neither."""
    if kind != "update_heavy":
        return ""
    lowered = notes.lower()
    if _UPDATE_NON_INDEX.search(lowered):
        return "non_index"
    return "index" if _UPDATE_INDEX.search(lowered) else ""


def _number(text: str) -> float:
    if not text:
        raise ValueError("a used calibration row lacks a field the model needs")
    return float(text)


def _number_or_zero(text: str) -> float:
    try:
        return float(text) if text else 0.0
    except ValueError:
        return 0.0
