import pytest

from rules.settings.redo_log import recovery_seconds
from rules.units import GIB, MIB
from tests.rules.engine_helpers import result_for, setting_for, value_for
from tests.rules.profiles import flash, hdd


@pytest.mark.parametrize(
    ("flavor", "version", "knob"),
    [
        ("mysql", "8.0.30", "innodb_redo_log_capacity"),
        ("mysql", "8.4.3", "innodb_redo_log_capacity"),
        ("percona", "8.0.36", "innodb_redo_log_capacity"),
        ("mysql", "8.0.29", "innodb_log_file_size"),
        ("mysql", "5.7.44", "innodb_log_file_size"),
        ("mariadb", "10.11", "innodb_log_file_size"),
        ("mariadb", "11.4", "innodb_log_file_size"),
    ],
)
def test_it_uses_the_versions_own_redo_knob(flavor, version, knob) -> None:
    result = result_for(**{"server.flavor": flavor, "server.version": version})
    names = {s.name for s in result.settings}
    assert knob in names
    assert "innodb_log_files_in_group" not in names
    other = {"innodb_redo_log_capacity", "innodb_log_file_size"} - {knob}
    assert not other & names


def test_it_splits_the_total_over_two_files_before_8_0_30() -> None:
    small = {"hardware.ram_gb": 16, **flash("nvme")}
    capacity = value_for("innodb_redo_log_capacity", **small, **{"server.version": "8.0.30"})
    per_file = value_for("innodb_log_file_size", **small, **{"server.version": "8.0.29"})
    assert per_file * 2 == capacity


def test_it_follows_the_dedicated_server_sizing_for_a_fast_array() -> None:
    # 16 GiB RAM -> 12 GiB pool -> 0.75 x 12 = 9 GiB, well within a 30-minute recovery on NVMe.
    assert (
        value_for("innodb_redo_log_capacity", **flash("nvme"), **{"hardware.ram_gb": 16}) == 9 * GIB
    )


def test_it_doubles_the_log_on_spinning_disks_when_recovery_allows() -> None:
    # 2 GiB RAM -> 1 GiB pool -> 512 MiB, doubled on disks; seed 000 ran 1900M.
    small = {"hardware.ram_gb": 2, "hardware.cpu_cores": 2, "workload.concurrency": 8}
    assert value_for("innodb_redo_log_capacity", **hdd(2, "raid0"), **small) == 1 * GIB
    assert value_for("innodb_redo_log_capacity", **flash("nvme"), **small) == 512 * MIB


def test_it_caps_the_log_to_keep_recovery_near_half_an_hour_by_default() -> None:
    setting = setting_for("innodb_redo_log_capacity")
    assert recovery_seconds(int(setting.value), 1600) <= 30 * 60
    assert "30 minutes" in setting.explanation


@pytest.mark.parametrize("minutes", [2, 5, 15])
def test_it_shrinks_the_log_to_meet_a_recovery_target(minutes) -> None:
    value = value_for("innodb_redo_log_capacity", **{"workload.recovery_target_minutes": minutes})
    assert recovery_seconds(int(value), 1600) <= minutes * 60


def test_it_warns_when_the_recovery_target_cannot_be_met() -> None:
    result = result_for(**hdd(1, "none"), **{"workload.recovery_target_minutes": 0.5})
    assert any("cannot be met" in w for w in result.warnings)


def test_a_shorter_recovery_target_never_grows_the_log() -> None:
    sizes = [
        value_for("innodb_redo_log_capacity", **{"workload.recovery_target_minutes": m})
        for m in (60, 30, 10, 3, 1)
    ]
    assert sizes == sorted(sizes, reverse=True)


def test_it_stays_within_the_versions_redo_ceiling() -> None:
    # 8.0.30 caps innodb_redo_log_capacity at 128 GiB; a big pool on disks would ask for more.
    big = {
        "server.version": "8.0.30",
        "hardware.ram_gb": 2048,
        "workload.data_size_gb": 90000,
        "workload.recovery_target_minutes": 1440,
    }
    assert value_for("innodb_redo_log_capacity", **hdd(8, "raid10", rpm=15000), **big) <= 128 * GIB
