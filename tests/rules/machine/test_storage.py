import pytest

from rules.inputs.examples import flash, hdd, profile
from rules.machine.devices import FLASH, HDD_BY_RPM
from rules.machine.storage import array_capability
from rules.reference.bibliography import has_source


def capability(**overrides):
    return array_capability(profile(**overrides).hardware.storage)


@pytest.mark.parametrize(
    ("storage", "reads", "writes"),
    [
        (hdd(1, "none"), 100, 100),
        (hdd(2, "raid0"), 200, 200),
        (hdd(4, "raid10"), 400, 200),  # mirrors halve writes, not reads
        (hdd(2, "raid1", rpm=15000), 400, 200),
        (hdd(6, "raid5"), 600, 150),  # 4 IOs per logical write
        (hdd(6, "raid6"), 600, 100),  # 6 IOs per logical write
        (hdd(4, "raid10", rpm=15000, cache="write_back_bbu"), 800, 720),  # x1.8 behind the BBU
        (flash("nvme"), 200_000, 100_000),
        (flash("sata_ssd", 2, "raid1"), 20_000, 4_000),
    ],
)
def test_it_combines_devices_raid_and_cache_into_array_iops(storage, reads, writes) -> None:
    cap = capability(**storage)
    assert (cap.random_read_iops, cap.random_write_iops) == (reads, writes)


@pytest.mark.parametrize(("rpm", "fsyncs"), [(5400, 90), (7200, 120), (10000, 166), (15000, 250)])
def test_it_limits_uncached_commits_to_one_per_rotation(rpm, fsyncs) -> None:
    assert capability(**hdd(1, "none", rpm=rpm)).fsync_per_s == fsyncs


def test_a_battery_backed_cache_answers_fsyncs_from_memory() -> None:
    assert capability(**hdd(4, "raid10", cache="write_back_bbu")).fsync_per_s == 5000


@pytest.mark.parametrize("cache", ["write_through", "write_back", "none"])
def test_an_unprotected_cache_counts_as_none(cache) -> None:
    cap = capability(**hdd(4, "raid10", cache=cache))
    assert (cap.random_write_iops, cap.fsync_per_s) == (200, 120)


def test_measured_iops_replace_the_device_model() -> None:
    cap = capability(
        **flash("sata_ssd"),
        **{"hardware.storage.measured_iops": {"random_read": 1234, "random_write": 567}},
    )
    assert (cap.random_read_iops, cap.random_write_iops, cap.measured) == (1234, 567, True)
    assert "fio" in cap.summary


def test_it_summarises_the_array_in_words() -> None:
    summary = capability(**hdd(8, "raid10", rpm=15000, cache="write_back_bbu")).summary
    assert summary.startswith("8 x 15k rpm disks in RAID10 behind a battery-backed write cache")


def test_consumer_flash_syncs_and_sustains_writes_far_below_enterprise_flash() -> None:
    enterprise = capability(**flash("sata_ssd"))
    consumer = capability(**flash("sata_ssd"), **{"hardware.storage.flash_class": "consumer"})
    assert consumer.random_read_iops == enterprise.random_read_iops
    assert consumer.fsync_per_s < enterprise.fsync_per_s / 10
    assert consumer.random_write_iops < enterprise.random_write_iops / 2
    assert "consumer SATA SSD" in consumer.summary


def test_the_summary_agrees_in_number_with_the_device_count() -> None:
    assert capability(**hdd(1, "none")).summary.startswith("one 7200 rpm disk sustains about")
    assert " disks in RAID0 sustain about" in capability(**hdd(2, "raid0")).summary


@pytest.mark.parametrize("level", ["raid5", "raid6"])
def test_parity_raid_without_a_protected_cache_halves_commit_syncs(level) -> None:
    mirror = capability(**hdd(6, "raid10"))
    parity = capability(**hdd(6, level))
    assert parity.fsync_per_s == mirror.fsync_per_s / 2  # read, then write: two round trips
    assert "read-modify-write" in parity.summary


@pytest.mark.parametrize("level", ["raid5", "raid6"])
def test_a_battery_backed_cache_absorbs_the_parity_read_before_a_sync(level) -> None:
    assert capability(**hdd(6, level, cache="write_back_bbu")).fsync_per_s == 5000


def test_a_measured_write_rate_caps_commit_syncs() -> None:
    volume = {"hardware.storage.measured_iops": {"random_read": 3000, "random_write": 3000}}
    assert capability(**flash("sata_ssd"), **volume).fsync_per_s == 3000


@pytest.mark.parametrize(
    "facts",
    [*HDD_BY_RPM.values(), *FLASH.values()],
    ids=[*(f"hdd-{rpm}" for rpm in HDD_BY_RPM), *(f"{m.value}-{c.value}" for m, c in FLASH)],
)
def test_every_device_fact_cites_sources_in_the_bibliography(facts) -> None:
    assert facts.sources
    assert all(has_source(key) for key in facts.sources), facts.sources
