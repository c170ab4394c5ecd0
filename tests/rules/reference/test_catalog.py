import json
from importlib import resources
from typing import Any

import pytest

from rules.inputs.enums import Flavor
from rules.inputs.version import ServerVersion, parse_version
from rules.reference.catalog import (
    CATALOG_SERIES,
    VariableSpec,
    all_rows,
    catalog_for,
)

MYSQL, PERCONA, MARIADB = Flavor.MYSQL, Flavor.PERCONA, Flavor.MARIADB
MIB = 1024 * 1024
GIB = 1024 * MIB
U64 = 2**64 - 1
TYPES = {"int", "bytes", "float", "bool", "enum", "string"}


def v(text: str) -> ServerVersion:
    version = parse_version(text)
    assert version is not None
    return version


def spec_at(flavor: Flavor, version: str, name: str) -> VariableSpec | None:
    return catalog_for(flavor, v(version)).get(name)


def must(spec: VariableSpec | None) -> VariableSpec:
    assert spec is not None
    return spec


def raw_rows() -> list[dict[str, Any]]:
    text = resources.files("rules").joinpath("data/variables.json").read_text(encoding="utf-8")
    rows: list[dict[str, Any]] = json.loads(text)["variables"]
    return rows


SERIES = [(flavor, version) for flavor, versions in CATALOG_SERIES.items() for version in versions]


@pytest.mark.parametrize(
    ("flavor", "version", "expected"),
    [
        (MYSQL, "5.7.44", False),
        (MYSQL, "8.0.29", False),
        (MYSQL, "8.0.30", True),
        (MYSQL, "8.0.36", True),
        (MYSQL, "8.4.3", True),
        (PERCONA, "8.0.29", False),
        (PERCONA, "8.0.36", True),
        (PERCONA, "8.4.3", True),
        (MARIADB, "10.11.9", False),
        (MARIADB, "11.8.2", False),
    ],
)
def test_it_uses_redo_log_capacity_from_8_0_30(
    flavor: Flavor, version: str, expected: bool
) -> None:
    assert catalog_for(flavor, v(version)).exists("innodb_redo_log_capacity") is expected


@pytest.mark.parametrize(
    ("version", "expected"),
    [("10.4.30", True), ("10.5.20", True), ("10.6.0", False), ("10.6.18", False),
     ("10.11.9", False), ("11.4.3", False), ("11.8.2", False)],
)  # fmt: skip
def test_mariadb_drops_log_files_in_group_from_10_6(version: str, expected: bool) -> None:
    assert catalog_for(MARIADB, v(version)).exists("innodb_log_files_in_group") is expected


@pytest.mark.parametrize(
    "name",
    [
        "innodb_data_file_buffering",
        "innodb_log_file_write_through",
        "innodb_data_file_write_through",
    ],
)
@pytest.mark.parametrize(
    ("version", "expected"),
    [("10.6.18", False), ("10.11.9", False), ("11.0.0", True), ("11.4.3", True), ("11.8.2", True)],
)
def test_mariadb_flush_method_replacements_exist_only_from_11_0(
    name: str, version: str, expected: bool
) -> None:
    assert catalog_for(MARIADB, v(version)).exists(name) is expected


@pytest.mark.parametrize(
    ("version", "expected"),
    [("10.6.18", False), ("10.8.3", False), ("10.8.4", True), ("10.9.1", False),
     ("10.9.2", True), ("10.11.9", True), ("11.4.3", True), ("11.8.2", True)],
)  # fmt: skip
def test_mariadb_has_log_file_buffering_from_10_8_4(version: str, expected: bool) -> None:
    assert catalog_for(MARIADB, v(version)).exists("innodb_log_file_buffering") is expected


@pytest.mark.parametrize(
    ("flavor", "version", "io_capacity", "flush_method", "change_buffering"),
    [
        (MYSQL, "8.0.36", 200, "fsync", "all"),
        (MYSQL, "8.4.3", 10000, "O_DIRECT", "none"),
        (PERCONA, "8.0.36", 200, "fsync", "all"),
        (PERCONA, "8.4.3", 10000, "O_DIRECT", "none"),
        (MYSQL, "9.1.0", 10000, "O_DIRECT", "none"),
    ],
)
def test_it_knows_the_8_4_default_changes(
    flavor: Flavor, version: str, io_capacity: int, flush_method: str, change_buffering: str
) -> None:
    catalog = catalog_for(flavor, v(version))
    assert catalog.default("innodb_io_capacity") == io_capacity
    assert catalog.default("innodb_flush_method") == flush_method
    assert catalog.default("innodb_change_buffering") == change_buffering


@pytest.mark.parametrize(
    ("flavor", "version", "pct", "lwm"),
    [
        (MYSQL, "5.7.44", 75, 0),
        (MYSQL, "8.0.29", 90, 10),
        (MYSQL, "8.4.3", 90, 10),
        (PERCONA, "5.7.44", 75, 0),
        (MARIADB, "10.5.6", 75, 0),
        (MARIADB, "10.6.18", 90, 0),
        (MARIADB, "11.4.3", 90, 0),
    ],
)
def test_it_knows_the_max_dirty_pages_defaults(
    flavor: Flavor, version: str, pct: float, lwm: float
) -> None:
    catalog = catalog_for(flavor, v(version))
    assert catalog.default("innodb_max_dirty_pages_pct") == pct
    assert catalog.default("innodb_max_dirty_pages_pct_lwm") == lwm


@pytest.mark.parametrize(
    ("flavor", "version", "name", "value", "expected"),
    [
        (MYSQL, "8.0.30", "innodb_redo_log_capacity", 150 * MIB + 123, (150 * MIB, True)),
        (MYSQL, "8.0.30", "innodb_redo_log_capacity", 100 * MIB, (100 * MIB, False)),
        (MYSQL, "8.0.30", "innodb_redo_log_capacity", 1 * MIB, (8 * MIB, True)),
        (MYSQL, "8.0.30", "innodb_redo_log_capacity", 1024 * GIB, (128 * GIB, True)),
        (MYSQL, "8.0.39", "innodb_redo_log_capacity", 1024 * GIB, (512 * GIB, True)),
        (MYSQL, "5.6.51", "innodb_log_file_size", 48 * MIB + 1, (48 * MIB, True)),
        (MARIADB, "10.11.9", "innodb_log_file_size", 96 * MIB + 1000, (96 * MIB, True)),
        (MARIADB, "10.11.9", "innodb_io_capacity", 50, (100, True)),
        (MARIADB, "10.11.9", "innodb_max_dirty_pages_pct", 120.5, (99.999, True)),
        (MYSQL, "8.4.3", "innodb_io_capacity", 2500.7, (2500, True)),
        (MYSQL, "8.4.3", "innodb_io_capacity", 2500, (2500, False)),
    ],
)
def test_it_clamps_into_the_range_and_down_to_the_block_size(
    flavor: Flavor, version: str, name: str, value: float, expected: tuple[float, bool]
) -> None:
    assert catalog_for(flavor, v(version)).clamp(name, value) == expected


def test_clamp_refuses_absent_and_non_numeric_variables() -> None:
    with pytest.raises(KeyError):
        catalog_for(MYSQL, v("8.0.29")).clamp("innodb_redo_log_capacity", 1)
    with pytest.raises(TypeError):
        catalog_for(MYSQL, v("8.0.36")).clamp("innodb_flush_method", 1)


@pytest.mark.parametrize(
    ("flavor", "version", "name", "value", "expected"),
    [
        (MYSQL, "8.4.3", "innodb_flush_method", "o_direct", True),
        (MYSQL, "8.4.3", "innodb_flush_method", "O_DIRECT_NO_FSYNC", True),
        (MYSQL, "8.4.3", "innodb_flush_method", "ALL_O_DIRECT", False),
        (MYSQL, "8.4.3", "innodb_flush_method", "unbuffered", False),
        (PERCONA, "5.7.44", "innodb_flush_method", "all_o_direct", True),
        (PERCONA, "8.0.36", "innodb_flush_method", "ALL_O_DIRECT", False),
        (MARIADB, "10.11.9", "innodb_flush_method", "async_unbuffered", False),
        (MYSQL, "8.0.30", "innodb_doublewrite", "detect_only", True),
        (MYSQL, "8.0.29", "innodb_doublewrite", "DETECT_ONLY", False),
        (MARIADB, "11.4.3", "innodb_doublewrite", "FAST", True),
        (MARIADB, "10.11.9", "innodb_doublewrite", "fast", False),
        (MYSQL, "8.0.36", "innodb_random_read_ahead", "on", True),
        (MYSQL, "8.0.36", "innodb_random_read_ahead", 1, True),
        (MYSQL, "8.0.36", "innodb_random_read_ahead", "maybe", False),
        (MYSQL, "8.0.36", "innodb_flush_log_at_trx_commit", 3, False),
        (MARIADB, "10.11.9", "innodb_flush_log_at_trx_commit", 3, True),
        (MARIADB, "10.11.9", "innodb_flush_neighbors", 2, True),
        (MARIADB, "10.11.9", "innodb_flush_neighbors", 3, False),
        (MYSQL, "8.0.36", "innodb_io_capacity", "2000", True),
        (MYSQL, "8.0.36", "innodb_io_capacity", 99, False),
        (MYSQL, "8.0.36", "innodb_io_capacity", 2000.5, False),
        (MYSQL, "8.0.36", "innodb_io_capacity", "lots", False),
        (MYSQL, "8.0.36", "innodb_max_dirty_pages_pct", 99.5, True),
        (MYSQL, "8.0.29", "innodb_redo_log_capacity", 100 * MIB, False),
    ],
)
def test_accepts_checks_ranges_and_values_case_insensitively(
    flavor: Flavor, version: str, name: str, value: int | float | str, expected: bool
) -> None:
    assert catalog_for(flavor, v(version)).accepts(name, value) is expected


@pytest.mark.parametrize(
    ("version", "redo_max", "io_capacity_max"),
    [
        ("8.0.30", 128 * GIB, U64),
        ("8.0.34", 128 * GIB, U64),  # nearer to the 8.0.30 sample
        ("8.0.35", 512 * GIB, 4294967295),  # nearer to the 8.0.39 sample
        ("8.0.39", 512 * GIB, 4294967295),
    ],
)
def test_it_fills_a_gap_between_samples_with_the_nearer_one(
    version: str, redo_max: int, io_capacity_max: int
) -> None:
    catalog = catalog_for(MYSQL, v(version))
    assert must(catalog.get("innodb_redo_log_capacity")).maximum == redo_max
    assert must(catalog.get("innodb_io_capacity")).maximum == io_capacity_max


@pytest.mark.parametrize("flavor", [MYSQL, PERCONA])
@pytest.mark.parametrize(
    "name",
    ["innodb_redo_log_capacity", "innodb_use_fdatasync", "innodb_flush_method", "sync_binlog"],
)
def test_mysql_9_falls_back_to_the_8_4_rows(flavor: Flavor, name: str) -> None:
    spec = spec_at(flavor, "9.1.0", name)
    assert spec is not None
    assert (spec.flavor, spec.until) == ("mysql", "8.4")
    assert spec == spec_at(MYSQL, "8.4.3", name)


@pytest.mark.parametrize(
    ("name", "version"),
    [("innodb_log_file_buffering", "11.8.2"), ("innodb_data_file_buffering", "11.8.2")],
)
def test_mariadb_after_11_4_falls_back_to_the_11_4_rows(name: str, version: str) -> None:
    assert spec_at(MARIADB, version, name) == spec_at(MARIADB, "11.4.3", name)


@pytest.mark.parametrize(
    ("version", "name", "flavor_answering"),
    [
        ("8.0.36", "innodb_io_capacity", "percona"),
        ("8.0.36", "innodb_redo_log_capacity", "mysql"),
        ("8.0.36", "innodb_cleaner_lsn_age_factor", "percona"),
        ("8.4.3", "innodb_io_capacity", "mysql"),
        ("8.4.3", "innodb_flush_method", "percona"),
        ("5.7.44", "innodb_use_global_flush_log_at_trx_commit", "percona"),
    ],
)
def test_percona_rows_come_first_then_mysql_rows(
    version: str, name: str, flavor_answering: str
) -> None:
    spec = spec_at(PERCONA, version, name)
    assert spec is not None
    assert spec.flavor == flavor_answering


def test_percona_only_variables_are_absent_on_mysql() -> None:
    assert not catalog_for(MYSQL, v("8.0.36")).exists("innodb_cleaner_lsn_age_factor")
    assert not catalog_for(MYSQL, v("5.7.44")).exists("innodb_use_global_flush_log_at_trx_commit")


@pytest.mark.parametrize(
    ("flavor", "version", "name", "expected"),
    [
        (MYSQL, "8.4.3", "innodb_log_file_size", True),
        (MYSQL, "9.1.0", "innodb_log_file_size", False),  # explicit unverified 9.x row
        (MYSQL, "9.1.0", "innodb_log_files_in_group", False),
        (PERCONA, "9.1.0", "innodb_log_file_size", False),
        (MARIADB, "11.3.2", "innodb_log_write_ahead_size", False),
    ],
)
def test_unverified_rows_are_not_emitted(
    flavor: Flavor, version: str, name: str, expected: bool
) -> None:
    assert catalog_for(flavor, v(version)).exists(name) is expected


@pytest.mark.parametrize(("flavor", "version"), SERIES)
def test_no_answer_comes_from_an_unverified_row(flavor: Flavor, version: str) -> None:
    catalog = catalog_for(flavor, v(version))
    for name in catalog.names():
        assert must(catalog.get(name)).verification != "unverified"


@pytest.mark.parametrize(
    ("flavor", "version", "name", "expected"),
    [
        (MYSQL, "8.0", "innodb_redo_log_capacity", False),
        (MYSQL, "8.4", "innodb_redo_log_capacity", True),
        (MARIADB, "10.11", "innodb_log_write_ahead_size", False),
        (MARIADB, "10.11.9", "innodb_log_write_ahead_size", True),
        (MARIADB, "10.8", "innodb_log_file_buffering", False),
    ],
)
def test_a_bare_series_counts_as_its_first_release(
    flavor: Flavor, version: str, name: str, expected: bool
) -> None:
    assert catalog_for(flavor, v(version)).exists(name) is expected


@pytest.mark.parametrize(
    ("flavor", "version", "name", "expected"),
    [
        (MYSQL, "5.0.96", "innodb_io_capacity", True),  # oldest row starts at the first sample
        (MYSQL, "5.0.96", "innodb_redo_log_capacity", False),
        (MYSQL, "5.6.51", "innodb_log_write_ahead_size", False),  # introduced in 5.7
        (MYSQL, "8.0.1", "innodb_dedicated_server", False),  # first row 8.0.3
        (PERCONA, "5.7.10", "innodb_parallel_doublewrite_path", False),
    ],
)
def test_releases_before_a_variables_first_row(
    flavor: Flavor, version: str, name: str, expected: bool
) -> None:
    assert catalog_for(flavor, v(version)).exists(name) is expected


@pytest.mark.parametrize(("flavor", "version"), SERIES)
def test_every_default_is_accepted_by_its_own_release(flavor: Flavor, version: str) -> None:
    catalog = catalog_for(flavor, v(version))
    names = catalog.names()
    assert list(names) == sorted(names)
    assert "innodb_flush_log_at_trx_commit" in names
    for name in names:
        default = catalog.default(name)
        if default is not None:
            assert catalog.accepts(name, default), name


def test_catalog_for_is_built_once_per_release() -> None:
    assert catalog_for(MYSQL, v("8.0.36")) is catalog_for(MYSQL, v("8.0.36"))


@pytest.mark.parametrize("row", raw_rows(), ids=lambda r: f"{r['name']}-{r['flavor']}-{r['since']}")
def test_every_row_is_well_formed(row: dict[str, Any]) -> None:
    assert row["flavor"] in {"mysql", "percona", "mariadb"}
    assert row["sources"]
    since, until = v(str(row["since"])), v(str(row["until"]))
    assert since.key() <= (until.major, until.minor, 10**6 if until.patch is None else until.patch)
    if not row["exists"]:
        assert row["type"] is None
        return
    assert row["type"] in TYPES
    values, default = row["values"], row["default"]
    if row["type"] in {"enum", "bool"}:
        assert default is None or default in values
    if row["type"] in {"int", "bytes", "float"} and default is not None:
        low, high, block = row["min"], row["max"], row["block_size"]
        assert low is None or low <= default
        assert high is None or default <= high
        assert not block or default % block == 0


def test_all_rows_lists_existing_variables_of_every_flavor() -> None:
    rows = all_rows()
    assert {row.flavor for row in rows} == {"mysql", "percona", "mariadb"}
    assert all(row.type in TYPES for row in rows)


@pytest.mark.parametrize(
    ("flavor", "version", "name", "expected"),
    [
        (MYSQL, "8.0.21", "innodb_log_writer_threads", False),
        (MYSQL, "8.0.22", "innodb_log_writer_threads", True),
        (PERCONA, "8.0.36", "innodb_log_writer_threads", True),
        (MYSQL, "9.1.0", "innodb_log_writer_threads", True),
        (MARIADB, "11.4.3", "innodb_log_writer_threads", False),
        (MYSQL, "8.0.25", "innodb_use_fdatasync", False),
        (MYSQL, "8.0.26", "innodb_use_fdatasync", True),
        (MARIADB, "10.11.9", "innodb_use_fdatasync", False),
        (MYSQL, "8.4.3", "innodb_page_cleaners", True),
        (MARIADB, "10.5.20", "innodb_page_cleaners", True),
        (MARIADB, "10.6.18", "innodb_page_cleaners", False),
        (MARIADB, "10.6.18", "innodb_buffer_pool_instances", False),
        (MYSQL, "5.7.44", "innodb_buffer_pool_instances", True),
        (MYSQL, "5.7.44", "innodb_dedicated_server", False),
        (MARIADB, "11.4.3", "innodb_dedicated_server", False),
    ],
)
def test_the_issue_10_variables_exist_where_the_servers_have_them(
    flavor: Flavor, version: str, name: str, expected: bool
) -> None:
    assert catalog_for(flavor, v(version)).exists(name) is expected


@pytest.mark.parametrize(
    ("flavor", "version", "name", "expected"),
    [
        (MYSQL, "8.0.36", "innodb_use_fdatasync", "OFF"),
        (MYSQL, "8.4.3", "innodb_use_fdatasync", "ON"),
        (MYSQL, "8.0.36", "innodb_log_buffer_size", 16 * MIB),
        (MYSQL, "8.4.3", "innodb_log_buffer_size", 64 * MIB),
        (MYSQL, "8.0.36", "innodb_page_cleaners", 4),
        (MYSQL, "8.4.3", "innodb_page_cleaners", None),  # = the instance count
        (MYSQL, "8.0.36", "innodb_log_writer_threads", None),  # worked out at startup
        (MYSQL, "8.0.36", "sort_buffer_size", 256 * 1024),
        (MARIADB, "10.11.9", "sort_buffer_size", 2 * MIB),
        (MYSQL, "8.4.3", "tmp_table_size", 16 * MIB),
        (MARIADB, "11.4.3", "innodb_lru_scan_depth", 1536),
    ],
)
def test_the_issue_10_defaults(flavor: Flavor, version: str, name: str, expected: object) -> None:
    assert catalog_for(flavor, v(version)).default(name) == expected


@pytest.mark.parametrize(
    ("version", "fast"), [("10.11.9", False), ("11.0.5", False), ("11.0.6", True), ("11.4.3", True)]
)
def test_mariadb_offers_doublewrite_fast_from_11_0_6(version: str, fast: bool) -> None:
    spec = must(spec_at(MARIADB, version, "innodb_doublewrite"))
    assert ("fast" in spec.values) is fast
