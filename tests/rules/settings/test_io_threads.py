import pytest

from rules.inputs.examples import flash, hdd
from tests.rules.engine_helpers import setting_for, value_for


@pytest.mark.parametrize(
    ("cores", "expected"), [(1, 4), (2, 4), (8, 4), (16, 8), (64, 32), (1024, 64)]
)
def test_it_gives_half_the_cores_as_read_threads_within_4_to_64(cores, expected) -> None:
    assert value_for("innodb_read_io_threads", **{"hardware.cpu_cores": cores}) == expected


@pytest.mark.parametrize(
    ("storage", "cores", "expected"),
    [
        (hdd(8, "raid10"), 64, 4),
        (flash("sata_ssd"), 64, 4),
        (flash("nvme"), 16, 8),
        (flash("nvme"), 64, 16),
    ],
)
def test_it_adds_write_threads_only_for_nvme(storage, cores, expected) -> None:
    assert (
        value_for("innodb_write_io_threads", **storage, **{"hardware.cpu_cores": cores}) == expected
    )


@pytest.mark.parametrize(
    ("flavor", "version", "dynamic"),
    [("mariadb", "10.11", True), ("mariadb", "10.6", False), ("mysql", "8.0.36", False)],
)
def test_it_says_whether_the_thread_count_needs_a_restart(flavor, version, dynamic) -> None:
    setting = setting_for(
        "innodb_read_io_threads", **{"server.flavor": flavor, "server.version": version}
    )
    assert setting.dynamic is dynamic
    assert ("run time" in setting.explanation) is dynamic


def test_mariadbs_read_threads_are_not_justified_as_its_own_formula() -> None:
    # 16 cores on MariaDB 11.8: 8 threads, from the rule MySQL 8.4 adopted, said as borrowed.
    setting = setting_for(
        "innodb_read_io_threads", **{"server.flavor": "mariadb", "server.version": "11.8"}
    )
    assert setting.value == 8
    assert "own formula" not in setting.reason + setting.explanation
    assert "MariaDB ships 4" in setting.explanation
