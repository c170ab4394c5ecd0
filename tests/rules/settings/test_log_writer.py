import pytest

from tests.rules.engine_helpers import result_for, setting_for


@pytest.mark.parametrize(
    ("cores", "expected"), [(1, "OFF"), (8, "OFF"), (31, "OFF"), (32, "ON"), (128, "ON")]
)
def test_log_writer_threads_follow_the_servers_own_32_cpu_threshold(cores, expected) -> None:
    setting = setting_for("innodb_log_writer_threads", **{"hardware.cpu_cores": cores})
    assert setting.value == expected
    assert setting.written  # the default is worked out at startup, so it is always written


@pytest.mark.parametrize(
    ("flavor", "version", "present"),
    [
        ("mysql", "8.0.21", False),
        ("mysql", "8.0.22", True),
        ("percona", "8.0.36", True),
        ("mysql", "8.4.3", True),
        ("mysql", "5.7.44", False),
        ("mariadb", "11.4", False),
    ],
)
def test_log_writer_threads_only_where_the_version_has_them(flavor, version, present) -> None:
    result = result_for(**{"server.flavor": flavor, "server.version": version})
    assert (result.setting("innodb_log_writer_threads") is not None) is present
    assert not [w for w in result.warnings if "does not exist" in w]


@pytest.mark.parametrize(
    ("version", "present", "written"),
    [
        ("8.0.25", False, None),
        ("8.0.26", True, True),
        ("8.0.36", True, True),
        ("8.4.3", True, False),
    ],
)
def test_fdatasync_is_on_where_it_exists_and_left_out_where_it_is_the_default(
    version, present, written
) -> None:
    setting = result_for(**{"server.version": version}).setting("innodb_use_fdatasync")
    assert (setting is not None) is present
    if setting is not None:
        assert setting.value == "ON"
        assert setting.written is written


def test_mariadb_has_no_fdatasync_switch() -> None:
    result = result_for(**{"server.flavor": "mariadb", "server.version": "10.11"})
    assert result.setting("innodb_use_fdatasync") is None
