"""innodb_log_buffer_size: room in memory for a transaction's redo before it must hit the disk.

A transaction's redo collects in the log buffer; when it fills before commit, InnoDB writes it
out early. Loads and other large transactions fill a small buffer, so they get a larger one;
every other workload keeps the version's default.
"""

from rules.inputs.enums import WorkloadKind
from rules.output.result import Evidence
from rules.reference.defaults import default_note, server_name
from rules.rule import Case, Context, Proposal, Rule
from rules.units import MIB, bytes_for_people

NAME = "innodb_log_buffer_size"
# Bulk loads write large transactions: give them 64 MiB, the default MySQL 8.4 moved to from
# 16 MiB (mysql-manual-8-4-defaults), because a large log buffer lets large transactions run
# without writing redo before they commit (mysql-manual-redo-logging).
LARGE_TRANSACTION_BYTES = 64 * MIB
LARGE_TRANSACTION_KINDS = frozenset({WorkloadKind.BULK_INSERT})
FALLBACK_BYTES = 16 * MIB  # the default of every version before MySQL 8.4 (catalog)


def log_buffer_bytes(ctx: Context) -> int:
    """The log buffer the server will run with under this recommendation."""
    default = ctx.catalog.default(NAME)
    size = int(default) if isinstance(default, int | float) else FALLBACK_BYTES
    if ctx.profile.workload.kind in LARGE_TRANSACTION_KINDS:
        size = max(size, LARGE_TRANSACTION_BYTES)
    return size


def compute(ctx: Context) -> tuple[Proposal, ...]:
    if not ctx.catalog.exists(NAME):
        return ()
    value = log_buffer_bytes(ctx)
    default = ctx.catalog.default(NAME)
    large = ctx.profile.workload.kind in LARGE_TRANSACTION_KINDS
    facts = {
        "value": bytes_for_people(value),
        "large": bytes_for_people(LARGE_TRANSACTION_BYTES),
        "server": server_name(ctx.catalog),
        "shipped": bytes_for_people(float(default or FALLBACK_BYTES)),
        "default": default_note(ctx.catalog, NAME, value),
    }
    case = "large" if large and value > float(default or 0) else "default"
    if large and case == "default":
        case = "large-default"
    return (Proposal(NAME, value, case, facts),)


_WHAT = (
    "The log buffer holds a transaction's redo in memory until it is written to the redo log. "
    "When a transaction writes more redo than fits, InnoDB must write the buffer out before the "
    "commit, an extra disk write in the middle of the transaction. "
)
_EV_MANUAL = Evidence(
    "mysql-manual-redo-logging",
    "A larger log buffer lets transactions that update, insert or delete many rows run without "
    "writing redo to disk before they commit.",
)
_EV_84 = Evidence(
    "mysql-manual-8-4-defaults",
    "MySQL 8.4 raised the default log buffer from 16 MiB to 64 MiB.",
)
RULE = Rule(
    id="log-buffer-for-large-transactions",
    setting=NAME,
    kind="bytes",
    cases={
        "large": Case(
            "{value}: loads write large transactions (the {server} default is {shipped})",
            _WHAT + "Loads write large transactions, so the buffer gets {value} instead of the "
            "{shipped} {server} ships, the size MySQL 8.4 made its default; the memory it "
            "takes is counted in the buffer pool's budget.",
            (_EV_MANUAL, _EV_84),
        ),
        "large-default": Case(
            "{value}{default}: already room for the large transactions of loads",
            _WHAT + "Loads write large transactions; {value}{default} already holds them, the "
            "size MySQL 8.4 chose for its default.",
            (_EV_MANUAL, _EV_84),
        ),
        "default": Case(
            "{value}{default}: this workload's transactions are small",
            _WHAT + "This workload commits small transactions, which fit in {value}{default}; "
            "a larger buffer would only hold memory the buffer pool can use.",
            (_EV_MANUAL,),
        ),
    },
    compute=compute,
)
