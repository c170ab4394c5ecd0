"""innodb_io_capacity and innodb_io_capacity_max: the IO budget of background flushing."""

from rules.inputs.enums import Media
from rules.machine.workload import WRITE_INTENSITY
from rules.output.result import Evidence
from rules.reference.defaults import default_note, io_capacity_max_default, server_name
from rules.rounding import clamp, percent_text, round_readable, rounded_text
from rules.rule import Case, Context, Proposal, Rule, sentence_start

# Share of the array's random-write rate given to background flushing, by media.
# HDD: experts set about the whole write rate (callaghan-2009-2disk: 250 on two SATA disks;
# callaghan-2008-insert: 1000 on ten disks of ~100 IOPS). SATA SSD: 2000 against ~4,000
# writes/s (vadim-2015-linkbench). NVMe: 10,000 against ~100,000 writes/s
# (percona-2016-tpcc-samsung, percona-2026-bp-sweep); 8192 on ~150k-IOPS flash
# (callaghan-2013-odirect-no-fsync).
# A network volume: as SATA flash, whose write rates its baselines resemble (3,000 to 6,000);
# its provisioned IOPS then cap the result (PROVISIONED_*_SHARE below).
WRITE_SHARE: dict[Media, float] = {
    Media.HDD: 1.0,
    Media.SATA_SSD: 0.5,
    Media.NVME: 0.1,
    Media.NETWORK_SSD: 0.5,
}
# The highest io_capacity the cited runs used: 10,000 on NVMe (percona-2026-bp-sweep), also
# MySQL 8.4's default (mysql-manual-8-4-defaults); 8192 on ~150k-IOPS flash
# (callaghan-2013-odirect-no-fsync). Nothing we cite went higher, and percona-2019-ssd-io-capacity
# warns against deriving it from spec-sheet IOPS, so an array's larger model rate stops here.
EVIDENCE_CEILING_IOPS = 10_000
FLOOR_IOPS = 100  # catalog minimum; ~100 suits one 7200 rpm disk (mysql-manual-io-capacity)
MAX_TO_CAPACITY = 2  # io_capacity_max defaults to twice io_capacity (mysql-manual-io-capacity)
# With fio figures, flushing gets at most half the write rate measured, even at its peak: page
# reads and commit syncs draw on the same IOPS (a cloud volume's limit counts reads and writes
# together, aws-rds-storage), and the manual asks to keep io_capacity as low as practical
# (mysql-manual-io-capacity). So io_capacity_max <= 50% of the measured random writes and
# io_capacity <= 25%, keeping io_capacity_max at twice io_capacity. The half is
# advisor-engineering-judgement: no published split of a shared budget was found.
MEASURED_MAX_SHARE = 0.5
MEASURED_CAPACITY_SHARE = MEASURED_MAX_SHARE / MAX_TO_CAPACITY
# A network volume's provisioned IOPS are the same kind of shared budget (aws-rds-storage), so
# the same split applies: io_capacity_max <= 50% of the volumes' write IOPS, io_capacity <= 25%.
PROVISIONED_MAX_SHARE = MEASURED_MAX_SHARE
PROVISIONED_CAPACITY_SHARE = MEASURED_CAPACITY_SHARE


def compute_capacity(ctx: Context) -> tuple[Proposal, ...]:
    storage = ctx.profile.hardware.storage
    share = WRITE_SHARE[storage.media] * WRITE_INTENSITY[ctx.profile.workload.kind]
    writes = ctx.capability.random_write_iops
    wanted = round_readable(writes * share)
    ceiling, case = EVIDENCE_CEILING_IOPS, "hdd" if storage.media is Media.HDD else "flash"
    if wanted > EVIDENCE_CEILING_IOPS:
        case = "ceiling"
    if ctx.capability.measured and writes * MEASURED_CAPACITY_SHARE < min(wanted, ceiling):
        ceiling, case = int(writes * MEASURED_CAPACITY_SHARE), "measured"
    volume = ctx.capability.volume
    budget = int(writes * PROVISIONED_CAPACITY_SHARE)
    if volume is not None and budget <= ceiling:  # the provisioned budget, whatever the share asks
        ceiling, case = budget, "provisioned"
    value = int(clamp(wanted, FLOOR_IOPS, max(FLOOR_IOPS, ceiling)))
    if case == "provisioned" and value == wanted:
        case = "provisioned-share"  # the share's own figure fits within the budget
    if min(wanted, ceiling) < FLOOR_IOPS:
        case = "floor"
    facts = {
        "array": sentence_start(ctx.capability.summary),  # each explanation opens with it
        "portion": "about the" if share == 1 else f"{percent_text(share)} of the",
        "share": percent_text(share),
        "writes": f"{writes:,.0f}",
        "wanted": f"{wanted:,}",
        "asked": f"{writes * share:,.0f}",  # the share's exact figure, before round_readable
        "rounded": rounded_text(writes * share, wanted),
        "limit": f"{min(wanted, ceiling):,}",
        "value": f"{value:,}",
        "measured_share": percent_text(MEASURED_CAPACITY_SHARE),
        "default": default_note(ctx.catalog, "innodb_io_capacity", value),
        "budget": f"{budget:,}",
        "provisioned_share": percent_text(PROVISIONED_CAPACITY_SHARE),
        "iops": f"{volume.given_iops:,}" if volume is not None else "",
    }
    return (Proposal("innodb_io_capacity", value, case, facts),)


def compute_capacity_max(ctx: Context) -> tuple[Proposal, ...]:
    capacity = int(ctx.decided["innodb_io_capacity"])
    value, case = capacity * MAX_TO_CAPACITY, "hdd" if ctx.capability.rotational else "flash"
    writes = ctx.capability.random_write_iops
    budget = int(writes * MEASURED_MAX_SHARE)
    if ctx.capability.measured and budget <= value:
        value, case = max(capacity, budget), "measured"
    elif ctx.capability.volume is not None:
        budget = int(writes * PROVISIONED_MAX_SHARE)
        value, case = max(capacity, min(value, budget)), "provisioned"
    server, server_default = (
        server_name(ctx.catalog),
        io_capacity_max_default(ctx.catalog, capacity),
    )
    facts = {
        "capacity": f"{capacity:,}",
        "doubled": f"{capacity * MAX_TO_CAPACITY:,}",
        "value": f"{value:,}",
        "writes": f"{writes:,.0f}",
        "max_share": percent_text(MEASURED_MAX_SHARE),
        "budget": f"{budget:,}",
        "default": f" (the default of {server} for this io_capacity)"
        if value == server_default
        else "",
        "at_least": " (it cannot be below io_capacity)" if value > budget else "",
        "left_out": f"; left out, {server} would run with {server_default:,} (twice "
        "io_capacity, at least 2,000), more than a few disks can do, as the manual warns"
        if value < server_default
        else "",
    }
    return (Proposal("innodb_io_capacity_max", value, case, facts, default=server_default),)


_WHAT = (
    "innodb_io_capacity is the IO rate InnoDB's background work (flushing dirty pages, "
    "merging the change buffer) may use when it is not under pressure. "
)
_CAPACITY_EVIDENCE = (
    Evidence(
        "mysql-manual-io-capacity",
        "The manual suggests about 100 for one 7200 rpm disk, "
        "more with more drives, and warns that too high a value evicts pages early.",
    ),
    Evidence("callaghan-2009-2disk", "Callaghan ran two SATA disks in RAID0 with io_capacity 250."),
    Evidence(
        "callaghan-2008-insert",
        "Callaghan used io_capacity 1000 on ten disks in RAID0 and "
        "estimated such a server at about 1000 IOPS.",
    ),
)
_FLASH_EVIDENCE = (
    Evidence(
        "vadim-2015-linkbench",
        "Percona's LinkBench runs used io_capacity 2000 (io_capacity_max 5000) on both a SATA "
        "SSD and an NVMe device.",
    ),
    Evidence(
        "percona-2026-bp-sweep",
        "Percona's 2026 NVMe tpcc sweep ran io_capacity 10000 with io_capacity_max 20000.",
    ),
    Evidence(
        "callaghan-2013-odirect-no-fsync",
        "Callaghan ran io_capacity 8192 on flash able to do about 150k reads/s.",
    ),
    Evidence(
        "percona-2019-ssd-io-capacity",
        "Percona advises against copying an SSD's spec-sheet "
        "IOPS into io_capacity: it paces idle flushing, not peak writes.",
    ),
)
_EV_DEFAULT_84 = Evidence(
    "mysql-manual-8-4-defaults",
    "MySQL 8.4 raised the default io_capacity from 200 to 10000.",
)
_EV_SHARED_BUDGET = Evidence(
    "aws-rds-storage",
    "A volume's IOPS are counted as reads plus writes: total IOPS is the sum of read and write "
    "IOPS.",
)
_EV_MEASURED = Evidence(
    "mysql-manual-io-capacity",
    "io_capacity should be about the IO operations per second the system can perform; "
    "too high a value evicts pages early.",
)
RULE_CAPACITY = Rule(
    id="io-capacity-from-array-iops",
    setting="innodb_io_capacity",
    kind="number",
    cases={
        "hdd": Case(
            "{portion} {writes} random writes/s the disks sustain{default}",
            _WHAT + "{array}. On spinning disks experts give it about the whole random-"
            "write rate (half for read-mostly work): {share} here, so {value}{default}. Too "
            "low and dirty pages pile up until flushing stalls queries; too high wastes seeks "
            "on pages that would be written again.",
            _CAPACITY_EVIDENCE,
        ),
        "flash": Case(
            "{share} of the ~{writes} random writes/s the flash sustains{default}",
            _WHAT + "{array}. Flash needs only a fraction of its write rate for this "
            "steady background work, so {value} ({share}){default}; the ceiling for bursts is "
            "innodb_io_capacity_max.",
            _FLASH_EVIDENCE + _CAPACITY_EVIDENCE[:1],
        ),
        "ceiling": Case(
            "{value}{default}, the most the cited runs used ({share} of ~{writes} writes/s "
            "would be {asked})",
            _WHAT + "{array}. {share} of that would be {asked}, more than any configuration "
            "we cite used, and Percona warns against deriving io_capacity from spec-sheet "
            "IOPS: it paces idle flushing, not peak writes. So {value}{default}.",
            (*_FLASH_EVIDENCE, _EV_DEFAULT_84),
        ),
        "floor": Case(
            "{value}, the lowest the server accepts (this storage works out to {limit})",
            _WHAT + "{array}. The rate worked out for it, {limit}, is below the server's "
            "minimum, so {value}{default}, about what one 7200 rpm disk can do.",
            _CAPACITY_EVIDENCE[:1],
        ),
        "provisioned": Case(
            "{value}{default}, within {provisioned_share} of the {writes} writes/s the "
            "volumes' provisioned IOPS allow",
            _WHAT + "{array}. Those IOPS are a budget that reads, commit syncs and flushing "
            "share: a volume's limit counts reads and writes together. {share} of the {writes} "
            "writes/s would be {asked}, but background flushing gets at most "
            "{provisioned_share} of them, so {value}, leaving innodb_io_capacity_max twice "
            "this within half of the budget.",
            (_EV_SHARED_BUDGET, _EV_MEASURED, _FLASH_EVIDENCE[0]),
        ),
        "provisioned-share": Case(
            "{value}{default}, within {provisioned_share} of the {writes} writes/s the "
            "volumes' provisioned IOPS allow",
            _WHAT + "{array}. Those IOPS are a budget that reads, commit syncs and flushing "
            "share: a volume's limit counts reads and writes together. {share} of the {writes} "
            "writes/s is {asked}{rounded}, within the {provisioned_share} of them background "
            "flushing may take, leaving innodb_io_capacity_max twice this within half of the "
            "budget.",
            (_EV_SHARED_BUDGET, _EV_MEASURED, _FLASH_EVIDENCE[0]),
        ),
        "measured": Case(
            "{measured_share} of the {writes} random writes/s fio measured",
            _WHAT + "{array}. {measured_share} of the measured rate, {value}, keeps "
            "innodb_io_capacity_max at twice this within half of what the storage did under "
            "fio: page reads and commit syncs need the rest of the same budget.",
            (_EV_MEASURED, _EV_SHARED_BUDGET, _FLASH_EVIDENCE[-1]),
        ),
    },
    compute=compute_capacity,
)
_MAX_WHAT = (
    "innodb_io_capacity_max caps flushing when InnoDB falls behind (the redo log fills "
    "or dirty pages pass their limit). "
)
_EV_MAX_MANUAL = Evidence(
    "mysql-manual-io-capacity",
    "io_capacity_max defaults to twice io_capacity with a minimum of 2000, which may be too "
    "high for a few spinning disks.",
)
RULE_CAPACITY_MAX = Rule(
    id="io-capacity-max-double",
    setting="innodb_io_capacity_max",
    kind="number",
    cases={
        "hdd": Case(
            "twice io_capacity{default}: room for bursts the disks can still absorb",
            _MAX_WHAT + "Twice io_capacity ({capacity}) is {value}{default}, room for "
            "bursts{left_out}.",
            (_EV_MAX_MANUAL,),
        ),
        "flash": Case(
            "twice io_capacity{default}: headroom for bursts of writes",
            _MAX_WHAT + "Twice io_capacity ({capacity}) is {value}{default}. It leaves the "
            "flash headroom to catch up after a burst of writes; Percona's NVMe runs used the "
            "same ratio.",
            (
                _EV_MAX_MANUAL,
                _FLASH_EVIDENCE[1],
                Evidence(
                    "percona-2019-ssd-io-capacity",
                    "Size io_capacity_max so that the "
                    "checkpoint age stays below about 75% of the redo log.",
                ),
            ),
        ),
        "provisioned": Case(
            "{value}: at most {max_share} of the {writes} writes/s the provisioned IOPS allow",
            _MAX_WHAT + "Twice io_capacity ({capacity}) would be {doubled}; even when flushing "
            "falls behind it gets at most {max_share} of the {writes} writes/s the volumes' "
            "provisioned IOPS allow ({budget}), so {value}{at_least}: reads and commit syncs "
            "draw on the same IOPS, and a flushing burst that took them all would make the "
            "provider throttle every query's reads.",
            (_EV_MEASURED, _EV_SHARED_BUDGET),
        ),
        "measured": Case(
            "{value}: {max_share} of the {writes} random writes/s fio measured",
            _MAX_WHAT + "Even when it falls behind, flushing gets at most {max_share} of the "
            "{writes} random writes/s fio measured, so {value}{at_least}: page reads and "
            "commit syncs draw on the same IOPS (a cloud volume's limit counts reads and writes "
            "together), and a flushing burst that took all of it would stall them.",
            (_EV_MEASURED, _EV_SHARED_BUDGET),
        ),
    },
    compute=compute_capacity_max,
)
