import pytest

from tests.rules.engine_helpers import setting_for, value_for
from tests.rules.profiles import flash, hdd

SMALL = {"hardware.ram_gb": 16, "hardware.cpu_cores": 8}


@pytest.mark.parametrize(
    ("storage", "expected"),
    [
        (hdd(1, "none"), 100),  # manual: ~100 for one 7200 rpm disk
        (hdd(2, "raid0"), 200),  # seed 000 used 250 on two SATA disks
        (hdd(10, "raid0"), 1000),  # seed 001 used 1000 on ten disks
        (hdd(8, "raid10", rpm=15000, cache="write_back_bbu"), 1400),
        (hdd(6, "raid5"), 150),  # RAID5 pays four IOs per write
        (flash("sata_ssd"), 2000),  # Percona LinkBench used 2000 on a SATA SSD
        (flash("nvme"), 10000),  # Percona NVMe runs used 10000
        (flash("nvme", 8, "raid0"), 20000),  # the manual's ceiling
    ],
)
def test_it_sizes_io_capacity_from_the_arrays_write_rate(storage, expected) -> None:
    assert value_for("innodb_io_capacity", **storage, **SMALL) == expected


def test_it_halves_io_capacity_for_read_mostly_work() -> None:
    busy = value_for("innodb_io_capacity", **flash("sata_ssd"))
    quiet = value_for("innodb_io_capacity", **flash("sata_ssd"), **{"workload.kind": "read_mostly"})
    assert quiet == busy // 2


def test_it_uses_measured_iops_instead_of_the_device_model() -> None:
    measured = {"hardware.storage.measured_iops": {"random_read": 50000, "random_write": 30000}}
    assert value_for("innodb_io_capacity", **flash("sata_ssd"), **measured) == 15000


def test_it_never_goes_below_the_catalog_minimum() -> None:
    slow = {**hdd(1, "none", rpm=5400), "workload.kind": "read_mostly"}
    assert value_for("innodb_io_capacity", **slow) == 100


@pytest.mark.parametrize("storage", [hdd(1, "none"), hdd(4, "raid10"), flash("nvme")])
def test_it_gives_io_capacity_max_twice_io_capacity(storage) -> None:
    capacity = value_for("innodb_io_capacity", **storage)
    assert value_for("innodb_io_capacity_max", **storage) == 2 * capacity


def test_it_keeps_a_single_disks_max_far_below_the_old_2000_default() -> None:
    assert value_for("innodb_io_capacity_max", **hdd(1, "none")) < 2000


def test_it_explains_with_the_arrays_figures_and_cites_the_seeds() -> None:
    setting = setting_for("innodb_io_capacity", **hdd(2, "raid0"))
    assert "200 random writes/s" in setting.explanation
    assert {"callaghan-2009-2disk", "callaghan-2008-insert"} <= {e.source for e in setting.evidence}
