import pytest

from rules.units import MIB
from tests.rules.engine_helpers import setting_for


@pytest.mark.parametrize(
    ("flavor", "version", "kind", "expected", "written"),
    [
        ("mysql", "8.0.36", "bulk_insert", 64 * MIB, True),
        ("mysql", "8.0.36", "oltp", 16 * MIB, False),
        ("mysql", "8.4.3", "bulk_insert", 64 * MIB, False),  # 8.4 ships 64 MiB
        ("mysql", "8.4.3", "update_heavy", 64 * MIB, False),
        ("mariadb", "10.11", "bulk_insert", 64 * MIB, True),
        ("mariadb", "11.4", "read_mostly", 16 * MIB, False),
    ],
)
def test_loads_get_a_larger_log_buffer_and_others_keep_the_default(
    flavor, version, kind, expected, written
) -> None:
    setting = setting_for(
        "innodb_log_buffer_size",
        **{"server.flavor": flavor, "server.version": version, "workload.kind": kind},
    )
    assert (setting.value, setting.written) == (expected, written)


def test_the_log_buffer_is_counted_in_the_pools_budget() -> None:
    pool = setting_for("innodb_buffer_pool_size", **{"workload.kind": "bulk_insert"})
    assert "a 64 MiB log buffer" in pool.explanation
