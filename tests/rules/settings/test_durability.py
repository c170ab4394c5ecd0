import pytest

from tests.rules.engine_helpers import setting_for, value_for
from tests.rules.profiles import hdd


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
