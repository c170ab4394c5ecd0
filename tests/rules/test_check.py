"""The check mode flags each unsafe current value alone, and passes a safe configuration."""

from typing import Any

import pytest

from rules.check import check
from rules.engine import recommend
from rules.inputs.examples import raw_profile
from rules.inputs.validation import parse_profile

NO_CACHE = {"hardware.storage.controller_cache": "none"}
BBU = {"hardware.storage.controller_cache": "write_back_bbu"}
SAFE = "[mysqld]\ninnodb_flush_method = O_DIRECT\ninnodb_buffer_pool_size = 8G\n"


def _report(mycnf: str, **overrides: Any):
    raw = raw_profile(**{"hardware.ram_gb": 16, **overrides})
    raw["current"] = {"mycnf": mycnf}
    profile = parse_profile(raw)
    return check(profile, recommend(profile))


def test_a_safe_configuration_passes_and_still_lists_the_changes() -> None:
    report = _report(SAFE, **NO_CACHE)
    assert report.passed
    assert report.unsafe == ()
    assert "innodb_io_capacity" in {s.name for s in report.changes}
    assert all(s.change is not None and s.change.value != "keep" for s in report.changes)


CASES = [
    (
        "O_DIRECT_NO_FSYNC without a protected cache",
        "innodb_flush_method = O_DIRECT_NO_FSYNC",
        NO_CACHE,
        "innodb_flush_method",
    ),
    ("doublewrite off", "innodb_doublewrite = OFF", NO_CACHE, "innodb_doublewrite"),
    (
        "relaxed redo flushing with full durability",
        "innodb_flush_log_at_trx_commit = 2",
        {},
        "innodb_flush_log_at_trx_commit",
    ),
    ("relaxed binlog syncing with full durability", "sync_binlog = 0", {}, "sync_binlog"),
    (
        "relaxed binlog syncing with the binary log on (MariaDB)",
        "sync_binlog = 0\nlog-bin = mysql-bin",
        {"server.flavor": "mariadb", "server.version": "10.11"},
        "sync_binlog",
    ),
    # 8 GiB on disks: ~40 minutes of replay at 5 min/GiB (percona-log-file-size-recovery).
    (
        "redo beyond the recovery target",
        "innodb_redo_log_capacity = 8G",
        {"workload.recovery_target_minutes": 10},
        "innodb_redo_log_capacity",
    ),
    ("pool over the RAM", "innodb_buffer_pool_size = 15G", {}, "innodb_buffer_pool_size"),
    ("query cache on MySQL 8", "query_cache_type = 0", {}, "query_cache_type"),
]


@pytest.mark.parametrize(
    ("line", "overrides", "variable"), [c[1:] for c in CASES], ids=[c[0] for c in CASES]
)
def test_each_unsafe_value_alone_fails_the_check_naming_its_variable(
    line: str, overrides: dict[str, Any], variable: str
) -> None:
    mycnf = SAFE.replace("innodb_buffer_pool_size = 8G\n", "") if "pool" in line else SAFE
    report = _report(mycnf + line + "\n", **overrides)
    assert not report.passed
    assert [u.variable for u in report.unsafe] == [variable]
    assert variable in report.unsafe[0].why or "query cache" in report.unsafe[0].why


SAFE_VARIANTS = [
    (
        "O_DIRECT_NO_FSYNC behind a battery-backed cache",
        "innodb_flush_method = O_DIRECT_NO_FSYNC",
        BBU,
    ),
    (
        "relaxed flushing when the profile asks for relaxed",
        "innodb_flush_log_at_trx_commit = 2",
        {"workload.durability": "relaxed"},
    ),
    ("a large redo log with no recovery target", "innodb_redo_log_capacity = 8G", {}),
    (
        "a redo log within the target",
        "innodb_redo_log_capacity = 1G",
        {"workload.recovery_target_minutes": 10},
    ),
    (
        "relaxed binlog syncing where no binary log is written (MariaDB's default)",
        "sync_binlog = 0",
        {"server.flavor": "mariadb", "server.version": "10.11"},
    ),
    ("relaxed binlog syncing with the binary log off", "sync_binlog = 0\nskip-log-bin", {}),
    (
        "MariaDB's 3, which syncs at commit too",
        "innodb_flush_log_at_trx_commit = 3",
        {"server.flavor": "mariadb", "server.version": "10.11"},
    ),
    (
        "query cache on MariaDB",
        "query_cache_type = 0",
        {"server.flavor": "mariadb", "server.version": "10.11"},
    ),
]


@pytest.mark.parametrize(
    ("line", "overrides"), [c[1:] for c in SAFE_VARIANTS], ids=[c[0] for c in SAFE_VARIANTS]
)
def test_the_same_values_pass_where_they_are_safe(line: str, overrides: dict[str, Any]) -> None:
    report = _report(SAFE + line + "\n", **overrides)
    assert report.passed, report.unsafe


def test_the_legacy_redo_pair_counts_both_files() -> None:
    # MySQL 8.0.29: innodb_log_file_size x innodb_log_files_in_group; 2 x 4G = 8G, ~40 min on disks.
    mycnf = SAFE + "innodb_log_file_size = 4G\ninnodb_log_files_in_group = 2\n"
    report = _report(mycnf, **{"server.version": "8.0.29", "workload.recovery_target_minutes": 30})
    assert [u.variable for u in report.unsafe] == ["innodb_log_file_size"]
    assert "8 GiB" in report.unsafe[0].why
    assert _report(
        mycnf.replace("innodb_log_file_size = 4G", "innodb_log_file_size = 2G"),
        **{"server.version": "8.0.29", "workload.recovery_target_minutes": 30},
    ).passed


def test_a_check_without_the_current_configuration_is_refused() -> None:
    profile = parse_profile(raw_profile())
    with pytest.raises(ValueError, match="needs the current configuration"):
        check(profile, recommend(profile))


@pytest.mark.parametrize(
    ("line", "overrides"),
    [
        ("innodb_flush_log_at_trx_commit = 0", {}),
        ("sync_binlog = 0", {}),
        ("innodb_buffer_pool_size = 15G", {}),
        ("innodb_buffer_pool_size = 12G", {"hardware.memory_limit_gb": 8}),
    ],
)
def test_what_check_mode_fails_on_the_recommendation_warns_about_in_the_same_words(
    line: str, overrides: dict[str, Any]
) -> None:
    report = _report(f"[mysqld]\n{line}\n", **overrides)
    assert [u.why for u in report.unsafe] == [
        w for w in report.result.warnings if w.startswith(report.unsafe[0].variable)
    ]


def test_a_pool_over_a_containers_memory_limit_fails_on_a_host_with_plenty_of_ram() -> None:
    # The review's profile 12 (issue #41, F1): 12 GiB pasted, 8 GiB limit, 256 GiB host.
    report = _report(
        "[mysqld]\ninnodb_buffer_pool_size = 12884901888\n",
        **{"hardware.ram_gb": 256, "hardware.memory_limit_gb": 8, "server.version": "8.4.3"},
    )
    assert [u.variable for u in report.unsafe] == ["innodb_buffer_pool_size"]
    assert report.unsafe[0].why.startswith(
        "innodb_buffer_pool_size=12G is larger than the container's 8 GiB memory limit: once "
        "the pool fills, the server will be killed for running out of memory"
    )
