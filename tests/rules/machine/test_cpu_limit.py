"""hardware.cpu_limit: below the cores, the thread counts follow the limit (issue 41, item 6)."""

import pytest

from rules.engine import recommend
from rules.inputs.errors import ProfileError
from rules.inputs.examples import profile, raw_profile
from rules.inputs.validation import parse_profile

THREADS = (
    "innodb_read_io_threads",
    "innodb_write_io_threads",
    "innodb_log_writer_threads",
    "innodb_buffer_pool_instances",
    "innodb_page_cleaners",
)


def _values(result):  # type: ignore[no-untyped-def]
    return {n: s.value for n in THREADS if (s := result.setting(n)) is not None}


def _nvme(version: str, **more):  # type: ignore[no-untyped-def]
    return profile(
        **{
            "server.version": version,
            "hardware.cpu_cores": 64,
            "hardware.ram_gb": 256,
            "hardware.storage.media": "nvme",
            "hardware.storage.rpm": None,
            "hardware.storage.device_count": 1,
            "hardware.storage.raid_level": "none",
            "hardware.storage.controller_cache": "none",
            "workload.data_size_gb": 500,
            **more,
        }
    )


@pytest.mark.parametrize("version", ["8.0.36", "8.4.3", "9.4.0"])
def test_a_two_cpu_limit_on_a_64_core_host_sizes_threads_as_a_two_core_host(version) -> None:
    limited = _values(recommend(_nvme(version, **{"hardware.cpu_limit": 2})))
    # 64 host cores gave 32 read threads, 16 write threads and log writers ON
    assert limited["innodb_read_io_threads"] == 4
    assert limited["innodb_write_io_threads"] == 4
    assert limited.get("innodb_log_writer_threads", "OFF") == "OFF"
    # a quarter of two CPUs rounds to none: one instance, one page cleaner
    assert limited["innodb_buffer_pool_instances"] == 1
    assert limited["innodb_page_cleaners"] == 1


def test_a_fractional_limit_counts_its_cpus_rounded_up() -> None:
    limited = _values(recommend(_nvme("8.4.3", **{"hardware.cpu_limit": 19.5})))
    assert limited["innodb_read_io_threads"] == 10  # half of 20
    assert limited["innodb_buffer_pool_instances"] == 5  # a quarter of 20


def test_a_limit_at_or_above_the_cores_changes_nothing_but_the_echo() -> None:
    limited = recommend(_nvme("8.4.3", **{"hardware.cpu_limit": 64}))
    plain = recommend(_nvme("8.4.3"))
    assert limited.settings == plain.settings
    assert limited.inputs["hardware"]["cpu_limit"] == 64  # type: ignore[index]
    assert "cpu_limit" not in plain.inputs["hardware"]  # type: ignore[operator]


def test_the_explanation_names_the_limit() -> None:
    result = recommend(_nvme("8.0.36", **{"hardware.cpu_limit": 1.5}))
    reads = result.setting("innodb_read_io_threads")
    assert reads is not None
    assert "1.5 CPUs of its limit (64 cores on the host)" in reads.reason


def test_instances_below_what_mysql_8_4_picks_on_the_host_are_written_out() -> None:
    # 8.4 counts the host's 64 CPUs (16 instances for this pool); 9.3 on counts the limit
    result = recommend(_nvme("8.4.3", **{"hardware.cpu_limit": 8}))
    instances = result.setting("innodb_buffer_pool_instances")
    assert instances is not None
    assert instances.value == 2
    assert instances.rule == "buffer-pool-instances-of-a-gib-or-more"
    assert "the server would pick 16" in instances.reason


@pytest.mark.parametrize("limit", [0, -1, 2000, "two"])
def test_a_limit_out_of_range_is_refused_naming_the_field(limit) -> None:
    with pytest.raises(ProfileError) as caught:
        parse_profile(raw_profile(**{"hardware.cpu_limit": limit}))
    assert "hardware.cpu_limit" in caught.value.errors
