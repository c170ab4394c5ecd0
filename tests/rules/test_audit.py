"""Warnings a DBA expects on a pasted configuration and the storage; each names the variable."""

from tests.rules.engine_helpers import result_for


def warnings_for(**overrides) -> list[str]:
    return list(result_for(**overrides).warnings)


def one_about(fragment: str, warnings: list[str]) -> str:
    found = [w for w in warnings if fragment in w]
    assert len(found) == 1, warnings
    return found[0]


def test_old_redo_settings_on_8_4_are_called_deprecated_with_what_they_give() -> None:
    paste = "[mysqld]\ninnodb_log_file_size=48M\ninnodb_log_files_in_group=2\n"
    warning = one_about(
        "deprecated", warnings_for(**{"server.version": "8.4.3"}, current={"mycnf": paste})
    )
    assert warning == (
        "innodb_log_file_size and innodb_log_files_in_group are deprecated in MySQL 8.4: with "
        "innodb_redo_log_capacity unset the server sizes the redo log from them, 96M (48M x 2). "
        "Remove innodb_log_file_size and innodb_log_files_in_group, and set "
        "innodb_redo_log_capacity instead."
    )


def test_old_redo_settings_before_8_0_30_are_not_called_deprecated() -> None:
    paste = {"innodb_log_file_size": "48M"}
    warnings = warnings_for(**{"server.version": "8.0.29"}, current={"variables": paste})
    assert not [w for w in warnings if "deprecated" in w]
