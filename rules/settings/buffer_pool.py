"""innodb_buffer_pool_size: the largest share of RAM that leaves room for connections and the OS."""

from rules.enums import Flavor
from rules.numbers import percent_text
from rules.result import Evidence
from rules.rule import Case, Context, Proposal, Rule
from rules.units import GIB, MIB, bytes_for_people, round_down

# mysql-manual-dedicated-server: innodb_dedicated_server gives the pool 75% of RAM above 4 GiB and
# 50% up to 4 GiB; mysql-manual-buffer-pool: 50 to 75% of RAM on a dedicated server.
SHARE_ABOVE_4_GIB = 0.75
SHARE_UP_TO_4_GIB = 0.50
SMALL_RAM_BYTES = 4 * GIB
# What stays outside the pool. Per connection: sort, join, read and read_rnd buffers plus the
# thread stack and network buffer at their defaults come to about 2 MiB (mysql-manual-memory).
PER_CONNECTION_BYTES = 2 * MIB
# The OS, the server's own structures and the page cache for redo/binlog: 512 MiB plus 5% of RAM
# (advisor-engineering-judgement; no published figure).
OS_RESERVE_BYTES = 512 * MIB
OS_RESERVE_SHARE = 0.05
CHUNK_BYTES = 128 * MIB  # innodb_buffer_pool_chunk_size default (catalog)
MIN_POOL_BYTES = 128 * MIB


def memory_budget(ram_bytes: int, concurrency: int) -> int:
    """Bytes kept outside the buffer pool."""
    return int(OS_RESERVE_BYTES + OS_RESERVE_SHARE * ram_bytes + PER_CONNECTION_BYTES * concurrency)


def _pool_alignment(ctx: Context, pool: int) -> int:
    """MySQL rounds the pool up to chunk x instances (8 instances from 1 GiB); round down first."""
    if ctx.profile.server.flavor is Flavor.MARIADB or pool < GIB:
        return CHUNK_BYTES
    cores = ctx.profile.hardware.cpu_cores
    if ctx.catalog.version.series >= (8, 4):  # 8.4: min(pool / (2 chunks), cores / 4), 1..64
        instances = max(1, min(pool // (2 * CHUNK_BYTES), cores // 4, 64))
    else:
        instances = 8
    return CHUNK_BYTES * instances


def compute(ctx: Context) -> tuple[Proposal, ...]:
    ram = ctx.profile.hardware.ram_bytes
    concurrency = ctx.profile.workload.concurrency
    share = SHARE_ABOVE_4_GIB if ram > SMALL_RAM_BYTES else SHARE_UP_TO_4_GIB
    budget = memory_budget(ram, concurrency)
    pool = int(min(ram * share, ram - budget))
    tight = pool < ram * share
    pool = max(MIN_POOL_BYTES, round_down(pool, _pool_alignment(ctx, pool)))
    data = ctx.profile.workload.data_size_bytes
    facts = {
        "pool": bytes_for_people(pool),
        "ram": bytes_for_people(ram),
        "pool_share": percent_text(pool / ram),  # the pool's real share, after rounding
        "share": percent_text(share),  # the share the sizing rule asks for
        "left": bytes_for_people(max(0, ram - pool)),  # what RAM minus the pool leaves
        "budget": bytes_for_people(budget),
        "concurrency": concurrency,
        "fit": "all" if pool >= data else percent_text(pool / data),
    }
    warnings: list[str] = []
    if pool + budget > ram:
        warnings.append(
            f"RAM is too small: {bytes_for_people(ram)} cannot hold even a minimal "
            f"{bytes_for_people(pool)} buffer pool plus {concurrency} connections."
        )
    if data > 10 * pool:
        warnings.append(
            f"The buffer pool holds only {percent_text(pool / data)} of the data: expect an "
            "IO-bound server; more RAM is the biggest single lever."
        )
    case = "tight" if tight else "share"
    return (Proposal("innodb_buffer_pool_size", pool, case, facts, tuple(warnings)),)


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
        "percona-2016-tpcc-samsung",
        "On one SATA SSD, tpcc went from 1,932 to 39,469 NOTPM as "
        "the pool grew from 5 to 115 GB: cache fit dominates IO-bound throughput.",
    ),
    Evidence(
        "advisor-engineering-judgement",
        "Outside the pool stay 512 MiB plus 5% of RAM for the OS and about 2 MiB per connection.",
    ),
)
_EXPLAIN = (
    "The buffer pool caches data and index pages; every page it holds is a read the disks do not "
    "do. It gets {pool}, {pool_share} of {ram}, enough for {fit} of the data. That leaves {left} "
    "outside it, where the OS and {concurrency} connections' buffers need about {budget}."
)
RULE = Rule(
    id="buffer-pool-ram-share",
    setting="innodb_buffer_pool_size",
    kind="bytes",
    cases={
        "share": Case(
            "{pool_share} of RAM, leaving {left} for the OS and connections",
            _EXPLAIN + " The manual's dedicated-server sizing gives the pool {share} of RAM, "
            "rounded down here to whole chunks.",
            _EVIDENCE,
        ),
        "tight": Case(
            "{pool_share} of RAM, limited by the memory {concurrency} connections and the OS need",
            _EXPLAIN + " The manual's dedicated-server share of {share} would not leave that "
            "room, so the pool is smaller.",
            _EVIDENCE,
        ),
    },
    compute=compute,
)
