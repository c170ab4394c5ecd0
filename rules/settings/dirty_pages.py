"""innodb_max_dirty_pages_pct and its low-water mark: write combining against recovery time."""

from rules.defaults import default_note, server_name
from rules.result import Evidence
from rules.rule import Case, Context, Proposal, Rule

# More dirty pages let repeated changes share one write: 80% beat 20% by up to 3x in tpcc on two
# disks (callaghan-2009-2disk); 8.0 raised the default to 90 (mysql-wl-9707).
DEFAULT_PCT = 90.0
# When a recovery target shortened the redo log, cap dirty pages too so checkpoints keep up:
# 50% cost the v4 build 22% against 80% (callaghan-2009-2disk: 3024 vs 3854 TpmC).
RECOVERY_PCT = 50.0
# When the target cannot be met, enforce 20% as Callaghan did for fast recovery; 15% removed stalls
# but cost too much (percona-2009-54-inmemory), so no lower.
TIGHT_RECOVERY_PCT = 20.0
LWM_PCT = 10.0  # pre-flushing starts at 10% dirty (mysql-wl-9630)


def compute_max(ctx: Context) -> tuple[Proposal, ...]:
    if ctx.notes.get("recovery_target_unmet"):
        value, case = TIGHT_RECOVERY_PCT, "tight"
    elif ctx.notes.get("redo_shortened_by_recovery_target"):
        value, case = RECOVERY_PCT, "recovery"
    else:
        value, case = DEFAULT_PCT, "default"
    facts = {
        "value": f"{value:g}",
        "default": _default_text(ctx, "innodb_max_dirty_pages_pct", value),
    }
    return (Proposal("innodb_max_dirty_pages_pct", value, case, facts),)


def compute_lwm(ctx: Context) -> tuple[Proposal, ...]:
    ceiling = float(ctx.decided["innodb_max_dirty_pages_pct"])
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
_EV_S14 = Evidence(
    "percona-2009-54-inmemory",
    "15% dirty pages removed checkpoint stalls but the "
    "average throughput was unacceptable; 30% was close to the default.",
)
RULE_MAX = Rule(
    id="max-dirty-pages-write-combining",
    setting="innodb_max_dirty_pages_pct",
    kind="percent",
    cases={
        "default": Case(
            "{value}%: more dirty pages, more writes combined",
            _WHAT + "A high limit lets several changes to one page share a single "
            "write; the published tests found 80% up to three times faster than 20%. "
            "{value}%{default}; the redo log size bounds recovery.",
            (_EV_SEED0, _EV_WL),
        ),
        "recovery": Case(
            "{value}%: lower, so checkpoints keep up with the recovery target",
            _WHAT + "Your recovery target shortened the redo log, so fewer dirty "
            "pages keep checkpoints from stalling; 50% cost about a fifth of the "
            "throughput of 80% in the published test.",
            (_EV_SEED0, _EV_S14),
        ),
        "tight": Case(
            "{value}%: enforced low so recovery stays as short as possible",
            _WHAT + "The recovery target is out of reach, so dirty pages are held at "
            "20% as in Callaghan's fast-recovery configuration; expect a large "
            "throughput cost (about 3x in his test).",
            (_EV_SEED0, _EV_S14),
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
    },
    compute=compute_lwm,
)
