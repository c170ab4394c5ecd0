"""innodb_io_capacity and innodb_io_capacity_max: the IO budget of background flushing."""

from rules.enums import Media
from rules.numbers import clamp, round_readable
from rules.result import Evidence
from rules.rule import Case, Context, Proposal, Rule
from rules.workload import WRITE_INTENSITY

# Share of the array's random-write rate given to background flushing, by media.
# HDD: experts set about the whole write rate (callaghan-2009-2disk: 250 on two SATA disks;
# callaghan-2008-insert: 1000 on ten disks of ~100 IOPS). SATA SSD: 2000 against ~4,000
# writes/s (vadim-2015-linkbench). NVMe: 10,000 against ~100,000 writes/s
# (percona-2016-tpcc-samsung, percona-2026-bp-sweep); 8192 on ~150k-IOPS flash
# (callaghan-2013-odirect-no-fsync).
WRITE_SHARE: dict[Media, float] = {Media.HDD: 1.0, Media.SATA_SSD: 0.5, Media.NVME: 0.1}
CEILING_IOPS = 20_000  # mysql-manual-io-capacity: above 20000 is rarely useful
FLOOR_IOPS = 100  # catalog minimum; ~100 suits one 7200 rpm disk (mysql-manual-io-capacity)
MAX_TO_CAPACITY = 2  # 8.4's io_capacity_max default is 2 x io_capacity (mysql-manual-8-4-defaults)


def compute_capacity(ctx: Context) -> tuple[Proposal, ...]:
    storage = ctx.profile.hardware.storage
    share = WRITE_SHARE[storage.media] * WRITE_INTENSITY[ctx.profile.workload.kind]
    raw = ctx.capability.random_write_iops * share
    value = int(clamp(round_readable(raw), FLOOR_IOPS, CEILING_IOPS))
    case = "ceiling" if raw > CEILING_IOPS else ("hdd" if storage.media is Media.HDD else "flash")
    facts = {
        "array": ctx.capability.summary,
        "share": f"{share:.0%}",
        "writes": f"{ctx.capability.random_write_iops:,.0f}",
        "value": f"{value:,}",
    }
    return (Proposal("innodb_io_capacity", value, case, facts),)


def compute_capacity_max(ctx: Context) -> tuple[Proposal, ...]:
    capacity = int(ctx.decided["innodb_io_capacity"])
    value = capacity * MAX_TO_CAPACITY
    facts = {"capacity": f"{capacity:,}", "value": f"{value:,}"}
    case = "hdd" if ctx.capability.rotational else "flash"
    return (Proposal("innodb_io_capacity_max", value, case, facts),)


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
        "Percona used 2000 for a SATA SSD and 5000 for NVMe in LinkBench runs.",
    ),
    Evidence(
        "percona-2026-bp-sweep",
        "Percona's 2026 NVMe tpcc sweep ran io_capacity 10000 with io_capacity_max 20000.",
    ),
    Evidence(
        "percona-2019-ssd-io-capacity",
        "Percona advises against copying an SSD's spec-sheet "
        "IOPS into io_capacity: it paces idle flushing, not peak writes.",
    ),
)
RULE_CAPACITY = Rule(
    id="io-capacity-from-array-iops",
    setting="innodb_io_capacity",
    kind="number",
    cases={
        "hdd": Case(
            "about the {writes} random writes/s the disks sustain",
            _WHAT + "{array}. On spinning disks experts give it about the whole random-"
            "write rate, so {value}. Too low and dirty pages pile up until flushing "
            "stalls queries; too high wastes seeks on pages that would be written again.",
            _CAPACITY_EVIDENCE,
        ),
        "flash": Case(
            "{share} of the ~{writes} random writes/s the flash sustains",
            _WHAT + "{array}. Flash needs only a fraction of its write rate for this "
            "steady background work, so {value} ({share}); the ceiling for bursts is "
            "innodb_io_capacity_max.",
            _FLASH_EVIDENCE + _CAPACITY_EVIDENCE[:1],
        ),
        "ceiling": Case(
            "capped at 20,000, the manual's practical ceiling",
            _WHAT + "{array}. {share} of that would exceed 20,000, above which the "
            "manual finds no benefit, so {value}.",
            _FLASH_EVIDENCE,
        ),
    },
    compute=compute_capacity,
)
_MAX_WHAT = (
    "innodb_io_capacity_max caps flushing when InnoDB falls behind (the redo log fills "
    "or dirty pages pass their limit). "
)
RULE_CAPACITY_MAX = Rule(
    id="io-capacity-max-double",
    setting="innodb_io_capacity_max",
    kind="number",
    cases={
        "hdd": Case(
            "twice io_capacity: room for bursts the disks can still absorb",
            _MAX_WHAT + "Twice io_capacity ({value}) gives bursts room; the old default "
            "of 2000 is more than a few disks can do and the manual warns it may be "
            "too high without SSDs or many disks.",
            (
                Evidence(
                    "mysql-manual-io-capacity",
                    "io_capacity_max defaults to twice "
                    "io_capacity with a minimum of 2000, which may be too high for a "
                    "few spinning disks.",
                ),
            ),
        ),
        "flash": Case(
            "twice io_capacity, as MySQL 8.4 defaults",
            _MAX_WHAT + "Twice io_capacity ({value}) is MySQL 8.4's own ratio and leaves "
            "the flash headroom to catch up after a burst of writes.",
            (
                Evidence(
                    "mysql-manual-8-4-defaults",
                    "MySQL 8.4 sets io_capacity_max to twice io_capacity by default.",
                ),
                Evidence(
                    "percona-2019-ssd-io-capacity",
                    "Size io_capacity_max so that the "
                    "checkpoint age stays below about 75% of the redo log.",
                ),
            ),
        ),
    },
    compute=compute_capacity_max,
)
