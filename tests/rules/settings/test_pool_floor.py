"""The buffer pool is not starved to make room for connections: it keeps a floor of 20% of the
memory the server may use, and a pool squeezed by connections comes with the fixes that apply
(session buffers back to their defaults, max_connections, a thread pool where the flavor has
one)."""

import re
from typing import Any

from hypothesis import given
from hypothesis import strategies as st

from rules.engine import recommend
from rules.inputs.validation import parse_profile
from rules.output.result import Result
from rules.units import GIB, MIB
from tests.rules.test_properties import PROPERTY_SETTINGS, raw_profiles

# The advice issue's first profile: a 64 GB host whose my.cnf has 200 connections and large
# session buffers.
BIG_BUFFERS = (
    "[mysqld]\nmax_connections=200\ntmp_table_size=1G\nmax_heap_table_size=1G\n"
    "sort_buffer_size=64M\njoin_buffer_size=64M\nread_buffer_size=8M\nread_rnd_buffer_size=2M\n"
    "innodb_buffer_pool_size=48G\n"
)


def _raw(flavor: str, version: str, ram_gb: float, cores: int, clients: int, mycnf: str) -> Any:
    return {
        "server": {"flavor": flavor, "version": version},
        "hardware": {
            "ram_gb": ram_gb,
            "cpu_cores": cores,
            "storage": {
                "media": "nvme",
                "device_count": 2,
                "raid_level": "raid1",
                "controller_cache": "none",
            },
        },
        "workload": {
            "kind": "oltp",
            "data_size_gb": 200,
            "concurrency": clients,
            "durability": "full",
        },
        "current": {"mycnf": mycnf},
    }


def _result(*args: Any) -> Result:
    return recommend(parse_profile(_raw(*args)))


def _pool(result: Result) -> int:
    setting = result.setting("innodb_buffer_pool_size")
    assert setting is not None
    return int(setting.value)


def test_mysql_80_counts_temporary_tables_once_and_keeps_most_of_the_pool() -> None:
    # 200 x (64M + 64M + 8M + 2M) = 27 GiB per connection buffers; tmp_table_size is bounded by
    # temptable_max_ram (1 GiB) for all connections together, not 200 x 1 GiB. Before: 128 MiB.
    result = _result("mysql", "8.0.36", 64, 16, 200, BIG_BUFFERS)
    pool = _pool(result)
    assert pool == 32 * GIB
    setting = result.setting("innodb_buffer_pool_size")
    assert setting is not None
    assert "27 GiB for 200 connections" in setting.explanation
    assert "138 MiB a connection" in setting.explanation
    assert "1 GiB for in-memory temporary tables" in setting.explanation
    for pasted in ("sort_buffer_size 64M -> 256K", "join_buffer_size 64M -> 256K"):
        assert pasted in setting.explanation
    assert "read_buffer_size 8M -> 128K" in setting.explanation
    assert "read_rnd_buffer_size 2M -> 256K" in setting.explanation
    assert "frees 26.8 GiB over 200 connections" in setting.explanation
    squeezed = [w for w in result.warnings if w.startswith("The buffer pool gets 32 GiB")]
    assert len(squeezed) == 1
    assert "sort_buffer_size 64M -> 256K" in squeezed[0]
    # no 227 GiB figure anywhere: tmp_table_size is not multiplied by the connections
    assert not [w for w in result.warnings if "227" in w]


def test_mariadb_keeps_the_floor_and_names_every_fix() -> None:
    # MariaDB's MEMORY temporary tables are per connection: 200 x 1.1 GiB = 227 GiB cannot fit
    # in 64 GiB whatever the pool, so the pool keeps its floor and the connections must change.
    result = _result("mariadb", "10.11", 64, 16, 200, BIG_BUFFERS)
    pool = _pool(result)
    assert pool >= 0.2 * 64 * GIB
    assert pool == 12 * GIB + 7 * 128 * MIB  # 12.8 GiB rounded up to whole 128 MiB chunks
    setting = result.setting("innodb_buffer_pool_size")
    assert setting is not None
    assert "its floor" in setting.reason
    assert "lowered" not in setting.reason
    assert "227 GiB for 200 connections" in setting.explanation
    [warning] = [w for w in result.warnings if "is too small for what this server" in w]
    for pasted in (
        "sort_buffer_size 64M -> 2M",
        "join_buffer_size 64M -> 256K",
        "read_buffer_size 8M -> 128K",
        "read_rnd_buffer_size 2M -> 256K",
        "tmp_table_size 1G -> 16M",
        "max_heap_table_size 1G -> 16M",
    ):
        assert pasted in warning, pasted
    assert "set thread_handling=pool-of-threads: 200 clients on 16 cores" in warning
    # max_connections 200 is the declared clients: it is not cut below them plus headroom
    assert "lower max_connections" not in warning


def test_a_small_percona_host_with_hundreds_of_clients_gets_a_pool_and_a_thread_pool() -> None:
    # 4 GiB, 2 vCPU, 400 clients, defaults apart from max_connections. Before: 128 MiB.
    result = _result("percona", "8.0.36", 4, 2, 400, "[mysqld]\nmax_connections=2000\n")
    pool = _pool(result)
    assert pool >= 0.2 * 4 * GIB
    assert pool == 1536 * MIB
    [warning] = [w for w in result.warnings if w.startswith("The buffer pool gets 1.5 GiB")]
    assert "set thread_handling=pool-of-threads: 400 clients on 2 cores is 200 a core" in warning
    # 2,000 allowed, 400 declared: max_connections comes down to 400 + 25% = 500, no lower
    assert "lower max_connections from 2,000 to 500" in warning
    # defaults everywhere: no buffer is named as raised
    assert "back to their defaults" not in warning


def test_a_small_mysql_host_says_community_has_no_thread_pool() -> None:
    result = _result("mysql", "8.0.36", 4, 2, 400, "[mysqld]\nmax_connections=500\n")
    assert _pool(result) >= 0.2 * 4 * GIB
    [warning] = [w for w in result.warnings if w.startswith("The buffer pool gets")]
    assert "MySQL Community does not have" in warning
    assert "set thread_handling" not in warning


def test_a_pasted_thread_pool_is_not_recommended_again() -> None:
    mycnf = "[mysqld]\nthread_handling=pool-of-threads\nmax_connections=500\n"
    result = _result("percona", "8.0.36", 4, 2, 400, mycnf)
    assert not [w for w in result.warnings if "thread_handling=pool-of-threads" in w]


_FIXES = re.compile(r"back to their defaults|lower max_connections|thread_handling|thread pool")


@PROPERTY_SETTINGS
@given(
    raw_profiles(),
    st.sampled_from(
        ["[mysqld]\nsort_buffer_size=256K\n", BIG_BUFFERS, "[mysqld]\nmax_connections=5000\n"]
    ),
)
def test_the_pool_keeps_its_floor_and_a_floor_pool_names_its_fix(raw, mycnf) -> None:
    raw["current"] = {"mycnf": mycnf}
    profile = parse_profile(raw)
    result = recommend(profile)
    setting = result.setting("innodb_buffer_pool_size")
    assert setting is not None
    memory = profile.hardware.memory_bytes  # RAM, or a lower memory limit
    assert int(setting.value) >= 0.2 * memory
    text = setting.reason + setting.explanation
    if "its floor" in setting.reason:
        assert "lowered" not in text
        assert _FIXES.search(setting.explanation) or "or fewer clients" in setting.explanation
