import pytest

from rules.inputs.enums import Flavor
from rules.inputs.version import parse_version
from rules.reference.catalog import catalog_for
from rules.reference.defaults import default_note, io_capacity_max_default, server_name


def catalog(flavor: str, version: str):
    parsed = parse_version(version)
    assert parsed is not None
    return catalog_for(Flavor(flavor), parsed)


@pytest.mark.parametrize(
    ("flavor", "version", "io_capacity", "expected"),
    [
        ("mysql", "8.0.36", 200, 2000),  # twice, but at least 2000
        ("mysql", "8.4.3", 10000, 20000),
        ("mysql", "8.4.3", 300, 2000),  # ha_innodb.cc keeps the 2000 floor in 8.4
        ("mariadb", "10.11", 1500, 3000),
        ("mysql", "8.0.36", 4_000_000_000, 4294967295),  # never above the variable's maximum
    ],
)
def test_it_computes_io_capacity_max_as_the_server_does(flavor, version, io_capacity, expected):
    assert io_capacity_max_default(catalog(flavor, version), io_capacity) == expected


def test_it_names_the_default_of_the_series_only_when_the_value_is_it() -> None:
    assert server_name(catalog("percona", "8.0.36")) == "Percona Server 8.0"
    assert default_note(catalog("mysql", "8.4.3"), "innodb_io_capacity", 10000) == (
        " (the default of MySQL 8.4)"
    )
    assert default_note(catalog("mariadb", "11.4"), "innodb_io_capacity", 10000) == ""
    assert default_note(catalog("mariadb", "11.4"), "innodb_flush_method", "o_direct") == (
        " (the default of MariaDB 11.4)"
    )
