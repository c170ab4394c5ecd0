import pytest

from rules.inputs.examples import flash, hdd
from rules.units import GIB
from tests.rules.engine_helpers import result_for, setting_for, value_for


@pytest.mark.parametrize(
    ("version", "ram_gb", "cores", "expected", "written"),
    [
        ("8.0.36", 64, 16, 8, False),  # 48 GiB pool: the server's 8, 6 GiB each
        ("8.0.36", 8, 4, 5, True),  # 5.6 GiB pool: 8 would be under 1 GiB each
        ("8.0.36", 1, 1, 1, False),  # a pool under 1 GiB is never split
        ("8.4.3", 64, 16, 4, False),  # 8.4: a quarter of the cores
        ("8.4.3", 256, 128, 32, False),
        ("8.4.3", 4, 64, 1, True),  # 8.4 would pick 7 for a 1.75 GiB pool (chunks / 2)
    ],
)
def test_instances_follow_the_server_but_keep_a_gib_each(
    version, ram_gb, cores, expected, written
) -> None:
    setting = setting_for(
        "innodb_buffer_pool_instances",
        **{"server.version": version, "hardware.ram_gb": ram_gb, "hardware.cpu_cores": cores},
    )
    assert (setting.value, setting.written) == (expected, written)
    pool = value_for(
        "innodb_buffer_pool_size",
        **{"server.version": version, "hardware.ram_gb": ram_gb, "hardware.cpu_cores": cores},
    )
    assert expected == 1 or pool / expected >= GIB


@pytest.mark.parametrize("version", ["10.11", "11.4"])
def test_mariadb_gets_no_instances_and_no_page_cleaners(version) -> None:
    result = result_for(**{"server.flavor": "mariadb", "server.version": version})
    for name in ("innodb_buffer_pool_instances", "innodb_page_cleaners", "innodb_lru_scan_depth"):
        assert result.setting(name) is None
    assert not [w for w in result.warnings if "does not exist" in w]


@pytest.mark.parametrize(("version", "written"), [("8.0.36", True), ("8.4.3", False)])
def test_one_page_cleaner_per_instance(version, written) -> None:
    result = result_for(**{"server.version": version})
    instances = result.setting("innodb_buffer_pool_instances")
    cleaners = result.setting("innodb_page_cleaners")
    assert instances is not None
    assert cleaners is not None
    assert cleaners.value == instances.value
    assert cleaners.written is written  # 8.0 ships 4 cleaners; 8.4 one per instance


@pytest.mark.parametrize(
    ("storage", "kind", "expected"),
    [
        (hdd(8, "raid10", rpm=15000, cache="write_back_bbu"), "oltp", 350),  # 2,800 / 8
        (hdd(2, "raid1"), "oltp", 100),  # the server's minimum
        (flash("nvme", 4, "raid10"), "oltp", 1024),  # 8 x 1,024 within 20,000
        (hdd(8, "raid10", rpm=15000, cache="write_back_bbu"), "read_mostly", 1024),
    ],
)
def test_the_lru_scan_stays_within_the_burst_write_budget(storage, kind, expected) -> None:
    setting = setting_for("innodb_lru_scan_depth", **storage, **{"workload.kind": kind})
    assert setting.value == expected
    assert setting.written is (expected != 1024)
