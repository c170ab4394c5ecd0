"""The engine's fast path builds the model's columns without a Situation per configuration;
it must give the same columns as the path every other caller uses."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from calibration.config_rows import column_of, profile_rows
from calibration.device_terms import NO_FSYNC_WRITE_FACTOR
from calibration.features import (
    as_arrays,
    situation_of_profile,
)
from rules.inputs.examples import raw_profile
from rules.inputs.validation import parse_profile

CONFIG_VALUES = {
    "innodb_buffer_pool_size": st.integers(2**27, 2**40),
    "innodb_flush_log_at_trx_commit": st.sampled_from([0, 1, 2]),
    "innodb_flush_method": st.sampled_from(["O_DIRECT", "O_DIRECT_NO_FSYNC", "fsync"]),
    "innodb_max_dirty_pages_pct": st.floats(0, 99),
    "innodb_read_ahead_threshold": st.integers(0, 64),
    "innodb_random_read_ahead": st.sampled_from(["ON", "OFF"]),
    "innodb_doublewrite": st.sampled_from(["ON", "OFF", "fast"]),
    "sync_binlog": st.sampled_from([0, 1, 1000]),
    "innodb_redo_log_capacity": st.integers(2**23, 2**37),
    "innodb_log_file_size": st.integers(2**22, 2**33),
    "innodb_io_capacity": st.integers(100, 20000),
    "innodb_io_capacity_max": st.integers(100, 40000),
    "io_scheduler": st.sampled_from(["none", "mq-deadline", "cfq", "bfq"]),
}
PROFILES = [
    raw_profile(),
    raw_profile(
        **{
            "server.flavor": "mariadb",
            "server.version": "10.11",
            "hardware.storage": {"media": "nvme", "device_count": 2, "raid_level": "raid1"},
        }
    ),
    raw_profile(
        **{
            "server.version": "8.4",
            "hardware.storage": {"media": "sata_ssd", "device_count": 1, "raid_level": "none"},
        }
    ),
]


@settings(max_examples=60, deadline=None)
@given(
    profile=st.sampled_from(PROFILES),
    configs=st.lists(st.fixed_dictionaries({}, optional=CONFIG_VALUES), min_size=1, max_size=5),
)
def test_the_fast_columns_match_one_situation_per_configuration(profile, configs) -> None:
    parsed = parse_profile(profile)
    machine, rows = profile_rows(parsed, configs, year=2026)
    slow = as_arrays([situation_of_profile(parsed, c, year=2026) for c in configs])
    for name in slow:
        fast = np.array([column_of(machine, row, name) for row in rows])
        np.testing.assert_allclose(fast, slow[name], err_msg=name)


def test_a_configuration_that_leaves_a_variable_out_runs_the_release_default() -> None:
    """sync_binlog defaults to 1 on MySQL 8.0 (the binary log is on and synced per commit
    group); MySQL 8.4 sizes the redo at 100 MiB and buffers no index changes."""
    mysql80 = parse_profile(raw_profile(**{"server.version": "8.0.36"}))
    mysql84 = parse_profile(raw_profile(**{"server.version": "8.4.3"}))
    assert situation_of_profile(mysql80, {}, year=2026).binlog_sync
    assert situation_of_profile(mysql80, {}, year=2026).change_buffer
    assert situation_of_profile(mysql84, {}, year=2026).redo_mb == 100.0
    assert not situation_of_profile(mysql84, {}, year=2026).change_buffer


def test_old_redo_file_variables_size_the_redo_when_the_capacity_is_unset() -> None:
    mysql84 = parse_profile(raw_profile(**{"server.version": "8.4.3"}))
    legacy = {"innodb_log_file_size": 48 * 2**20, "innodb_log_files_in_group": 2}
    assert situation_of_profile(mysql84, legacy, year=2026).redo_mb == 96.0
    both = {**legacy, "innodb_redo_log_capacity": 2**30}
    assert situation_of_profile(mysql84, both, year=2026).redo_mb == 1024.0


@pytest.mark.parametrize("measured", [None, {"random_read": 40000, "random_write": 30000}])
def test_skipping_the_fsync_speeds_up_modelled_flash_writes_but_not_a_measured_rate(
    measured,
) -> None:
    """O_DIRECT_NO_FSYNC's published gain is over a write path with fsyncs; fio's direct
    writes (or a volume's provisioned IOPS) have none to skip."""
    raw = raw_profile(
        **{"hardware.storage": {"media": "nvme", "device_count": 1, "measured_iops": measured}}
    )
    profile = parse_profile(raw)
    fsync, no_fsync = (
        situation_of_profile(profile, {"innodb_flush_method": m}, year=2026).write_iops
        for m in ("O_DIRECT", "O_DIRECT_NO_FSYNC")
    )
    if measured is None:
        assert no_fsync == pytest.approx(fsync * NO_FSYNC_WRITE_FACTOR)
    else:
        assert no_fsync == fsync == 30000


_MARIADB = {"server.flavor": "mariadb", "server.version": "10.11"}


def test_a_pasted_log_bin_is_kept_and_feeds_the_model() -> None:
    """log_bin has no catalog row but is read: kept in the echo, and on MariaDB it turns the
    model's binary log on (its row events' CPU and, with sync_binlog=1, its syncs)."""
    told = parse_profile(raw_profile(**_MARIADB, current={"mycnf": "[mysqld]\nlog-bin\n"}))
    assert told.current is not None
    assert told.current.variables["log_bin"] == "ON"
    plain = parse_profile(raw_profile(**_MARIADB))
    on = situation_of_profile(told, {"sync_binlog": 1}, year=2026)
    off = situation_of_profile(plain, {"sync_binlog": 1}, year=2026)
    assert (on.binlog, on.binlog_sync) == (True, True)
    assert (off.binlog, off.binlog_sync) == (False, False)
