"""What fixes a server whose connections need more memory than the buffer pool leaves them.

The pool is the server's cache: shrinking it to make room for buffers that connections may
allocate makes every query slower to protect a peak. The fixes are on the connections' side:
the pasted per-connection buffers back to their defaults, max_connections down to the clients
the workload declares plus headroom, and, where the flavor has one, a thread pool that runs
about one statement per core at a time. Each fix says, in numbers, what it frees.
"""

import math
from dataclasses import dataclass

from rules.current import parse_number
from rules.inputs.enums import Flavor
from rules.inputs.profile import Profile
from rules.machine.memory import (
    Budget,
    pasted_variables,
    per_session_bytes,
    session_buffers,
)
from rules.reference.catalog import ServerCatalog
from rules.units import bytes_for_config, bytes_for_people

# Connections beyond the clients the workload declares: a quarter more, for reconnect storms,
# monitoring and administration (advisor-engineering-judgement).
CONNECTION_HEADROOM = 0.25
# A thread pool pays off when clients far outnumber cores: from 8 clients a core the advisor
# suggests it (advisor-engineering-judgement; mariadb-docs-thread-pool: ideally one active
# thread per CPU; percona-docs-thread-pool).
THREAD_POOL_CLIENTS_PER_CORE = 8
THREAD_POOL = "pool-of-threads"
THREAD_POOL_FLAVORS = frozenset({Flavor.PERCONA, Flavor.MARIADB})


@dataclass(frozen=True, slots=True)
class Fix:
    """One change that lowers what connections need, said with its numbers."""

    variable: str
    text: str


def connection_fixes(profile: Profile, catalog: ServerCatalog, budget: Budget) -> list[Fix]:
    """Every fix that applies, most effective first; none when the connections' buffers are
    at their defaults, max_connections is near the clients and no thread pool fits."""
    fixes = _buffers_to_defaults(profile, catalog, budget)
    fixes += _max_connections(profile, budget)
    fixes += _thread_pool(profile, budget)
    return fixes


def connection_cap(profile: Profile) -> int:
    """The lowest max_connections the advisor suggests: the declared clients plus headroom."""
    return math.ceil(profile.workload.concurrency * (1 + CONNECTION_HEADROOM))


def _buffers_to_defaults(profile: Profile, catalog: ServerCatalog, budget: Budget) -> list[Fix]:
    buffers = session_buffers(profile, catalog)
    raised = [b for b in buffers if b.pasted and b.value > b.default]
    saved = (budget.per_session - per_session_bytes(buffers, defaults=True)) * (
        profile.workload.concurrency
    )
    if not raised or saved <= 0:
        return []
    names = ", ".join(
        f"{b.name} {bytes_for_config(b.value)} -> {bytes_for_config(b.default)}" for b in raised
    )
    return [
        Fix(
            raised[0].name,
            f"set the per-connection buffers back to their defaults ({names}; raise one per "
            f"session where a query needs it): that frees {bytes_for_people(saved)} over "
            f"{profile.workload.concurrency:,} connections",
        )
    ]


def _max_connections(profile: Profile, budget: Budget) -> list[Fix]:
    """Only a pasted max_connections: the default (151) is what the server runs without one,
    and the budget counts the declared clients, not it."""
    text = pasted_variables(profile).get("max_connections")
    number = parse_number(text) if text is not None else None
    if not isinstance(number, int | float):
        return []
    allowed, cap, clients = int(number), connection_cap(profile), profile.workload.concurrency
    if allowed <= cap:
        return []
    beyond = (allowed - cap) * budget.per_session
    return [
        Fix(
            "max_connections",
            f"lower max_connections from {allowed:,} to {cap:,} (the {clients:,} clients the "
            f"workload declares plus {CONNECTION_HEADROOM:.0%}): the {allowed - cap:,} "
            f"connections above that could take another {bytes_for_people(beyond)} at "
            f"{bytes_for_people(budget.per_session)} each",
        )
    ]


def _thread_pool(profile: Profile, budget: Budget) -> list[Fix]:
    clients, cores = profile.workload.concurrency, profile.hardware.cpu_cores
    handling = pasted_variables(profile).get("thread_handling", "")
    pooled = handling.strip().strip("'\"").lower() == THREAD_POOL
    if clients < THREAD_POOL_CLIENTS_PER_CORE * cores or pooled:
        return []
    per_core = clients / cores
    if profile.server.flavor not in THREAD_POOL_FLAVORS:
        return [
            Fix(
                "thread_handling",
                f"{clients:,} clients on {cores:,} cores ({per_core:,.0f} a core) would "
                "suit a thread pool, which MySQL Community does not have (MySQL Enterprise's "
                "thread pool plugin does)",
            )
        ]
    return [
        Fix(
            "thread_handling",
            f"set thread_handling={THREAD_POOL}: {clients:,} clients on {cores:,} cores is "
            f"{per_core:,.0f} a core, and the pool runs about one statement per core at a time "
            "(thread_pool_size defaults to the core count; a few more while statements wait), "
            f"so about {cores:,} connections' buffers "
            f"({bytes_for_people(cores * budget.per_session)}) are in use at once instead of "
            f" {clients:,} ({bytes_for_people(budget.sessions)})",
        )
    ]
