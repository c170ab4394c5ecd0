"""Each seed article's machine, run through the engine, lands where that article's expert would.

The expert's values come from the article's own configuration; a range is accepted where the
article's figure was chosen for its own hardware generation (e.g. a 2009 binary's threads).
"""

from typing import Any

import pytest

from rules.engine import recommend
from rules.inputs.validation import parse_profile
from rules.units import GIB

SEED_000 = {  # Callaghan 2009: 2 SATA disks SW RAID0, 2 cores, 2 GB, tpcc 20W, trx_commit=2
    "server": {"flavor": "mysql", "version": "8.0.36"},
    "hardware": {
        "ram_gb": 2,
        "cpu_cores": 2,
        "filesystem": "xfs",
        "storage": {
            "media": "hdd",
            "rpm": 7200,
            "device_count": 2,
            "raid_level": "raid0",
            "controller_cache": "none",
        },
    },
    "workload": {"kind": "oltp", "data_size_gb": 2, "concurrency": 8, "durability": "relaxed"},
}
SEED_001 = {  # Callaghan 2008: iibench, 8 cores, 16 GB, 10 disks SW RAID0, trx_commit=2
    "server": {"flavor": "mysql", "version": "8.0.36"},
    "hardware": {
        "ram_gb": 16,
        "cpu_cores": 8,
        "storage": {
            "media": "hdd",
            "rpm": 7200,
            "device_count": 10,
            "raid_level": "raid0",
            "controller_cache": "none",
        },
    },
    "workload": {
        "kind": "bulk_insert",
        "data_size_gb": 200,
        "concurrency": 4,
        "durability": "relaxed",
    },
}
SEED_002 = {  # Percona 2008: Dell 2950, 8 cores, 6-disk RAID10 + BBU, 32 GB, tpcc 40W, 20 clients
    "server": {"flavor": "percona", "version": "8.0.36"},
    "hardware": {
        "ram_gb": 32,
        "cpu_cores": 8,
        "kernel": "5.15",
        "storage": {
            "media": "hdd",
            "rpm": 15000,
            "device_count": 6,
            "raid_level": "raid10",
            "controller_cache": "write_back_bbu",
        },
    },
    "workload": {"kind": "oltp", "data_size_gb": 4, "concurrency": 20, "durability": "full"},
}
SEED_004 = {  # Percona 2009: R900, 16 cores, 8 x 15k SAS RAID10 (PERC 6/i BBU), 32 GB, tpcc 100W
    "server": {"flavor": "mysql", "version": "8.4.3"},
    "hardware": {
        "ram_gb": 32,
        "cpu_cores": 16,
        "filesystem": "ext4",
        "kernel": "5.15",
        "storage": {
            "media": "hdd",
            "rpm": 15000,
            "device_count": 8,
            "raid_level": "raid10",
            "controller_cache": "write_back_bbu",
        },
    },
    "workload": {"kind": "oltp", "data_size_gb": 10, "concurrency": 32, "durability": "full"},
}
SINGLE_HDD = {  # seed 004's comment: for a single HDD read-ahead may be useful
    "server": {"flavor": "mariadb", "version": "10.11"},
    "hardware": {
        "ram_gb": 8,
        "cpu_cores": 4,
        "kernel": "6.1",
        "storage": {
            "media": "hdd",
            "rpm": 7200,
            "device_count": 1,
            "raid_level": "none",
            "controller_cache": "none",
        },
    },
    "workload": {"kind": "read_write", "data_size_gb": 20, "concurrency": 16, "durability": "full"},
}


def within(low: float, high: float) -> Any:
    return lambda value: low <= value <= high


def one_of(*values: object) -> Any:
    return lambda value: value in values


# (machine, setting, the expert's value in the article, acceptance test, seed source key)
SEED_TABLE = [
    ("seed 000", SEED_000, "innodb_io_capacity", "250", within(150, 350), "callaghan-2009-2disk"),
    (
        "seed 000",
        SEED_000,
        "innodb_flush_method",
        "O_DIRECT",
        one_of("O_DIRECT"),
        "callaghan-2009-2disk",
    ),
    (
        "seed 000",
        SEED_000,
        "innodb_buffer_pool_size",
        "1200M",
        within(0.8 * GIB, 1.5 * GIB),
        "mysql-manual-dedicated-server",
    ),
    (
        "seed 000",
        SEED_000,
        "innodb_redo_log_capacity",
        "1900M",
        within(0.5 * GIB, 4 * GIB),
        "callaghan-2011-odirect-log",
    ),
    (
        "seed 000",
        SEED_000,
        "innodb_max_dirty_pages_pct",
        "80 (fastest)",
        within(75, 90),
        "callaghan-2009-2disk",
    ),
    (
        "seed 000",
        SEED_000,
        "innodb_flush_log_at_trx_commit",
        "2",
        one_of(2),
        "callaghan-2009-2disk",
    ),
    (
        "seed 000",
        SEED_000,
        "innodb_read_ahead_threshold",
        "read-ahead skipped",
        one_of(64),
        "percona-2009-readahead",
    ),
    (
        "seed 001",
        SEED_001,
        "innodb_io_capacity",
        "1000",
        within(800, 1200),
        "callaghan-2008-insert",
    ),
    ("seed 001", SEED_001, "innodb_write_io_threads", "4", within(4, 8), "callaghan-2008-insert"),
    (
        "seed 001",
        SEED_001,
        "innodb_buffer_pool_size",
        "12G",
        within(10 * GIB, 13 * GIB),
        "mysql-manual-buffer-pool",
    ),
    (
        "seed 001",
        SEED_001,
        "innodb_redo_log_capacity",
        "3 x 1300M",
        within(1 * GIB, 8 * GIB),
        "callaghan-2011-odirect-log",
    ),
    (
        "seed 001",
        SEED_001,
        "innodb_max_dirty_pages_pct",
        "90",
        within(80, 90),
        "callaghan-2009-2disk",
    ),
    (
        "seed 002",
        SEED_002,
        "innodb_flush_method",
        "O_DIRECT",
        one_of("O_DIRECT", "O_DIRECT_NO_FSYNC"),
        "hpm-2012",
    ),
    (
        "seed 002",
        SEED_002,
        "innodb_io_capacity",
        "~1000 for 6 fast disks (seed 001 comment)",
        within(600, 1400),
        "callaghan-2008-insert",
    ),
    (
        "seed 004",
        SEED_004,
        "innodb_read_ahead_threshold",
        "read-ahead off (+15%)",
        one_of(64),
        "percona-2009-readahead",
    ),
    (
        "seed 004",
        SEED_004,
        "innodb_io_capacity",
        "not given; 8 x 15k RAID10 BBU",
        within(800, 2000),
        "mysql-manual-io-capacity",
    ),
    (
        "single HDD",
        SINGLE_HDD,
        "innodb_read_ahead_threshold",
        "read-ahead kept",
        one_of(56),
        "percona-2009-readahead",
    ),
    (
        "single HDD",
        SINGLE_HDD,
        "innodb_io_capacity",
        "~100 (manual)",
        within(100, 200),
        "mysql-manual-io-capacity",
    ),
    ("single HDD", SINGLE_HDD, "innodb_flush_neighbors", "1 (WL#9631)", one_of(1), "mysql-wl-9631"),
]


@pytest.mark.parametrize(
    ("machine", "raw", "name", "expert", "accept", "source"),
    SEED_TABLE,
    ids=[f"{row[0]}-{row[2]}" for row in SEED_TABLE],
)
def test_each_seed_machine_gets_values_its_article_would_accept(
    machine, raw, name, expert, accept, source
) -> None:
    result = recommend(parse_profile(raw))
    setting = result.setting(name)
    assert setting is not None, f"{machine}: {name} missing"
    assert accept(setting.value), f"{machine}: {name}={setting.value}, expert used {expert}"
    assert source in {e.source for e in setting.evidence}


@pytest.mark.parametrize("raw", [SEED_002, SEED_004])
def test_the_battery_backed_seed_machines_get_noop_class_schedulers(raw) -> None:
    os_items = recommend(parse_profile(raw)).os
    (scheduler,) = [item for item in os_items if item.name == "io_scheduler"]
    assert scheduler.value in ("none", "noop")
    assert "percona-2009-schedulers" in {e.source for e in scheduler.evidence}


@pytest.mark.parametrize(
    ("raw", "seed"),
    [
        (SEED_000, "callaghan-2009-2disk"),
        (SEED_001, "callaghan-2008-insert"),
        (SEED_002, "percona-2008-xtradb-iobound"),
        (SEED_004, "percona-2009-readahead"),
        (SINGLE_HDD, "percona-2009-readahead"),
    ],
)
def test_each_seed_article_is_cited_in_its_machines_result(raw, seed) -> None:
    result = recommend(parse_profile(raw))
    cited = {e.source for s in result.settings for e in s.evidence}
    cited |= {e.source for o in result.os for e in o.evidence}
    assert seed in cited
