import pytest

from rules.inputs.examples import flash, hdd
from tests.rules.engine_helpers import result_for, setting_for

BBU = hdd(8, "raid10", rpm=15000, cache="write_back_bbu")


@pytest.mark.parametrize(
    ("flavor", "version", "storage", "expected"),
    [
        ("mysql", "8.0.36", BBU, "ON"),
        ("mysql", "8.4.3", flash("nvme"), "ON"),
        ("mysql", "5.7.44", hdd(1, "none"), "ON"),
        ("mariadb", "10.11", BBU, "ON"),  # 10.x has no 'fast'
        ("mariadb", "11.4", BBU, "fast"),  # from 11.0.6, behind a battery-backed cache
        ("mariadb", "11.4", flash("nvme"), "ON"),  # no protected cache: fsync stays
        ("mariadb", "11.8.2", hdd(2, "raid1"), "ON"),
    ],
)
def test_it_keeps_the_doublewrite_buffer_and_uses_fast_only_behind_a_bbu(
    flavor, version, storage, expected
) -> None:
    setting = setting_for(
        "innodb_doublewrite", **{"server.flavor": flavor, "server.version": version, **storage}
    )
    assert setting.value == expected


@pytest.mark.parametrize("storage", [flash("nvme"), flash("sata_ssd"), hdd(4, "raid10"), BBU])
def test_it_never_recommends_off(storage) -> None:
    for flavor, version in (("mysql", "8.0.36"), ("mariadb", "11.4"), ("percona", "8.4.3")):
        value = setting_for(
            "innodb_doublewrite", **{"server.flavor": flavor, "server.version": version, **storage}
        ).value
        assert value != "OFF"


def test_on_is_the_default_and_left_out_of_the_my_cnf() -> None:
    setting = setting_for("innodb_doublewrite")
    assert (setting.is_default, setting.written) == (True, False)
    assert setting.reason.startswith("ON (the default of MySQL 8.0)")


def test_fast_is_written_and_says_what_it_skips() -> None:
    setting = setting_for(
        "innodb_doublewrite", **{"server.flavor": "mariadb", "server.version": "11.4", **BBU}
    )
    assert (setting.is_default, setting.written) == (False, True)
    assert "O_DIRECT_NO_FSYNC" in setting.explanation
    assert not [w for w in result_for(**BBU).warnings if "innodb_doublewrite" in w]


def test_it_is_set_at_a_restart_never_online() -> None:
    # MySQL 8.0.30+ calls it dynamic but refuses to switch it on or off online or to persist it.
    raw_current = {"variables": {"innodb_doublewrite": "OFF"}}
    setting = setting_for("innodb_doublewrite", current=raw_current)
    assert (setting.value, setting.written, setting.dynamic) == ("ON", True, False)
