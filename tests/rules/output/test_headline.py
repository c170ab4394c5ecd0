"""What changes for you (issue #42 item 6): the gain first, against the current configuration or
the version's defaults, the largest single effects, the bottleneck before and after, and one
diagnosis between the headline and the warnings."""

import itertools
import json
from pathlib import Path
from typing import Any

import pytest

from calibration.artifact import load_latest
from calibration.estimator import CalibratedEstimator
from rules.engine import recommend
from rules.inputs.examples import raw_profile
from rules.inputs.validation import parse_profile
from rules.output.headline import BOTTLENECK_WORDS, CPU, LEVERS_SHOWN, headline
from rules.output.result import Result
from rules.render.jsonout import result_schema_components, result_to_dict
from rules.render.mycnf import render_mycnf

CALIBRATION = load_latest()
assert CALIBRATION is not None, "the repository ships a calibration artifact"
ESTIMATOR = CalibratedEstimator(CALIBRATION)
PROFILES = sorted((Path(__file__).parents[2] / "golden" / "profiles").glob("*.json"))
# What a server of the golden machines might run today: a small pool, the old IO capacity.
PASTED = {
    "variables": {
        "innodb_buffer_pool_size": "1073741824",
        "innodb_io_capacity": "200",
        "innodb_flush_neighbors": "1",
    }
}


def result_of(raw: dict[str, Any]) -> Result:
    return recommend(parse_profile(raw), estimator=ESTIMATOR)


def golden(path: Path, *, current: dict[str, Any] | None = None) -> Result:
    raw = json.loads(path.read_text(encoding="utf-8"))
    raw["current"] = current
    return result_of(raw)


@pytest.mark.parametrize("path", PROFILES, ids=lambda p: p.stem)
def test_without_a_current_configuration_the_gain_is_against_the_versions_defaults(path):
    result = golden(path)
    found = headline(result)
    assert found is not None
    assert found.against == "defaults"
    assert found.baseline.endswith("'s defaults")
    assert result.estimate is not None
    assert result.estimate.current is None
    assert found.gain is not None
    assert found.gain == result.estimate.defaults_gain
    assert found.gain.unit == "x"
    assert 0 < found.gain.low <= found.gain.high
    assert found.lines[0].startswith(f"What changes for you, against {found.baseline}: ×")


@pytest.mark.parametrize("path", PROFILES, ids=lambda p: p.stem)
def test_with_a_current_configuration_the_gain_is_against_it(path):
    result = golden(path, current=PASTED)
    found = headline(result)
    assert found is not None
    assert result.estimate is not None
    assert found.against == "current"
    assert found.baseline == "the current configuration"
    assert found.gain == result.estimate.gain
    assert result.estimate.defaults is None
    assert result.estimate.defaults_gain is None
    assert any(line.startswith("Bottleneck: ") and "today" in line for line in found.lines)


@pytest.mark.parametrize("current", [None, PASTED], ids=["defaults", "current"])
@pytest.mark.parametrize("path", PROFILES, ids=lambda p: p.stem)
def test_it_names_the_largest_effects_and_only_names_the_unpriced(path, current):
    result = golden(path, current=current)
    found = headline(result)
    assert found is not None
    assert len(found.levers) <= LEVERS_SHOWN
    middles = [(lever.effect.low_pct + lever.effect.high_pct) / 2 for lever in found.levers]
    assert middles == sorted(middles, reverse=True)
    for lever in found.levers:
        assert result.setting(lever.name).effect == lever.effect
    for name in found.unpriced:
        setting = result.setting(name)
        assert setting is not None
        assert setting.effect is None
    ranked = {lever.name for lever in found.levers}
    assert ranked.isdisjoint(found.unpriced)


@pytest.mark.parametrize("path", PROFILES, ids=lambda p: p.stem)
def test_the_bottleneck_is_said_in_a_dbas_words_and_the_unit_after_it(path):
    result = golden(path)
    found = headline(result)
    assert found is not None
    assert result.estimate is not None
    assert found.bottleneck_after == BOTTLENECK_WORDS[result.estimate.recommended.bottleneck]
    assert found.bottleneck_before in BOTTLENECK_WORDS.values()
    assert found.lines[-1].startswith(f"{found.unit}: ")  # one line on what the unit is
    assert found.lines[-2].startswith("Recommended: ")  # the absolute figure comes second


def test_the_example_profile_names_the_pool_first_and_the_bottleneck_moving():
    raw = json.loads((Path(__file__).parents[3] / "advisor/api/examples/profile.json").read_text())
    found = headline(result_of(raw))
    assert found is not None
    assert found.baseline == "MySQL 8.0's defaults"
    assert found.levers[0].name == "innodb_buffer_pool_size"
    assert found.bottleneck_before == "random reads from disk"


def test_without_an_estimate_there_is_no_headline():
    raw = json.loads(PROFILES[0].read_text(encoding="utf-8"))
    assert headline(recommend(parse_profile(raw))) is None


def test_the_json_leads_with_the_headline_and_the_schema_declares_it():
    data = result_to_dict(golden(PROFILES[0]))
    assert next(iter(data)) == "headline"
    assert data["headline"]["lines"][0].startswith("What changes for you")
    components = result_schema_components()
    assert "headline" in components["ResultOutput"]["properties"]
    assert "HeadlineOutput" in components


def test_the_mycnf_header_leads_with_the_headline():
    result = golden(PROFILES[0])
    found = headline(result)
    assert found is not None
    lines = render_mycnf(result).splitlines()
    assert lines[: len(found.lines)] == [f"# {line}" for line in found.lines]


SWEEP = [
    {
        "hardware.ram_gb": ram,
        "hardware.cpu_cores": cores,
        "hardware.storage": {"media": media, "device_count": 2, "raid_level": "raid1"}
        | ({"rpm": 7200} if media == "hdd" else {}),
        "workload.data_size_gb": data,
        "workload.kind": kind,
    }
    for media, ram, data, kind, cores in itertools.product(
        ["hdd", "sata_ssd", "nvme"],
        [4, 64],
        [200, 4000],
        ["oltp", "read_write", "update_heavy", "bulk_insert", "read_mostly"],
        [2, 16],
    )
]


@pytest.mark.parametrize("fields", SWEEP)
def test_one_diagnosis_no_io_bound_warning_beside_a_cpu_bottleneck(fields):
    result = result_of(raw_profile(**fields))
    found = headline(result)
    assert found is not None
    io_bound = [w for w in result.warnings if "IO-bound" in w]
    if io_bound:
        assert found.bottleneck_after != CPU, io_bound
    if found.bottleneck_after == CPU:
        assert not io_bound


@pytest.mark.parametrize("path", PROFILES, ids=lambda p: p.stem)
def test_a_change_the_gain_leaves_out_has_no_effect_and_is_named_in_the_lead(path: Path) -> None:
    """One source for every number: a change whose published pairs cannot bound it is neither
    folded into the gain nor priced as a lever, and the lead's first line names it."""
    pasted = {
        "variables": {"innodb_flush_log_at_trx_commit": "2", "innodb_read_ahead_threshold": "8"}
    }
    result = golden(path, current=pasted)
    assert result.estimate is not None
    assert result.estimate.gain is not None
    left_out = {e.setting for e in result.estimate.gain.excludes}
    assert left_out  # the pasted read-ahead threshold at least: its class has two sources
    settings = {s.name: s for s in result.settings}
    for name in left_out & set(settings):
        assert settings[name].effect is None, name
    found = headline(result)
    assert found is not None
    assert not left_out & {lever.name for lever in found.levers}
    for exclusion in result.estimate.gain.excludes:
        assert f"{exclusion.setting} {exclusion.change}" in found.lines[0]
