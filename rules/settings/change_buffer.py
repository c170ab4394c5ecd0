"""innodb_change_buffering: keep the change buffer for bulk inserts on spinning disks.

The change buffer holds changes to secondary-index pages that are not in the buffer pool and
merges them when the pages are read later, sparing the random read each change would otherwise
cost (mysql-manual-change-buffer). On hard disks that read is the bottleneck of a load into
indexed tables larger than the pool (callaghan-2008-insert: about 4 IOs per iibench row; the
insert buffer cut secondary-index IO 2:1 to 5:1, callaghan-2011-insert-buffer). MySQL 8.4
changed the default from all to none (mysql-manual-8-4-defaults), so there the rule sets `all`
back for a bulk-insert workload on HDD whose data outgrows the pool; MySQL 8.0 and earlier
already run `all`. Elsewhere the rule proposes nothing and the server keeps its default.
MariaDB is left alone: it ignores the variable from 10.9 and removed the change buffer in 11.0
(catalog; MariaDB KB, "InnoDB System Variables": innodb_change_buffering), and 10.6 ships
`none` by default since 10.6.7 (MDEV-27734).
"""

from rules.inputs.enums import Flavor, Media, WorkloadKind
from rules.output.result import Evidence
from rules.reference.defaults import default_note
from rules.rule import Case, Context, Proposal, Rule

NAME = "innodb_change_buffering"
ALL = "all"
# A load into tables with secondary indexes (the contract's bulk_insert: iibench, the insert
# benchmark) is where the change buffer's saved reads are measured (callaghan-2011-insert-buffer).
INDEXED_INSERT_KINDS = frozenset({WorkloadKind.BULK_INSERT})
MEDIA_WITH_COSTLY_RANDOM_READS = frozenset({Media.HDD})


def compute(ctx: Context) -> tuple[Proposal, ...]:
    profile = ctx.profile
    if profile.server.flavor is Flavor.MARIADB or not ctx.catalog.exists(NAME):
        return ()
    if profile.hardware.storage.media not in MEDIA_WITH_COSTLY_RANDOM_READS:
        return ()
    if profile.workload.kind not in INDEXED_INSERT_KINDS:
        return ()
    pool = int(ctx.decided["innodb_buffer_pool_size"])
    if profile.workload.data_size_bytes <= pool:
        return ()  # the index pages stay in the pool: nothing is buffered
    facts = {"default": default_note(ctx.catalog, NAME, ALL)}
    return (Proposal(NAME, ALL, "hdd-bulk-insert", facts),)


_EVIDENCE = (
    Evidence(
        "mysql-manual-change-buffer",
        "The change buffer caches changes to secondary-index pages that are not in the buffer "
        "pool and merges them when the pages are read later, avoiding the random reads an "
        "immediate update would need; merging after a large load can take hours of extra IO.",
    ),
    Evidence(
        "callaghan-2011-insert-buffer",
        "The insert buffer typically cuts secondary-index IO by 2:1 to 5:1, and made a 1B-row "
        "iibench load on 8 SAS disks about 36x faster than without it.",
    ),
    Evidence(
        "mysql-manual-8-4-defaults",
        "MySQL 8.4 changed the default innodb_change_buffering from all to none.",
    ),
)
RULE = Rule(
    id="change-buffering-on-hdd-bulk-loads",
    setting=NAME,
    kind="enum",
    cases={
        "hdd-bulk-insert": Case(
            "all{default}: inserts into secondary indexes need no random disk reads",
            "The change buffer keeps changes to secondary-index pages that are not in the "
            "buffer pool and merges them when those pages are read later. A load into indexed "
            "tables larger than the pool would otherwise read an index page from disk for "
            "almost every row and index, and on spinning disks those random reads are the "
            "bottleneck: the insert buffer cut that IO several times over in Callaghan's "
            "iibench loads. So it buffers inserts, deletes and purges (all){default}; MySQL 8.4 "
            "ships none, which suits fast flash, not this array. The trade-off: the merges "
            "come later, and after a large load they can keep the disks busy for hours, also "
            "across a restart.",
            _EVIDENCE,
        ),
    },
    compute=compute,
    only_where_present=True,
)
