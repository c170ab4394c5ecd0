"""innodb_read_io_threads and innodb_write_io_threads: background threads issuing async IO."""

from rules.inputs.enums import Flavor, Media
from rules.machine.cpu import cores_text
from rules.output.result import Evidence
from rules.rounding import clamp
from rules.rule import Case, Context, Proposal, Rule

# MySQL 8.4 defaults read threads to clamp(cores / 2, 4, 64) (mysql-manual-8-4-defaults).
READ_THREADS_PER_CORE = 0.5
MIN_THREADS = 4  # the server default before 8.4 (catalog)
MAX_THREADS = 64  # catalog maximum
# Fast flash needs many concurrent writes: Percona's NVMe runs used 16 write threads with 16 read
# threads (percona-2026-bp-sweep) and FusionIO needed several IO threads
# (percona-2010-fast-storage).
NVME_WRITE_THREADS_CAP = 16


def compute_read(ctx: Context) -> tuple[Proposal, ...]:
    hardware = ctx.profile.hardware
    cores = hardware.thread_cores  # a container's CPU limit, when below the host's cores
    value = int(clamp(cores * READ_THREADS_PER_CORE, MIN_THREADS, MAX_THREADS))
    facts = {
        "cores": cores_text(hardware),
        "value": value,
        "slots": value * 256,
        **_flavor_facts(ctx),
    }
    case = "floor" if cores * READ_THREADS_PER_CORE < MIN_THREADS else "cores"
    if ctx.profile.server.flavor is Flavor.MARIADB and case == "cores":
        case = "cores-mariadb"  # MySQL's formula, said to be borrowed, not MariaDB's own
    return (Proposal("innodb_read_io_threads", value, case, facts),)


def compute_write(ctx: Context) -> tuple[Proposal, ...]:
    read = int(ctx.decided["innodb_read_io_threads"])
    media = ctx.profile.hardware.storage.media
    value = min(read, NVME_WRITE_THREADS_CAP) if media is Media.NVME else MIN_THREADS
    case = "nvme" if media is Media.NVME else "default"
    facts = {"value": value, "slots": value * 256, **_flavor_facts(ctx)}
    return (Proposal("innodb_write_io_threads", value, case, facts),)


def _flavor_facts(ctx: Context) -> dict[str, str]:
    spec = ctx.catalog.get("innodb_read_io_threads")
    dynamic = spec is not None and spec.dynamic
    return {"restart": "can be changed at run time" if dynamic else "takes effect after a restart"}


_MANUAL = Evidence(
    "mysql-manual-io-threads",
    "Each IO thread handles up to 256 pending IOs; the "
    "manual suggests more read threads when pending reads exceed 64 per thread.",
)
RULE_READ = Rule(
    id="read-io-threads-from-cores",
    setting="innodb_read_io_threads",
    kind="number",
    cases={
        "floor": Case(
            "4, the server default: {cores} could not use more",
            "Read IO threads issue InnoDB's asynchronous reads (read-ahead, prefetch); "
            "{value} threads allow {slots} reads in flight, plenty for {cores}. MySQL "
            "8.4 gives half the cores but never fewer than 4; it {restart}.",
            (
                Evidence(
                    "mysql-manual-8-4-defaults",
                    "MySQL 8.4 defaults innodb_read_io_threads to half the logical CPUs, "
                    "from 4 to 64.",
                ),
                _MANUAL,
            ),
        ),
        "cores-mariadb": Case(
            "half of {cores} (4 to 64), the rule MySQL 8.4 adopted; MariaDB ships 4",
            "Read IO threads issue InnoDB's asynchronous reads (read-ahead, prefetch); "
            "{value} threads allow {slots} reads in flight. MariaDB ships 4 whatever the "
            "cores; half the cores, between 4 and 64, is "
            "the rule MySQL 8.4 adopted for its default, borrowed here; it {restart}.",
            (
                Evidence(
                    "mysql-manual-8-4-defaults",
                    "MySQL 8.4 (not MariaDB) defaults innodb_read_io_threads to half the "
                    "logical CPUs, from 4 to 64.",
                ),
                _MANUAL,
            ),
        ),
        "cores": Case(
            "half of {cores} (4 to 64), MySQL 8.4's own formula",
            "Read IO threads issue InnoDB's asynchronous reads (read-ahead, prefetch); "
            "{value} threads allow {slots} reads in flight. Half the cores, between 4 "
            "and 64, is the default MySQL 8.4 chose; it {restart}.",
            (
                Evidence(
                    "mysql-manual-8-4-defaults",
                    "MySQL 8.4 defaults "
                    "innodb_read_io_threads to half the logical CPUs, from 4 to 64.",
                ),
                _MANUAL,
            ),
        ),
    },
    compute=compute_read,
)
RULE_WRITE = Rule(
    id="write-io-threads-by-media",
    setting="innodb_write_io_threads",
    kind="number",
    cases={
        "default": Case(
            "4 write threads keep {slots} page writes in flight, enough for disks",
            "Write IO threads carry the page flushes. Four threads allow {slots} "
            "writes in flight, more than spinning disks or SATA flash can queue, "
            "and match what Callaghan ran on ten disks; it {restart}.",
            (
                _MANUAL,
                Evidence(
                    "callaghan-2008-insert",
                    "Callaghan ran 4 read and 4 write IO threads on a ten-disk RAID0.",
                ),
                Evidence(
                    "callaghan-2009-google-wiki",
                    "One background writer thread is "
                    "the bottleneck when write latency is high; several threads "
                    "remove it.",
                ),
            ),
        ),
        "nvme": Case(
            "as many as the read threads (up to 16): NVMe serves many writes at once",
            "Write IO threads carry the page flushes. NVMe completes many writes in "
            "parallel, so {value} threads ({slots} writes in flight), as in Percona's "
            "NVMe runs; it {restart}.",
            (
                _MANUAL,
                Evidence(
                    "percona-2026-bp-sweep",
                    "Percona's NVMe tpcc runs used 16 read and 16 write IO threads.",
                ),
                Evidence(
                    "percona-2010-fast-storage",
                    "Several IO threads were needed to get the most from FusionIO flash.",
                ),
            ),
        ),
    },
    compute=compute_write,
)
