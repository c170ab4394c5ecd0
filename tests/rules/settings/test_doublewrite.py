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


@pytest.mark.parametrize(
    ("flavor", "version", "detect_only"),
    [("mysql", "8.0.36", True), ("percona", "8.4.3", True), ("mysql", "8.0.29", False)],
)
def test_it_names_detect_only_as_the_middle_ground_where_the_release_has_it(
    flavor, version, detect_only
) -> None:
    setting = setting_for(
        "innodb_doublewrite", **{"server.flavor": flavor, "server.version": version}
    )
    assert setting.value == "ON"
    assert ("DETECT_ONLY" in setting.explanation) is detect_only
    assert "mysql-manual-doublewrite" in {e.source for e in setting.evidence}


def test_on_mariadb_it_names_the_servers_own_atomic_writes() -> None:
    setting = setting_for(
        "innodb_doublewrite",
        **{"server.flavor": "mariadb", "server.version": "11.4", **flash("nvme")},
    )
    assert "innodb_use_atomic_writes" in setting.explanation
    assert "DETECT_ONLY" not in setting.explanation
    assert "mariadb-kb-doublewrite" in {e.source for e in setting.evidence}


@pytest.mark.parametrize("flavor", ["mysql", "mariadb"])
def test_on_ebs_it_names_torn_write_prevention_and_what_it_needs(flavor) -> None:
    version = "8.4.3" if flavor == "mysql" else "11.4"
    setting = setting_for(
        "innodb_doublewrite",
        **{
            "server.flavor": flavor,
            "server.version": version,
            **flash("network_ssd"),
            "hardware.storage.volume_type": "aws_gp3",
        },
    )
    assert setting.value == "ON"
    assert "mkfs.ext4 -O bigalloc -C 16384" in setting.explanation
    assert "aws-ec2-torn-write-prevention" in {e.source for e in setting.evidence}


def test_other_network_volumes_are_not_told_about_ebs() -> None:
    setting = setting_for(
        "innodb_doublewrite",
        **{**flash("network_ssd"), "hardware.storage.volume_type": "gcp_pd_ssd"},
    )
    assert "EBS" not in setting.explanation
