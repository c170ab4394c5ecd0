"""The MariaDB rows of the catalog against the real mariadbd installed on this machine.

Runs `mariadbd --no-defaults --verbose --help` (no server is started, no mocks), through the
same library function as scripts/check_mariadb_catalog.py.
"""

import json
import shutil
from importlib import resources

import pytest

from rules.inputs.enums import Flavor
from rules.inputs.version import parse_version
from rules.reference.catalog import catalog_for
from rules.reference.catalog_check import ServerHelp, compare_with_mariadbd, read_mariadbd_help

ENGINE_VARIABLES = [
    "innodb_flush_log_at_trx_commit",
    "sync_binlog",
    "innodb_buffer_pool_size",
    "innodb_log_file_size",
    "innodb_flush_neighbors",
    "innodb_read_ahead_threshold",
    "innodb_random_read_ahead",
    "innodb_max_dirty_pages_pct",
    "innodb_max_dirty_pages_pct_lwm",
    "innodb_io_capacity",
    "innodb_io_capacity_max",
    "innodb_read_io_threads",
    "innodb_write_io_threads",
    "innodb_flush_method",
    "innodb_log_file_buffering",
    "innodb_log_buffer_size",
    "innodb_doublewrite",
    "innodb_lru_scan_depth",
    # read for the memory budget (defaults or pasted values), never written
    "sort_buffer_size",
    "join_buffer_size",
    "read_buffer_size",
    "read_rnd_buffer_size",
    "tmp_table_size",
]


@pytest.fixture(scope="module")
def server() -> ServerHelp:
    if shutil.which("mariadbd") is None:
        pytest.fail("mariadbd is not installed; `make test` installs mariadb-server")
    return read_mariadbd_help()


def _key(text: str, last: bool) -> tuple[int, int, int]:
    version = parse_version(text)
    assert version is not None
    patch = version.patch if version.patch is not None else (1 << 30 if last else 0)
    return (version.major, version.minor, patch)


def test_the_installed_server_is_mariadb_10_11(server: ServerHelp) -> None:
    assert server.version.series == (10, 11)


def test_every_mariadb_variable_agrees_with_the_real_server(server: ServerHelp) -> None:
    disagreements = [str(d) for d in compare_with_mariadbd(server)]
    assert disagreements == []


@pytest.mark.parametrize("name", ENGINE_VARIABLES)
def test_the_engine_variables_exist_with_the_servers_default(server: ServerHelp, name: str) -> None:
    spec = catalog_for(Flavor.MARIADB, server.version).get(name)
    assert spec is not None
    assert name in server.values
    printed = server.values[name]
    if spec.default is None:  # computed at startup (innodb_io_capacity_max)
        assert spec.default_text
    elif spec.type in {"int", "bytes", "float"}:
        assert float(printed) == spec.default
    else:
        printed = {"TRUE": "ON", "FALSE": "OFF"}.get(printed, printed)
        assert printed.casefold() == str(spec.default).casefold()


def test_every_row_covering_the_server_release_was_checked(server: ServerHelp) -> None:
    text = resources.files("rules").joinpath("data/variables.json").read_text(encoding="utf-8")
    key = server.version.key()
    covering = [
        row
        for row in json.loads(text)["variables"]
        if row["flavor"] == "mariadb"
        and _key(row["since"], last=False) <= key <= _key(row["until"], last=True)
    ]
    assert covering
    unchecked = [row["name"] for row in covering if not row["verification"].startswith("mariadbd")]
    assert unchecked == []
