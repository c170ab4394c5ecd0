"""innodb_flush_log_at_trx_commit and sync_binlog, from the durability the user asked for."""

from rules.current.binlog import binary_log_on, pasted_log_bin
from rules.inputs.enums import Durability
from rules.inputs.version import FLAVOR_NAMES
from rules.output.result import Evidence
from rules.rule import Case, Context, Proposal, Rule

# full: write and sync the redo log at every commit (1) and sync the binlog at every commit
# group (1). relaxed: write at commit, sync about once a second (2); sync the binlog every 1000
# commit groups (mysql-manual-sync-binlog: N > 1 risks losing up to N groups).
TRX_COMMIT: dict[Durability, int] = {Durability.FULL: 1, Durability.RELAXED: 2}
SYNC_BINLOG: dict[Durability, int] = {Durability.FULL: 1, Durability.RELAXED: 1000}


def compute_trx_commit(ctx: Context) -> tuple[Proposal, ...]:
    durability = ctx.profile.workload.durability
    protected = ctx.profile.hardware.storage.has_protected_write_cache
    case = durability.value + ("-cached" if protected and durability is Durability.FULL else "")
    facts = {"fsyncs": f"{ctx.capability.fsync_per_s:,.0f}"}
    return (Proposal("innodb_flush_log_at_trx_commit", TRX_COMMIT[durability], case, facts),)


def compute_sync_binlog(ctx: Context) -> tuple[Proposal, ...]:
    """The value the durability asks for, whether or not a binary log is written today: a
    server without one gets it set for the day log_bin is turned on, and says so."""
    durability = ctx.profile.workload.durability
    value = SYNC_BINLOG[durability]
    if binary_log_on(ctx.profile):
        return (Proposal("sync_binlog", value, durability.value),)
    return (Proposal("sync_binlog", value, f"{durability.value}-off", {"why": _why_off(ctx)}),)


def _why_off(ctx: Context) -> str:
    """Why this server writes no binary log: the pasted configuration, or the release."""
    if pasted_log_bin(ctx.profile) is not None:  # pasted, and off, or the rule would not ask
        return "the pasted configuration turns log_bin off"
    server = ctx.profile.server
    return f"{FLAVOR_NAMES[server.flavor]} {server.version} writes none unless log_bin is set"


_EV_S13 = Evidence(
    "percona-2010-max-write",
    "Going from trx_commit 0 to 1 cut update throughput "
    "from 36,332 to 23,115 tps even with a battery-backed RAID for the logs.",
)
_EV_SMITH = Evidence(
    "greg-smith-2010-pg-high-performance",
    "A 7200 rpm disk without a write "
    "cache manages about 120 commits/s; behind a battery-backed cache over "
    "10,000.",
)
_EV_SEED0 = Evidence(
    "callaghan-2009-2disk",
    "The published IO-bound tpcc runs used innodb_flush_log_at_trx_commit=2.",
)
_EV_MARIADB = Evidence(
    "mariadb-docs-flush-log-at-trx-commit",
    "1 writes and syncs the log at each "
    "commit; 2 writes at commit and syncs about once per second.",
)
RULE_TRX_COMMIT = Rule(
    id="flush-log-at-commit-from-durability",
    setting="innodb_flush_log_at_trx_commit",
    kind="number",
    cases={
        "full": Case(
            "sync the redo log at every commit: a committed transaction survives a crash",
            "1 writes and syncs the redo log at every commit, so nothing committed is "
            "lost in a crash. The price is one sync per commit group; this storage "
            "manages about {fsyncs} per second, which caps small commits unless many "
            "run at once (group commit).",
            (_EV_MARIADB, _EV_S13, _EV_SMITH),
        ),
        "full-cached": Case(
            "sync at every commit; the battery-backed cache makes syncs cheap",
            "1 syncs the redo log at every commit so committed work survives a "
            "crash; the battery-backed cache answers those syncs from memory "
            "(about {fsyncs} per second), so full durability costs little here.",
            (_EV_MARIADB, _EV_SMITH, _EV_S13),
        ),
        "relaxed": Case(
            "write at commit, sync once a second: up to ~1 s of commits at risk",
            "2 writes the log at every commit but syncs it about once per second: a "
            "server crash loses nothing, an OS crash or power cut up to about a "
            "second of commits. It removes the per-commit sync that limits small "
            "transactions to about {fsyncs} per second here.",
            (_EV_MARIADB, _EV_SEED0, _EV_S13),
        ),
    },
    compute=compute_trx_commit,
)
_EV_BINLOG = Evidence(
    "mysql-manual-sync-binlog",
    "sync_binlog=1 syncs the binary log at every "
    "commit group; N > 1 syncs every N groups and risks losing up to N.",
)
# With the binary log on, a durable commit group syncs twice: InnoDB's redo log at prepare, then
# the binary log (percona-2018-consumer-ssd-reviews: up to three fsyncs per durable commit).
_TWO_SYNCS = (
    "Each commit group then costs two syncs, not one: the redo log's at prepare and the "
    "binary log's, so commits wait on both."
)
_EV_FSYNCS = Evidence(
    "percona-2018-consumer-ssd-reviews",
    "A fully durable MySQL commit may need up to three fsyncs; group commit recovers "
    "throughput but not each commit's latency.",
)
RULE_SYNC_BINLOG = Rule(
    id="sync-binlog-from-durability",
    setting="sync_binlog",
    kind="number",
    cases={
        "full": Case(
            "sync the binary log at every commit, so replicas and backups agree",
            "1 syncs the binary log at every commit group. With "
            "innodb_flush_log_at_trx_commit=1 this keeps InnoDB and the binary log "
            "consistent after a crash, which replicas and point-in-time recovery need. "
            + _TWO_SYNCS,
            (_EV_BINLOG, _EV_FSYNCS),
        ),
        "full-off": Case(
            "no binary log here: 1 matters once log_bin is set",
            "This server writes no binary log ({why}), so sync_binlog changes nothing today. "
            "1 is the value to have when it is turned on for replicas or point-in-time "
            "recovery: it syncs the binary log at every commit group, which with "
            "innodb_flush_log_at_trx_commit=1 keeps it consistent with InnoDB after a crash. "
            + _TWO_SYNCS,
            (_EV_BINLOG, _EV_FSYNCS),
        ),
        "relaxed": Case(
            "sync the binary log every 1000 commit groups",
            "1000 syncs the binary log every 1000 commit groups instead of each one; "
            "after an OS crash the binary log may miss the last commits, so a "
            "replica may need rebuilding. It matches the relaxed durability asked "
            "for.",
            (_EV_BINLOG, _EV_S13),
        ),
        "relaxed-off": Case(
            "no binary log here: 1000 matters once log_bin is set",
            "This server writes no binary log ({why}), so sync_binlog changes nothing today. "
            "Once log_bin is set, 1000 syncs it every 1000 commit groups instead of each one, "
            "matching the relaxed durability asked for; an OS crash may then lose its last "
            "commits, and a replica may need rebuilding.",
            (_EV_BINLOG,),
        ),
    },
    compute=compute_sync_binlog,
)
