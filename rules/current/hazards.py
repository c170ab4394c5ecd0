"""Today's values that can lose commits or outgrow the memory, judged against the profile: one
test each, shared by the recommendation's warnings (rules.current.audit) and check mode
(rules.check), so the two say the same thing about the same paste.

Each returns (variable, warning) pairs. Pure: the profile and the version's catalog in.
"""

from rules.current.binlog import binary_log_on
from rules.current.server_numbers import parse_number
from rules.current.values import current_value
from rules.inputs.enums import Durability
from rules.inputs.profile import Profile
from rules.machine.memory import memory_budget
from rules.reference.catalog import ServerCatalog
from rules.units import GIB, bytes_for_config, bytes_for_people

# Full durability needs the redo log synced at every commit (MySQL 8.4 Reference Manual, 17.14
# "InnoDB Startup Options and System Variables", innodb_flush_log_at_trx_commit,
# https://dev.mysql.com/doc/refman/8.4/en/innodb-parameters.html#sysvar_innodb_flush_log_at_trx_commit:
# "The default setting of 1 is required for full ACID compliance"); MariaDB's 3 also syncs at
# commit (mariadb-docs-flush-log-at-trx-commit: "1 and 3 guarantees that after a crash,
# committed transactions will not be lost").
DURABLE_TRX_COMMIT = frozenset({1, 3})
# With 0 or 2 the log is synced about once a second, every innodb_flush_log_at_timeout seconds
# (1 by default): "up to one second of transactions can be lost in a crash" (same manual entry).
# 0 writes the log only then, so a crash of mysqld alone loses them; 2 writes it to the OS at each
# commit, so only an OS crash or a power cut does (mariadb-docs-flush-log-at-trx-commit: "2 can
# ... lose transactions if there is a power failure or kernel crash but not if mysqld crashes").
RELAXED_TRX_COMMIT = {
    0: "writes and syncs the redo log only about once a second, not at commit: a crash of "
    "mysqld alone can lose up to about a second of commits",
    2: "writes the redo log at commit but syncs it only about once a second: an OS crash or a "
    "power cut can lose up to about a second of commits",
}
# sync_binlog 1 syncs the binary log before each commit group; 0 leaves it to the OS and N > 1
# syncs every N groups, so "in the event of a power failure or operating system crash" the server
# may have committed transactions the binary log lacks (MySQL 8.4 Reference Manual, 19.1.6.4,
# sync_binlog, https://dev.mysql.com/doc/refman/8.4/en/replication-options-binary-log.html).
DURABLE_SYNC_BINLOG = 1


def relaxed_durability(profile: Profile) -> list[tuple[str, str]]:
    """Pasted flushing that loses commits on a crash, when the profile asks for full
    durability; sync_binlog only where a binary log is written (without one it syncs nothing)."""
    current = profile.current
    if current is None or profile.workload.durability is not Durability.FULL:
        return []
    found = []
    text = current.variables.get("innodb_flush_log_at_trx_commit")
    value = parse_number(text) if text is not None else None
    if value is not None and value not in DURABLE_TRX_COMMIT:
        risk = RELAXED_TRX_COMMIT.get(int(value), RELAXED_TRX_COMMIT[0])
        found.append(
            (
                "innodb_flush_log_at_trx_commit",
                f"innodb_flush_log_at_trx_commit = {text} {risk} the clients were told had "
                "succeeded, and the profile asks for full durability: set 1.",
            )
        )
    text = current.variables.get("sync_binlog")
    value = parse_number(text) if text is not None else None
    if value is not None and value != DURABLE_SYNC_BINLOG and binary_log_on(profile):
        found.append(
            (
                "sync_binlog",
                f"sync_binlog = {text} does not sync the binary log at every commit: an OS "
                "crash or a power cut can lose commits from it that InnoDB kept, so replicas "
                "and point-in-time recovery miss them, and the profile asks for full "
                f"durability: set {DURABLE_SYNC_BINLOG}.",
            )
        )
    return found


def pool_over_memory(profile: Profile, catalog: ServerCatalog) -> list[tuple[str, str]]:
    """A pasted buffer pool that, with what the server needs beside it (rules.machine.memory),
    is more than the server may use: the RAM, or a container's lower memory limit. Past a
    cgroup's memory.max "the OOM killer is invoked in the cgroup" (Linux cgroup v2,
    https://docs.kernel.org/admin-guide/cgroup-v2.html, memory.max), whatever the host's RAM."""
    name = "innodb_buffer_pool_size"
    current = profile.current
    text = None if current is None else current.variables.get(name)
    pool = parse_number(text) if text is not None and catalog.exists(name) else None
    if current is None or pool is None:
        return []
    log_spec = catalog.get("innodb_log_buffer_size")
    log_text = current_value(current, log_spec, catalog)[0] if log_spec is not None else None
    log_buffer = parse_number(log_text) if log_text is not None else None
    budget = memory_budget(profile, catalog, int(log_buffer or 0))
    memory = profile.hardware.memory_bytes  # a lower memory limit is what the server may use
    if pool + budget.total <= memory:
        return []
    limited = profile.hardware.is_memory_limited
    room = f"{bytes_for_people(memory)} " + ("memory limit" if limited else "of RAM")
    if pool > memory:
        whose = "the container's" if limited else "the host's"
        return [
            (
                name,
                f"{name}={bytes_for_config(int(pool))} is larger than {whose} {room}: once the "
                "pool fills, the server will be killed for running out of memory (or page "
                "heavily, where swap is allowed). Lower it (see the recommended value).",
            )
        ]
    return [
        (
            name,
            f"{name} = {text}: a {bytes_for_people(int(pool))} buffer pool plus what the server "
            f"needs beside it ({budget.total / GIB:.1f} GiB: the OS, the log buffer and "
            f"{profile.workload.concurrency:,} connections' buffers) is more than the {room}: "
            f"the {'container' if limited else 'host'} can run out of memory and the server be "
            "killed.",
        )
    ]
