import pytest

from rules.inputs.examples import flash, hdd
from tests.rules.engine_helpers import result_for

WARM_UP = ("innodb_buffer_pool_dump_at_shutdown", "innodb_buffer_pool_load_at_startup")


def test_a_recovery_target_counts_the_pools_warm_up_on_disks() -> None:
    # 8 x 15k disks in RAID10, 48 GiB pool, 15-minute target: replay ~15 min, warm-up ~33 min.
    result = result_for(**{"workload.recovery_target_minutes": 15})
    for name in WARM_UP:
        setting = result.setting(name)
        assert setting is not None, name
        assert setting.value == "ON"
        assert "about 33 minutes, longer than the ~15 minutes of redo replay" in (
            setting.explanation
        )
    pct = result.setting("innodb_buffer_pool_dump_pct")
    assert pct is not None
    assert pct.value == 100
    assert any("plus about 33 minutes of buffer pool warm-up" in w for w in result.warnings)


@pytest.mark.parametrize("minutes", [None, 30])
def test_it_leaves_the_dump_alone_where_replay_dominates_or_no_target_is_given(minutes) -> None:
    # NVMe reads the pool back in seconds; without a target nothing asks for a bound at all.
    storage = flash("nvme") if minutes is not None else hdd(8, "raid10", rpm=15000)
    result = result_for(**storage, **{"workload.recovery_target_minutes": minutes})
    names = {s.name for s in result.settings}
    assert not names & {*WARM_UP, "innodb_buffer_pool_dump_pct"}
