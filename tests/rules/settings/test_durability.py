import pytest

from rules.inputs.examples import hdd
from tests.rules.engine_helpers import setting_for, value_for


@pytest.mark.parametrize(("durability", "trx", "binlog"), [("full", 1, 1), ("relaxed", 2, 1000)])
def test_it_maps_durability_to_commit_and_binlog_syncs(durability, trx, binlog) -> None:
    overrides = {"workload.durability": durability}
    assert value_for("innodb_flush_log_at_trx_commit", **overrides) == trx
    assert value_for("sync_binlog", **overrides) == binlog


def test_it_tells_the_commit_rate_the_disks_allow() -> None:
    setting = setting_for("innodb_flush_log_at_trx_commit", **hdd(1, "none"))
    assert "120 per second" in setting.explanation


def test_it_explains_that_a_battery_backed_cache_makes_full_durability_cheap() -> None:
    setting = setting_for(
        "innodb_flush_log_at_trx_commit", **hdd(4, "raid10", cache="write_back_bbu")
    )
    assert "5,000" in setting.explanation


MARIADB = {"server.flavor": "mariadb", "server.version": "10.11"}


@pytest.mark.parametrize(
    ("overrides", "pasted", "written"),
    [
        ({}, None, True),  # MySQL 8.0 writes a binary log by default
        (MARIADB, None, False),  # MariaDB does not
        (MARIADB, {"mycnf": "[mysqld]\nlog-bin=mysql-bin\n"}, True),
        ({}, {"mycnf": "[mysqld]\nskip-log-bin\n"}, False),
        ({}, {"variables": {"log_bin": "OFF"}}, False),
        ({"server.version": "5.7"}, {"variables": {"log_bin": "ON"}}, True),
    ],
)
def test_sync_binlog_says_when_no_binary_log_is_written(overrides, pasted, written) -> None:
    """The durability's value either way; without a binary log (the release's default or the
    pasted log_bin), the explanation says it changes nothing until log_bin is set."""
    if pasted is not None:
        overrides = {**overrides, "current": pasted}
    setting = setting_for("sync_binlog", **overrides)
    assert setting.value == 1
    assert ("changes nothing today" in setting.explanation) is not written
    assert ("replicas and backups agree" in setting.reason) is written


@pytest.mark.parametrize("flavor", ["mysql", "mariadb"])
def test_sync_binlog_counts_two_syncs_per_commit_group(flavor) -> None:
    # With the binary log on, the redo log syncs at prepare and the binary log after it.
    setting = setting_for(
        "sync_binlog",
        **{"server.flavor": flavor, "server.version": ("8.0.36" if flavor == "mysql" else "11.8")},
    )
    assert setting.value == 1
    assert "two syncs, not one: the redo log's at prepare and the binary log's" in (
        setting.explanation
    )
