"""innodb_buffer_pool_size: the largest share of RAM that leaves room for connections and the OS.

The share follows the manual's sizing for a dedicated server (75% of RAM above 4 GiB, 50% up to
4 GiB), except that on large hosts a fixed reserve replaces the 25%; then the pool, the log
buffer, every connection's buffers, temporary tables, the server's caches and an OS reserve must
fit in RAM, and the pool gives way, but never below a floor of 20% of RAM: past that the
connections are what must change, and the warning says how (rules/settings/memory_fixes.py).
"""

from rules.inputs.profile import Profile
from rules.machine.memory import Budget, memory_budget
from rules.output.result import Evidence
from rules.reference.apply import pool_without_chunks
from rules.rounding import percent_text
from rules.rule import Case, Context, Proposal, Rule
from rules.settings.log_buffer import log_buffer_bytes
from rules.settings.memory_fixes import Fix, connection_fixes
from rules.settings.page_cleaning import CHUNK_BYTES, instances_for
from rules.units import GIB, MIB, bytes_for_people, round_down

# mysql-manual-dedicated-server: innodb_dedicated_server gives the pool 75% of RAM above 4 GiB and
# 50% up to 4 GiB (128 MiB below 1 GiB); mysql-manual-buffer-pool: 50 to 75% of RAM.
SHARE_ABOVE_4_GIB = 0.75
SHARE_UP_TO_4_GIB = 0.50
SMALL_RAM_BYTES = 4 * GIB
DEDICATED_SIZING_FROM_BYTES = GIB  # below 1 GiB innodb_dedicated_server keeps the 128 MiB default
# On large hosts 25% of RAM is far more than the OS and connections use (percona-2015-bp-80-
# percent; grippa-2023-80-percent-rule: 51 GB idle on 256 GB), so at most 16 GiB stays outside
# the pool by the share rule; the budget below still has to fit. 16 GiB is 25% of 64 GiB, where
# the two meet (advisor-engineering-judgement for the figure itself).
LARGE_HOST_RESERVE_BYTES = 16 * GIB
MIN_POOL_BYTES = 128 * MIB
# The pool never goes below 20% of RAM to make room for connections: a cache that small makes
# every query slower to protect a peak that lower session buffers, fewer connections or a thread
# pool prevent instead (advisor-engineering-judgement; mysql-manual-buffer-pool asks 50 to 75%).
POOL_FLOOR_SHARE = 0.20
# MariaDB 10.11.12, 11.4.6 and 11.8.2 removed the chunks (MDEV-29445): innodb_buffer_pool_chunk_size
# is deprecated and ignored, and innodb_buffer_pool_size has a block size of 1 MiB (MariaDB KB,
# "InnoDB System Variables": innodb_buffer_pool_chunk_size, innodb_buffer_pool_size; the catalog's
# block_size, checked on mariadbd 10.11.19).
CHUNKLESS_UNIT_BYTES = MIB


def pool_unit(ctx: Context, pool: int) -> int:
    """What the server keeps the pool a multiple of: chunks times instances (MySQL, Percona,
    MariaDB before MDEV-29445), or 1 MiB where the release has no chunks."""
    server = ctx.profile.server
    if pool_without_chunks(server.flavor, ctx.catalog.version):
        return CHUNKLESS_UNIT_BYTES
    return CHUNK_BYTES * instances_for(ctx, max(pool, 0))


def pool_floor(ctx: Context, ram: int) -> int:
    """20% of RAM (at least the 128 MiB minimum), rounded up to the server's unit."""
    floor = max(MIN_POOL_BYTES, int(ram * POOL_FLOOR_SHARE))
    unit = pool_unit(ctx, floor)
    return -(-floor // unit) * unit


def target_pool(ram: int) -> tuple[int, str]:
    """(the pool the sizing rule asks for, "share" or "large")."""
    share = SHARE_ABOVE_4_GIB if ram > SMALL_RAM_BYTES else SHARE_UP_TO_4_GIB
    by_share = int(ram * share)
    if ram - LARGE_HOST_RESERVE_BYTES > by_share:
        return ram - LARGE_HOST_RESERVE_BYTES, "large"
    return by_share, "share"


def budget_for(ctx: Context) -> Budget:
    return memory_budget(ctx.profile, ctx.catalog, log_buffer_bytes(ctx))


def memory_words(ctx: Context) -> tuple[str, str]:
    """("RAM", "128 GiB"), or under a lower memory limit ("the memory limit", "the 8 GiB memory
    limit (the host has 128 GiB of RAM)"): what every memory-sized value is a share of."""
    hardware = ctx.profile.hardware
    if not hardware.is_memory_limited:
        return "RAM", bytes_for_people(hardware.ram_bytes)
    return "the memory limit", (
        f"the {bytes_for_people(hardware.memory_bytes)} memory limit (the host has "
        f"{bytes_for_people(hardware.ram_bytes)} of RAM)"
    )


def compute(ctx: Context) -> tuple[Proposal, ...]:
    ram = ctx.profile.hardware.memory_bytes
    target, case = target_pool(ram)
    budget = budget_for(ctx)
    floor = min(pool_floor(ctx, ram), target)
    pool = min(target, ram - budget.total)
    if pool < target:
        case = "tight"
    pool = round_down(pool, pool_unit(ctx, pool))
    if pool <= floor:
        # the floor itself may still fit (rounding took the pool below it): then it is "tight"
        case = "floor" if case == "tight" and ram - budget.total < floor else case
        pool = floor
    fixes = connection_fixes(ctx.profile, ctx.catalog, budget) if case in _SQUEEZED else []
    warnings = _squeezed(ctx, case, pool, target, budget, fixes)
    cache_fit = cache_fit_warning(ctx.profile, pool)
    if cache_fit:
        warnings.append(cache_fit)
    remedy = _fix_text(fixes) or f"more {_lever(ctx)} or fewer clients"
    facts = _facts(ctx, pool, target, budget) | {
        "remedy": remedy,
        "fix_sentence": f" What fixes it is on the connections' side: {remedy}." if fixes else "",
    }
    return (Proposal("innodb_buffer_pool_size", pool, case, facts, tuple(warnings)),)


_SQUEEZED = frozenset({"tight", "floor"})


def _squeezed(
    ctx: Context, case: str, pool: int, target: int, budget: Budget, fixes: list[Fix]
) -> list[str]:
    """The warning when connections take the pool's room: what they need, and what fixes it."""
    ram = ctx.profile.hardware.memory_bytes
    if case not in _SQUEEZED or (case == "tight" and not fixes):
        return []
    memory, memory_text = memory_words(ctx)
    needs = (
        f"{ctx.profile.workload.concurrency:,} connections may take "
        f"{bytes_for_people(budget.sessions)} ({bytes_for_people(budget.per_session)} each), "
        f"and the server needs {bytes_for_people(budget.total)} beside the pool in all"
    )
    remedy = _fix_text(fixes) or f"more {_lever(ctx)} or fewer clients"
    if case == "floor":
        return [
            f"{_capital(memory)} is too small for what this server may allocate: {needs}, "
            f"which leaves no room for a buffer pool in {memory_text}. The pool is kept at "
            f"{bytes_for_people(pool)} ({percent_text(pool / ram)} of {memory}, its floor) "
            f"rather than starved, so the connections must change: {remedy}."
        ]
    return [
        f"The buffer pool gets {bytes_for_people(pool)} instead of the "
        f"{bytes_for_people(target)} the sizing rule asks, because {needs}. To give it back: "
        f"{remedy}."
    ]


def _fix_text(fixes: list[Fix]) -> str:
    return "; ".join(fix.text for fix in fixes)


def _capital(text: str) -> str:
    return text[:1].upper() + text[1:]


def _lever(ctx: Context) -> str:
    return _lever_of(ctx.profile)


def _lever_of(profile: Profile) -> str:
    return "memory (a higher limit)" if profile.hardware.is_memory_limited else "RAM"


# Past this many times the pool, the data cannot be cached: most reads miss the pool.
DATA_PER_POOL_UNCACHED = 10
CPU_BOTTLENECK = "CPU"  # calibration.model.BOTTLENECKS[0]: the estimate's name when the CPU binds


def cache_fit_warning(profile: Profile, pool: int, bottleneck: str | None = None) -> str:
    """The warning when the data is many times the pool (empty when it is not). The rule says
    "expect an IO-bound server"; once the estimate is known (`bottleneck`, the recommended
    estimate's), the engine asks again so that the warning and the estimate give one diagnosis
    (issue #42): where the CPU binds first, the warning says so instead."""
    data = profile.workload.data_size_bytes
    if data <= DATA_PER_POOL_UNCACHED * pool:
        return ""
    held = f"The buffer pool holds only {percent_text(pool / data)} of the data"
    if bottleneck == CPU_BOTTLENECK:
        return (
            f"{held}, so most reads miss it; this storage answers them fast enough that the "
            f"CPU binds first (the estimate's bottleneck): more {_lever_of(profile)} would "
            "save reads but add little throughput."
        )
    return (
        f"{held}: expect an IO-bound server; more {_lever_of(profile)} is the biggest single lever."
    )


def _facts(ctx: Context, pool: int, target: int, budget: Budget) -> dict[str, object]:
    ram, data = ctx.profile.hardware.memory_bytes, ctx.profile.workload.data_size_bytes
    memory, memory_text = memory_words(ctx)
    share = SHARE_ABOVE_4_GIB if ram > SMALL_RAM_BYTES else SHARE_UP_TO_4_GIB
    dedicated = ctx.catalog.exists("innodb_dedicated_server") and ram >= DEDICATED_SIZING_FROM_BYTES
    return {
        "pool": bytes_for_people(pool),
        "ram": memory_text,
        "memory": memory,
        "pool_share": percent_text(pool / ram),  # the pool's real share, after rounding
        "share": percent_text(share),  # the share the sizing rule asks for
        "quarter": bytes_for_people(ram * (1 - share)),  # what the share would leave out
        "reserve": bytes_for_people(LARGE_HOST_RESERVE_BYTES),
        "target": bytes_for_people(target),
        "left": bytes_for_people(max(0, ram - pool)),  # what RAM minus the pool leaves
        "budget": bytes_for_people(budget.total),
        "os": bytes_for_people(budget.os_reserve),
        "log_buffer": bytes_for_people(budget.log_buffer),
        "per_session": bytes_for_people(budget.per_session),
        "sessions": bytes_for_people(budget.sessions),
        "concurrency": ctx.profile.workload.concurrency,
        "caches": bytes_for_people(budget.caches),
        "session_kinds": "sort, join and read buffers"
        if budget.temp_tables
        else "sort, join and read buffers and in-memory temporary table",
        "temp_clause": f", {bytes_for_people(budget.temp_tables)} for in-memory temporary "
        "tables (TempTable holds them for all connections together)"
        if budget.temp_tables
        else "",
        "floor": percent_text(POOL_FLOOR_SHARE),
        "rounding": _rounding_text(ctx),
        "fit": "all" if pool >= data else percent_text(pool / data),
        "sizing": "The manual's dedicated-server sizing (what innodb_dedicated_server does)"
        if dedicated
        else "The usual sizing for a host dedicated to the database",
    }


def _rounding_text(ctx: Context) -> str:
    if pool_without_chunks(ctx.profile.server.flavor, ctx.catalog.version):
        return "whole MiB (this release has no buffer pool chunks any more)"
    return "whole chunks"


_EVIDENCE = (
    Evidence(
        "mysql-manual-buffer-pool",
        "The manual suggests 50 to 75% of RAM for the buffer pool on a server dedicated to MySQL.",
    ),
    Evidence(
        "mysql-manual-dedicated-server",
        "innodb_dedicated_server sizes the pool at 75% of RAM above 4 GB and 50% up to 4 GB.",
    ),
    Evidence(
        "mysql-manual-memory",
        "Each connection may allocate its sort, join and read buffers and an in-memory "
        "temporary table, so memory grows with the number of busy connections.",
    ),
    Evidence(
        "percona-2016-tpcc-samsung",
        "On one SATA SSD, tpcc went from 1,932 to 39,469 NOTPM as "
        "the pool grew from 5 to 115 GB: cache fit dominates IO-bound throughput.",
    ),
    Evidence(
        "advisor-engineering-judgement",
        "Outside the pool stay 512 MiB plus 5% of RAM for the OS and the server's own "
        "structures, and on large hosts the share rule keeps at most 16 GiB out of the pool.",
    ),
)
_EV_TEMP = (
    Evidence(
        "mysql-manual-internal-temporary-tables",
        "On MySQL 8.0 and later, TempTable holds in-memory internal temporary tables under one "
        "cap for all sessions together, temptable_max_ram (1 GiB by default), before spilling "
        "to disk; with the MEMORY engine each table is limited to the smaller of tmp_table_size "
        "and max_heap_table_size.",
    ),
    Evidence(
        "mariadb-docs-tmp-table-size",
        "MariaDB keeps an in-memory internal temporary table as a MEMORY table of up to the "
        "smaller of tmp_table_size and max_heap_table_size, each session its own.",
    ),
    Evidence(
        "mysql-manual-84-temptable-max-ram",
        "From MySQL 8.4 temptable_max_ram defaults to 3% of the server's memory, 1 to 4 GiB.",
    ),
    Evidence(
        "mysql-manual-performance-schema-memory",
        "performance_schema allocates as the load grows and never frees while the server runs.",
    ),
)
_EV_FIXES = (
    Evidence(
        "mariadb-docs-thread-pool",
        "A thread pool keeps about one active thread per CPU instead of one per client.",
    ),
    Evidence(
        "percona-docs-thread-pool",
        "Percona Server's thread pool reuses a fixed set of threads for many client sessions.",
    ),
)
_EV_LARGE = (
    Evidence(
        "percona-2015-bp-80-percent",
        "A fixed share of RAM ignores what actually uses memory, and on large hosts leaves far "
        "more idle than the OS and connections need.",
    ),
    Evidence(
        "grippa-2023-80-percent-rule",
        "The 80% rule leaves 51 GB idle on a 256 GB server and 205 GB on a 1 TB one.",
    ),
)
_EXPLAIN = (
    "The buffer pool caches data and index pages; every page it holds is a read the disks do not "
    "do. It gets {pool}, {pool_share} of {ram}, enough for {fit} of the data. That leaves {left} "
    "outside it, where the server needs about {budget}: {os} for the OS and its own "
    "structures, a {log_buffer} log buffer, {caches} for performance_schema, the key buffer and "
    "the table cache{temp_clause}, and {sessions} for {concurrency} connections whose "
    "{session_kinds} may reach {per_session} a connection."
)
RULE = Rule(
    id="buffer-pool-ram-share",
    setting="innodb_buffer_pool_size",
    kind="bytes",
    cases={
        "share": Case(
            "{pool_share} of {memory}, leaving {left} for the OS and connections",
            _EXPLAIN + " {sizing} gives the pool {share} of {memory}, rounded down here to "
            "{rounding}.",
            _EVIDENCE,
        ),
        "large": Case(
            "{pool_share} of {memory}: on a host this large a fixed {reserve} stays outside the "
            "pool",
            _EXPLAIN + " {sizing} would give the pool {share} of {memory} and leave {quarter} out "
            "of it, far more than the OS and connections use on a host this large; a fixed "
            "{reserve} is kept out instead, so the pool gets {target}, rounded down to {rounding}.",
            _EVIDENCE + _EV_LARGE,
        ),
        "tight": Case(
            "{pool_share} of {memory}, lowered so that the memory {concurrency} connections and "
            "the OS need fits",
            _EXPLAIN + " The sizing rule would give the pool {target}, which would not leave "
            "that room, so the pool is lowered to fit in {memory}.{fix_sentence}",
            _EVIDENCE + _EV_TEMP,
        ),
        "floor": Case(
            "{pool_share} of {memory}, its floor: even beside that, what the connections and "
            "the OS need does not fit, and that is what must change",
            _EXPLAIN + " The sizing rule would give the pool {target}, but what the server needs "
            "beside it leaves less than {floor} of {memory}; a smaller cache would slow every "
            "query to protect a peak, so the pool stays at its floor of {floor} of {memory}, "
            "and what fixes the overflow is: {remedy}.",
            _EVIDENCE + _EV_TEMP + _EV_FIXES,
        ),
    },
    compute=compute,
)
