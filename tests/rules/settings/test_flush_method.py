import pytest

from rules.inputs.examples import flash, hdd
from tests.rules.engine_helpers import result_for

BBU = hdd(8, "raid10", rpm=15000, cache="write_back_bbu")
NO_CACHE = hdd(8, "raid10", rpm=15000)


@pytest.mark.parametrize(
    ("flavor", "version", "storage", "expected"),
    [
        ("mysql", "8.0.36", BBU, "O_DIRECT_NO_FSYNC"),
        ("mysql", "8.0.13", BBU, "O_DIRECT"),  # unsafe on XFS/ext4 before 8.0.14
        ("mysql", "5.7.44", BBU, "O_DIRECT"),
        ("percona", "8.4.3", BBU, "O_DIRECT_NO_FSYNC"),
        ("mysql", "8.0.36", NO_CACHE, "O_DIRECT"),
        ("mysql", "8.4.3", flash("nvme"), "O_DIRECT"),
        ("mariadb", "10.11", BBU, "O_DIRECT"),
        ("mariadb", "10.6", flash("nvme"), "O_DIRECT"),
    ],
)
def test_it_uses_no_fsync_only_behind_a_battery_backed_cache(flavor, version, storage, expected):
    result = result_for(**storage, **{"server.flavor": flavor, "server.version": version})
    setting = result.setting("innodb_flush_method")
    assert setting is not None
    assert setting.value == expected


@pytest.mark.parametrize("version", ["11.4", "11.4.3", "11.8"])
def test_it_uses_the_mariadb_11_buffering_switches_instead(version) -> None:
    result = result_for(**{"server.flavor": "mariadb", "server.version": version})
    assert result.setting("innodb_flush_method") is None
    for name in ("innodb_data_file_buffering", "innodb_log_file_buffering"):
        setting = result.setting(name)
        assert setting is not None
        assert setting.value == "OFF"


def test_it_warns_about_battery_learning_cycles_when_relying_on_the_cache() -> None:
    result = result_for(**BBU)
    setting = result.setting("innodb_flush_method")
    assert setting is not None
    assert "learning cycle" in setting.explanation
    assert any("learning cycles" in w for w in result.warnings)
