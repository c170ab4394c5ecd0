"""innodb_flush_neighbors: writing a page's dirty neighbours too pays only on disks."""

from rules.output.result import Evidence
from rules.rule import Case, Context, Proposal, Rule

FLUSH_NEIGHBORS_ROTATIONAL = 1  # flush contiguous dirty neighbours in the same extent
FLUSH_NEIGHBORS_FLASH = 0


def compute(ctx: Context) -> tuple[Proposal, ...]:
    if ctx.capability.rotational:
        return (Proposal("innodb_flush_neighbors", FLUSH_NEIGHBORS_ROTATIONAL, "hdd"),)
    volume = ctx.capability.volume
    if volume is not None:
        facts = {"iops": f"{volume.iops:,.0f}", "array": ctx.capability.summary}
        return (Proposal("innodb_flush_neighbors", FLUSH_NEIGHBORS_FLASH, "network", facts),)
    return (Proposal("innodb_flush_neighbors", FLUSH_NEIGHBORS_FLASH, "flash"),)


_EV_WL = Evidence(
    "mysql-wl-9631",
    "MySQL 8.0 turned neighbour flushing off by default and told "
    "users of slow spinning disks to set it back to 1.",
)
_EV_PERCONA = Evidence(
    "percona-2012-flush-neighbors",
    "Neighbour flushing is best off on SSD and steadies throughput on spinning disks.",
)
RULE = Rule(
    id="flush-neighbors-by-media",
    setting="innodb_flush_neighbors",
    kind="number",
    cases={
        "hdd": Case(
            "on: one seek writes several neighbouring pages",
            "On spinning disks the seek costs far more than the transfer, so writing the "
            "dirty neighbours of a page in the same extent saves seeks later. MySQL 8.0 "
            "turned it off by default for flash and asks disk users to set 1.",
            (_EV_WL, _EV_PERCONA),
        ),
        "network": Case(
            "off: each neighbour written early spends one of the volume's {iops} IOPS",
            "A network volume has no seek to save: {array}. Each neighbouring page written "
            "early is one more IO counted against the {iops} IOPS each volume gets, for pages "
            "that may change again before they had to be written.",
            (
                _EV_WL,
                _EV_PERCONA,
                Evidence(
                    "aws-rds-storage",
                    "A volume's IOPS are counted as reads plus writes against one budget.",
                ),
            ),
        ),
        "flash": Case(
            "off: flash has no seek to save, neighbours would be extra writes",
            "Flash has no seek to amortise, so writing neighbouring pages early only "
            "adds writes (and wear) for pages that may change again.",
            (_EV_WL, _EV_PERCONA),
        ),
    },
    compute=compute,
)
