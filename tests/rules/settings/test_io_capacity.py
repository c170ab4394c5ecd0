import pytest

from rules.inputs.examples import flash, hdd
from tests.rules.engine_helpers import setting_for, value_for

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
        (flash("nvme", 4, "raid10"), 10000),  # no cited run went above 10000
        (flash("nvme", 8, "raid0"), 10000),
    ],
)
def test_it_sizes_io_capacity_from_the_arrays_write_rate(storage, expected) -> None:
    assert value_for("innodb_io_capacity", **storage, **SMALL) == expected


def test_it_halves_io_capacity_for_read_mostly_work() -> None:
    busy = value_for("innodb_io_capacity", **flash("sata_ssd"))
    quiet = value_for("innodb_io_capacity", **flash("sata_ssd"), **{"workload.kind": "read_mostly"})
    assert quiet == busy // 2


def test_it_uses_measured_iops_instead_of_the_device_model() -> None:
    measured = {"hardware.storage.measured_iops": {"random_read": 50000, "random_write": 6000}}
    assert value_for("innodb_io_capacity", **flash("sata_ssd"), **measured) == 1500


def test_measured_write_iops_cap_io_capacity_and_its_max() -> None:
    # The disks' whole write rate would be 1000; fio measured 700 writes/s on the array.
    measured = {"hardware.storage.measured_iops": {"random_read": 900, "random_write": 700}}
    capacity = setting_for("innodb_io_capacity", **hdd(10, "raid0"), **measured)
    most = setting_for("innodb_io_capacity_max", **hdd(10, "raid0"), **measured)
    assert (capacity.value, most.value) == (175, 350)
    assert capacity.reason == "25% of the 700 random writes/s fio measured"
    assert "mysql-manual-io-capacity" in {e.source for e in capacity.evidence}


@pytest.mark.parametrize("media", ["sata_ssd", "nvme"])
def test_a_3000_iops_cloud_volume_leaves_half_its_budget_to_reads_and_syncs(media) -> None:
    volume = {"hardware.storage.measured_iops": {"random_read": 3000, "random_write": 3000}}
    capacity = value_for("innodb_io_capacity", **flash(media), **volume)
    most = setting_for("innodb_io_capacity_max", **flash(media), **volume)
    assert capacity <= 750
    assert most.value <= 1500
    assert most.value == 2 * capacity


def test_the_capped_max_says_what_the_rest_of_the_budget_is_for() -> None:
    volume = {"hardware.storage.measured_iops": {"random_read": 3000, "random_write": 3000}}
    most = setting_for("innodb_io_capacity_max", **flash("sata_ssd"), **volume)
    assert (most.value, most.reason) == (
        1500,
        "1,500: 50% of the 3,000 random writes/s fio measured",
    )
    assert "page reads and commit syncs" in most.explanation
    assert "aws-rds-storage" in {e.source for e in most.evidence}


def test_four_nvme_devices_stay_within_the_cited_runs() -> None:
    storage = flash("nvme", 4, "raid10")
    capacity = setting_for("innodb_io_capacity", **storage)
    assert (capacity.value, value_for("innodb_io_capacity_max", **storage)) == (10000, 20000)
    assert "10% of ~200,000 writes/s would be 20,000" in capacity.reason


def test_it_names_the_versions_own_default_when_the_value_is_it() -> None:
    on_84 = {**flash("nvme"), "server.version": "8.4.3"}
    assert setting_for("innodb_io_capacity", **on_84).reason.endswith("(the default of MySQL 8.4)")
    assert "(the default of MySQL 8.4 for this io_capacity)" in (
        setting_for("innodb_io_capacity_max", **on_84).reason
    )
    on_80 = setting_for("innodb_io_capacity", **flash("nvme"))
    assert "default" not in on_80.reason  # 8.0 defaults to 200


def test_it_never_quotes_mysqls_default_on_mariadb() -> None:
    mariadb = {**flash("nvme"), "server.flavor": "mariadb", "server.version": "11.4"}
    for name in ("innodb_io_capacity", "innodb_io_capacity_max"):
        setting = setting_for(name, **mariadb)
        assert "MySQL" not in setting.reason + setting.explanation
    assert "(the default of MariaDB 11.4 for this io_capacity)" in setting.reason


def test_it_says_when_the_server_minimum_sets_the_value() -> None:
    slow = {**hdd(1, "none", rpm=5400), "workload.kind": "read_mostly"}
    setting = setting_for("innodb_io_capacity", **slow)
    assert setting.reason == "100, the lowest the server accepts (this storage works out to 38)"


def test_it_never_goes_below_the_catalog_minimum() -> None:
    slow = {**hdd(1, "none", rpm=5400), "workload.kind": "read_mostly"}
    assert value_for("innodb_io_capacity", **slow) == 100


@pytest.mark.parametrize(
    "storage", [hdd(1, "none"), hdd(4, "raid10"), flash("nvme"), flash("nvme", 4, "raid10")]
)
def test_it_gives_io_capacity_max_twice_io_capacity(storage) -> None:
    capacity = value_for("innodb_io_capacity", **storage)
    assert value_for("innodb_io_capacity_max", **storage) == 2 * capacity


def test_it_keeps_a_single_disks_max_far_below_the_old_2000_default() -> None:
    assert value_for("innodb_io_capacity_max", **hdd(1, "none")) < 2000


def test_it_explains_with_the_arrays_figures_and_cites_the_seeds() -> None:
    setting = setting_for("innodb_io_capacity", **hdd(2, "raid0"))
    assert "200 random writes/s" in setting.explanation
    assert {"callaghan-2009-2disk", "callaghan-2008-insert"} <= {e.source for e in setting.evidence}
