import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rules.inputs.enums import ControllerCache, Media, RaidLevel
from rules.inputs.errors import ProfileError
from rules.inputs.examples import EXAMPLE, raw_profile
from rules.inputs.validation import parse_profile


def errors_of(raw: object) -> dict[str, list[str]]:
    with pytest.raises(ProfileError) as caught:
        parse_profile(raw)
    return caught.value.errors


def test_it_accepts_the_contract_example() -> None:
    profile = parse_profile(EXAMPLE)
    assert profile.hardware.storage.media is Media.HDD
    assert profile.hardware.storage.raid_level is RaidLevel.RAID10
    assert profile.hardware.storage.controller_cache is ControllerCache.WRITE_BACK_BBU
    assert profile.server.version.key() == (8, 0, 36)
    assert profile.raw["hardware"]["storage"]["rpm"] == 15000


@pytest.mark.parametrize(
    ("overrides", "path", "fragment"),
    [
        ({"hardware.ram_gb": "lots"}, "hardware.ram_gb", "from 0.5 to 16384"),
        ({"hardware.ram_gb": 0.1}, "hardware.ram_gb", "from 0.5 to 16384"),
        ({"hardware.ram_gb": True}, "hardware.ram_gb", "a number"),
        ({"hardware.cpu_cores": 2.5}, "hardware.cpu_cores", "whole number from 1 to 1024"),
        ({"hardware.cpu_cores": 0}, "hardware.cpu_cores", "from 1 to 1024"),
        ({"hardware.storage.device_count": 129}, "hardware.storage.device_count", "1 to 128"),
        ({"hardware.storage.rpm": 9000}, "hardware.storage.rpm", "5400, 7200, 10000, 15000"),
        ({"hardware.storage.media": "tape"}, "hardware.storage.media", "hdd, sata_ssd, nvme"),
        ({"server.flavor": "oracle"}, "server.flavor", "mysql, percona, mariadb"),
        ({"server.version": "eight"}, "server.version", "such as 8.0.36"),
        ({"workload.kind": "olap"}, "workload.kind", "oltp, read_write"),
        ({"workload.data_size_gb": 0}, "workload.data_size_gb", "0.001 to 1048576"),
        ({"workload.concurrency": 100_001}, "workload.concurrency", "1 to 100000"),
        ({"workload.durability": "maybe"}, "workload.durability", "full, relaxed"),
        ({"workload.recovery_target_minutes": 0}, "workload.recovery_target_minutes", "0.5"),
        ({"hardware.kernel": "linux"}, "hardware.kernel", "5.15"),
        ({"hardware.filesystem": "zfs"}, "hardware.filesystem", "xfs, ext4, other"),
    ],
)
def test_it_names_the_field_and_its_allowed_range(overrides, path, fragment) -> None:
    errors = errors_of(raw_profile(**overrides))
    assert path in errors
    assert any(fragment in message for message in errors[path])


@pytest.mark.parametrize(
    ("level", "count", "ok"),
    [
        ("raid10", 3, False),
        ("raid10", 4, True),
        ("raid1", 2, True),
        ("raid1", 1, False),
        ("raid5", 2, False),
        ("raid5", 3, True),
        ("raid6", 3, False),
        ("raid6", 4, True),
        ("none", 1, True),
        ("none", 2, False),
        ("raid0", 1, True),
        ("raid0", 10, True),
    ],
)
def test_it_checks_that_the_raid_level_fits_the_device_count(level, count, ok) -> None:
    raw = raw_profile(
        **{"hardware.storage.raid_level": level, "hardware.storage.device_count": count}
    )
    if ok:
        assert parse_profile(raw).hardware.storage.device_count == count
    else:
        assert "hardware.storage.raid_level" in errors_of(raw)


def test_it_reports_several_errors_at_once() -> None:
    errors = errors_of(
        raw_profile(**{"hardware.ram_gb": -1, "server.flavor": "db2", "workload.kind": None})
    )
    assert {"hardware.ram_gb", "server.flavor", "workload.kind"} <= set(errors)


def test_it_rejects_rpm_on_flash() -> None:
    raw = raw_profile(
        **{
            "hardware.storage.media": "nvme",
            "hardware.storage.rpm": 7200,
            "hardware.storage.controller_cache": "none",
        }
    )
    assert "hardware.storage.rpm" in errors_of(raw)


def test_it_defaults_rpm_to_7200_for_disks() -> None:
    raw = raw_profile(**{"hardware.storage.rpm": None})
    assert parse_profile(raw).hardware.storage.rpm == 7200


def test_it_rejects_unknown_fields_by_path() -> None:
    raw = raw_profile()
    raw["hardware"]["ram_gib"] = 3
    assert "hardware.ram_gib" in errors_of(raw)


@pytest.mark.parametrize("section", ["", "hardware", "probe", "current"])
def test_an_unknown_key_is_named_cut_short_not_echoed_whole(section) -> None:
    """A hostile 300-character key is named by its first 80 characters, in every section."""
    key = "k" * 300
    raw = raw_profile(current={"variables": {}})
    if section:
        raw[section] = {**(raw.get(section) or {}), key: 1}
    else:
        raw[key] = 1
    where = f"{section}.{key[:80]}..." if section else f"{key[:80]}..."
    errors = errors_of(raw)
    assert where in errors
    assert all(key not in path for path in errors)


@pytest.mark.parametrize("raw", [None, [], "profile", 3, {"server": "mysql"}])
def test_it_rejects_shapes_that_are_not_objects(raw) -> None:
    assert errors_of(raw)


def test_it_requires_both_measured_iops_figures() -> None:
    raw = raw_profile(**{"hardware.storage.measured_iops": {"random_read": 5000}})
    assert "hardware.storage.measured_iops.random_write" in errors_of(raw)


def test_it_requires_both_measured_cpu_figures() -> None:
    raw = raw_profile(**{"hardware.measured_cpu": {"point_select_qps": 20_000}})
    assert "hardware.measured_cpu.threads" in errors_of(raw)


@pytest.mark.parametrize("qps", [0, -5, "fast", float("nan"), float("inf"), 1e12, True, None])
def test_it_names_a_measured_cpu_rate_out_of_range(qps) -> None:
    raw = raw_profile(**{"hardware.measured_cpu": {"point_select_qps": qps, "threads": 16}})
    assert "hardware.measured_cpu.point_select_qps" in errors_of(raw)


def test_it_treats_a_percona_suffix_as_the_release() -> None:
    profile = parse_profile(
        raw_profile(**{"server.flavor": "percona", "server.version": "8.0.36-28"})
    )
    assert profile.server.version.key() == (8, 0, 36)


def test_it_reads_the_kernel_release_and_keeps_its_text() -> None:
    kernel = parse_profile(raw_profile(**{"hardware.kernel": "4.18.0-513.el8"})).hardware.kernel
    assert kernel is not None
    assert (kernel.major, kernel.minor, kernel.text) == (4, 18, "4.18.0-513.el8")


JSON_VALUES = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=30),
    lambda inner: (
        st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=12), inner, max_size=5)
    ),
    max_leaves=30,
)


def _errors(raw: object) -> dict[str, list[str]] | None:
    """The field errors, or None when the profile is valid; anything else propagates."""
    try:
        parse_profile(raw)
    except ProfileError as problem:
        return problem.errors
    return None


@settings(max_examples=300, deadline=None)
@given(JSON_VALUES)
def test_random_json_gives_a_profile_or_field_errors_never_a_crash(raw) -> None:
    errors = _errors(raw)
    assert errors is None or all(isinstance(m, list) and m for m in errors.values())


@settings(max_examples=200, deadline=None)
@given(
    st.text(max_size=2000) | st.binary(max_size=500).map(lambda b: b.decode("latin-1")),
    st.sampled_from(["mycnf", "show_variables"]),
)
def test_random_text_as_current_gives_a_result_or_a_field_error(text, form) -> None:
    errors = _errors(raw_profile(current={form: text}))
    # A variable the server would refuse is named: current.<form>.<variable>.
    assert errors is None or all(
        path in ("current", f"current.{form}") or path.startswith(f"current.{form}.")
        for path in errors
    )


@settings(max_examples=200, deadline=None)
@given(st.dictionaries(st.sampled_from(sorted(EXAMPLE["workload"])), JSON_VALUES, max_size=5))
def test_random_workload_values_never_crash(workload) -> None:
    raw = raw_profile()
    raw["workload"].update(workload)
    errors = _errors(raw)
    assert errors is None or all(path.startswith("workload") for path in errors)


def test_flash_class_applies_only_to_flash_and_defaults_to_enterprise() -> None:
    nvme = {
        "hardware.storage.media": "nvme",
        "hardware.storage.rpm": None,
        "hardware.storage.controller_cache": "none",
    }
    assert parse_profile(raw_profile(**nvme)).hardware.storage.flash_class.value == "enterprise"
    consumer = parse_profile(raw_profile(**nvme, **{"hardware.storage.flash_class": "consumer"}))
    assert consumer.hardware.storage.flash_class.value == "consumer"
    errors = errors_of(raw_profile(**{"hardware.storage.flash_class": "consumer"}))
    assert "hardware.storage.flash_class" in errors


@pytest.mark.parametrize(
    ("flavor", "version", "supported"),
    [
        ("mysql", "11.4", "MySQL 5.7, 8.0, 8.4 and 9.x"),
        ("mysql", "9.9", "MySQL 5.7, 8.0, 8.4 and 9.x"),
        ("percona", "10.6.18", "Percona Server 5.7, 8.0, 8.4 and 9.x"),
        ("mariadb", "8.0.36", "MariaDB 10.6, 10.11, 11.4 and later 11.x"),
        ("mariadb", "11.9", "MariaDB 10.6, 10.11, 11.4 and later 11.x"),
    ],
)
def test_it_refuses_a_version_the_flavor_never_had(flavor, version, supported) -> None:
    errors = errors_of(raw_profile(**{"server.flavor": flavor, "server.version": version}))
    (message,) = errors["server.version"]
    series = ".".join(version.split(".")[:2])
    assert f" {series} does not exist (its series are " in message
    assert message.endswith(f"supported for my.cnf: {supported}")


@pytest.mark.parametrize(
    ("flavor", "version"),
    [
        ("mysql", "5.6.51"),  # older than supported but real: estimates only
        ("mysql", "5.0.77"),
        ("mariadb", "10.4"),
        ("mariadb", "5.5.68"),
        ("mariadb", "12.2"),
        ("mysql", "9.7.0"),
        ("percona", "8.0.36-28"),
    ],
)
def test_it_still_accepts_real_versions_outside_the_supported_range(flavor, version) -> None:
    profile = parse_profile(raw_profile(**{"server.flavor": flavor, "server.version": version}))
    assert profile.server.version_text == version
