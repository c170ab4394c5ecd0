"""What if: the variants on offer for a machine, and the comparison of two results."""

from dataclasses import replace

import pytest

from advisor.recommendations.wizard.presets import PRESETS_BY_SLUG
from advisor.recommendations.wizard.whatif import compare, variants
from rules.engine import recommend
from rules.inputs.echo import profile_from_echo as profile_of
from rules.inputs.validation import parse_profile
from rules.output.result import Estimate, Estimates
from tests.rules.render.fixtures import mysql80_result


def result_for(slug: str):
    return recommend(parse_profile(PRESETS_BY_SLUG[slug].profile))


def with_estimate(profile):
    """The engine's result with a made-up estimate that grows with RAM and with flash."""
    result = recommend(profile)
    storage = profile.hardware.storage
    base = profile.hardware.ram_gb * (10 if storage.media == "hdd" else 30)
    estimate = Estimate("NOTPM", base, base * 1.5, 0.8, "random reads", True)
    return replace(result, estimate=Estimates(estimate))


@pytest.mark.parametrize(
    ("slug", "offered"),
    [
        ("2-disk-sata", ["bbu", "raid10", "ssd", "ram"]),
        ("6-disk-bbu", ["ssd", "ram"]),
        ("single-hdd", ["bbu", "ssd", "ram"]),
        ("nvme-modern", ["bbu", "ram"]),
    ],
)
def test_only_the_changes_that_apply_to_the_machine_are_offered(slug, offered):
    assert [v.slug for v in variants(result_for(slug))] == offered


def test_raid10_on_an_odd_count_adds_a_device_and_says_so():
    raw = PRESETS_BY_SLUG["2-disk-sata"].profile
    odd = {
        **raw,
        "hardware": {
            **raw["hardware"],
            "storage": {**raw["hardware"]["storage"], "raid_level": "raid5", "device_count": 5},
        },
    }
    variant = next(v for v in variants(recommend(parse_profile(odd))) if v.slug == "raid10")
    assert variant.label == "RAID10 instead of RAID5 (6 devices)"
    assert variant.profile.hardware.storage.device_count == 6


def test_twice_the_ram_stops_at_the_schemas_maximum():
    raw = PRESETS_BY_SLUG["nvme-modern"].profile
    big = {**raw, "hardware": {**raw["hardware"], "ram_gb": 10000}}
    assert "ram" not in [v.slug for v in variants(recommend(parse_profile(big)))]


def test_an_echoed_current_config_is_given_back_as_variables():
    raw = profile_of(mysql80_result().profile.raw)
    assert raw["current"] == {"variables": {"innodb_io_capacity": "200"}}
    assert parse_profile(raw).current.variables == {"innodb_io_capacity": "200"}


def test_the_comparison_lists_only_the_settings_that_change():
    _, comparison = compare(result_for("2-disk-sata"), "ssd", lambda *, profile: recommend(profile))
    assert comparison.variant.slug == "ssd"
    names = [d.name for d in comparison.changed]
    assert "innodb_io_capacity" in names
    assert "innodb_buffer_pool_size" not in names
    assert all(d.before != d.after for d in comparison.changed)
    assert comparison.unchanged > 0
    assert comparison.estimate is None
    assert comparison.estimate_text == ""


def test_the_comparison_shows_how_the_estimate_moves():
    _, comparison = compare(result_for("single-hdd"), "ram", with_estimate)
    assert comparison.estimate is not None
    assert "Twice the RAM" in comparison.estimate.text
    assert comparison.estimate_text.endswith("NOTPM (+100%).")


def test_an_unknown_change_gives_no_comparison():
    offered, comparison = compare(result_for("single-hdd"), "quantum", with_estimate)
    assert comparison is None
    assert offered


def test_a_move_under_half_a_percent_reads_plus_zero_not_minus_zero():
    """An estimate a hair lower (0.2%) is no move worth a sign: +0%. with_estimate grows with
    RAM, so the variant with twice the RAM is given half its estimate, less 0.2%."""
    base_ram = PRESETS_BY_SLUG["single-hdd"].profile["hardware"]["ram_gb"]

    def a_hair_lower(profile):
        result = with_estimate(profile)
        assert result.estimate is not None
        one = result.estimate.recommended
        if profile.hardware.ram_gb > base_ram:
            one = replace(one, low=one.low / 2 * 0.998, high=one.high / 2 * 0.998)
        return replace(result, estimate=Estimates(one))

    _, comparison = compare(result_for("single-hdd"), "ram", a_hair_lower)
    assert comparison.estimate_text.endswith("NOTPM (+0%).")
