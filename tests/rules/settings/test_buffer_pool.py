import pytest

from rules.settings.buffer_pool import memory_budget
from rules.units import GIB, MIB
from tests.rules.engine_helpers import result_for, setting_for, value_for


@pytest.mark.parametrize(
    ("ram_gb", "cores", "concurrency", "expected"),
    [
        (2, 2, 8, 1 * GIB),  # seed 000 ran 1200M on 2 GB
        (16, 8, 4, 12 * GIB),  # seed 001 ran 12G on 16 GB
        (64, 16, 64, 48 * GIB),
        (1, 1, 4, 384 * MIB),
    ],
)
def test_it_gives_the_pool_the_dedicated_server_share_of_ram(ram_gb, cores, concurrency, expected):
    overrides = {
        "hardware.ram_gb": ram_gb,
        "hardware.cpu_cores": cores,
        "workload.concurrency": concurrency,
    }
    assert value_for("innodb_buffer_pool_size", **overrides) == expected


def test_it_shrinks_the_pool_for_thousands_of_connections() -> None:
    crowded = {"hardware.ram_gb": 16, "workload.concurrency": 4000}
    pool = value_for("innodb_buffer_pool_size", **crowded)
    assert pool + memory_budget(16 * GIB, 4000) <= 16 * GIB
    assert pool < 12 * GIB


def test_it_warns_when_ram_cannot_hold_the_connections() -> None:
    result = result_for(**{"hardware.ram_gb": 1, "workload.concurrency": 5000})
    assert any("RAM is too small" in w for w in result.warnings)


def test_it_warns_when_the_data_dwarfs_the_pool() -> None:
    result = result_for(**{"hardware.ram_gb": 8, "workload.data_size_gb": 2000})
    assert any("IO-bound" in w for w in result.warnings)


@pytest.mark.parametrize(
    ("version", "alignment"), [("8.0.36", 8 * 128 * MIB), ("8.4.3", 128 * MIB)]
)
def test_it_rounds_the_pool_down_to_whole_chunks_per_instance(version, alignment) -> None:
    pool = value_for(
        "innodb_buffer_pool_size",
        **{"server.version": version, "hardware.ram_gb": 13.7, "hardware.cpu_cores": 4},
    )
    assert pool % alignment == 0


@pytest.mark.parametrize(
    ("ram_gb", "reason"),
    [
        (128, "75% of RAM, leaving 32 GiB for the OS and connections"),
        (64, "75% of RAM, leaving 16 GiB for the OS and connections"),
    ],
)
def test_it_states_what_the_pool_leaves_of_ram(ram_gb, reason) -> None:
    setting = setting_for("innodb_buffer_pool_size", **{"hardware.ram_gb": ram_gb})
    assert setting.reason == reason


def test_it_states_the_pools_own_share_of_ram_after_rounding() -> None:
    # 13.7 GiB: 75% would be 10.3 GiB; whole chunks x 8 instances round it to 10 GiB, 73%.
    setting = setting_for("innodb_buffer_pool_size", **{"hardware.ram_gb": 13.7})
    assert setting.value == 10 * GIB
    assert setting.reason == "73% of RAM, leaving 3.7 GiB for the OS and connections"
    assert "It gets 10 GiB, 73% of 13.7 GiB" in setting.explanation
    assert "dedicated-server sizing gives the pool 75% of RAM" in setting.explanation
