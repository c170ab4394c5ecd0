"""Each setting says when it takes effect, per version, as the catalog and the manuals say."""

import dataclasses

import pytest

from rules.engine import recommend
from rules.inputs.enums import Flavor
from rules.inputs.examples import profile, raw_profile
from rules.inputs.validation import parse_profile
from rules.inputs.version import parse_version
from rules.output.result import Result
from rules.reference.apply import apply_groups, apply_note
from rules.reference.catalog import CATALOG_SERIES, catalog_for
from tests.rules.render.fixtures import mariadb_result

VERSIONS = [(flavor, version) for flavor, series in CATALOG_SERIES.items() for version in series]


def _result(flavor: Flavor, version: str) -> Result:
    return recommend(profile(**{"server.flavor": flavor.value, "server.version": version}))


@pytest.mark.parametrize(("flavor", "version"), VERSIONS, ids=lambda v: str(v))
def test_every_setting_takes_the_catalogs_dynamic_flag_for_its_version(
    flavor: Flavor, version: str
) -> None:
    result = _result(flavor, version)
    catalog = catalog_for(flavor, parse_version(version))  # type: ignore[arg-type]
    assert result.settings
    for setting in result.settings:
        spec = catalog.get(setting.name)
        assert spec is not None, setting.name
        if setting.name == "innodb_doublewrite":
            assert setting.dynamic is False  # a restart, whatever the catalog says
        else:
            assert setting.dynamic is spec.dynamic, (setting.name, version)


# From the manuals, not from the catalog: MySQL 5.7+ resizes the buffer pool online (MySQL 8.0
# Reference Manual 17.8.3.1); innodb_redo_log_capacity is dynamic from 8.0.30 (17.6.5);
# innodb_log_file_size is static on MySQL (17.6.5: "requires a restart" before 8.0.30), static
# on MariaDB before 10.9 and dynamic from 10.9 (MDEV-27812); innodb_flush_method is static
# everywhere (both manuals' variable tables: "Dynamic: No").
KNOWN = [
    ("mysql", "5.7.44", "innodb_buffer_pool_size", True),
    ("mysql", "8.0.36", "innodb_buffer_pool_size", True),
    ("mysql", "8.4.3", "innodb_buffer_pool_size", True),
    ("mariadb", "10.6.18", "innodb_buffer_pool_size", True),
    ("mariadb", "11.4.3", "innodb_buffer_pool_size", True),
    ("mysql", "8.0.30", "innodb_redo_log_capacity", True),
    ("mysql", "8.4.3", "innodb_redo_log_capacity", True),
    ("mysql", "5.7.44", "innodb_log_file_size", False),
    ("mysql", "8.0.29", "innodb_log_file_size", False),
    ("mariadb", "10.6.18", "innodb_log_file_size", False),
    ("mariadb", "10.11.9", "innodb_log_file_size", True),
    ("mariadb", "11.4.3", "innodb_log_file_size", True),
    ("mysql", "8.0.36", "innodb_flush_method", False),
    ("mariadb", "10.11.9", "innodb_flush_method", False),
]


@pytest.mark.parametrize(("flavor", "version", "name", "dynamic"), KNOWN)
def test_variables_dynamic_only_in_some_versions_are_tagged_right(
    flavor: str, version: str, name: str, dynamic: bool
) -> None:
    setting = _result(Flavor(flavor), version).setting(name)
    assert setting is not None, f"{name} not recommended for {flavor} {version}"
    assert setting.dynamic is dynamic


def test_the_buffer_pool_note_follows_mariadbs_reorganised_pool() -> None:
    def note(version: str) -> str:
        catalog = catalog_for(Flavor.MARIADB, parse_version(version))  # type: ignore[arg-type]
        return apply_note("innodb_buffer_pool_size", catalog, dynamic=True)

    for before in ("10.6.18", "10.11.11", "11.4.5"):
        assert "chunks" in note(before), before
    for after in ("10.11.12", "10.11.19", "11.4.6", "11.8.2"):
        assert "innodb_buffer_pool_size_max" in note(after), after


def test_a_static_setting_has_no_note_about_applying_it_now() -> None:
    setting = _result(Flavor.MARIADB, "10.6.18").setting("innodb_log_file_size")
    assert setting is not None
    assert not setting.dynamic
    assert setting.apply_note == ""
    online = _result(Flavor.MARIADB, "10.11.9").setting("innodb_log_file_size")
    assert online is not None
    assert "online" in online.apply_note


def test_doublewrite_on_mysql_says_it_cannot_be_persisted() -> None:
    setting = _result(Flavor.MYSQL, "8.0.36").setting("innodb_doublewrite")
    assert setting is not None
    assert "cannot be persisted" in setting.apply_note


def _capacity_order(current: dict[str, str] | None, version: str = "8.4.3") -> list[str]:
    raw = raw_profile(**{"server.version": version})
    if current is not None:
        raw["current"] = {"variables": current}
    result = recommend(parse_profile(raw))
    now, _restart = apply_groups(result.settings, result.profile)
    return [s.name for s in now if s.name.startswith("innodb_io_capacity")]


def test_the_maximum_goes_first_when_the_capacity_rises() -> None:
    assert _capacity_order({"innodb_io_capacity": "100", "innodb_io_capacity_max": "200"}) == [
        "innodb_io_capacity_max",
        "innodb_io_capacity",
    ]


def test_the_capacity_goes_first_when_the_new_maximum_is_below_what_runs_now() -> None:
    # MySQL 8.4's default innodb_io_capacity is 10000 (8.4 manual, "What Is New in MySQL 8.4",
    # InnoDB defaults); 8 x 15k disks get far less, with a maximum below 10000.
    order = _capacity_order(None)
    result = recommend(profile(**{"server.version": "8.4.3"}))
    maximum = result.setting("innodb_io_capacity_max")
    assert maximum is not None
    assert isinstance(maximum.value, int)
    assert maximum.value < 10000
    assert order == ["innodb_io_capacity", "innodb_io_capacity_max"]


def test_the_groups_split_on_the_tag_and_keep_every_setting() -> None:
    result = mariadb_result()
    now, restart = apply_groups(result.settings, result.profile)
    assert {s.name for s in now} | {s.name for s in restart} == {s.name for s in result.settings}
    assert all(s.dynamic for s in now)
    assert not any(s.dynamic for s in restart)
    static = tuple(dataclasses.replace(s, dynamic=False) for s in result.settings)
    assert apply_groups(static, result.profile)[0] == ()
