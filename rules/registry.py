"""Every rule, in the order the engine runs them; checked once at import.

Order matters: the buffer pool comes before its instances (sized from it), io_capacity before its
max, the redo log before the dirty-page limits (which read whether recovery shortened it), the
instances and io_capacity_max before the page cleaners and the LRU scan depth.
"""

import re

from rules.reference.bibliography import has_source
from rules.rule import OsRule, Rule
from rules.settings import (
    buffer_pool,
    dirty_pages,
    doublewrite,
    durability,
    flush_method,
    flush_neighbors,
    io_capacity,
    io_threads,
    log_buffer,
    log_writer,
    page_cleaning,
    read_ahead,
    redo_log,
    warmup,
)
from rules.system import hugepages, mount, numa, scheduler, sysctl
from rules.system import read_ahead as device_read_ahead

SETTING_RULES: tuple[Rule, ...] = (
    buffer_pool.RULE,
    page_cleaning.RULE_INSTANCES,
    io_capacity.RULE_CAPACITY,
    io_capacity.RULE_CAPACITY_MAX,
    io_threads.RULE_READ,
    io_threads.RULE_WRITE,
    flush_method.RULE,
    doublewrite.RULE,
    log_writer.RULE_FDATASYNC,
    redo_log.RULE,
    warmup.RULE_DUMP_LOAD,
    warmup.RULE_DUMP_PCT,
    log_buffer.RULE,
    log_writer.RULE_WRITER_THREADS,
    read_ahead.RULE_THRESHOLD,
    read_ahead.RULE_RANDOM,
    dirty_pages.RULE_MAX,
    dirty_pages.RULE_LWM,
    page_cleaning.RULE_CLEANERS,
    page_cleaning.RULE_SCAN_DEPTH,
    durability.RULE_TRX_COMMIT,
    durability.RULE_SYNC_BINLOG,
    flush_neighbors.RULE,
)
# After the settings: read-ahead reads the flush method they decided.
OS_RULES: tuple[OsRule, ...] = (
    scheduler.RULE,
    device_read_ahead.RULE,
    sysctl.RULE,
    hugepages.RULE,
    numa.RULE,
    mount.RULE,
)

_KEBAB = re.compile(r"^[a-z0-9]+(-[a-z0-9]+)*$")


def all_rules() -> tuple[Rule | OsRule, ...]:
    return (*SETTING_RULES, *OS_RULES)


def _check() -> None:
    seen: set[str] = set()
    for rule in all_rules():
        if not _KEBAB.match(rule.id) or rule.id in seen:
            raise ValueError(f"rule id {rule.id!r} is not kebab-case or is used twice")
        seen.add(rule.id)
        if not rule.cases:
            raise ValueError(f"rule {rule.id} has no cases")
        for name, case in rule.cases.items():
            if not case.evidence:
                raise ValueError(f"rule {rule.id} case {name!r} cites no evidence")
            missing = [e.source for e in case.evidence if not has_source(e.source)]
            if missing:
                raise ValueError(f"rule {rule.id} cites unknown sources: {missing}")


_check()
