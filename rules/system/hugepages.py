"""Transparent huge pages: off for the database host."""

import functools

from rules.inputs.enums import Flavor
from rules.output.result import Evidence
from rules.rule import Case, Context, OsProposal, OsRule

THP_DIR = "/sys/kernel/mm/transparent_hugepage"
# systemd-tmpfiles writes these at every boot, before the database starts ('w' lines).
TMPFILES_PATH = "/etc/tmpfiles.d/60-innodb-io-advisor-thp.conf"
# never: MariaDB found THP made the server use up to 10x the memory and never give it back, and
# its releases from January 2024 (10.6.17, 10.11.7, 11.0.5 and later) switch THP off for their own
# process after allocating the buffer pool (mariadb-mdev-33279, mariadb-kb-memory-profiling).
# MySQL's manual gives no advice; the cause is in the allocator and the kernel, not in MariaDB's
# code, so mysqld gets the same setting (advisor-engineering-judgement).
VALUE = "never"


def compute(ctx: Context) -> tuple[OsProposal, ...]:
    return _proposals("mariadb" if ctx.profile.server.flavor is Flavor.MARIADB else "mysql")


@functools.cache  # two cases, the same for every host of the flavor
def _proposals(case: str) -> tuple[OsProposal, ...]:
    files = ("enabled", "defrag")
    commands = (
        *(f"echo {VALUE} > {THP_DIR}/{name}" for name in files),
        f"cat {THP_DIR}/enabled {THP_DIR}/defrag",
    )
    persist = "\n".join(f"w {THP_DIR}/{name} - - - - {VALUE}" for name in files)
    facts = {"value": VALUE}
    return (
        OsProposal(
            "transparent_hugepage", VALUE, "host", case, commands, persist, TMPFILES_PATH, facts
        ),
    )


_WHAT = (
    "Transparent huge pages let the kernel back memory with 2 MiB pages and merge small pages "
    "into them in the background. "
)
_TUNED = (
    " The tmpfiles.d entry sets it at every boot; on RHEL, a tuned profile that enables it "
    "(throughput-performance does) must also say transparent_hugepages=never, or it wins; "
    "the boot option transparent_hugepage=never works everywhere."
)
_EV_MDEV = Evidence(
    "mariadb-mdev-33279",
    "With THP the server used up to 10 times more memory and could not return it to the "
    "system, so MariaDB disables THP for itself once the buffer pool is allocated.",
)
_EV_KB = Evidence(
    "mariadb-kb-memory-profiling",
    "THP, on by default in many distributions, can drive MariaDB out of memory because it does "
    "not suit databases; releases from 10.6.17 on disable it.",
)
_EV_KERNEL = Evidence(
    "linux-kernel-thp",
    "Writing never to /sys/kernel/mm/transparent_hugepage/enabled turns THP off for every "
    "process; the boot option transparent_hugepage=never does the same from boot.",
)
_EV_TUNED = Evidence(
    "rhel-6-tuned-profiles",
    "The tuned throughput-performance profile enables transparent huge pages.",
)
RULE = OsRule(
    id="transparent-hugepages-never",
    setting="transparent_hugepage",
    cases={
        "mysql": Case(
            "{value}: huge pages bloat and stall a database's memory",
            _WHAT + "For a database they mostly cost: memory freed by the server stays pinned "
            "inside half-used huge pages, so the process grows until it is killed, and "
            "background compaction adds stalls. MariaDB measured up to ten times the memory "
            "and now turns THP off inside its server; MySQL's manual says nothing, and the "
            "cause lies in the allocator and the kernel, so {value} here too." + _TUNED,
            (_EV_MDEV, _EV_KB, _EV_KERNEL, _EV_TUNED),
        ),
        "mariadb": Case(
            "{value}: huge pages bloat and stall a database's memory",
            _WHAT + "For a database they mostly cost: memory freed by the server stays pinned "
            "inside half-used huge pages, so the process grows until it is killed. MariaDB "
            "measured up to ten times the memory; its releases from January 2024 (10.6.17, "
            "10.11.7, 11.0.5 and later) switch THP off for their own process after allocating "
            "the buffer pool, and {value} host-wide covers older releases and the other "
            "processes on the host." + _TUNED,
            (_EV_MDEV, _EV_KB, _EV_KERNEL, _EV_TUNED),
        ),
    },
    compute=compute,
)
