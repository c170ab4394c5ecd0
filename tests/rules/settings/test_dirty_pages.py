import pytest

from tests.rules.engine_helpers import setting_for, value_for
from tests.rules.profiles import hdd


def test_it_allows_many_dirty_pages_without_a_recovery_target() -> None:
    setting = setting_for("innodb_max_dirty_pages_pct")
    assert setting.value == 90
    assert "callaghan-2009-2disk" in {e.source for e in setting.evidence}


@pytest.mark.parametrize(("minutes", "expected"), [(None, 90), (60, 90), (5, 50)])
def test_it_lowers_dirty_pages_when_the_recovery_target_binds(minutes, expected) -> None:
    assert (
        value_for("innodb_max_dirty_pages_pct", **{"workload.recovery_target_minutes": minutes})
        == expected
    )


def test_it_enforces_20_percent_when_the_target_is_out_of_reach() -> None:
    tight = {**hdd(1, "none"), "workload.recovery_target_minutes": 0.5}
    assert value_for("innodb_max_dirty_pages_pct", **tight) == 20
    assert value_for("innodb_max_dirty_pages_pct_lwm", **tight) == 10


def test_the_low_water_mark_stays_below_the_ceiling() -> None:
    for minutes in (None, 5, 0.5):
        overrides = {**hdd(1, "none"), "workload.recovery_target_minutes": minutes}
        ceiling = value_for("innodb_max_dirty_pages_pct", **overrides)
        assert value_for("innodb_max_dirty_pages_pct_lwm", **overrides) < ceiling
