"""How InnoDB opens and syncs its files: innodb_flush_method, or MariaDB 11's replacements."""

from rules.inputs.enums import Flavor
from rules.inputs.version import ServerVersion
from rules.output.result import Evidence
from rules.rule import Case, Context, Proposal, Rule
from rules.settings.doublewrite import FAST

# From 8.0.14 InnoDB fsyncs file metadata itself, which made O_DIRECT_NO_FSYNC safe on XFS and
# ext4 (mysql-manual-flush-method); before it the manual warns against it there.
NO_FSYNC_SAFE_FROM = ServerVersion(8, 0, 14)


def compute(ctx: Context) -> tuple[Proposal, ...]:
    server = ctx.profile.server
    protected = ctx.profile.hardware.storage.has_protected_write_cache
    if not ctx.catalog.exists("innodb_flush_method") or _deprecated(ctx):
        return (
            *_pasted_override(ctx),
            Proposal("innodb_data_file_buffering", "OFF", "mariadb11-data"),
            Proposal("innodb_log_file_buffering", "OFF", "mariadb11-log"),
        )
    if server.flavor is Flavor.MARIADB:
        return (Proposal("innodb_flush_method", "O_DIRECT", "mariadb"),)
    if protected and server.version.key() >= NO_FSYNC_SAFE_FROM.key():
        return (Proposal("innodb_flush_method", "O_DIRECT_NO_FSYNC", "no-fsync"),)
    case = "bbu-old" if protected else "direct"
    return (Proposal("innodb_flush_method", "O_DIRECT", case),)


def _pasted_override(ctx: Context) -> tuple[Proposal, ...]:
    """innodb_flush_method = O_DIRECT, written out, where the pasted configuration sets a method
    that MariaDB 11 still reads at startup and that undoes the switches below: the deprecated
    value is applied after them (mariadb-docs-flush-method), so a drop-in that only sets the
    switches leaves it in force (review F5)."""
    current = ctx.profile.current
    pasted = current.variables.get("innodb_flush_method") if current is not None else None
    if pasted is None:
        return ()
    method = pasted.strip().strip("'\"").upper()
    effect = _UNDOES.get(method)
    if effect is None or (method == "O_DIRECT_NO_FSYNC" and not _has_fast(ctx)):
        return ()
    return (
        Proposal(
            "innodb_flush_method",
            "O_DIRECT",
            "mariadb11-override",
            {
                "pasted": method if method.startswith("O_") else method.lower(),
                "effect": effect,
            },
        ),
    )


def _has_fast(ctx: Context) -> bool:
    spec = ctx.catalog.get("innodb_doublewrite")
    return spec is not None and FAST in spec.values


# What a pasted innodb_flush_method does to a MariaDB 11 server that O_DIRECT does not
# (mariadb-docs-flush-method: the values' mapping onto the switches; mariadb-mdev-33545: from
# 11.0.6 O_DIRECT_NO_FSYNC turns innodb_doublewrite=ON into fast, whose data files skip their
# fsync; before 11.0.6 it acted as O_DIRECT, see _has_fast). O_DSYNC only adds write-through,
# which is as safe, and is left alone.
_BUFFERED = (
    "turns innodb_data_file_buffering back ON, so data pages are cached twice, in the buffer "
    "pool and in the OS page cache"
)
_UNDOES = {
    "O_DIRECT_NO_FSYNC": "turns innodb_doublewrite=ON into fast, so the data files skip their "
    "fsync, and without a protected write cache a write the drives acknowledged can be lost "
    "in a power cut",
    "FSYNC": _BUFFERED,
    "LITTLESYNC": _BUFFERED,
    "NOSYNC": _BUFFERED,
}


def _deprecated(ctx: Context) -> bool:
    spec = ctx.catalog.get("innodb_flush_method")
    return spec is not None and spec.deprecated and ctx.catalog.exists("innodb_data_file_buffering")


_DIRECT = (
    "O_DIRECT makes InnoDB read and write its data files around the OS page cache, so "
    "memory is not spent caching the same pages twice and the buffer pool can be large."
)
_EV_MANUAL = Evidence(
    "mysql-manual-flush-method",
    "O_DIRECT avoids double buffering; "
    "O_DIRECT_NO_FSYNC skips the fsync after writes and was unsafe on XFS and "
    "ext4 before 8.0.14.",
)
_EV_HPM = Evidence(
    "hpm-2012",
    "High Performance MySQL recommends O_DIRECT with a battery-backed "
    "write cache and warns it can hurt badly without one on plain disks.",
)
_EV_SEED0 = Evidence(
    "callaghan-2009-2disk",
    "Callaghan's IO-bound tpcc runs on two uncached SATA disks used O_DIRECT.",
)
_EV_NOFSYNC = Evidence(
    "callaghan-2013-odirect-no-fsync",
    "O_DIRECT_NO_FSYNC tripled IO-bound "
    "updates per second (about 10k to 30k) at 32 or more clients on fast flash.",
)
_EV_MARIADB11 = Evidence(
    "mariadb-docs-flush-method",
    "MariaDB 11.0 deprecated innodb_flush_method in favour of innodb_data_file_buffering, "
    "innodb_log_file_buffering and two write-through switches.",
)
RULE = Rule(
    id="flush-method-direct-io",
    setting="innodb_flush_method",
    kind="enum",
    cases={
        "direct": Case(
            "bypass the OS page cache for data files",
            _DIRECT + " Without a "
            "protected write cache InnoDB must still fsync after writes, so "
            "O_DIRECT, not O_DIRECT_NO_FSYNC.",
            (_EV_MANUAL, _EV_SEED0),
        ),
        "no-fsync": Case(
            "direct IO, and no fsync: the battery-backed cache makes writes durable",
            _DIRECT + " Behind a battery-backed controller cache a completed write "
            "is already safe, so the extra fsync is pure cost; from 8.0.14 "
            "O_DIRECT_NO_FSYNC is safe on XFS and ext4. If the battery fails or "
            "goes into a learning cycle the controller turns write-through; switch "
            "back to O_DIRECT if you cannot monitor it.",
            (_EV_MANUAL, _EV_HPM, _EV_NOFSYNC),
        ),
        "bbu-old": Case(
            "direct IO; this version is too old for O_DIRECT_NO_FSYNC on XFS/ext4",
            _DIRECT + " The cache would make O_DIRECT_NO_FSYNC tempting, but before "
            "MySQL 8.0.14 it could lose file metadata on XFS and ext4.",
            (_EV_MANUAL, _EV_HPM),
        ),
        "mariadb": Case(
            "bypass the OS page cache for data files (MariaDB's default from 10.6)",
            _DIRECT + " MariaDB made it the default in 10.6; writing it down keeps "
            "the intent explicit.",
            (
                Evidence(
                    "mariadb-mdev-24854", "MariaDB 10.6 made O_DIRECT the default flush method."
                ),
                _EV_MANUAL,
            ),
        ),
        "mariadb11-override": Case(
            "replaces today's {pasted}, which MariaDB 11 still reads at startup",
            "MariaDB 11 deprecated innodb_flush_method but still reads it at startup, after the "
            "switches below: today's {pasted} {effect}. Setting the switches alone would leave "
            "it in force, so this file states O_DIRECT, which leaves them as set here. An "
            "option read later wins, so remove the old line from the main configuration too, "
            "or make sure this file is read after it.",
            (
                _EV_MARIADB11,
                Evidence(
                    "mariadb-mdev-33545",
                    "From MariaDB 11.0.6, innodb_flush_method=O_DIRECT_NO_FSYNC turns "
                    "innodb_doublewrite=ON into fast, which skips the fsync on the data files.",
                ),
                _EV_MANUAL,
            ),
        ),
        "mariadb11-data": Case(
            "data files bypass the OS cache (O_DIRECT in MariaDB 11 terms)",
            "MariaDB 11 replaced innodb_flush_method with four switches. Data file buffering "
            "OFF is what O_DIRECT meant for data: the buffer pool is the only cache of pages.",
            (_EV_MARIADB11, _EV_MANUAL),
        ),
        "mariadb11-log": Case(
            "the redo log bypasses the OS cache, saving memory and a copy",
            "With log file buffering OFF the redo log is written with direct IO, so it does "
            "not fill the OS cache with data nobody reads back.",
            (
                _EV_MARIADB11,
                Evidence(
                    "mariadb-mdev-28111",
                    "Opening the redo log with O_DIRECT on NVMe raised throughput by about 9%.",
                ),
                Evidence(
                    "callaghan-2011-odirect-log",
                    "Buffered redo IO can tie up gigabytes of OS cache for log files.",
                ),
            ),
        ),
    },
    compute=compute,
)
