"""innodb_log_writer_threads and innodb_use_fdatasync: how MySQL writes and syncs its redo log
(MySQL and Percona Server only: 8.0.22 and 8.0.26 on; MariaDB has neither variable)."""

from rules.machine.cpu import cores_text
from rules.output.result import Evidence
from rules.reference.defaults import default_note
from rules.rule import Case, Context, Proposal, Rule

WRITER_THREADS = "innodb_log_writer_threads"
FDATASYNC = "innodb_use_fdatasync"
# With the binary log on (MySQL's default from 8.0) the server itself runs dedicated log writer
# threads only from 32 logical CPUs (mysql-manual-9-5-log-writer-threads: "same as in MySQL 9.4
# and earlier"); the manual: they help high-concurrency systems and cost low-concurrency ones
# (mysql-manual-redo-logging).
WRITER_THREADS_FROM_CORES = 32


def compute_writer_threads(ctx: Context) -> tuple[Proposal, ...]:
    if not ctx.catalog.exists(WRITER_THREADS):
        return ()
    hardware = ctx.profile.hardware
    many = hardware.thread_cores >= WRITER_THREADS_FROM_CORES  # a CPU limit below the cores
    facts = {"cores": cores_text(hardware), "threshold": str(WRITER_THREADS_FROM_CORES)}
    return (Proposal(WRITER_THREADS, "ON" if many else "OFF", "on" if many else "off", facts),)


def compute_fdatasync(ctx: Context) -> tuple[Proposal, ...]:
    if not ctx.catalog.exists(FDATASYNC):
        return ()
    return (
        Proposal(FDATASYNC, "ON", "on", {"default": default_note(ctx.catalog, FDATASYNC, "ON")}),
    )


_WHAT = (
    "With log writer threads ON, dedicated threads copy the log buffer to the redo files and "
    "sync them, and committing threads wait for them; with OFF each committing thread writes "
    "and syncs the redo itself. "
)
_EV_MANUAL = Evidence(
    "mysql-manual-redo-logging",
    "Dedicated log writer threads can help high-concurrency systems; on low-concurrency "
    "systems turning them off performs better.",
)
_EV_DEFAULT = Evidence(
    "mysql-manual-9-5-log-writer-threads",
    "With the binary log on, the server starts them only from 32 logical CPUs, as MySQL did up "
    "to 9.4.",
)
RULE_WRITER_THREADS = Rule(
    id="log-writer-threads-from-core-count",
    setting=WRITER_THREADS,
    kind="enum",
    only_where_present=True,
    cases={
        "on": Case(
            "ON: {cores} keep enough commits in flight for dedicated log writers",
            _WHAT + "The hand-off pays when many threads commit at once on many cores; with "
            "{cores}, at or above the {threshold} from which the server itself turns "
            "them on when the binary log is written, they stay ON.",
            (_EV_MANUAL, _EV_DEFAULT),
        ),
        "off": Case(
            "OFF: on {cores} the hand-off to log writer threads costs more than it saves",
            _WHAT + "On few cores the hand-off between threads costs more than it saves; below "
            "{threshold} logical CPUs the server itself leaves them off when the binary log is "
            "written, and {cores} is below that. It is written explicitly because the "
            "default is worked out at startup.",
            (_EV_MANUAL, _EV_DEFAULT),
        ),
    },
    compute=compute_writer_threads,
)
RULE_FDATASYNC = Rule(
    id="fdatasync-for-redo-and-data-syncs",
    setting=FDATASYNC,
    kind="enum",
    only_where_present=True,
    cases={
        "on": Case(
            "ON{default}: sync the data without the file metadata it does not need",
            "InnoDB syncs the redo log at commit and the data files after page writes. "
            "fdatasync() makes the data durable like fsync() but skips metadata such as the "
            "modification time unless it is needed to read the data back, so a sync may write "
            "less. It keeps the same guarantee with every flush method, so ON{default}.",
            (
                Evidence(
                    "mysql-manual-use-fdatasync",
                    "fdatasync() skips file metadata that is not needed to read the data back; "
                    "MySQL 8.4 turned the option on by default.",
                ),
            ),
        ),
    },
    compute=compute_fdatasync,
)
