"""Invariants over random valid profiles for every supported flavor and version."""

from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rules.engine import recommend
from rules.inputs.enums import VolumeType
from rules.inputs.field_spec import values_of
from rules.inputs.validation import parse_profile
from rules.inputs.version import Support, parse_version, support_of
from rules.machine.memory import memory_budget
from rules.reference.bibliography import has_source
from rules.reference.catalog import CATALOG_SERIES, catalog_for

SUPPORTED = [
    (flavor.value, version)
    for flavor, versions in CATALOG_SERIES.items()
    for version in versions
    if support_of(flavor, parse_version(version)) is Support.SUPPORTED  # type: ignore[arg-type]
]
RAID_COUNTS = {
    "none": st.just(1),
    "raid0": st.integers(1, 128),
    "raid1": st.integers(1, 64).map(lambda n: 2 * n),
    "raid10": st.integers(1, 64).map(lambda n: 2 * n),
    "raid5": st.integers(3, 128),
    "raid6": st.integers(4, 128),
}


@st.composite
def storages(draw: st.DrawFn) -> dict[str, Any]:
    media = draw(st.sampled_from(["hdd", "sata_ssd", "nvme", "network_ssd"]))
    level = draw(st.sampled_from(sorted(RAID_COUNTS)))
    storage: dict[str, Any] = {
        "media": media,
        "device_count": draw(RAID_COUNTS[level]),
        "raid_level": level,
        "controller_cache": draw(
            st.sampled_from(["none", "write_through", "write_back_bbu", "write_back"])
        ),
    }
    if media == "hdd":
        storage["rpm"] = draw(st.sampled_from([5400, 7200, 10000, 15000]))
    elif media == "network_ssd":
        storage["volume_type"] = draw(st.none() | st.sampled_from(values_of(VolumeType)))
        storage["provisioned_iops"] = draw(st.none() | st.integers(100, 4_000_000))
        storage["provisioned_mbps"] = draw(st.none() | st.integers(2, 100_000))
    else:
        storage["flash_class"] = draw(st.sampled_from([None, "enterprise", "consumer"]))
    if draw(st.booleans()) and draw(st.booleans()):
        storage["measured_iops"] = {
            "random_read": draw(st.floats(1, 2_000_000)),
            "random_write": draw(st.floats(1, 1_000_000)),
        }
    return storage


@st.composite
def raw_profiles(draw: st.DrawFn) -> dict[str, Any]:
    flavor, version = draw(st.sampled_from(SUPPORTED))
    return {
        "server": {"flavor": flavor, "version": version},
        "hardware": {
            "ram_gb": draw(st.floats(0.5, 16384)),
            "cpu_cores": draw(st.integers(1, 1024)),
            "storage": draw(storages()),
            "filesystem": draw(st.sampled_from([None, "xfs", "ext4", "other"])),
            "kernel": draw(
                st.sampled_from(
                    [None, "3.10", "4.14", "4.18", "4.18.0-513.el8", "4.19", "5.15", "6.8"]
                )
            ),
            "numa_nodes": draw(st.none() | st.integers(1, 64)),
            "memory_limit_gb": draw(st.none() | st.floats(0.5, 16384)),
        },
        "workload": {
            "kind": draw(
                st.sampled_from(
                    ["oltp", "read_write", "update_heavy", "bulk_insert", "read_mostly"]
                )
            ),
            "data_size_gb": draw(st.floats(0.001, 1_048_576)),
            "concurrency": draw(st.integers(1, 100_000)),
            "durability": draw(st.sampled_from(["full", "relaxed"])),
            "recovery_target_minutes": draw(st.none() | st.floats(0.5, 1440)),
        },
    }


PROPERTY_SETTINGS = settings(
    max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow]
)


@PROPERTY_SETTINGS
@given(raw_profiles())
def test_every_emitted_variable_exists_and_is_in_range_for_its_version(raw) -> None:
    profile = parse_profile(raw)
    result = recommend(profile)
    catalog = catalog_for(profile.server.flavor, profile.server.version)
    for setting in result.settings:
        spec = catalog.get(setting.name)
        assert spec is not None, f"{setting.name} not in {raw['server']}"
        assert catalog.accepts(setting.name, setting.value), (setting.name, setting.value)
    assert not [w for w in result.warnings if "outside what" in w]


@PROPERTY_SETTINGS
@given(raw_profiles())
def test_the_buffer_pool_and_the_budget_never_exceed_ram(raw) -> None:
    profile = parse_profile(raw)
    result = recommend(profile)
    pool = result.setting("innodb_buffer_pool_size")
    assert pool is not None
    ram = profile.hardware.memory_bytes  # RAM, or a lower memory limit
    catalog = catalog_for(profile.server.flavor, profile.server.version)
    log_buffer = result.setting("innodb_log_buffer_size")
    budget = memory_budget(profile, catalog, int(log_buffer.value) if log_buffer else 0)
    fits = int(pool.value) + budget.total <= ram
    assert fits or any("is too small" in w for w in result.warnings)
    assert int(pool.value) < ram


@PROPERTY_SETTINGS
@given(raw_profiles())
def test_every_os_item_has_a_filled_reason_an_explanation_and_known_sources(raw) -> None:
    result = recommend(parse_profile(raw))
    assert {item.name for item in result.os} >= {"io_scheduler", "read_ahead_kb", "vm.swappiness"}
    for item in result.os:
        assert item.reason
        assert item.explanation
        assert "{" not in item.reason + item.explanation, item.rule  # every template filled
        assert item.evidence
        assert all(has_source(e.source) for e in item.evidence)
        assert bool(item.persist) is bool(item.persist_path)


def _io_capacity(raw: dict[str, Any]) -> int:
    setting = recommend(parse_profile(raw)).setting("innodb_io_capacity")
    assert setting is not None
    return int(setting.value)


@PROPERTY_SETTINGS
@given(raw_profiles(), st.integers(1, 32))
def test_more_devices_never_lower_io_capacity(raw, extra_pairs) -> None:
    storage = raw["hardware"]["storage"]
    storage.pop("measured_iops", None)
    if storage["raid_level"] == "none":
        return
    if storage["media"] == "network_ssd":
        # More volumes of the same size: left out, each volume is sized to its share of the
        # data, and cloud IOPS that grow with size can fall as the same data is spread thinner
        # (pd-ssd in RAID 5: 3 volumes of 2 GiB do 6,180 IOPS, 5 of 1 GiB 6,150).
        storage["volume_size_gb"] = 500
    before = _io_capacity(raw)
    storage["device_count"] = min(128, storage["device_count"] + 2 * extra_pairs)
    assert _io_capacity(raw) >= before


@PROPERTY_SETTINGS
@given(raw_profiles())
def test_faster_media_never_lower_io_capacity(raw) -> None:
    storage = raw["hardware"]["storage"]
    for key in ("measured_iops", "volume_type", "provisioned_iops", "provisioned_mbps"):
        storage.pop(key, None)
    ladder = [
        ("hdd", 5400),
        ("hdd", 7200),
        ("hdd", 10000),
        ("hdd", 15000),
        ("sata_ssd", None),
        ("nvme", None),
    ]
    values = []
    for media, rpm in ladder:
        storage["media"] = media
        storage.pop("rpm", None)
        storage.pop("flash_class", None)
        if rpm is not None:
            storage["rpm"] = rpm
        values.append(_io_capacity(raw))
    assert values == sorted(values)


@PROPERTY_SETTINGS
@given(raw_profiles())
def test_identical_input_gives_an_identical_result(raw) -> None:
    assert recommend(parse_profile(raw)) == recommend(parse_profile(raw))
