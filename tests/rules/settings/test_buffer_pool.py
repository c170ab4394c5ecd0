import pytest

from rules.inputs.examples import profile
from rules.machine.memory import memory_budget
from rules.reference.catalog import catalog_for
from rules.units import GIB, KIB, MIB
from tests.rules.engine_helpers import result_for, setting_for, value_for


@pytest.mark.parametrize(
    ("ram_gb", "cores", "concurrency", "expected"),
    [
        # seed 000 ran 1200M on 2 GB; 2 GiB less 614 MiB for the OS, 16 MiB of log buffer,
        # 326 MiB of performance_schema, key buffer and table cache, 128 MiB of TempTable
        # (8 x 16 MiB) and 8 x 896 KiB of session buffers leaves 962 MiB, 896 MiB in chunks
        (2, 2, 8, 896 * MIB),
        (16, 8, 4, 12 * GIB),  # seed 001 ran 12G on 16 GB
        (64, 16, 64, 48 * GIB),
        # 1 GiB cannot hold its OS reserve, caches and temporary tables beside 20% of it: the
        # pool stays at its floor, 205 MiB rounded up to whole 128 MiB chunks
        (1, 1, 4, 256 * MIB),
    ],
)
def test_it_gives_the_pool_the_dedicated_server_share_of_ram(ram_gb, cores, concurrency, expected):
    overrides = {
        "hardware.ram_gb": ram_gb,
        "hardware.cpu_cores": cores,
        "workload.concurrency": concurrency,
    }
    assert value_for("innodb_buffer_pool_size", **overrides) == expected


def test_it_shrinks_the_pool_for_hundreds_of_connections() -> None:
    # MariaDB: 400 connections whose buffers and MEMORY temporary table may reach 18.6 MiB each
    # take 7.3 GiB of the 16 GiB
    crowded = {
        "server.flavor": "mariadb",
        "server.version": "10.11",
        "hardware.ram_gb": 16,
        "workload.concurrency": 400,
    }
    pool = value_for("innodb_buffer_pool_size", **crowded)
    server = profile(**crowded)
    budget = memory_budget(
        server, catalog_for(server.server.flavor, server.server.version), 16 * MIB
    )
    assert pool + budget.total <= 16 * GIB
    assert pool < 12 * GIB
    setting = setting_for("innodb_buffer_pool_size", **crowded)
    assert "lowered to fit in RAM" in setting.explanation
    assert "400 connections" in setting.explanation


def test_it_counts_each_connections_buffers_from_the_version_defaults() -> None:
    # MySQL 8.0: sort 256 KiB + join 256 KiB + read 128 KiB + read_rnd 256 KiB, temporary tables
    # under TempTable's global cap; MariaDB's sort buffer is 2 MiB, and each connection may hold
    # a 16 MiB MEMORY temporary table.
    for version, flavor, per_session in (
        ("8.0.36", "mysql", 896 * KIB),
        ("10.11", "mariadb", 2 * MIB + 640 * KIB + 16 * MIB),
    ):
        server = profile(**{"server.flavor": flavor, "server.version": version})
        catalog = catalog_for(server.server.flavor, server.server.version)
        budget = memory_budget(server, catalog, 16 * MIB)
        assert budget.per_session == per_session
        assert budget.sessions == per_session * 64


def test_pasted_session_buffers_replace_the_defaults() -> None:
    current = {"variables": {"sort_buffer_size": "8M", "tmp_table_size": "64M"}}
    setting = setting_for("innodb_buffer_pool_size", current=current)
    per_session = 8 * MIB + 256 * KIB + 128 * KIB + 256 * KIB  # tmp_table_size: TempTable's
    assert f"may reach {per_session / MIB:.1f} MiB a connection" in setting.explanation
    assert "1 GiB for in-memory temporary tables" in setting.explanation


def test_a_large_host_keeps_a_fixed_reserve_instead_of_a_quarter() -> None:
    setting = setting_for("innodb_buffer_pool_size", **{"hardware.ram_gb": 256})
    assert setting.value == 240 * GIB
    assert "leave 64 GiB out of it" in setting.explanation
    assert "a fixed 16 GiB is kept out instead" in setting.explanation
    assert (
        setting.reason == "94% of RAM: on a host this large a fixed 16 GiB stays outside the pool"
    )


def test_it_claims_dedicated_server_sizing_only_where_that_option_exists() -> None:
    mysql = setting_for("innodb_buffer_pool_size", **{"hardware.ram_gb": 32})
    assert "dedicated-server sizing (what innodb_dedicated_server does)" in mysql.explanation
    for overrides in (
        {"server.flavor": "mariadb", "server.version": "10.11"},
        {"server.version": "5.7.44"},
        {"hardware.ram_gb": 0.75},  # below 1 GiB the option keeps the 128 MiB default
    ):
        setting = setting_for("innodb_buffer_pool_size", **{"hardware.ram_gb": 32, **overrides})
        assert "dedicated" not in setting.explanation.replace("a host dedicated", ""), overrides


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
    ("version", "unit", "rounding"),
    [
        # MDEV-29445 removed the chunks in 10.11.12, 11.4.6 and 11.8.2: 1 MiB blocks
        ("11.8", MIB, "whole MiB (this release has no buffer pool chunks any more)"),
        ("11.8.2", MIB, "whole MiB (this release has no buffer pool chunks any more)"),
        ("11.4.6", MIB, "whole MiB (this release has no buffer pool chunks any more)"),
        ("10.11.12", MIB, "whole MiB (this release has no buffer pool chunks any more)"),
        # before it one pool of 128 MiB chunks
        ("11.4.5", 128 * MIB, "whole chunks"),
        ("10.6", 128 * MIB, "whole chunks"),
    ],
)
def test_mariadb_rounds_the_pool_to_chunks_only_where_the_release_has_them(
    version, unit, rounding
) -> None:
    setting = setting_for(
        "innodb_buffer_pool_size",
        **{"server.flavor": "mariadb", "server.version": version, "hardware.ram_gb": 61.3},
    )
    assert isinstance(setting.value, int)
    assert setting.value % unit == 0
    assert setting.value % (128 * MIB) != 0 or unit == 128 * MIB
    assert f"rounded down here to {rounding}." in setting.explanation


@pytest.mark.parametrize(
    ("ram_gb", "reason"),
    [
        (48, "75% of RAM, leaving 12 GiB for the OS and connections"),
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
    assert (
        "dedicated-server sizing (what innodb_dedicated_server does) gives the pool 75% of RAM"
        in (setting.explanation)
    )
