"""Warnings a DBA expects on a pasted configuration and the storage; each names the variable."""

import pytest

from rules.inputs.examples import flash, hdd
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


@pytest.mark.parametrize("flavor", ["mysql", "percona"])
def test_query_cache_settings_stop_a_mysql_8_server(flavor) -> None:
    paste = "[mysqld]\nquery_cache_type=1\nquery_cache_size=64M\ninnodb_io_capacity=200\n"
    warning = one_about(
        "query cache", warnings_for(**{"server.flavor": flavor}, current={"mycnf": paste})
    )
    assert warning.startswith("query_cache_size and query_cache_type: MySQL 8.0 removed")
    assert "will not start" in warning


def test_query_cache_settings_are_fine_on_mariadb_and_mysql_5_7() -> None:
    paste = {"query_cache_type": "1", "innodb_io_capacity": "200"}
    for server in (
        {"server.flavor": "mariadb", "server.version": "10.11"},
        {"server.version": "5.7.44"},
    ):
        assert not [w for w in warnings_for(**server, current={"variables": paste}) if "query" in w]


def test_doublewrite_off_on_consumer_flash_is_named() -> None:
    consumer = {**flash("sata_ssd"), "hardware.storage.flash_class": "consumer"}
    paste = {"innodb_doublewrite": "OFF"}
    warning = one_about(
        "innodb_doublewrite", warnings_for(**consumer, current={"variables": paste})
    )
    assert "Set innodb_doublewrite=ON" in warning


@pytest.mark.parametrize("value", ["OFF", "0", "DETECT_ONLY"])
def test_doublewrite_off_is_named_on_any_storage_the_profile_does_not_call_atomic(value) -> None:
    # No profile field says the storage writes whole pages atomically, so OFF is never safe.
    paste = {"innodb_doublewrite": value}
    for storage in (flash("nvme"), hdd(8, "raid10", cache="write_back_bbu")):
        server = {"server.version": "8.0.36"} if value == "DETECT_ONLY" else {}
        warning = one_about(
            "innodb_doublewrite is", warnings_for(**storage, **server, current={"variables": paste})
        )
        assert "atomically" in warning
        assert "Set innodb_doublewrite=ON" in warning


def test_doublewrite_on_is_not_warned_about() -> None:
    warnings = warnings_for(current={"variables": {"innodb_doublewrite": "ON"}})
    assert not [w for w in warnings if "innodb_doublewrite" in w]


def test_dedicated_server_on_says_which_sizes_the_drop_in_overrides() -> None:
    paste = {"innodb_dedicated_server": "ON"}
    warning = one_about(
        "innodb_dedicated_server",
        warnings_for(**{"server.version": "8.4.3"}, current={"variables": paste}),
    )
    assert "innodb_buffer_pool_size and innodb_redo_log_capacity" in warning
    assert "MySQL 8.4" in warning


@pytest.mark.parametrize(
    ("storage", "warned"),
    [
        (hdd(2, "raid1"), True),  # the disks' own cache is volatile
        ({**flash("nvme"), "hardware.storage.flash_class": "consumer"}, True),
        (hdd(2, "raid1", cache="write_back_bbu"), False),
        (flash("nvme"), False),  # enterprise flash protects its cache
    ],
)
def test_o_direct_no_fsync_needs_a_protected_write_cache(storage, warned) -> None:
    paste = {"innodb_flush_method": "O_DIRECT_NO_FSYNC"}
    warnings = warnings_for(**storage, current={"variables": paste})
    assert (
        bool([w for w in warnings if w.startswith("innodb_flush_method = O_DIRECT_NO_FSYNC")])
        is warned
    )


@pytest.mark.parametrize(("level", "count", "ios"), [("raid5", 4, 4), ("raid6", 6, 6)])
def test_parity_raid_without_a_write_back_cache_is_named(level, count, ios) -> None:
    warning = one_about("raid_level", warnings_for(**hdd(count, level)))
    assert warning.startswith(f"raid_level {level} without a battery- or flash-backed")
    assert f"costs {ios} device IOs" in warning
    assert f"({count} x 7200 rpm disks in {level.upper()})" in warning
    assert "commit's redo sync" in warning
    assert not [
        w for w in warnings_for(**hdd(count, level, cache="write_back_bbu")) if "raid_level" in w
    ]


def test_session_buffers_times_connections_beyond_ram_are_named() -> None:
    paste = "[mysqld]\nmax_connections=2000\nsort_buffer_size=8M\njoin_buffer_size=8M\n"
    warning = one_about(
        "max_connections", warnings_for(**{"hardware.ram_gb": 64}, current={"mycnf": paste})
    )
    assert warning.startswith(
        "sort_buffer_size (8M), join_buffer_size (8M) x max_connections 2,000 = 31.2 GiB of "
        "session buffers, more than the "
    )
    assert "beside the 48.0 GiB buffer pool this result sets (64.0 GiB in all)" in warning


def test_modest_session_buffers_or_none_pasted_raise_nothing() -> None:
    modest = {"max_connections": "200", "sort_buffer_size": "256K"}
    for paste in (modest, {"max_connections": "5000"}):
        warnings = warnings_for(current={"variables": paste})
        assert not [w for w in warnings if "session buffers" in w]


def test_session_buffers_use_the_default_151_connections_when_unset() -> None:
    paste = {"read_rnd_buffer_size": "256M"}  # 151 x 256M = 37.8 GiB, on a 32 GiB host
    warning = one_about(
        "session buffers", warnings_for(**{"hardware.ram_gb": 32}, current={"variables": paste})
    )
    assert "x max_connections 151 =" in warning


# The review's profile 04 (issue #41, F3): MariaDB 10.6 on a consumer SATA SSD, full durability.
PROFILE_04 = {
    "server.flavor": "mariadb",
    "server.version": "10.6.18",
    "hardware.ram_gb": 4,
    "hardware.cpu_cores": 2,
    "workload.durability": "full",
}


def test_trx_commit_0_under_full_durability_names_the_second_of_commits_a_crash_loses() -> None:
    paste = "[mysqld]\ninnodb_flush_log_at_trx_commit=0\n"
    warning = one_about(
        "innodb_flush_log_at_trx_commit", warnings_for(**PROFILE_04, current={"mycnf": paste})
    )
    assert warning.startswith("innodb_flush_log_at_trx_commit = 0 writes and syncs the redo log")
    assert "a crash of mysqld alone can lose up to about a second of commits" in warning
    assert warning.endswith("the profile asks for full durability: set 1.")


def test_trx_commit_2_under_full_durability_names_the_os_crash_not_mysqld() -> None:
    paste = {"innodb_flush_log_at_trx_commit": "2"}
    warning = one_about(
        "innodb_flush_log_at_trx_commit", warnings_for(current={"variables": paste})
    )
    assert "an OS crash or a power cut can lose up to about a second of commits" in warning


@pytest.mark.parametrize(
    ("overrides", "value"),
    [
        ({"workload.durability": "relaxed"}, "0"),  # the review's profile 16: asked for
        ({}, "1"),
        ({"server.flavor": "mariadb", "server.version": "10.11"}, "3"),  # syncs at commit too
    ],
)
def test_trx_commit_the_profile_accepts_is_not_warned_about(overrides, value) -> None:
    paste = {"innodb_flush_log_at_trx_commit": value}
    warnings = warnings_for(**overrides, current={"variables": paste})
    assert not [w for w in warnings if w.startswith("innodb_flush_log_at_trx_commit")]


def test_a_pasted_pool_over_the_memory_limit_is_named_with_the_limit() -> None:
    # The review's profile 12 (issue #41, F1): a container on a 256 GiB host.
    container = {"hardware.ram_gb": 256, "hardware.memory_limit_gb": 8}
    paste = {"innodb_buffer_pool_size": "12884901888"}
    warning = one_about(
        "innodb_buffer_pool_size", warnings_for(**container, current={"variables": paste})
    )
    assert warning.startswith(
        "innodb_buffer_pool_size=12G is larger than the container's 8 GiB memory limit"
    )
    fits = {"innodb_buffer_pool_size": "4G"}
    warnings = warnings_for(**container, current={"variables": fits})
    assert not [w for w in warnings if w.startswith("innodb_buffer_pool_size")]


def test_a_pasted_pool_that_fits_the_ram_only_without_the_rest_names_what_it_needs_beside() -> None:
    warning = one_about(
        "innodb_buffer_pool_size",
        warnings_for(
            **{"hardware.ram_gb": 16}, current={"variables": {"innodb_buffer_pool_size": "15G"}}
        ),
    )
    assert warning.startswith("innodb_buffer_pool_size = 15G: a 15 GiB buffer pool plus")
    assert warning.endswith(
        "is more than the 16 GiB of RAM: the host can run out of memory and the server be killed."
    )
