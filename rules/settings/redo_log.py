"""Redo log size: fewer checkpoint writes when larger, longer crash recovery as the price."""

from rules.enums import Media
from rules.result import Evidence
from rules.rule import Case, Context, Proposal, Rule
from rules.units import GIB, MIB, bytes_for_people, round_down
from rules.workload import WRITE_INTENSITY

# Baseline from the buffer pool, as innodb_dedicated_server does from 8.0.30
# (mysql-manual-dedicated-server): pool < 8 GiB: 512 MiB per GiB of pool;
# 8..128 GiB: 0.75 x pool; above: 128 GiB.
SMALL_POOL_BYTES = 8 * GIB
PER_SMALL_POOL_GIB = 512 * MIB
LARGE_POOL_SHARE = 0.75
BASELINE_CAP_BYTES = 128 * GIB
# Larger logs help most on slow storage (callaghan-2017-redo-log): double it on spinning disks.
ROTATIONAL_FACTOR = 2.0
# Crash recovery: about 5 minutes per GB of log (percona-log-file-size-recovery), measured on the
# disk arrays of its day; we take those as ~1,000 random reads/s and let faster storage apply
# redo proportionally faster, at most 10x (advisor-engineering-judgement: apply turns CPU-bound).
RECOVERY_SECONDS_PER_GIB = 300.0
RECOVERY_REFERENCE_READ_IOPS = 1_000.0
RECOVERY_MAX_SPEEDUP = 10.0
STEP_BYTES = 128 * MIB
FLOOR_BYTES = (
    256 * MIB
)  # below this checkpoints run almost constantly (advisor-engineering-judgement)
# With no target given, keep worst-case recovery near half an hour (advisor-engineering-judgement).
DEFAULT_RECOVERY_MINUTES = 30.0
LEGACY_FILES_IN_GROUP = 2  # innodb_log_files_in_group default, MySQL before 8.0.30 (catalog)


def recovery_seconds(redo_bytes: float, random_read_iops: float) -> float:
    """Rough worst-case recovery time for a full redo log; the source gives 10x variance."""
    speedup = min(max(random_read_iops / RECOVERY_REFERENCE_READ_IOPS, 1.0), RECOVERY_MAX_SPEEDUP)
    return redo_bytes / GIB * RECOVERY_SECONDS_PER_GIB / speedup


def baseline_bytes(pool_bytes: int) -> float:
    if pool_bytes < SMALL_POOL_BYTES:
        return max(1, round(pool_bytes / GIB)) * PER_SMALL_POOL_GIB
    return min(pool_bytes * LARGE_POOL_SHARE, BASELINE_CAP_BYTES)


def compute(ctx: Context) -> tuple[Proposal, ...]:
    pool = int(ctx.decided["innodb_buffer_pool_size"])
    rotational = ctx.profile.hardware.storage.media is Media.HDD
    wanted = baseline_bytes(pool) * WRITE_INTENSITY[ctx.profile.workload.kind]
    wanted *= ROTATIONAL_FACTOR if rotational else 1.0
    total = max(FLOOR_BYTES, round_down(int(wanted), STEP_BYTES))
    reads = ctx.capability.random_read_iops
    target = ctx.profile.workload.recovery_target_minutes
    bound = target if target is not None else DEFAULT_RECOVERY_MINUTES
    case = "baseline"
    warnings: tuple[str, ...] = ()
    if recovery_seconds(total, reads) > bound * 60:
        allowed = round_down(int(total * bound * 60 / recovery_seconds(total, reads)), STEP_BYTES)
        total = max(FLOOR_BYTES, allowed)
        case = "recovery" if target is not None else "recovery-default"
        if target is not None and target < DEFAULT_RECOVERY_MINUTES:
            ctx.notes["redo_shortened_by_recovery_target"] = True
        if target is not None and allowed < FLOOR_BYTES:
            case = "recovery-unmet"
            ctx.notes["recovery_target_unmet"] = True
            warnings = (
                f"A {target:g}-minute recovery target cannot be met on this storage: even "
                f"a {bytes_for_people(FLOOR_BYTES)} redo log may take about "
                f"{recovery_seconds(FLOOR_BYTES, reads) / 60:.0f} minutes to recover.",
            )
    total = min(total, _largest_total(ctx))
    name, value = _knob(ctx, total)
    facts = {
        "total": bytes_for_people(total),
        "pool": bytes_for_people(pool),
        "minutes": f"{recovery_seconds(total, reads) / 60:.0f}",
        "target": f"{bound:g}",
        "files": ""
        if name != "innodb_log_file_size" or _single_file(ctx)
        else f" (two files of {bytes_for_people(value)})",
    }
    return (Proposal(name, value, case, facts, warnings),)


def _largest_total(ctx: Context) -> int:
    """The version's ceiling for the whole log (8.0.30 allows 128 GiB of redo capacity)."""
    name, _ = _knob(ctx, 0)
    spec = ctx.catalog.get(name)
    ceiling = spec.maximum if spec is not None and spec.maximum else 2**62
    files = 1 if name == "innodb_redo_log_capacity" or _single_file(ctx) else LEGACY_FILES_IN_GROUP
    return round_down(int(ceiling) * files, STEP_BYTES)


def _single_file(ctx: Context) -> bool:
    return not ctx.catalog.exists("innodb_log_files_in_group")


def _knob(ctx: Context, total: int) -> tuple[str, int]:
    """The version's own knob: redo capacity from MySQL 8.0.30, else the per-file size."""
    if ctx.catalog.exists("innodb_redo_log_capacity"):
        return "innodb_redo_log_capacity", total
    if _single_file(ctx):
        return "innodb_log_file_size", total
    return "innodb_log_file_size", round_down(total // LEGACY_FILES_IN_GROUP, MIB)


_WHAT = (
    "The redo log is InnoDB's journal. A bigger one lets dirty pages wait longer before "
    "they must be written, so repeated changes to a page cost one write instead of many, "
    "but after a crash all of it may have to be replayed. "
)
_EVIDENCE = (
    Evidence(
        "callaghan-2011-odirect-log",
        "Large redo logs are used to cut page writes for fuzzy "
        "checkpoints; Callaghan notes crash recovery had become much faster.",
    ),
    Evidence(
        "mysql-manual-dedicated-server",
        "innodb_dedicated_server sizes the redo log from "
        "the buffer pool: 512 MB per GB below 8 GB, then 0.75 x the pool up to 128 GB.",
    ),
    Evidence("callaghan-2017-redo-log", "A larger redo log helps more on slower storage."),
    Evidence(
        "percona-log-file-size-recovery",
        "Crash recovery took roughly 5 minutes per GB of log, with about 10x variance.",
    ),
)
_EV_JUDGEMENT = Evidence(
    "advisor-engineering-judgement",
    "With no recovery target given, the log is kept to about 30 minutes of worst-case replay.",
)
RULE = Rule(
    id="redo-log-size-from-pool-and-recovery",
    setting="innodb_redo_log_capacity",
    kind="bytes",
    cases={
        "baseline": Case(
            "{total} of redo for a {pool} pool; recovery roughly {minutes} min at worst",
            _WHAT + "{total}{files} follows the dedicated-server sizing for a {pool} "
            "buffer pool (doubled on spinning disks, where checkpoint writes hurt "
            "most). Worst-case recovery is roughly {minutes} minutes; treat that as "
            "a rough figure.",
            _EVIDENCE,
        ),
        "recovery-default": Case(
            "{total}: capped to keep crash recovery near {target} minutes",
            _WHAT + "The sizing for a {pool} pool would give a larger log, "
            "but replaying it could take over {target} minutes here, so "
            "{total}{files}. Give a recovery target to choose otherwise.",
            (*_EVIDENCE, _EV_JUDGEMENT),
        ),
        "recovery": Case(
            "{total}: as large as a {target}-minute recovery target allows",
            _WHAT + "A larger log would help throughput, but your {target}-minute "
            "recovery target limits it to {total}{files} (about {minutes} minutes "
            "to replay at worst).",
            _EVIDENCE,
        ),
        "recovery-unmet": Case(
            "{total}, the practical minimum; the recovery target is out of reach",
            _WHAT + "Even the practical minimum of {total}{files} may take "
            "about {minutes} minutes to replay here, longer than the "
            "{target}-minute target: faster storage is needed to meet it.",
            _EVIDENCE,
        ),
    },
    compute=compute,
)
