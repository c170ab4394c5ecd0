"""Buffer pool warm-up after a restart: where it dominates a recovery target, save and reload it.

Recovery is not over when the redo is replayed: the pool starts empty and the server runs slowly
until queries have read its pages back, one random read each (mysql-manual-preload-buffer-pool).
With a recovery target given, the time back to full speed is the replay plus that warm-up; where
the warm-up is the longer part, the server should save the list of its pool's pages and reload it
at startup, in page order and in the background, and save the whole pool rather than the hottest
quarter the default keeps.
"""

from rules.machine.devices import PAGE_BYTES
from rules.output.result import Evidence
from rules.rule import Case, Context, Proposal, Rule
from rules.settings.redo_log import minutes_text
from rules.units import bytes_for_people

# Save all of each pool's page list, not the default's most recently used 25%: the list holds
# only tablespace and page ids, tiny beside the pool (mysql-manual-preload-buffer-pool), and
# the pages past the hottest quarter are the ones queries would otherwise read back one random
# read at a time (advisor-engineering-judgement: no published figure ranks the shares).
DUMP_PCT = 100


def warm_up_seconds(ctx: Context) -> float:
    """Reading back what the pool held (the pool, or all the data if smaller) at one random
    read per page: the warm-up queries do when nothing reloads the pool."""
    pool = float(ctx.decided.get("innodb_buffer_pool_size", 0))
    cached = min(pool, float(ctx.profile.workload.data_size_bytes))
    return cached / PAGE_BYTES / max(ctx.capability.random_read_iops, 1.0)


def _dominates(ctx: Context) -> bool:
    replay = float(ctx.notes.get("redo_replay_seconds", 0.0))  # type: ignore[arg-type]
    return ctx.profile.workload.recovery_target_minutes is not None and (
        warm_up_seconds(ctx) > replay
    )


def compute_dump_load(ctx: Context) -> tuple[Proposal, ...]:
    if not _dominates(ctx):
        return ()
    facts = _facts(ctx)
    target = ctx.profile.workload.recovery_target_minutes or 0.0
    replay = float(ctx.notes.get("redo_replay_seconds", 0.0))  # type: ignore[arg-type]
    warnings: tuple[str, ...] = ()
    if replay + warm_up_seconds(ctx) > target * 60:
        warnings = (
            f"Back to full speed after a crash may take about {facts['replay']} minutes of redo "
            f"replay plus about {facts['warm']} minutes of buffer pool warm-up, over your "
            f"{target:g}-minute recovery target: save the pool's page list on a schedule "
            "(SET GLOBAL innodb_buffer_pool_dump_now=ON) so that a restart after a crash can "
            "reload it.",
        )
    return (
        Proposal("innodb_buffer_pool_dump_at_shutdown", "ON", "dump", facts, warnings),
        Proposal("innodb_buffer_pool_load_at_startup", "ON", "load", facts),
    )


def compute_pct(ctx: Context) -> tuple[Proposal, ...]:
    if not _dominates(ctx):
        return ()
    return (Proposal("innodb_buffer_pool_dump_pct", DUMP_PCT, "whole", _facts(ctx)),)


def _facts(ctx: Context) -> dict[str, object]:
    pool = float(ctx.decided.get("innodb_buffer_pool_size", 0))
    cached = min(pool, float(ctx.profile.workload.data_size_bytes))
    target = ctx.profile.workload.recovery_target_minutes or 0.0
    replay = float(ctx.notes.get("redo_replay_seconds", 0.0))  # type: ignore[arg-type]
    return {
        "cached": bytes_for_people(cached),
        "reads": f"{ctx.capability.random_read_iops:,.0f}",
        "warm": minutes_text(warm_up_seconds(ctx)),
        "replay": minutes_text(replay),
        "target": f"{target:g}",
        "pct": f"{DUMP_PCT}",
    }


_WHY = (
    "After a restart the buffer pool is empty, and the server stays slow until queries have "
    "read its {cached} back, one random read a page: at the ~{reads} random reads/s this "
    "storage does, about {warm} minutes, longer than the ~{replay} minutes of redo replay: "
    "the warm-up, not the replay, is what your {target}-minute recovery target waits on. "
)
_CRASH = (
    " A crash writes no dump, so also save one on a schedule (SET GLOBAL "
    "innodb_buffer_pool_dump_now=ON): the restart then reloads the latest list."
)
_EVIDENCE = (
    Evidence(
        "mysql-manual-preload-buffer-pool",
        "After a restart throughput climbs while pages are read back into the pool; InnoDB can "
        "save each pool's most recently used pages at shutdown (or on demand) and reload them "
        "at startup in large batches, in the background.",
    ),
    Evidence(
        "mariadb-docs-buffer-pool-dump-pct",
        "innodb_buffer_pool_dump_pct dumps the hottest N% of each pool, 1 to 100, default 25.",
    ),
)
RULE_DUMP_LOAD = Rule(
    id="buffer-pool-warm-up-dump-and-load",
    setting="innodb_buffer_pool_load_at_startup",
    kind="enum",
    cases={
        "dump": Case(
            "ON: save the pool's page list at shutdown; warm-up (~{warm} min) outlasts replay "
            "(~{replay} min)",
            _WHY + "Saving the list of the pool's pages at shutdown lets the next start reload "
            "them." + _CRASH,
            _EVIDENCE,
        ),
        "load": Case(
            "ON: reload the saved pages at startup; warm-up (~{warm} min) outlasts replay "
            "(~{replay} min)",
            _WHY + "Loading the saved list at startup reads the pages in large batches in the "
            "background, without delaying the start, instead of one query's miss at a time.",
            _EVIDENCE,
        ),
    },
    compute=compute_dump_load,
)
RULE_DUMP_PCT = Rule(
    id="buffer-pool-warm-up-whole-dump",
    setting="innodb_buffer_pool_dump_pct",
    kind="percent",
    cases={
        "whole": Case(
            "{pct}%: reload the whole pool, not its hottest quarter; warm-up ~{warm} min",
            _WHY + "The default saves only the most recently used quarter of each pool; the "
            "list holds just page ids, so saving all of it ({pct}%) costs little and leaves "
            "none of the {cached} to be read back one miss at a time.",
            (
                *_EVIDENCE,
                Evidence(
                    "advisor-engineering-judgement",
                    "Where warm-up dominates a recovery target the whole pool is saved; no "
                    "published figure ranks the shares between 25% and 100%.",
                ),
            ),
        ),
    },
    compute=compute_pct,
)
