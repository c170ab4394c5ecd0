"""What a server needs in RAM (or under its memory limit, when lower) besides the buffer pool:
the OS, the log buffer, and the buffers every connection may allocate at once.

Per connection the sort, join and read buffers and an in-memory temporary table may each grow to
their limit (mysql-manual-memory); the limits are the pasted current values where given, else the
version's defaults from the catalog. Counting tmp_table_size for every connection is the
cautious end: MySQL 8's TempTable engine also has a global cap (temptable_max_ram).
"""

from dataclasses import dataclass

from rules.catalog import ServerCatalog
from rules.current import parse_number
from rules.frozen import quick_init
from rules.profile import Profile
from rules.units import KIB, MIB

SESSION_BUFFERS = (
    "sort_buffer_size",
    "join_buffer_size",
    "read_buffer_size",
    "read_rnd_buffer_size",
    "tmp_table_size",
)
# Where a version's catalog has no row (MySQL before 5.5): MySQL 5.6's defaults (catalog rows).
FALLBACK_BYTES = {
    "sort_buffer_size": 256 * KIB,
    "join_buffer_size": 256 * KIB,
    "read_buffer_size": 128 * KIB,
    "read_rnd_buffer_size": 256 * KIB,
    "tmp_table_size": 16 * MIB,
}
# The OS, mysqld's own structures (thread stacks, the pool's control blocks, caches) and the
# page cache for redo and binary logs: 512 MiB plus 5% of RAM (advisor-engineering-judgement;
# no published figure).
OS_RESERVE_BYTES = 512 * MIB
OS_RESERVE_SHARE = 0.05


@quick_init  # built for every recommendation
@dataclass(frozen=True, slots=True)
class Budget:
    """Bytes kept outside the buffer pool, by purpose."""

    os_reserve: int
    log_buffer: int
    per_session: int  # the five session buffers of one connection at their limits
    sessions: int  # per_session x concurrency

    @property
    def total(self) -> int:
        return self.os_reserve + self.log_buffer + self.sessions


def session_bytes(profile: Profile, catalog: ServerCatalog) -> int:
    """One connection's sort, join, read, random-read buffers and in-memory temporary table."""
    pasted = profile.current.variables if profile.current is not None else {}
    total = 0
    for name in SESSION_BUFFERS:
        value = parse_number(pasted[name]) if name in pasted else None
        if value is None:
            default = catalog.default(name)
            value = default if isinstance(default, int | float) else FALLBACK_BYTES[name]
        total += int(value)
    return total


def memory_budget(profile: Profile, catalog: ServerCatalog, log_buffer: int) -> Budget:
    ram = profile.hardware.memory_bytes  # a lower memory limit is what the server may use
    per_session = session_bytes(profile, catalog)
    return Budget(
        os_reserve=int(OS_RESERVE_BYTES + OS_RESERVE_SHARE * ram),
        log_buffer=log_buffer,
        per_session=per_session,
        sessions=per_session * profile.workload.concurrency,
    )
