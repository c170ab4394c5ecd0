import copy
import datetime
import json
import math
from pathlib import Path

import pytest

from calibration.device_terms import queued_iops
from calibration.features import situation_of_point
from calibration.points import UNITS
from calibration.submissions import (
    POINT_FIELD_OF_SETTING,
    FioSample,
    device_corrections,
    fio_sample,
    point_from_submission,
)
from rules.inputs.enums import ControllerCache, Media, RaidLevel
from rules.inputs.errors import ProfileError
from rules.inputs.profile import MeasuredIops, Storage
from rules.machine.storage import array_capability

GOLDEN = Path(__file__).resolve().parents[1] / "golden" / "profiles"
SEED_000 = json.loads((GOLDEN / "seed000-2disk-sata.json").read_text())
NVME = json.loads((GOLDEN / "nvme-modern.json").read_text())


def submit(profile=SEED_000, *, metric="NOTPM", value=2500.0, settings=None, **extra):
    return point_from_submission(
        id="7",
        profile=profile,
        metric=metric,
        value=value,
        settings=settings or {},
        source="https://example.org/my-benchmark",
        **extra,
    )


def test_it_describes_the_machine_of_the_profile():
    point = submit()
    assert (point.kind, point.unit, point.value) == ("oltp", UNITS["oltp"], 2500.0)
    assert (point.media, point.rpm, point.device_count, point.raid_level) == (
        "hdd",
        7200,
        2,
        "raid0",
    )
    assert (point.data_gb, point.ram_gb, point.cpu_cores, point.concurrency) == (2, 2, 2, 8)
    assert point.controller_cache == "none"
    assert (point.measured_read_iops, point.measured_write_iops) == (None, None)


def test_its_source_names_the_submission_and_it_has_no_flags():
    point = submit()
    assert point.source == "user-submission-7"
    assert point.id == "user-submission-7"
    assert point.flags == frozenset()
    assert point.excluded == ""
    assert point.used
    assert "https://example.org/my-benchmark" in point.assumptions


def test_its_year_is_the_current_year_unless_given():
    assert submit().year == datetime.date.today().year
    assert submit(year=2024).year == 2024


def test_it_uses_the_settings_given_by_variable_name():
    point = submit(
        settings={
            "innodb_buffer_pool_size": 1024**3,
            "innodb-flush-log-at-trx-commit": "2",  # the option spelling is accepted too
            "innodb_flush_method": "O_DIRECT",
            "innodb_max_dirty_pages_pct": 75,
            "innodb_read_ahead_threshold": 64,
            "innodb_random_read_ahead": "OFF",
            "io_scheduler": "Deadline",
        }
    )
    assert point.bp_gb == 1.0
    assert point.trx_commit == 2
    assert point.flush_method == "O_DIRECT"
    assert point.max_dirty_pct == 75.0
    assert point.read_ahead == "off"
    assert point.io_scheduler == "deadline"
    assert point.assumed_fields == frozenset()


def test_it_reads_a_buffer_pool_size_written_as_my_cnf_does():
    assert submit(settings={"innodb_buffer_pool_size": "1536M"}).bp_gb == 1.5


def test_settings_not_given_take_the_releases_defaults_and_are_marked_assumed():
    point = submit()
    assert point.bp_gb == 0.125  # 128 MiB
    assert point.trx_commit == 1
    assert point.flush_method == "fsync"  # MySQL 8.0 on Linux
    assert point.max_dirty_pct == 90.0
    assert point.read_ahead == "on"  # linear read-ahead at threshold 56
    assert point.io_scheduler == ""
    assert point.assumed_fields == frozenset(POINT_FIELD_OF_SETTING.values())
    assert "innodb_flush_method" in point.assumptions


def test_defaults_follow_the_release_of_the_profile():
    older = copy.deepcopy(SEED_000)
    older["server"]["version"] = "5.7.44"
    assert submit(older).max_dirty_pct == 75.0
    mariadb = copy.deepcopy(SEED_000)
    mariadb["server"] = {"flavor": "mariadb", "version": "11.4"}
    assert submit(mariadb).flush_method == "O_DIRECT"


def test_random_read_ahead_on_counts_as_read_ahead_on():
    settings = {"innodb_read_ahead_threshold": 64, "innodb_random_read_ahead": "ON"}
    assert submit(settings=settings).read_ahead == "on"


def test_an_unprotected_write_back_cache_is_a_volatile_one():
    profile = copy.deepcopy(SEED_000)
    profile["hardware"]["storage"]["controller_cache"] = "write_back"
    assert submit(profile).controller_cache == "volatile"


def test_measured_iops_of_the_profile_are_kept():
    profile = copy.deepcopy(NVME)
    profile["hardware"]["storage"]["measured_iops"] = {"random_read": 5e5, "random_write": 2e5}
    point = submit(profile, metric="NOTPM")
    assert (point.measured_read_iops, point.measured_write_iops) == (5e5, 2e5)


@pytest.mark.parametrize("metric", ["NOTPM", "notpm", " NOTPM "])
def test_it_accepts_the_reference_unit_of_the_kind(metric):
    assert submit(metric=metric).unit == "NOTPM"


@pytest.mark.parametrize("metric", ["tpmC", "transactions/s", ""])
def test_it_refuses_a_metric_that_is_not_the_reference_unit(metric):
    with pytest.raises(ValueError, match="NOTPM"):
        submit(metric=metric)


@pytest.mark.parametrize("value", [0, -5.0, math.inf, math.nan])
def test_it_refuses_a_value_that_is_not_a_positive_number(value):
    with pytest.raises(ValueError, match="positive"):
        submit(value=value)


def test_it_refuses_an_invalid_profile_naming_the_field():
    profile = copy.deepcopy(SEED_000)
    profile["hardware"]["ram_gb"] = -1
    with pytest.raises(ProfileError, match=r"hardware\.ram_gb"):
        submit(profile)


@pytest.mark.parametrize(
    "given",
    [
        {"innodb_flush_log_at_trx_commit": 3},
        {"innodb_buffer_pool_size": "lots"},
        {"innodb_max_dirty_pages_pct": True},
        {"innodb_buffer_pool_size": [1]},
    ],
)
def test_it_refuses_setting_values_the_server_would_not_take(given):
    with pytest.raises(ValueError, match="innodb_"):
        submit(settings=given)


def test_the_point_goes_through_the_models_inputs():
    situation = situation_of_point(submit(settings={"innodb_buffer_pool_size": "1G"}))
    storage = Storage(Media.HDD, 7200, 2, RaidLevel.RAID0, ControllerCache.NONE)
    capability = array_capability(storage)
    queued = queued_iops(
        storage, capability.random_read_iops, capability.random_write_iops, situation.concurrency
    )
    assert (situation.read_iops, situation.write_iops) == queued
    assert situation.read_iops > capability.random_read_iops  # its clients keep a queue
    assert situation.pool_to_data == 0.5


def hdd(count=2):
    return Storage(Media.HDD, 7200, count, RaidLevel.RAID0, ControllerCache.NONE)


def test_without_samples_every_correction_is_zero():
    corrections = device_corrections([])
    assert corrections == {
        "hdd_read": 0.0,
        "hdd_write": 0.0,
        "sata_ssd_read": 0.0,
        "sata_ssd_write": 0.0,
        "nvme_read": 0.0,
        "nvme_write": 0.0,
    }


def test_one_sample_moves_its_class_by_a_quarter_of_its_log_ratio():
    model = array_capability(hdd())
    sample = FioSample(hdd(), model.random_read_iops * 2, model.random_write_iops / 2)
    corrections = device_corrections([sample])
    assert corrections["hdd_read"] == pytest.approx(math.log(2) / 4)
    assert corrections["hdd_write"] == pytest.approx(-math.log(2) / 4)
    assert corrections["nvme_read"] == 0.0


@pytest.mark.parametrize("n", [1, 3, 12])
def test_the_shrinkage_is_n_over_n_plus_three(n):
    model = array_capability(hdd())
    samples = [FioSample(hdd(), model.random_read_iops * math.e, None)] * n
    corrections = device_corrections(samples)
    assert corrections["hdd_read"] == pytest.approx(n / (n + 3))
    assert corrections["hdd_write"] == 0.0


def test_it_averages_log_ratios_over_the_arrays_of_a_class():
    two, eight = hdd(2), hdd(8)
    samples = [
        FioSample(two, array_capability(two).random_read_iops * 4, None),
        FioSample(eight, array_capability(eight).random_read_iops, None),
    ]
    assert device_corrections(samples)["hdd_read"] == pytest.approx(math.log(4) / 2 * 2 / 5)


def test_it_compares_with_the_model_not_with_iops_already_measured_in_the_profile():
    storage = Storage(
        Media.NVME,
        None,
        1,
        RaidLevel.NONE,
        ControllerCache.NONE,
        measured_iops=MeasuredIops(1e6, 1e6),
    )
    model = array_capability(Storage(Media.NVME, None, 1, RaidLevel.NONE, ControllerCache.NONE))
    sample = FioSample(storage, model.random_read_iops, model.random_write_iops)
    assert device_corrections([sample])["nvme_read"] == pytest.approx(0.0)


def test_an_fio_sample_is_read_from_a_profile():
    sample = fio_sample(profile=NVME, random_read_iops=4e5, random_write_iops=None)
    assert sample.storage.media is Media.NVME
    assert (sample.random_read_iops, sample.random_write_iops) == (4e5, None)


@pytest.mark.parametrize(
    ("read", "write"), [(None, None), (0.0, 100.0), (-1.0, None), (math.nan, None)]
)
def test_an_fio_sample_needs_positive_iops(read, write):
    with pytest.raises(ValueError, match="IOPS"):
        fio_sample(profile=NVME, random_read_iops=read, random_write_iops=write)
