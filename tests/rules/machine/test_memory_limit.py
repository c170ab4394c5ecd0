"""hardware.memory_limit_gb: below RAM, every memory-sized value follows the limit."""

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rules.engine import recommend
from rules.inputs.examples import profile
from rules.machine.memory import memory_budget
from rules.reference.catalog import catalog_for

MEMORY_SIZED = ("innodb_buffer_pool_size", "innodb_buffer_pool_instances")
FEW = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def _values(result, names=MEMORY_SIZED):  # type: ignore[no-untyped-def]
    return {n: s.value for n in names if (s := result.setting(n)) is not None}


@FEW
@given(
    ram=st.floats(2, 2048),
    share=st.floats(0.05, 0.99),
    concurrency=st.integers(1, 2000),
)
def test_a_lower_limit_sizes_memory_as_a_host_with_that_much_ram(ram, share, concurrency):
    limit = max(0.5, round(ram * share, 3))
    limited = recommend(
        profile(
            **{
                "hardware.ram_gb": ram,
                "hardware.memory_limit_gb": limit,
                "workload.concurrency": concurrency,
            }
        )
    )
    small_host = recommend(
        profile(**{"hardware.ram_gb": limit, "workload.concurrency": concurrency})
    )
    assert _values(limited) == _values(small_host)
    pool = int(limited.setting("innodb_buffer_pool_size").value)  # type: ignore[union-attr]
    assert pool < limit * 1024**3


@FEW
@given(ram=st.floats(1, 1024), extra=st.floats(0, 4096))
def test_a_limit_at_or_above_ram_changes_nothing_but_the_echo(ram, extra):
    limit = min(16384, ram + extra)
    limited = recommend(profile(**{"hardware.ram_gb": ram, "hardware.memory_limit_gb": limit}))
    plain = recommend(profile(**{"hardware.ram_gb": ram}))
    assert limited.settings == plain.settings
    assert limited.profile.raw["hardware"]["memory_limit_gb"] == limit  # type: ignore[index]


def test_the_budget_and_the_explanation_use_the_limit() -> None:
    limited = profile(**{"hardware.ram_gb": 256, "hardware.memory_limit_gb": 8})
    catalog = catalog_for(limited.server.flavor, limited.server.version)
    plain = profile(**{"hardware.ram_gb": 256})
    assert (
        memory_budget(limited, catalog, 0).os_reserve < memory_budget(plain, catalog, 0).os_reserve
    )
    setting = recommend(limited).setting("innodb_buffer_pool_size")
    assert setting is not None
    assert "memory limit" in setting.reason
    assert "8 GiB memory limit" in setting.explanation
    assert "256 GiB of RAM" in setting.explanation


def test_session_buffer_warnings_count_against_the_limit() -> None:
    current = {"variables": {"sort_buffer_size": "64M", "max_connections": "200"}}
    limited = recommend(
        profile(**{"hardware.ram_gb": 256, "hardware.memory_limit_gb": 16, "current": current})
    )
    plain = recommend(profile(**{"hardware.ram_gb": 256, "current": current}))
    assert any("of the memory limit left" in w for w in limited.warnings)
    assert not any("of session buffers" in w for w in plain.warnings)
