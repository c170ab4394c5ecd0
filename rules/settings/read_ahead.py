"""InnoDB read-ahead: prefetching whole extents helps scans and single disks, hurts random OLTP."""

from rules.inputs.enums import Media, WorkloadKind
from rules.output.result import Evidence
from rules.rule import Case, Context, Proposal, Rule

DEFAULT_THRESHOLD_PAGES = 56  # server default (catalog)
STRICTEST_THRESHOLD_PAGES = 64  # highest value: read ahead only after a fully sequential extent


def compute_threshold(ctx: Context) -> tuple[Proposal, ...]:
    storage = ctx.profile.hardware.storage
    if ctx.profile.workload.kind is WorkloadKind.BULK_INSERT:
        return (Proposal("innodb_read_ahead_threshold", DEFAULT_THRESHOLD_PAGES, "inserts"),)
    if storage.media is Media.HDD and storage.device_count == 1:
        return (Proposal("innodb_read_ahead_threshold", DEFAULT_THRESHOLD_PAGES, "single-hdd"),)
    return (Proposal("innodb_read_ahead_threshold", STRICTEST_THRESHOLD_PAGES, "random"),)


def compute_random(ctx: Context) -> tuple[Proposal, ...]:
    return (Proposal("innodb_random_read_ahead", "OFF", "off"),)


_WHAT = (
    "Linear read-ahead fetches the whole next extent (64 pages) once enough pages of the "
    "current one were read in order; innodb_read_ahead_threshold is how many (0-64, higher "
    "is stricter). "
)
_EV_SEED4 = Evidence(
    "percona-2009-readahead",
    "Disabling read-ahead gave about 15% more tpcc "
    "throughput on an 8-disk RAID10; for a single disk it may still help.",
)
_EV_WIKI = Evidence(
    "callaghan-2009-google-wiki",
    "Turning prefetch off gained 12-20% on disk-"
    "bound tpcc, changed inserts by -4% to +3%, but made full scans 35% slower.",
)
_EV_MANUAL = Evidence(
    "mysql-manual-read-ahead",
    "innodb_read_ahead_threshold takes 0-64 pages "
    "(default 56); random read-ahead is off by default.",
)
RULE_THRESHOLD = Rule(
    id="read-ahead-threshold-by-access-pattern",
    setting="innodb_read_ahead_threshold",
    kind="number",
    cases={
        "random": Case(
            "strictest read-ahead: random OLTP reads waste prefetched extents",
            _WHAT + "Random OLTP reads rarely use the prefetched pages, which then "
            "push useful ones out of the pool and occupy the devices. 64, the "
            "strictest value, keeps read-ahead for truly sequential scans only.",
            (_EV_SEED4, _EV_WIKI, _EV_MANUAL),
        ),
        "single-hdd": Case(
            "default read-ahead kept: on a single disk it saves seeks",
            _WHAT + "On a single spinning disk one large sequential read is far "
            "cheaper than many seeks, so the default 56 stays.",
            (_EV_SEED4, _EV_MANUAL),
        ),
        "inserts": Case(
            "default read-ahead kept: inserts gain nothing from turning it off",
            _WHAT + "For bulk inserts turning prefetch off made no real difference "
            "(-4% to +3%) while scans and index builds lose, so the default 56 stays.",
            (_EV_WIKI, _EV_MANUAL),
        ),
    },
    compute=compute_threshold,
)
RULE_RANDOM = Rule(
    id="random-read-ahead-off",
    setting="innodb_random_read_ahead",
    kind="enum",
    cases={
        "off": Case(
            "random read-ahead stays off: it guesses badly under random access",
            "Random read-ahead prefetches an extent when 13 of its pages happen to be "
            "cached, whatever the order. It is off by default and the published tests "
            "found prefetching costs random workloads; written here to make sure.",
            (_EV_MANUAL, _EV_SEED4),
        ),
    },
    compute=compute_random,
)
