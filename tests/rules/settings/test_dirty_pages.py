import pytest

from rules.inputs.examples import hdd
from tests.rules.engine_helpers import setting_for, value_for


def test_it_allows_many_dirty_pages_without_a_recovery_target() -> None:
    setting = setting_for("innodb_max_dirty_pages_pct")
    assert setting.value == 90
    assert "callaghan-2009-2disk" in {e.source for e in setting.evidence}


@pytest.mark.parametrize("minutes", [None, 60, 5, 0.5])
def test_a_recovery_target_never_lowers_the_dirty_page_limit(minutes) -> None:
    target = {**hdd(1, "none"), "workload.recovery_target_minutes": minutes}
    assert value_for("innodb_max_dirty_pages_pct", **target) == 90
    assert value_for("innodb_max_dirty_pages_pct_lwm", **target) == 10


def test_it_says_the_redo_log_not_this_limit_bounds_recovery() -> None:
    shortened = setting_for("innodb_max_dirty_pages_pct", **{"workload.recovery_target_minutes": 5})
    assert shortened.reason.startswith("90%: the smaller redo log, not this limit")
    assert "redo log's size bounds it" in shortened.explanation
    out_of_reach = {**hdd(1, "none"), "workload.recovery_target_minutes": 0.5}
    unmet = setting_for("innodb_max_dirty_pages_pct", **out_of_reach)
    assert unmet.reason == "90%: a lower limit would not bring recovery within the target"
    assert {"yasufumi-2008-adaptive-checkpoint", "percona-log-file-size-recovery"} <= {
        e.source for e in unmet.evidence
    }


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
            "On MariaDB 0 means the low-water mark is the 90% ceiling itself",
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


@pytest.mark.parametrize("version", ["10.6", "10.11", "11.4", "11.8"])
def test_it_keeps_mariadbs_zero_low_water_mark_beside_an_io_capacity_at_the_spindles_rate(
    version,
) -> None:
    # 8 x 15k disks, io_capacity 1,400 of their 1,440 writes/s: a non-zero mark would have
    # MariaDB's page cleaner flush at that rate even when idle (MDEV-24949).
    setting = setting_for(
        "innodb_max_dirty_pages_pct_lwm", **{"server.flavor": "mariadb", "server.version": version}
    )
    assert setting.value == 0
    assert "mariadb-mdev-24949" in {e.source for e in setting.evidence}
    assert "disables pre-flushing" not in setting.explanation
