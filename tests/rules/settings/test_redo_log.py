import re

import pytest

from rules.inputs.enums import Media
from rules.inputs.examples import flash, hdd
from rules.settings.redo_log import RECOVERY_SECONDS_PER_GIB, recovery_seconds
from rules.units import GIB, MIB
from tests.rules.engine_helpers import result_for, setting_for, value_for

BIG_DATA = {"workload.data_size_gb": 5000}


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
    small = {"hardware.ram_gb": 32, **flash("nvme")}
    capacity = value_for("innodb_redo_log_capacity", **small, **{"server.version": "8.0.30"})
    per_file = setting_for("innodb_log_file_size", **small, **{"server.version": "8.0.29"})
    assert per_file.value * 2 == capacity
    assert "15 GiB (two files of 7.5 GiB)" in per_file.explanation


def test_it_holds_about_an_hour_of_the_peak_writes_one_disk_can_sustain() -> None:
    # One 7200 rpm disk: ~100 page writes/s of 16 KiB = 1.56 MiB/s, 5.5 GiB an hour.
    setting = setting_for("innodb_redo_log_capacity", **hdd(1, "none"), **BIG_DATA)
    assert setting.value == round(100 * 16 * 1024 * 3600 // (128 * MIB)) * 128 * MIB
    assert setting.reason.startswith("5.4 GiB, about an hour of peak log writes;")
    assert "the default 30-minute recovery limit would allow 6 GiB" in setting.reason


def test_it_never_gives_more_redo_than_data() -> None:
    # The case from the issue: 13.8 GB of redo for 2 GB of data.
    setting = setting_for(
        "innodb_redo_log_capacity", **flash("nvme"), **{"workload.data_size_gb": 2}
    )
    assert setting.value == 2 * GIB
    assert setting.reason.startswith("2 GiB, no more than the 2 GiB of data")


def test_redo_is_never_larger_than_what_the_pool_can_hold_dirty() -> None:
    # The case from issue #41: 15 GiB of redo behind a 1.9 GiB pool on NVMe.
    small_pool = {"hardware.ram_gb": 4, **flash("nvme"), "workload.data_size_gb": 500}
    result = result_for(**small_pool)
    pool = result.setting("innodb_buffer_pool_size")
    redo = result.setting("innodb_redo_log_capacity")
    assert pool is not None
    assert redo is not None
    assert redo.value <= int(pool.value) * 0.9
    assert redo.value == 1664 * MIB  # 90% of the 1,920 MiB pool, in 128 MiB steps
    assert redo.reason.startswith("1.6 GiB, no more than the 1.9 GiB buffer pool can hold dirty")
    assert "mysql-manual-55-log-file-size" in {e.source for e in redo.evidence}


@pytest.mark.parametrize(
    ("storage", "stated", "cited", "foreign"),
    [
        (flash("nvme"), "2 minutes per GB", "1 to 2 minutes per GB", "5 minutes per GB"),
        (flash("sata_ssd"), "2 minutes per GB", "1 to 2 minutes per GB", "5 minutes per GB"),
        (hdd(8, "raid10", rpm=15000), "5 minutes per GB", "5 minutes per GB", "2 minutes"),
    ],
)
def test_the_replay_rate_it_sizes_at_is_the_one_its_evidence_gives(
    storage, stated, cited, foreign
) -> None:
    setting = setting_for("innodb_redo_log_capacity", **storage, **BIG_DATA)
    findings = " ".join(e.finding for e in setting.evidence)
    assert f"roughly {stated}" in setting.explanation
    assert cited in findings
    assert foreign not in findings


def test_the_default_limit_caps_replay_at_30_minutes_with_the_minutes_of_the_chosen_size() -> None:
    setting = setting_for("innodb_redo_log_capacity", **flash("nvme"), **BIG_DATA)
    assert setting.value == 15 * GIB  # 30 min at ~2 min per GB on flash
    assert setting.reason == (
        "15 GiB, what the default 30-minute recovery limit allows (~30 min to replay); "
        "an hour of peak writes would be 5.4 TiB"
    )
    disks = setting_for("innodb_redo_log_capacity", **BIG_DATA)  # 8 x 15k RAID10 + BBU
    assert disks.value == 6 * GIB  # 30 min at ~5 min per GB on disks
    assert "~30 min to replay" in disks.reason


@pytest.mark.parametrize(
    ("media", "storage"), [(Media.NVME, flash("nvme")), (Media.HDD, hdd(4, "raid10"))]
)
def test_the_stated_replay_minutes_follow_from_the_chosen_size(media, storage) -> None:
    for data_gb in (1, 3, 7, 5000):
        setting = setting_for(
            "innodb_redo_log_capacity", **storage, **{"workload.data_size_gb": data_gb}
        )
        stated = float(re.search(r"~([0-9.]+) min", setting.reason).group(1))
        expected = int(setting.value) / GIB * RECOVERY_SECONDS_PER_GIB[media] / 60
        assert stated == pytest.approx(expected, abs=0.5)


def test_mariadb_on_nvme_never_claims_no_recovery_time() -> None:
    mariadb = {"server.flavor": "mariadb", "server.version": "11.4", **flash("nvme", 4, "raid10")}
    setting = setting_for("innodb_log_file_size", **mariadb, **BIG_DATA)
    assert "~0 min" not in setting.reason
    assert "~30 min to replay" in setting.reason


@pytest.mark.parametrize("minutes", [2, 5, 15])
def test_it_shrinks_the_log_to_meet_a_recovery_target(minutes) -> None:
    setting = setting_for(
        "innodb_redo_log_capacity", **{"workload.recovery_target_minutes": minutes}
    )
    assert recovery_seconds(int(setting.value), Media.HDD) <= minutes * 60
    assert f"your {minutes}-minute recovery target" in setting.reason


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
    # 8.0.30 caps innodb_redo_log_capacity at 128 GiB; a day-long recovery target would allow more.
    big = {
        "server.version": "8.0.30",
        "hardware.ram_gb": 2048,
        "workload.data_size_gb": 90000,
        "workload.recovery_target_minutes": 1440,
    }
    setting = setting_for("innodb_redo_log_capacity", **flash("nvme", 8, "raid10"), **big)
    assert setting.value == 128 * GIB
    assert setting.reason.startswith("128 GiB, the most this version accepts")
