"""Network block volumes (media network_ssd): the provisioned budget bounds what the rules ask of
them, and the presets carry their published figures."""

from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rules.engine import recommend
from rules.inputs.enums import VolumeType
from rules.inputs.errors import ProfileError
from rules.inputs.examples import flash, network, parse_or_errors, profile, raw_profile
from rules.inputs.field_spec import values_of
from rules.machine.storage import array_capability
from rules.machine.volumes import ASSUMED_IOPS, PRESETS, pages_per_s, volume_rate
from rules.reference.bibliography import has_source
from tests.rules.engine_helpers import result_for, setting_for, value_for
from tests.rules.test_properties import RAID_COUNTS

FEW = settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@st.composite
def network_overrides(draw: st.DrawFn) -> dict[str, Any]:
    level = draw(st.sampled_from(sorted(RAID_COUNTS)))
    count = draw(RAID_COUNTS[level].filter(lambda n: n <= 16))
    return {
        **network(
            count,
            level,
            volume_type=draw(st.none() | st.sampled_from(values_of(VolumeType))),
            iops=draw(st.none() | st.integers(100, 400_000)),
            mbps=draw(st.none() | st.integers(2, 10_000)),
        ),
        "workload.kind": draw(
            st.sampled_from(["oltp", "read_write", "update_heavy", "bulk_insert", "read_mostly"])
        ),
        "server.version": draw(st.sampled_from(["5.7.44", "8.0.36", "8.4.3"])),
    }


def _budget(overrides: dict[str, Any]) -> float:
    """Every volume's 16 KiB IO rate, added up: what the provider lets through."""
    storage = profile(**overrides).hardware.storage
    rate = volume_rate(storage.volume_type, storage.provisioned_iops, storage.provisioned_mbps)
    return rate.iops * storage.device_count


@FEW
@given(network_overrides())
def test_io_capacity_and_its_max_stay_within_the_provisioned_iops(overrides) -> None:
    result = result_for(**overrides)
    capacity = result.setting("innodb_io_capacity")
    top = result.setting("innodb_io_capacity_max")
    assert capacity is not None
    assert top is not None
    budget = _budget(overrides)
    assert int(capacity.value) <= budget
    assert int(capacity.value) <= int(top.value) <= max(budget, int(capacity.value))
    assert f"{int(capacity.value):,}" in capacity.explanation  # the number explained


@FEW
@given(network_overrides())
def test_network_volumes_get_scheduler_none_no_neighbour_flushing_and_direct_io(overrides):
    result = result_for(**overrides)
    scheduler = next(item for item in result.os if item.name == "io_scheduler")
    assert scheduler.value == "none"
    assert 'ATTR{queue/scheduler}="none"' in scheduler.persist
    assert value_for("innodb_flush_neighbors", **overrides) == 0
    assert value_for("innodb_flush_method", **overrides) == "O_DIRECT"
    local = {**overrides, "hardware.storage.media": "sata_ssd"}
    for name in ("volume_type", "provisioned_iops", "provisioned_mbps"):
        local.pop(f"hardware.storage.{name}", None)
    threshold = "innodb_read_ahead_threshold"
    assert value_for(threshold, **overrides) == value_for(threshold, **local)  # as for flash


def test_the_legacy_kernel_gets_noop_for_a_network_volume() -> None:
    scheduler = next(
        i
        for i in result_for(**network(), **{"hardware.kernel": "3.10"}).os
        if i.rule and i.name == "io_scheduler"
    )
    assert scheduler.value == "noop"


def test_more_provisioned_iops_never_lower_io_capacity() -> None:
    values = [
        int(value_for("innodb_io_capacity", **network(volume_type="aws_io2", iops=iops)))
        for iops in (100, 1_000, 3_000, 16_000, 64_000, 256_000)
    ]
    assert values == sorted(values)
    assert values[0] < values[-1]


def test_the_throughput_cap_lowers_the_rate_to_pages_per_second() -> None:
    open_rate = array_capability(profile(**network(iops=20_000)).hardware.storage)
    capped = array_capability(profile(**network(iops=20_000, mbps=100)).hardware.storage)
    assert open_rate.random_write_iops == 20_000
    assert capped.random_write_iops == pytest.approx(pages_per_s(100))
    assert capped.random_write_iops < open_rate.random_write_iops
    assert "capped" in capped.summary


def test_gp3_with_more_iops_keeps_its_included_throughput_as_the_cap() -> None:
    gp3 = volume_rate(VolumeType.AWS_GP3, 16_000, None)
    io2 = volume_rate(VolumeType.AWS_IO2, 16_000, None)
    assert gp3.capped_by_mbps
    assert gp3.iops == pytest.approx(pages_per_s(125))
    assert not io2.capped_by_mbps
    assert io2.iops == 16_000


def test_a_preset_gives_its_baseline_and_provisioned_figures_override_it() -> None:
    for kind, preset in PRESETS.items():
        rate = volume_rate(kind, None, None)
        expected = preset.baseline_iops if preset.baseline_iops is not None else ASSUMED_IOPS
        assert rate.given_iops == expected, kind
        assert rate.basis == ("preset" if preset.baseline_iops is not None else "assumed")
        assert volume_rate(kind, 777, 5_000).given_iops == 777


def test_a_volume_type_with_no_baseline_says_its_rate_is_assumed() -> None:
    storage = profile(**network(volume_type="aws_io2")).hardware.storage
    capability = array_capability(storage)
    assert "assumed" in capability.summary
    assert capability.random_read_iops == ASSUMED_IOPS


@pytest.mark.parametrize("kind", list(PRESETS), ids=lambda k: k.value)
def test_each_preset_is_consistent_and_cites_known_sources(kind: VolumeType) -> None:
    preset = PRESETS[kind]
    assert all(has_source(key) for key in preset.sources)
    if kind is not VolumeType.SAN:
        assert preset.sources, kind
    if preset.baseline_iops is not None and preset.max_iops is not None:
        assert preset.baseline_iops <= preset.max_iops
    if preset.baseline_mbps is not None and preset.max_mbps is not None:
        assert preset.baseline_mbps <= preset.max_mbps


@pytest.mark.parametrize("name", ["volume_type", "provisioned_iops", "provisioned_mbps"])
@pytest.mark.parametrize("media", ["hdd", "sata_ssd", "nvme"])
def test_volume_fields_are_refused_on_local_media_naming_the_field(name: str, media: str):
    value = "aws_gp3" if name == "volume_type" else 3000
    overrides = flash(media) if media != "hdd" else {"hardware.storage.media": "hdd"}
    with pytest.raises(ProfileError) as refused:
        profile(**overrides, **{f"hardware.storage.{name}": value})
    messages = refused.value.errors[f"hardware.storage.{name}"]
    assert any("network_ssd" in m for m in messages)


def test_flash_class_is_refused_on_a_network_volume() -> None:
    with pytest.raises(ProfileError) as refused:
        profile(**network(), **{"hardware.storage.flash_class": "enterprise"})
    assert "hardware.storage.flash_class" in refused.value.errors


@FEW
@given(
    st.one_of(
        st.integers(-(2**70), 2**70),
        st.floats(allow_nan=True, allow_infinity=True),
        st.text(max_size=20),
        st.booleans(),
        st.lists(st.integers(), max_size=3),
    ),
    st.sampled_from(["provisioned_iops", "provisioned_mbps", "volume_type"]),
)
def test_hostile_volume_values_are_refused_naming_the_field(value, name) -> None:
    parsed, errors = parse_or_errors(
        raw_profile(**network(), **{f"hardware.storage.{name}": value})
    )
    if parsed is None:
        assert set(errors) == {f"hardware.storage.{name}"}
        return
    accepted = getattr(parsed.hardware.storage, name)
    assert accepted == value or accepted.value == value


def test_the_explanations_state_the_provisioned_numbers() -> None:
    overrides = network(volume_type="gcp_pd_ssd", iops=8_000)
    capacity = setting_for("innodb_io_capacity", **overrides)
    assert "8,000" in capacity.explanation
    assert "pd-ssd" in capacity.explanation
    neighbours = setting_for("innodb_flush_neighbors", **overrides)
    assert "8,000" in neighbours.reason
    top = setting_for("innodb_io_capacity_max", **overrides)
    assert f"{int(top.value):,}" in top.explanation
    assert "8,000" in top.explanation


def test_a_local_profile_echoes_none_of_the_new_keys() -> None:
    """Added fields stay out of the echo when absent, so older permalinks keep their ids."""
    raw = profile().raw
    storage = raw["hardware"]["storage"]  # type: ignore[index]
    assert not {"volume_type", "provisioned_iops", "provisioned_mbps"} & set(storage)
    assert "memory_limit_gb" not in raw["hardware"]  # type: ignore[operator]
    assert not {"probe", "provenance", "undetected"} & set(raw)


def test_recommend_runs_for_every_preset() -> None:
    for kind in VolumeType:
        result = recommend(profile(**network(2, "raid0", volume_type=kind.value)))
        assert result.setting("innodb_io_capacity") is not None
