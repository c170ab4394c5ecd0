"""How the buffer pool is split and cleaned: innodb_buffer_pool_instances, innodb_page_cleaners
and innodb_lru_scan_depth (MySQL and Percona Server; MariaDB 10.5 went back to one pool and one
page cleaner, and 10.6 removed the first two variables).
"""

from rules.inputs.enums import Flavor
from rules.machine.cpu import CONTAINER_AWARE_FROM, cores_text
from rules.machine.workload import WRITE_INTENSITY
from rules.output.result import Evidence
from rules.reference.defaults import io_capacity_max_default
from rules.rule import Case, Context, Proposal, Rule
from rules.units import GIB, MIB, bytes_for_people

INSTANCES = "innodb_buffer_pool_instances"
CLEANERS = "innodb_page_cleaners"
SCAN_DEPTH = "innodb_lru_scan_depth"
CHUNK_BYTES = 128 * MIB  # innodb_buffer_pool_chunk_size default (catalog)
# Each instance should get at least 1 GiB, and below a 1 GiB pool the server uses one instance
# (mysql-manual-buffer-pool-instances).
MIN_INSTANCE_BYTES = GIB
DEFAULT_INSTANCES_FROM_8_0 = 8  # MySQL 5.7/8.0 with a pool of 1 GiB or more (catalog)
MAX_INSTANCES = 64  # catalog maximum
# MySQL 8.4: the smaller of half the chunk count and a quarter of the logical CPUs, 1 to 64
# (mysql-manual-8-4-defaults).
CHUNKS_PER_INSTANCE_8_4 = 2
CORES_PER_INSTANCE_8_4 = 4


def server_instances(ctx: Context, pool: int) -> int:
    """The instance count the server chooses itself for a pool of `pool` bytes: from 8.4 by
    the logical CPUs it counts, a container's CPU limit only from 9.3 (rules.machine.cpu)."""
    if pool < MIN_INSTANCE_BYTES:
        return 1
    if ctx.catalog.version.series >= (8, 4):
        hardware = ctx.profile.hardware
        aware = ctx.catalog.version.series >= CONTAINER_AWARE_FROM
        cpus = hardware.thread_cores if aware else hardware.cpu_cores
        by_chunks = pool // (CHUNKS_PER_INSTANCE_8_4 * CHUNK_BYTES)
        return int(max(1, min(by_chunks, cpus // CORES_PER_INSTANCE_8_4, MAX_INSTANCES)))
    return DEFAULT_INSTANCES_FROM_8_0


def instances_for(ctx: Context, pool: int) -> int:
    """The instances we recommend: the server's own choice, but at least 1 GiB each; 1 where
    the version has a single pool (MariaDB). Under a CPU limit, no more than 8.4's quarter of
    the CPUs the limit allows, whatever the release (the host's cores would not serve them)."""
    if ctx.profile.server.flavor is Flavor.MARIADB or not ctx.catalog.exists(INSTANCES):
        return 1
    value = min(server_instances(ctx, pool), pool // MIN_INSTANCE_BYTES)
    hardware = ctx.profile.hardware
    if hardware.is_cpu_limited:
        value = min(value, hardware.thread_cores // CORES_PER_INSTANCE_8_4)
    return max(1, value)


def compute_instances(ctx: Context) -> tuple[Proposal, ...]:
    if ctx.profile.server.flavor is Flavor.MARIADB or not ctx.catalog.exists(INSTANCES):
        return ()
    pool = int(ctx.decided["innodb_buffer_pool_size"])
    value, server = instances_for(ctx, pool), server_instances(ctx, pool)
    case = "small" if pool < MIN_INSTANCE_BYTES else "server" if value == server else "per-gib"
    hardware = ctx.profile.hardware
    if case == "per-gib" and value < pool // MIN_INSTANCE_BYTES:  # the CPU limit bound it
        case = "cpu-limit"
    facts = {
        "cores": cores_text(hardware),
        "value": str(value),
        "noun": "instance" if value == 1 else "instances",
        "pool": bytes_for_people(pool),
        "server": str(server),
        "each": bytes_for_people(pool / value),
    }
    return (Proposal(INSTANCES, value, case, facts, default=server),)


def _instances_decided(ctx: Context) -> int:
    decided = ctx.decided.get(INSTANCES, 1)
    return int(decided)


def compute_cleaners(ctx: Context) -> tuple[Proposal, ...]:
    if not ctx.catalog.exists(CLEANERS) or ctx.profile.server.flavor is Flavor.MARIADB:
        return ()
    instances = _instances_decided(ctx)
    shipped = ctx.catalog.default(CLEANERS)
    # The server lowers page_cleaners to the instance count; 8.4 defaults to it.
    server = instances if shipped is None else min(int(shipped), instances)
    facts = {"value": str(instances), "server": str(server)}
    return (Proposal(CLEANERS, instances, "per-instance", facts, default=server),)


def compute_scan_depth(ctx: Context) -> tuple[Proposal, ...]:
    if not ctx.catalog.exists(SCAN_DEPTH) or ctx.profile.server.flavor is Flavor.MARIADB:
        return ()
    default = int(ctx.catalog.default(SCAN_DEPTH) or 1024)
    instances = _instances_decided(ctx)
    burst = int(ctx.decided.get("innodb_io_capacity_max", 0)) or io_capacity_max_default(
        ctx.catalog, int(ctx.decided.get("innodb_io_capacity", 200))
    )
    minimum = int(ctx.catalog.get(SCAN_DEPTH).minimum or 100)  # type: ignore[union-attr]
    writes = WRITE_INTENSITY[ctx.profile.workload.kind] >= 1
    value, case = default, "default" if writes else "reads"
    if writes and default * instances > burst:
        value, case = max(minimum, burst // instances), "within-burst"
        if value == minimum and burst // instances < minimum:
            case = "floor"
    facts = {
        "value": f"{value:,}",
        "stock": f"{default:,}",
        "instances": str(instances),
        "noun": "instance" if instances == 1 else "instances",
        "scan": f"{default * instances:,}",
        "burst": f"{burst:,}",
        "total": f"{value * instances:,}",
    }
    return (Proposal(SCAN_DEPTH, value, case, facts),)


_EV_INSTANCES = Evidence(
    "mysql-manual-buffer-pool-instances",
    "Several instances reduce contention on a pool of several gigabytes; each should get at "
    "least 1GB, and below a 1GB pool the server uses one.",
)
_EV_84 = Evidence(
    "mysql-manual-8-4-defaults",
    "MySQL 8.4 picks the instance count from the pool's chunks and a quarter of the CPUs.",
)
_EV_CONTAINER = Evidence(
    "mysql-manual-container-detection",
    "From MySQL 9.3 the server reads a container's CPU and memory limits and sizes the values "
    "it derives from the logical CPUs by them; earlier releases count the host's CPUs.",
)
_WHAT_INSTANCES = (
    "The buffer pool can be split into instances, each with its own lists and locks, so "
    "threads working on different pages do not queue for one mutex. "
)
RULE_INSTANCES = Rule(
    id="buffer-pool-instances-of-a-gib-or-more",
    setting=INSTANCES,
    kind="number",
    only_where_present=True,
    cases={
        "server": Case(
            "{value} {noun} of {each}, what the server picks itself for a {pool} pool",
            _WHAT_INSTANCES + "For a {pool} pool the server itself picks {server}, and each of "
            "them still gets {each}, above the 1 GiB the manual asks for, so {value} stays.",
            (_EV_INSTANCES, _EV_84),
        ),
        "per-gib": Case(
            "{value} {noun}, so each gets {each} (the server would pick {server})",
            _WHAT_INSTANCES + "For a {pool} pool the server would pick {server}, which would "
            "leave instances under the 1 GiB each the manual asks for; {value} {noun} of "
            "{each} each.",
            (_EV_INSTANCES, _EV_84),
        ),
        "cpu-limit": Case(
            "{value} {noun} for {cores} (the server would pick {server})",
            _WHAT_INSTANCES + "For a {pool} pool the server would pick {server}, counting "
            "the host's CPUs, but the server may use only {cores}: more instances than a "
            "quarter of those (MySQL 8.4's own proportion) would add page cleaners and "
            "locks the limit cannot run, so {value} {noun} of {each}.",
            (_EV_84, _EV_CONTAINER),
        ),
        "small": Case(
            "{value}: a {pool} pool is too small to split",
            _WHAT_INSTANCES + "Below a 1 GiB pool the server uses a single instance whatever "
            "is set, and a {pool} pool is below that, so {value}.",
            (_EV_INSTANCES,),
        ),
    },
    compute=compute_instances,
)
_EV_FLUSHING = Evidence(
    "mysql-manual-buffer-pool-flushing",
    "The server lowers innodb_page_cleaners to the number of buffer pool instances, which is "
    "its default from MySQL 8.4.",
)
RULE_CLEANERS = Rule(
    id="page-cleaners-one-per-instance",
    setting=CLEANERS,
    kind="number",
    only_where_present=True,
    cases={
        "per-instance": Case(
            "{value}, one per buffer pool instance (the server would run {server})",
            "Page cleaner threads write dirty pages out of the buffer pool instances in the "
            "background. One per instance, {value} here, lets every instance be cleaned at "
            "once; more would be cut back to the instance count, and the server on its own "
            "runs {server}.",
            (_EV_FLUSHING,),
        ),
    },
    compute=compute_cleaners,
)
_EV_DEPTH = Evidence(
    "mysql-manual-buffer-pool-flushing",
    "innodb_lru_scan_depth is per instance, so depth times instances is the cleaner's work "
    "each second; lower it when a write-heavy workload saturates the IO capacity.",
)
_WHAT_DEPTH = (
    "Each second the page cleaner scans this many pages from the cold end of every buffer pool "
    "instance's LRU list, writing out the dirty ones so that free pages are ready for reads. "
)
RULE_SCAN_DEPTH = Rule(
    id="lru-scan-depth-within-the-write-budget",
    setting=SCAN_DEPTH,
    kind="number",
    cases={
        "default": Case(
            "{value}, the default: {instances} {noun} scan {scan} pages/s, within the "
            "{burst} writes/s flushing may burst to",
            _WHAT_DEPTH + "At the default {stock} the {instances} {noun} scan {scan} "
            "pages a second, no more than the {burst} page writes a second "
            "innodb_io_capacity_max allows, so the default stays.",
            (_EV_DEPTH,),
        ),
        "reads": Case(
            "{value}, the default: a read-mostly server dirties few pages",
            _WHAT_DEPTH + "A read-mostly server dirties few pages, so there is little for the "
            "scan to write and the default {stock} stays.",
            (_EV_DEPTH,),
        ),
        "within-burst": Case(
            "{value} per instance: {instances} x {value} = {total} pages/s stays within the "
            "{burst} writes/s of innodb_io_capacity_max",
            _WHAT_DEPTH + "At the default {stock} the {instances} {noun} would scan "
            "{scan} pages a second, more than the {burst} page writes a second "
            "innodb_io_capacity_max allows this storage. The manual advises a lower depth when "
            "writes saturate the storage, so {value} per instance, {total} pages a second.",
            (_EV_DEPTH,),
        ),
        "floor": Case(
            "{value}, the lowest the server accepts ({instances} {noun}, {burst} writes/s "
            "for bursts)",
            _WHAT_DEPTH + "At the default {stock} the {instances} {noun} would scan "
            "{scan} pages a second against only {burst} page writes a second for bursts; even "
            "the server's minimum, {value} per instance ({total} pages a second), is more.",
            (_EV_DEPTH,),
        ),
    },
    compute=compute_scan_depth,
)
