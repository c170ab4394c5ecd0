"""A disk writes a page's dirty extent neighbours in the same seek (innodb_flush_neighbors):
the pages per batch, the releases' defaults, and what the estimator makes of the setting."""

import itertools

import pytest

from calibration.device_terms import EXTENT_PAGES, neighbour_pages
from calibration.points import flush_neighbors_default, load_points, used_points
from rules.inputs.enums import ControllerCache, FlashClass, Media, RaidLevel
from rules.inputs.examples import flash, hdd, raw_profile
from rules.inputs.profile import Storage
from rules.inputs.validation import parse_profile
from tests.calibration.test_estimator import ESTIMATOR, estimate, midpoint

DISK = Storage(
    media=Media.HDD,
    rpm=10000,
    device_count=4,
    raid_level=RaidLevel.RAID10,
    controller_cache=ControllerCache.NONE,
)
SSD = Storage(
    media=Media.SATA_SSD,
    rpm=None,
    device_count=1,
    raid_level=RaidLevel.NONE,
    controller_cache=ControllerCache.NONE,
    flash_class=FlashClass.ENTERPRISE,
)


def test_flash_and_neighbour_flushing_off_write_one_page_per_io() -> None:
    assert neighbour_pages(SSD, 2, 90.0, 1.0) == 1.0
    assert neighbour_pages(DISK, 0, 90.0, 1.0) == 1.0


@pytest.mark.parametrize("mode", [1, 2])
def test_a_disk_writes_more_pages_per_seek_the_more_of_the_data_may_be_dirty(mode) -> None:
    batches = [neighbour_pages(DISK, mode, 90.0, share) for share in (0.01, 0.1, 0.5, 1.0, 4.0)]
    assert all(a < b for a, b in itertools.pairwise(batches))
    assert batches[0] > 1.0
    assert batches[-1] == EXTENT_PAGES  # all of the data may be dirty: the whole extent


def test_the_whole_extent_writes_at_least_the_contiguous_run() -> None:
    for share in (0.01, 0.1, 0.3, 0.6):
        whole = neighbour_pages(DISK, 2, 90.0, share)
        contiguous = neighbour_pages(DISK, 1, 90.0, share)
        assert whole >= contiguous
    # a tenth of the pool's data dirty: 63 neighbours hold 5.67 dirty pages; the run through
    # the page is 1 + 2 q / (1 - q) long
    assert neighbour_pages(DISK, 2, 90.0, 0.1) == pytest.approx(1 + 63 * 0.09)
    assert neighbour_pages(DISK, 1, 90.0, 0.1) == pytest.approx(1 + 2 * 0.09 / 0.91)


@pytest.mark.parametrize(
    ("server", "year", "mode"),
    [
        ("mysql 5.0.77", 2009, 2),
        ("mysql 5.5.8", 2010, 2),
        ("percona server 5.7.22", 2018, 1),
        ("mysql 8.0.36", 2024, 0),
        ("mariadb 10.11.9", 2025, 1),
        ("mariadb 5.5.30", 2013, 2),
        ("xtradb (release not stated)", 2009, 2),
        ("version not stated", 2015, 1),
    ],
)
def test_each_release_flushes_neighbours_by_its_default(server, year, mode) -> None:
    assert flush_neighbors_default(server, year) == mode


def test_the_calibration_disks_before_mysql_5_6_flushed_whole_extents() -> None:
    """Which of the points inform the term: the published disk runs before 2013 ran releases
    that flushed every dirty page of the extent; the later ones (MySQL 5.6.10 and MariaDB
    10.0.1, schwenke-2013-mysql-5610-mariadb-1001) the contiguous run."""
    disks = [p for p in used_points(load_points()) if p.media == "hdd"]
    older = {p.flush_neighbors for p in disks if p.year < 2013}
    newer = {p.flush_neighbors for p in disks if p.year >= 2013}
    assert older == {2}
    assert newer == {1}


def test_neighbour_flushing_never_lowers_a_disk_estimate_and_is_modelled() -> None:
    raw = raw_profile(**hdd(4, "raid10"), **{"workload.kind": "update_heavy"})
    off, on = (
        midpoint(raw, innodb_flush_neighbors=n, innodb_buffer_pool_size=2**33) for n in (0, 1)
    )
    assert on >= off
    profile = parse_profile(raw)
    effects = ESTIMATOR.effects(
        profile, {"innodb_flush_neighbors": 0}, {"innodb_flush_neighbors": 1}
    )
    assert effects["innodb_flush_neighbors"].high_pct > 0


def test_neighbour_flushing_changes_nothing_on_flash() -> None:
    raw = raw_profile(**flash("nvme"), **{"workload.kind": "update_heavy"})
    off = estimate(raw, innodb_flush_neighbors=0)
    on = estimate(raw, innodb_flush_neighbors=2)
    assert (off.low, off.high) == (on.low, on.high)
