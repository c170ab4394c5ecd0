"""What a server runs today for each setting, read from the paste or derived as the server does."""

import pytest

from rules.inputs.examples import flash
from rules.output.result import Change
from tests.rules.engine_helpers import result_for

LEGACY = "[mysqld]\ninnodb_log_file_size=48M\ninnodb_log_files_in_group=2\n"


def setting(name: str, **overrides):
    found = result_for(**overrides).setting(name)
    assert found is not None
    return found


def test_old_redo_settings_read_as_the_capacity_they_give_on_8_4() -> None:
    redo = setting(
        "innodb_redo_log_capacity", **{"server.version": "8.4.3"}, current={"mycnf": LEGACY}
    )
    assert (redo.current, redo.current_is_default) == (str(96 * 1024 * 1024), False)
    assert redo.change is Change.RAISE


def test_a_lone_old_file_size_uses_the_versions_files_in_group() -> None:
    redo = setting(
        "innodb_redo_log_capacity",
        **{"server.version": "8.0.36"},
        current={"variables": {"innodb_log_file_size": "1G"}},
    )
    assert redo.current == str(2 * 1024**3)


def test_a_pasted_redo_capacity_wins_over_the_old_settings() -> None:
    paste = LEGACY + "innodb_redo_log_capacity=8G\n"
    redo = setting(
        "innodb_redo_log_capacity", **{"server.version": "8.4.3"}, current={"mycnf": paste}
    )
    assert redo.current == "8G"


@pytest.mark.parametrize(
    ("version", "pasted", "expected"),
    [
        ("8.0.36", {}, "2000"),  # io_capacity 200: twice is 400, at least 2000
        ("8.4.3", {}, "20000"),  # io_capacity 10000
        ("8.0.36", {"innodb_io_capacity": "1500"}, "3000"),
    ],
)
def test_io_capacity_max_shows_the_default_the_server_computes(version, pasted, expected) -> None:
    paste = {"innodb_flush_neighbors": "1", **pasted}
    most = setting(
        "innodb_io_capacity_max", **{"server.version": version}, current={"variables": paste}
    )
    assert (most.current, most.current_is_default) == (expected, True)


def test_mariadb_io_capacity_max_default_follows_its_io_capacity() -> None:
    mariadb = {"server.flavor": "mariadb", "server.version": "10.11", **flash("nvme")}
    most = setting(
        "innodb_io_capacity_max", **mariadb, current={"variables": {"innodb_io_capacity": "5000"}}
    )
    assert most.current == "10000"
