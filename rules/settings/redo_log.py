"""Redo log size: about an hour of peak log writes, bounded by crash recovery and by the data.

A bigger log lets dirty pages wait longer, so repeated changes to a page cost one write; the price
is crash recovery, which replays the log. The size is the smallest of: an hour of the peak log
writes this storage can sustain, what the recovery limit allows at the media's replay rate, the
data itself, and the version's ceiling; never below a practical floor.
"""

from rules.inputs.enums import Media
from rules.machine.devices import PAGE_BYTES
from rules.machine.workload import WRITE_INTENSITY
from rules.output.result import Evidence
from rules.rule import Case, Context, Proposal, Rule
from rules.settings.dirty_pages import DEFAULT_PCT
from rules.units import GIB, MIB, bytes_for_people, round_down

# Hold about one hour of peak log writes (baron-2008-log-size), the rule MySQLTuner's users
# converged on in place of 25% of the buffer pool (mysqltuner-2025-redo-capacity).
LOG_HOURS_SECONDS = 3600.0
# The peak log write rate this storage sustains: at steady state redo cannot outrun the page
# flushing that frees it, so we take one page of redo per page the array can write at its random-
# write rate, scaled by the workload's write intensity (advisor-engineering-judgement: no
# published ratio ties redo bytes to page writes).
REDO_BYTES_PER_PAGE_WRITE = PAGE_BYTES
# Worst-case crash recovery replays about this many seconds per GiB of redo, by media:
# disks ~5 min per GB (percona-log-file-size-recovery); flash ~2 min per GB: about 10 GB of
# un-checkpointed redo took about 10 minutes in 5.6 and twice as long in 5.7 (mysql-bug-81648),
# and replay is bound by one thread parsing the log, not by the flash (percona-2016-parallel-
# recovery), so SATA and NVMe flash share the figure, and so do network volumes of flash.
RECOVERY_SECONDS_PER_GIB: dict[Media, float] = {
    Media.HDD: 300.0,
    Media.SATA_SSD: 120.0,
    Media.NVME: 120.0,
    Media.NETWORK_SSD: 120.0,
}
# Not more redo than the pool can hold dirty: a checkpoint cannot lag behind pages that have
# already been flushed, so once the pool is full of dirty pages (innodb_max_dirty_pages_pct,
# DEFAULT_PCT of it) flushing is forced whatever the log's size, and redo beyond that only
# lengthens recovery. The manual long bounded the whole log by the pool (mysql-manual-55-log-file-
# size: "1MB to 1/N-th of the size of the buffer pool" for N files); we keep it within the pool's
# dirty share.
POOL_DIRTY_SHARE = DEFAULT_PCT / 100
# Not more redo than data: MySQLTuner checks its hourly figure against the InnoDB data size
# (mysqltuner-2025-redo-capacity); a log larger than the data only lengthens recovery.
DATA_SHARE = 1.0
STEP_BYTES = 128 * MIB
# Below 256 MiB checkpoints run almost constantly (advisor-engineering-judgement).
FLOOR_BYTES = 256 * MIB
# With no target given, keep worst-case recovery within 30 minutes (advisor-engineering-judgement).
DEFAULT_RECOVERY_MINUTES = 30.0
LEGACY_FILES_IN_GROUP = 2  # innodb_log_files_in_group default, MySQL before 8.0.30 (catalog)
_MEDIA_TEXT = {
    Media.HDD: "disks",
    Media.SATA_SSD: "SATA flash",
    Media.NVME: "NVMe flash",
    Media.NETWORK_SSD: "network volumes",
}


def recovery_seconds(redo_bytes: float, media: Media) -> float:
    """Rough worst-case recovery time for a full redo log; the sources give 10x variance."""
    return redo_bytes / GIB * RECOVERY_SECONDS_PER_GIB[media]


def recovery_allows_bytes(minutes: float, media: Media) -> float:
    """The largest redo log whose worst-case replay fits in `minutes`."""
    return minutes * 60 / RECOVERY_SECONDS_PER_GIB[media] * GIB


def log_write_bytes_per_s(random_write_iops: float, write_intensity: float) -> float:
    return random_write_iops * REDO_BYTES_PER_PAGE_WRITE * write_intensity


def minutes_text(seconds: float) -> str:
    """'30', '2.5', '0.5': whole minutes from 10 up, one decimal below."""
    minutes = seconds / 60
    return (
        f"{minutes:.0f}"
        if minutes >= 10 or round(minutes, 1) == round(minutes)
        else (f"{minutes:.1f}")
    )


def compute(ctx: Context) -> tuple[Proposal, ...]:
    media, workload = ctx.profile.hardware.storage.media, ctx.profile.workload
    rate = log_write_bytes_per_s(ctx.capability.random_write_iops, WRITE_INTENSITY[workload.kind])
    bound = workload.recovery_target_minutes or DEFAULT_RECOVERY_MINUTES
    limits = {  # in order of preference when two are equal
        "hour": rate * LOG_HOURS_SECONDS,
        "recovery": recovery_allows_bytes(bound, media),
        "data": workload.data_size_bytes * DATA_SHARE,
        "pool": _pool_bytes(ctx) * POOL_DIRTY_SHARE,
        "ceiling": float(_largest_total(ctx)),
    }
    case = min(limits, key=lambda k: limits[k])
    total = round_down(int(limits[case]), STEP_BYTES)
    if total < FLOOR_BYTES:
        total, case = FLOOR_BYTES, "floor"
    target = workload.recovery_target_minutes
    if case == "recovery" and target is None:
        case = "recovery-default"
    elif case == "recovery" and (target or 0) < DEFAULT_RECOVERY_MINUTES:
        ctx.notes["redo_shortened_by_recovery_target"] = True
    warnings: tuple[str, ...] = ()
    if target is not None and limits["recovery"] < FLOOR_BYTES:
        case = "recovery-unmet"
        ctx.notes["recovery_target_unmet"] = True
        warnings = (
            f"A {target:g}-minute recovery target cannot be met on this storage: even "
            f"a {bytes_for_people(FLOOR_BYTES)} redo log may take about "
            f"{minutes_text(recovery_seconds(FLOOR_BYTES, media))} minutes to recover.",
        )
    ctx.notes["redo_replay_seconds"] = recovery_seconds(total, media)  # for the warm-up rule
    if _is_flash(media):  # each medium cites the replay rate it is sized at
        case += "-flash"
    return (Proposal(*_knob(ctx, total), case, _facts(ctx, total, rate, limits, bound), warnings),)


def _is_flash(media: Media) -> bool:
    return media is not Media.HDD


def _pool_bytes(ctx: Context) -> int:
    """The buffer pool decided before this rule (the catalog default if none was decided)."""
    pool = ctx.decided.get(
        "innodb_buffer_pool_size", ctx.catalog.default("innodb_buffer_pool_size")
    )
    return int(pool) if isinstance(pool, int | float) else 128 * MIB


def _facts(
    ctx: Context, total: int, rate: float, limits: dict[str, float], bound: float
) -> dict[str, object]:
    media = ctx.profile.hardware.storage.media
    name, value = _knob(ctx, total)
    given = ctx.profile.workload.recovery_target_minutes is not None
    return {
        "total": bytes_for_people(total),
        "files": ""
        if name != "innodb_log_file_size" or _single_file(ctx)
        else f" (two files of {bytes_for_people(value)})",
        "rate": bytes_for_people(rate) + "/s",
        "pages": f"{ctx.capability.random_write_iops:,.0f}",
        "hour": bytes_for_people(limits["hour"]),
        "cap": bytes_for_people(limits["recovery"]),
        "data": bytes_for_people(ctx.profile.workload.data_size_bytes),
        "pool": bytes_for_people(_pool_bytes(ctx)),
        "dirty": bytes_for_people(limits["pool"]),
        "limit": f"your {bound:g}-minute recovery target"
        if given
        else f"the default {bound:g}-minute recovery limit",
        "per_gib": f"{RECOVERY_SECONDS_PER_GIB[media] / 60:g}",
        "media": _MEDIA_TEXT[media],
        "minutes": minutes_text(recovery_seconds(total, media)),
    }


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
_SIZING = (
    "It is sized to hold about an hour of peak log writes: this storage writes about {pages} "
    "pages/s, taken as up to {rate} of redo, {hour} an hour. "
)
# Each medium states and cites the replay rate it is sized at: disks Percona's ~5 minutes per GB,
# flash the ~1 to 2 minutes per GB of mysql-bug-81648 (one thread parses the log).
_REPLAY_DISK = (
    "Replay runs at roughly {per_gib} minutes per GB on {media}, so {limit} allows {cap}. "
)
_REPLAY_FLASH = (
    "Replay runs at roughly {per_gib} minutes per GB on {media}, where one thread parsing the "
    "log sets the pace, so {limit} allows {cap}. "
)
_EVIDENCE_COMMON = (
    Evidence(
        "callaghan-2011-odirect-log",
        "Large redo logs are used to cut page writes for fuzzy "
        "checkpoints; Callaghan notes crash recovery had become much faster.",
    ),
    Evidence(
        "baron-2008-log-size",
        "Size the redo log to hold about one hour of writes at peak.",
    ),
    Evidence(
        "mysqltuner-2025-redo-capacity",
        "MySQLTuner's fix for its users' issue sizes innodb_redo_log_capacity to hold at least "
        "an hour of the measured log writes, checked against the size of the InnoDB data.",
    ),
    Evidence("callaghan-2017-redo-log", "A larger redo log helps more on slower storage."),
)
_EVIDENCE_DISK = (
    Evidence(
        "percona-log-file-size-recovery",
        "Crash recovery took roughly 5 minutes per GB of log, with about 10x variance.",
    ),
)
_EVIDENCE_FLASH = (
    Evidence(
        "mysql-bug-81648",
        "About 10 GB of un-checkpointed redo took about 10 minutes to recover in MySQL 5.6 and "
        "twice as long in 5.7: 1 to 2 minutes per GB.",
    ),
    Evidence(
        "percona-2016-parallel-recovery",
        "Recovery parses the log in one thread, so many cores and fast SSDs do not shorten it.",
    ),
)
_EVIDENCE_JUDGEMENT = (
    Evidence(
        "advisor-engineering-judgement",
        "The peak log write rate is taken as one page of redo per page the storage can write; "
        "with no recovery target given, replay is kept within 30 minutes.",
    ),
)
_EVIDENCE_POOL = (
    Evidence(
        "mysql-manual-55-log-file-size",
        "The manual long advised keeping the whole redo log within the buffer pool's size; "
        "larger logs mean slower recovery.",
    ),
)
# (reason, what follows the sizing sentences, extra evidence) by case
_CASES: dict[str, tuple[str, str, tuple[Evidence, ...]]] = {
    "hour": (
        "{total}, about an hour of peak log writes; {limit} would allow {cap}; replay "
        "~{minutes} min",
        "An hour of writes is the smaller, so {total}{files}, which replays in about {minutes} "
        "minutes at worst.",
        (),
    ),
    "recovery-default": (
        "{total}, what {limit} allows (~{minutes} min to replay); an hour of peak writes "
        "would be {hour}",
        "So {total}{files}, about {minutes} minutes to replay at worst; give a recovery target "
        "to choose otherwise.",
        (),
    ),
    "recovery": (
        "{total}, what {limit} allows (~{minutes} min to replay); an hour of peak writes "
        "would be {hour}",
        "So {total}{files}, about {minutes} minutes to replay at worst; a larger log would help "
        "throughput but break the target.",
        (),
    ),
    "recovery-unmet": (
        "{total}, the practical minimum, still ~{minutes} min to replay: over {limit}",
        "Even the practical minimum of {total}{files} may take about {minutes} minutes to "
        "replay here: faster storage is needed to meet the target.",
        (),
    ),
    "data": (
        "{total}, no more than the {data} of data (an hour of peak writes: {hour}; "
        "{limit} allows {cap}); replay ~{minutes} min",
        "The data is only {data}, and a log larger than the data only lengthens recovery, so "
        "{total}{files}, about {minutes} minutes to replay.",
        (),
    ),
    "pool": (
        "{total}, no more than the {pool} buffer pool can hold dirty ({dirty}; an hour of peak "
        "writes: {hour}; {limit} allows {cap}); replay ~{minutes} min",
        "The {pool} buffer pool can hold at most {dirty} of changed pages, and once it is full "
        "of them InnoDB must flush whatever the log's size, so more redo would only lengthen "
        "recovery: {total}{files}, about {minutes} minutes to replay.",
        _EVIDENCE_POOL,
    ),
    "floor": (
        "{total}, the practical minimum (an hour of peak writes: {hour}; {data} of data); "
        "replay ~{minutes} min",
        "Below {total}{files} checkpoints would run almost constantly, so the log stays there; "
        "it replays in about {minutes} minutes.",
        (),
    ),
    "ceiling": (
        "{total}, the most this version accepts (an hour of peak writes: {hour}; {limit} "
        "allows {cap}); replay ~{minutes} min",
        "The version accepts at most {total}{files}, about {minutes} minutes to replay at worst.",
        (),
    ),
}


def _cases() -> dict[str, Case]:
    """Each case twice: on disks ("hour") and on flash ("hour-flash"), with its own rate."""
    cases: dict[str, Case] = {}
    for suffix, replay, cited in (
        ("-flash", _REPLAY_FLASH, _EVIDENCE_FLASH),
        ("", _REPLAY_DISK, _EVIDENCE_DISK),
    ):
        for name, (reason, ending, extra) in _CASES.items():
            cases[name + suffix] = Case(
                reason,
                _WHAT + _SIZING + replay + ending,
                _EVIDENCE_COMMON + cited + extra + _EVIDENCE_JUDGEMENT,
            )
    return cases


RULE = Rule(
    id="redo-log-hour-of-writes-within-recovery",
    setting="innodb_redo_log_capacity",
    kind="bytes",
    cases=_cases(),
    compute=compute,
)
