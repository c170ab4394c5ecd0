"""Variables a release no longer has: the sourced table, and what a paste that sets one gets."""

import json
from importlib import resources

import pytest

from rules.current.audit import QUERY_CACHE_VARIABLES, unsafe_current
from rules.current.reduce import reduce_current
from rules.inputs.enums import Flavor
from rules.inputs.examples import profile
from rules.inputs.version import parse_version
from rules.reference.catalog import catalog_for
from rules.reference.removed import REMOVED_NAMES, removed_from, removed_rows
from tests.rules.engine_helpers import result_for


def _unsafe(flavor: str, version: str, current: dict[str, object]) -> list[str]:
    checked = profile(**{"server.flavor": flavor, "server.version": version, "current": current})
    catalog = catalog_for(checked.server.flavor, checked.server.version)
    return [name for name, _ in unsafe_current(checked, catalog)]


def _warnings(flavor: str, version: str, current: dict[str, object]) -> list[str]:
    server = {"server.flavor": flavor, "server.version": version}
    return list(result_for(**server, current=current).warnings)


# The issue's examples (#41 item 3), each in both forms a server's option file reaches us in.
ISSUE_EXAMPLES = [
    ("mysql", "8.4.3", "default_authentication_plugin", "mysql_native_password", "8.4.0"),
    ("mysql", "8.4.3", "expire_logs_days", "7", "8.2.0"),
    ("mysql", "8.0.36", "tx_isolation", "READ-COMMITTED", "8.0.3"),
    ("mysql", "8.0.36", "innodb_file_format", "Barracuda", "8.0.0"),
    ("mysql", "8.0.36", "innodb_large_prefix", "ON", "8.0.0"),
    ("percona", "8.4.3", "expire_logs_days", "7", "8.2.0"),
    ("mariadb", "10.6", "innodb_thread_concurrency", "16", "10.6.0"),
    ("mariadb", "10.11", "innodb_log_files_in_group", "2", "10.6.0"),
    ("mariadb", "11.4", "innodb_change_buffering", "none", "11.0.0"),
]
# The replication options MySQL 8.3.0 removed (issue #41 review, F2; MySQL 8.4 Reference Manual,
# 1.5 "Options and Variables Removed in MySQL 8.4"): an 8.4 server given one will not start.
REMOVED_IN_8_3 = [
    ("master_info_repository", "TABLE"),
    ("relay_log_info_repository", "TABLE"),
    ("master_info_file", "master.info"),
    ("relay_log_info_file", "relay-log.info"),
    ("log_bin_use_v1_row_events", "OFF"),
    ("transaction_write_set_extraction", "XXHASH64"),
    ("slave_rows_search_algorithms", "INDEX_SCAN,HASH_SCAN"),
]
ISSUE_EXAMPLES += [
    (flavor, "8.4.3", name, value, "8.3.0")
    for flavor in ("mysql", "percona")
    for name, value in REMOVED_IN_8_3
]


@pytest.mark.parametrize(("flavor", "version", "name", "value", "release"), ISSUE_EXAMPLES)
@pytest.mark.parametrize("form", ["mycnf", "variables"])
def test_a_removed_variable_in_an_option_file_stops_the_server_and_fails_the_check(
    flavor: str, version: str, name: str, value: str, release: str, form: str
) -> None:
    current: dict[str, object] = (
        {"mycnf": f"[mysqld]\n{name} = {value}\ninnodb_io_capacity = 200\n"}
        if form == "mycnf"
        else {"variables": {name: value, "innodb_io_capacity": "200"}}
    )
    warning = next(w for w in _warnings(flavor, version, current) if w.startswith(f"{name}:"))
    assert "will not start" in warning
    assert f"{release} removed it" in warning
    assert name in _unsafe(flavor, version, current)


@pytest.mark.parametrize(
    ("name", "replacement"),
    [
        ("expire_logs_days", "binlog_expire_logs_seconds"),
        ("default_authentication_plugin", "authentication_policy"),
        ("tx_isolation", "transaction_isolation"),
    ],
)
def test_a_renamed_variable_names_what_replaces_it(name: str, replacement: str) -> None:
    current = {"variables": {name: "1"}}
    warning = next(w for w in _warnings("mysql", "8.4.3", current) if w.startswith(f"{name}:"))
    assert warning.endswith(f"Set {replacement} instead.")


@pytest.mark.parametrize(
    "current",
    [
        {"mycnf": "[mysqld]\nloose-expire_logs_days = 7\n"},
        {"mycnf": "[mysqld]\nloose_expire_logs_days = 7\n"},
        {"variables": {"loose-expire_logs_days": 7}},
    ],
)
def test_a_loose_prefixed_removed_variable_is_a_note_not_a_failure(
    current: dict[str, object],
) -> None:
    warning = next(w for w in _warnings("mysql", "8.4.3", current) if "expire_logs_days" in w)
    assert warning.startswith("loose-expire_logs_days: MySQL 8.2.0 removed it")
    assert "will not start" not in warning
    assert _unsafe("mysql", "8.4.3", current) == []


def test_a_plain_line_beside_a_loose_one_still_stops_the_server() -> None:
    paste = "[mysqld]\nloose-expire_logs_days = 7\nexpire_logs_days = 7\n"
    assert _unsafe("mysql", "8.4.3", {"mycnf": paste}) == ["expire_logs_days"]


def test_show_global_variables_from_an_older_server_is_an_upgrade_hazard_not_a_failure() -> None:
    rows = "expire_logs_days\t0\ntx_isolation\tREPEATABLE-READ\ninnodb_io_capacity\t200\n"
    current = {"show_variables": rows}
    warnings = [w for w in _warnings("mysql", "8.4.3", current) if "expire_logs_days" in w]
    assert len(warnings) == 1
    assert warnings[0].startswith("The pasted SHOW GLOBAL VARIABLES comes from a server older")
    assert (
        "tx_isolation (removed in MySQL 8.0.3; transaction_isolation replaces it)" in (warnings[0])
    )
    assert _unsafe("mysql", "8.4.3", current) == []


@pytest.mark.parametrize(
    ("flavor", "version", "name"),
    [
        ("mysql", "8.0.36", "expire_logs_days"),  # removed in 8.2.0
        ("mysql", "5.7.44", "tx_isolation"),
        ("mariadb", "10.11", "expire_logs_days"),  # MariaDB keeps it
        ("mariadb", "10.11", "tx_isolation"),  # deprecated in 11.4, not removed
        ("mysql", "8.4.3", "innodb_thread_concurrency"),  # removed from MariaDB only
        ("mysql", "8.0.36", "master_info_repository"),  # removed in 8.3.0
        ("mysql", "8.0.36", "slave_rows_search_algorithms"),
    ],
)
def test_a_variable_the_release_still_has_is_not_warned_about(
    flavor: str, version: str, name: str
) -> None:
    current = {"variables": {name: "1", "innodb_io_capacity": "200"}}
    assert not [w for w in _warnings(flavor, version, current) if w.startswith(f"{name}:")]
    assert _unsafe(flavor, version, current) == []


def test_tuning_the_advisor_does_not_set_is_named_not_dropped_silently() -> None:
    paste = "[mysqld]\ninnodb_thread_concurrency = 16\ninnodb_io_capacity = 200\n"
    warnings = _warnings("mysql", "8.4.3", {"mycnf": paste})
    assert any(
        "innodb_thread_concurrency=16 is not something the advisor tunes: the server keeps it "
        "as you set it" in w
        for w in warnings
    ), warnings


def test_a_kept_paste_keeps_the_removed_variable_and_its_loose_prefix() -> None:
    paste = "[mysqld]\nloose-expire_logs_days = 7\ntx_isolation = READ-COMMITTED\nfoo = 1\n"
    reduced = reduce_current({"mycnf": paste})
    assert reduced == {
        "mycnf": "[mysqld]\nloose-expire_logs_days = 7\ntx_isolation = READ-COMMITTED"
    }
    assert reduce_current({"variables": {"loose-expire_logs_days": 7}}) == {
        "variables": {"loose_expire_logs_days": "7"}
    }


def test_every_row_has_a_source_with_a_url_and_a_section() -> None:
    raw = resources.files("rules").joinpath("data/removed_variables.json").read_text("utf-8")
    for row in json.loads(raw)["variables"]:
        assert row["sources"], row["name"]
        for source in row["sources"]:
            assert source["url"].startswith("https://"), row["name"]
            assert source["section"].strip(), row["name"]
    assert len(removed_rows()) == len(json.loads(raw)["variables"])


def test_the_query_cache_stays_with_its_own_warning() -> None:
    assert not REMOVED_NAMES & set(QUERY_CACHE_VARIABLES)


def test_every_removal_the_catalog_records_is_in_the_table() -> None:
    """Where the catalog says a variable it reads stops existing, the table says so too."""
    raw = resources.files("rules").joinpath("data/variables.json").read_text("utf-8")
    rows = json.loads(raw)["variables"]
    # Not removals: brought back in 10.11.9 and 11.4.3 (one removed_in cannot say that; the
    # catalog's rows do), and added in 10.8.4 and 10.9.2 but missing from 10.9.0 and 10.9.1.
    reintroduced = {"innodb_log_write_ahead_size", "innodb_log_file_buffering"}
    for row in rows:
        if row["exists"] or row["name"] in reintroduced or row["verification"] == "unverified":
            continue
        since = parse_version(row["since"])
        assert since is not None
        existed_before = [
            r
            for r in rows
            if r["name"] == row["name"]
            and r["flavor"] == row["flavor"]
            and r["exists"]
            and parse_version(r["until"]) < since  # type: ignore[operator]
        ]
        if existed_before:
            flavor = Flavor(row["flavor"])
            assert removed_from(row["name"], flavor, since) is not None, row["name"]
