"""The device rates the throughput model uses: one-at-a-time facts as a loaded server gets them."""

import pytest

from calibration.device_terms import queued_iops
from calibration.features import situation_of_profile
from calibration.model import REFERENCE_YEAR
from rules.inputs.enums import ControllerCache, FlashClass, Media, RaidLevel
from rules.inputs.examples import hdd, raw_profile
from rules.inputs.profile import Storage
from rules.inputs.validation import parse_profile
from rules.machine.devices import BBU_HDD_WRITE_FACTOR, QUEUED_HDD_FACTOR, QUEUED_SOURCES
from rules.machine.storage import array_capability
from rules.reference.bibliography import has_source


def _rates(storage: Storage, concurrency: float) -> tuple[float, float]:
    capability = array_capability(storage)
    return queued_iops(
        storage, capability.random_read_iops, capability.random_write_iops, concurrency
    )


def disks(count: int = 4, cache: ControllerCache = ControllerCache.NONE) -> Storage:
    return Storage(Media.HDD, 15000, count, RaidLevel.RAID10, cache)


def test_one_client_per_disk_reads_at_the_one_at_a_time_rate() -> None:
    storage = disks(4)
    reads, _ = _rates(storage, concurrency=4)
    assert reads == array_capability(storage).random_read_iops


def test_reads_gain_with_the_queue_up_to_the_published_doubling() -> None:
    storage = disks(4)
    base = array_capability(storage).random_read_iops
    gains = [_rates(storage, c)[0] / base for c in (4, 16, 64, 128, 1024)]
    assert gains == sorted(gains)
    assert 1.0 < gains[1] < QUEUED_HDD_FACTOR
    assert gains[-2] == pytest.approx(QUEUED_HDD_FACTOR)  # 32 per disk: NCQ's full depth
    assert gains[-1] == pytest.approx(QUEUED_HDD_FACTOR)


def test_page_writes_always_have_a_full_queue() -> None:
    storage = disks(4)
    _, writes = _rates(storage, concurrency=1)
    assert writes == pytest.approx(array_capability(storage).random_write_iops * QUEUED_HDD_FACTOR)


@pytest.mark.parametrize("concurrency", [1, 8, 256])
def test_a_battery_backed_cache_never_gives_fewer_writes_than_none(concurrency: int) -> None:
    _, bare = _rates(disks(8), concurrency)
    _, cached = _rates(disks(8, ControllerCache.WRITE_BACK_BBU), concurrency)
    assert cached >= bare
    assert BBU_HDD_WRITE_FACTOR < QUEUED_HDD_FACTOR  # else the cache's own figure would lead


def test_enterprise_sata_flash_takes_its_queued_16k_rates_per_device() -> None:
    one = Storage(Media.SATA_SSD, None, 1, RaidLevel.NONE, ControllerCache.NONE)
    two = Storage(Media.SATA_SSD, None, 2, RaidLevel.RAID1, ControllerCache.NONE)
    assert _rates(one, 64) == (30_000, 10_000)
    reads, writes = _rates(two, 64)
    assert (reads, writes) == (60_000, 10_000)  # a mirror reads from both, writes to both


def test_consumer_sata_keeps_its_steady_write_rate() -> None:
    consumer = Storage(
        Media.SATA_SSD, None, 1, RaidLevel.NONE, ControllerCache.NONE, FlashClass.CONSUMER
    )
    assert _rates(consumer, 64) == (30_000, 960)


def test_nvme_figures_are_queued_already() -> None:
    nvme = Storage(Media.NVME, None, 1, RaidLevel.NONE, ControllerCache.NONE)
    capability = array_capability(nvme)
    assert _rates(nvme, 64) == (capability.random_read_iops, capability.random_write_iops)


@pytest.mark.parametrize("key", QUEUED_SOURCES)
def test_the_queued_rates_cite_sources_in_the_bibliography(key: str) -> None:
    assert has_source(key)


def _insert_machine(change_buffering: str):
    raw = raw_profile(
        **hdd(8, "raid10", rpm=15000),
        **{"workload.kind": "bulk_insert", "workload.concurrency": 1},
    )
    config = {"innodb_change_buffering": change_buffering}
    return situation_of_profile(parse_profile(raw), config, year=REFERENCE_YEAR)


def test_change_buffer_merges_read_with_a_full_queue_whatever_the_clients() -> None:
    storage = disks(8)
    one_at_a_time = array_capability(storage).random_read_iops
    merged = _insert_machine("all")
    unbuffered = _insert_machine("none")
    assert merged.read_iops == pytest.approx(one_at_a_time * QUEUED_HDD_FACTOR)
    assert unbuffered.read_iops == one_at_a_time  # one client, one read in flight
