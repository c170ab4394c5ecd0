import pytest

from rules.inputs.examples import flash, hdd
from tests.rules.engine_helpers import result_for, setting_for

BULK_ON_HDD = {
    **hdd(4, "raid10"),
    "workload.kind": "bulk_insert",
    "workload.data_size_gb": 500,
    "hardware.ram_gb": 32,
}


@pytest.mark.parametrize(
    ("flavor", "version", "written"),
    [
        ("mysql", "8.4.3", True),  # 8.4 ships none: all is set back
        ("percona", "8.4.3", True),
        ("mysql", "9.1.0", True),
        ("mysql", "8.0.36", False),  # all is already 8.0's default
    ],
)
def test_a_bulk_load_on_spinning_disks_keeps_the_change_buffer(flavor, version, written) -> None:
    setting = setting_for(
        "innodb_change_buffering",
        **{"server.flavor": flavor, "server.version": version, **BULK_ON_HDD},
    )
    assert setting.value == "all"
    assert setting.written is written
    assert setting.dynamic
    sources = {e.source for e in setting.evidence}
    assert {"mysql-manual-change-buffer", "callaghan-2011-insert-buffer"} <= sources


@pytest.mark.parametrize("version", ["10.6", "10.11", "11.4", "11.8"])
def test_mariadb_never_gets_it(version) -> None:
    # ignored from 10.9, removed in 11.0, and none by default on 10.6 since 10.6.7
    result = result_for(**{"server.flavor": "mariadb", "server.version": version, **BULK_ON_HDD})
    assert result.setting("innodb_change_buffering") is None
    assert not [w for w in result.warnings if "innodb_change_buffering" in w]


@pytest.mark.parametrize(
    "overrides",
    [
        {**BULK_ON_HDD, **flash("nvme")},  # random reads are cheap on flash
        {**BULK_ON_HDD, "workload.kind": "oltp"},
        {**BULK_ON_HDD, "workload.data_size_gb": 10},  # the index pages stay in the pool
    ],
)
def test_elsewhere_the_server_keeps_its_default(overrides) -> None:
    result = result_for(**{"server.version": "8.4.3", **overrides})
    assert result.setting("innodb_change_buffering") is None
