"""innodb_max_dirty_pages_pct and its low-water mark: write combining against recovery time."""

from rules.inputs.enums import Flavor
from rules.output.result import Evidence
from rules.reference.defaults import default_note, server_name
from rules.rule import Case, Context, Proposal, Rule

# More dirty pages let repeated changes share one write: 80% beat 20% by up to 3x in tpcc on two
# disks (callaghan-2009-2disk); 8.0 raised the default to 90 (mysql-wl-9707).
DEFAULT_PCT = 90.0
# A recovery target does not lower this limit. Crash recovery replays the redo written since the
# last checkpoint, and the redo log's size bounds that (the redo rule sizes it for the target);
# the dirty-page share bounds neither, since a few old dirty pages hold the checkpoint back as
# well as many do (yasufumi-2008-adaptive-checkpoint: two separate limits, dirty amount and age).
# Lowering it only costs throughput: 50% gave 22% less than 80% (callaghan-2009-2disk).
LWM_PCT = 10.0  # pre-flushing starts at 10% dirty (mysql-wl-9630)


def compute_max(ctx: Context) -> tuple[Proposal, ...]:
    value, case = DEFAULT_PCT, "default"
    if ctx.notes.get("recovery_target_unmet"):
        case = "recovery-unmet"
    elif ctx.notes.get("redo_shortened_by_recovery_target"):
        case = "recovery"
    facts = {
        "value": f"{value:g}",
        "default": _default_text(ctx, "innodb_max_dirty_pages_pct", value),
    }
    return (Proposal("innodb_max_dirty_pages_pct", value, case, facts),)


def compute_lwm(ctx: Context) -> tuple[Proposal, ...]:
    ceiling = float(ctx.decided["innodb_max_dirty_pages_pct"])
    if ctx.profile.server.flavor is Flavor.MARIADB:
        # MariaDB's page cleaner flushes at innodb_io_capacity, even when idle, whenever a non-zero
        # low-water mark is passed (mariadb-mdev-24949), and io_capacity is sized near the
        # storage's whole write rate: keep its 0, "the same as innodb_max_dirty_pages_pct".
        facts = {"value": "0", "ceiling": f"{ceiling:g}"}
        return (Proposal("innodb_max_dirty_pages_pct_lwm", 0.0, "mariadb", facts),)
    value = min(LWM_PCT, ceiling / 2)
    facts = {
        "value": f"{value:g}",
        "ceiling": f"{ceiling:g}",
        "default": _default_text(ctx, "innodb_max_dirty_pages_pct_lwm", value),
    }
    return (Proposal("innodb_max_dirty_pages_pct_lwm", value, "preflush", facts),)


def _default_text(ctx: Context, name: str, value: float) -> str:
    """' (the default of MariaDB 10.11)', or what this version ships when it differs."""
    note = default_note(ctx.catalog, name, value)
    default = ctx.catalog.default(name)
    if note or not isinstance(default, int | float):
        return note
    off = ", which disables pre-flushing" if default == 0 else ""
    return f" ({server_name(ctx.catalog)} ships {default:g}%{off})"


_WHAT = (
    "innodb_max_dirty_pages_pct is the share of the buffer pool that may hold changed pages "
    "not yet written. "
)
_EV_SEED0 = Evidence(
    "callaghan-2009-2disk",
    "On two SATA disks tpcc reached 3854 TpmC at 80% "
    "dirty pages, 3024 at 50% and 1294 at 20% when the limit was enforced; "
    "enforcing a low limit is what makes recovery fast.",
)
_EV_WL = Evidence(
    "mysql-wl-9707", "MySQL 8.0 raised the default of innodb_max_dirty_pages_pct to 90."
)
_EV_CHECKPOINT = Evidence(
    "yasufumi-2008-adaptive-checkpoint",
    "Flushing answers two separate limits: the amount of dirty pages and their age, which "
    "the redo log size bounds.",
)
_EV_RECOVERY = Evidence(
    "percona-log-file-size-recovery",
    "Recovery time grows with the redo log: roughly 5 minutes per GB of log on disks.",
)
RULE_MAX = Rule(
    id="max-dirty-pages-write-combining",
    setting="innodb_max_dirty_pages_pct",
    kind="percent",
    cases={
        "default": Case(
            "{value}%: more dirty pages, more writes combined",
            _WHAT + "A high limit lets several changes to one page share a single "
            "write. Published: 80% ran up to 3x the throughput of 20% (IO-bound tpcc on two "
            "SATA disks, the limit enforced, Callaghan 2009). {value}%{default}; the redo log "
            "size bounds recovery.",
            (_EV_SEED0, _EV_WL),
            quotes_published=True,
        ),
        "recovery": Case(
            "{value}%: the smaller redo log, not this limit, keeps recovery within the target",
            _WHAT + "Crash recovery replays the redo written since the last checkpoint, so the "
            "redo log's size bounds it, and it was sized for your recovery target. The share "
            "of dirty pages bounds neither: a few old dirty pages hold the checkpoint back as "
            "much as many. Lowering it would only cost throughput (published: 50% gave about a "
            "fifth less than 80% in IO-bound tpcc on two SATA disks, Callaghan 2009), so "
            "{value}%{default}.",
            (_EV_SEED0, _EV_CHECKPOINT, _EV_RECOVERY),
            quotes_published=True,
        ),
        "recovery-unmet": Case(
            "{value}%: a lower limit would not bring recovery within the target",
            _WHAT + "Even the smallest practical redo log replays for longer than your "
            "recovery target on this storage (see the redo log setting). Recovery replays "
            "the redo since the last checkpoint, which the log's size bounds, not the share "
            "of dirty pages, and holding them low does not bound replay (published: 20% ran at "
            "about a third of 80%'s throughput in IO-bound tpcc on two SATA disks, Callaghan "
            "2009). Faster storage or a longer target helps; {value}%{default}.",
            (_EV_SEED0, _EV_CHECKPOINT, _EV_RECOVERY),
            quotes_published=True,
        ),
    },
    compute=compute_max,
)
RULE_LWM = Rule(
    id="dirty-pages-preflush-low-water-mark",
    setting="innodb_max_dirty_pages_pct_lwm",
    kind="percent",
    cases={
        "preflush": Case(
            "start flushing early at {value}% dirty, smoothing writes",
            "Above this low-water mark InnoDB starts flushing adaptively instead "
            "of waiting for the {ceiling}% ceiling, which avoids sudden flushing "
            "storms: {value}%{default}.",
            (
                Evidence(
                    "mysql-wl-9630",
                    "MySQL 8.0 set the low-water mark default "
                    "to 10% to start pre-flushing earlier.",
                ),
                Evidence(
                    "yasufumi-2008-adaptive-checkpoint",
                    "Flushing is bounded by "
                    "two limits, the dirty-page amount and the checkpoint age; "
                    "adaptive flushing smooths both.",
                ),
            ),
        ),
        "mariadb": Case(
            "{value}, MariaDB's default: no pre-flushing below the {ceiling}% ceiling",
            "On MariaDB 0 means the low-water mark is the {ceiling}% ceiling itself. A non-zero "
            "mark would make MariaDB's page cleaner flush at innodb_io_capacity whenever the "
            "pages passed it, and even when the server is idle; io_capacity is sized near this "
            "storage's whole write rate, so that would keep the disks busy with background "
            "writes, so {value}.",
            (
                Evidence(
                    "mariadb-mdev-24949",
                    "A non-zero innodb_max_dirty_pages_pct_lwm turns on MariaDB's adaptive "
                    "flushing above the mark and idle flushing bounded by innodb_io_capacity; "
                    "with 0 neither runs.",
                ),
            ),
        ),
    },
    compute=compute_lwm,
)
