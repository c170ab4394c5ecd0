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


@pytest.mark.parametrize(
    ("server", "max_text", "lwm_text"),
    [
        ({}, "90% (the default of MySQL 8.0)", "10% (the default of MySQL 8.0)"),
        (
            {"server.flavor": "mariadb", "server.version": "10.11"},
            "90% (the default of MariaDB 10.11)",
            "10% (MariaDB 10.11 ships 0%, which disables pre-flushing)",
        ),
        (
            {"server.version": "5.7.44"},
            "90% (MySQL 5.7 ships 75%)",
            "10% (MySQL 5.7 ships 0%, which disables pre-flushing)",
        ),
    ],
)
def test_it_names_this_versions_default_not_another_flavors(server, max_text, lwm_text) -> None:
    most = setting_for("innodb_max_dirty_pages_pct", **server)
    lwm = setting_for("innodb_max_dirty_pages_pct_lwm", **server)
    assert max_text in most.explanation
    assert lwm_text in lwm.explanation
    if server.get("server.flavor") == "mariadb":
        assert "MySQL" not in most.explanation + lwm.explanation
