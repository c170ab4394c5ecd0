"""Kernel memory settings for a dedicated database host, kept in one sysctl.d file."""

from rules.output.result import Evidence
from rules.rule import Case, Context, OsProposal, OsRule

SYSCTL_PATH = "/etc/sysctl.d/60-innodb-io-advisor.conf"
RELOAD_COMMAND = "sysctl --system"

# 1: swap only to avoid running out of memory, never to make room for page cache; the buffer pool
# then stays in RAM. MariaDB recommends 1 for database servers and warns that 0 risks the OOM
# killer on kernels since RHEL 6.4's (mariadb-kb-swappiness); swapped-out buffer pool pages cost a
# disk read each when touched (cole-2010-numa-swap-insanity).
SWAPPINESS = 1
# Dirty page-cache limits, as percentages of memory. InnoDB's data files bypass the cache
# (O_DIRECT), but binary logs, MySQL's redo log and temporary files do not. Red Hat recommends
# lowering the kernel defaults (10 / 20) to 3 / 15 for database workloads (rhel-6-vm-tuning), so
# writeback starts early and a burst of buffered writes cannot pile up gigabytes of dirty cache
# that later stall the commit syncs behind it.
DIRTY_BACKGROUND_RATIO = 3
DIRTY_RATIO = 15


def compute(ctx: Context) -> tuple[OsProposal, ...]:
    return _PROPOSALS  # the same for every host: made once, below


def _setting(name: str, value: int, case: str) -> OsProposal:
    commands = (f"sysctl -w {name}={value}", f"sysctl {name}")
    facts = {"value": str(value)}
    return OsProposal(
        name, str(value), "host", case, commands, f"{name} = {value}", SYSCTL_PATH, facts
    )


_PROPOSALS = tuple(
    _setting(name, value, case)
    for name, value, case in (
        ("vm.swappiness", SWAPPINESS, "swappiness"),
        ("vm.dirty_background_ratio", DIRTY_BACKGROUND_RATIO, "dirty-background"),
        ("vm.dirty_ratio", DIRTY_RATIO, "dirty"),
    )
)
_CONTAINER = (
    " These are host-wide: in a container, set them on the host, not inside."  # not namespaced
)
_TUNED = (
    " Where tuned runs (RHEL), its profile is applied after this file: throughput-performance "
    "sets vm.dirty_ratio to 40, so put these values in a custom tuned profile too."
)
_EV_TUNED = Evidence(
    "rhel-6-tuned-profiles",
    "The tuned throughput-performance profile sets vm.dirty_ratio to 40%.",
)
_EV_RHEL = Evidence(
    "rhel-6-vm-tuning",
    "Red Hat recommends vm.dirty_ratio 15 and vm.dirty_background_ratio 3 for database "
    "workloads, below the defaults of 20 and 10.",
)
_EV_KERNEL = Evidence(
    "linux-kernel-vm-sysctl",
    "dirty_background_ratio starts background writeback and dirty_ratio makes a writing process "
    "write back itself, each as a share of available memory.",
)
RULE = OsRule(
    id="sysctl-dedicated-database-host",
    setting="vm.swappiness",
    cases={
        "swappiness": Case(
            "swap only to avoid running out of memory, never to grow the page cache",
            "vm.swappiness tells the kernel how readily to swap process memory out to make "
            "room for file cache. At the default 60 it can swap out parts of the buffer pool "
            "while plenty of cache could be dropped instead, and each swapped page then costs "
            "a disk read when InnoDB touches it. {value} swaps only under real memory pressure; "
            "0 is avoided because recent kernels then reach the OOM killer first." + _CONTAINER,
            (
                Evidence(
                    "mariadb-kb-swappiness",
                    "MariaDB recommends vm.swappiness = 1 for database servers, and keeping "
                    "some swap so the kernel can survive a spike.",
                ),
                Evidence(
                    "cole-2010-numa-swap-insanity",
                    "A large buffer pool swapped out under no real memory pressure causes random "
                    "stalls when its pages are touched again.",
                ),
                _EV_KERNEL,
            ),
        ),
        "dirty-background": Case(
            "start writing dirty page cache back at {value}% of memory, not 10%",
            "vm.dirty_background_ratio is the share of memory that dirty page cache may fill "
            "before the kernel starts writing it back. InnoDB's data files bypass the cache, "
            "but binary logs, temporary files and (on MySQL) the redo log go through it; "
            "starting early at {value}% keeps a burst of them from piling up and then "
            "flooding the disks that commits sync to." + _TUNED + _CONTAINER,
            (_EV_RHEL, _EV_KERNEL, _EV_TUNED),
        ),
        "dirty": Case(
            "writers flush their own dirty cache above {value}% of memory, not 20%",
            "vm.dirty_ratio is the share of memory in dirty page cache above which a writing "
            "process must write back itself. {value}% bounds how much buffered writing (binary "
            "logs, temporary files, a backup) can queue before it competes with InnoDB's own "
            "IO." + _TUNED + _CONTAINER,
            (_EV_RHEL, _EV_KERNEL, _EV_TUNED),
        ),
    },
    compute=compute,
)
