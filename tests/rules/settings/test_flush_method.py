import json
from pathlib import Path

import pytest

from rules.engine import recommend
from rules.inputs.examples import flash, hdd
from rules.inputs.validation import parse_profile
from rules.output.result import Change
from rules.render.mycnf import render_mycnf
from tests.rules.engine_helpers import result_for

BBU = hdd(8, "raid10", rpm=15000, cache="write_back_bbu")
NO_CACHE = hdd(8, "raid10", rpm=15000)


@pytest.mark.parametrize(
    ("flavor", "version", "storage", "expected"),
    [
        ("mysql", "8.0.36", BBU, "O_DIRECT_NO_FSYNC"),
        ("mysql", "8.0.13", BBU, "O_DIRECT"),  # unsafe on XFS/ext4 before 8.0.14
        ("mysql", "5.7.44", BBU, "O_DIRECT"),
        ("percona", "8.4.3", BBU, "O_DIRECT_NO_FSYNC"),
        ("mysql", "8.0.36", NO_CACHE, "O_DIRECT"),
        ("mysql", "8.4.3", flash("nvme"), "O_DIRECT"),
        ("mariadb", "10.11", BBU, "O_DIRECT"),
        ("mariadb", "10.6", flash("nvme"), "O_DIRECT"),
    ],
)
def test_it_uses_no_fsync_only_behind_a_battery_backed_cache(flavor, version, storage, expected):
    result = result_for(**storage, **{"server.flavor": flavor, "server.version": version})
    setting = result.setting("innodb_flush_method")
    assert setting is not None
    assert setting.value == expected


@pytest.mark.parametrize("version", ["11.4", "11.4.3", "11.8"])
def test_it_uses_the_mariadb_11_buffering_switches_instead(version) -> None:
    result = result_for(**{"server.flavor": "mariadb", "server.version": version})
    assert result.setting("innodb_flush_method") is None
    for name in ("innodb_data_file_buffering", "innodb_log_file_buffering"):
        setting = result.setting(name)
        assert setting is not None
        assert setting.value == "OFF"


def test_it_warns_about_battery_learning_cycles_when_relying_on_the_cache() -> None:
    result = result_for(**BBU)
    setting = result.setting("innodb_flush_method")
    assert setting is not None
    assert "learning cycle" in setting.explanation
    assert any("learning cycles" in w for w in result.warnings)


REVIEW = Path(__file__).parents[3] / "docs" / "reviews" / "2026-11-29"
PROFILE_15 = REVIEW / "profiles" / "15-mariadb114-hdd-writeback-unprotected.json"


def test_a_pasted_no_fsync_on_mariadb_11_4_is_overridden_in_the_drop_in() -> None:
    """Review F5: the switches alone leave the pasted O_DIRECT_NO_FSYNC in force (from 11.0.6
    it turns innodb_doublewrite=ON into fast), so the drop-in states O_DIRECT."""
    result = recommend(parse_profile(json.loads(PROFILE_15.read_text())))
    setting = result.setting("innodb_flush_method")
    assert setting is not None
    assert (setting.current, setting.value, setting.change) == (
        "O_DIRECT_NO_FSYNC",
        "O_DIRECT",
        Change.CHANGE,
    )
    assert "innodb_flush_method = O_DIRECT\n" in render_mycnf(result)


@pytest.mark.parametrize(
    ("version", "pasted", "written"),
    [
        ("11.4.5", "fsync", True),  # would turn data-file buffering back on
        ("11.8", "O_DIRECT_NO_FSYNC", True),
        ("11.0.2", "O_DIRECT_NO_FSYNC", False),  # before 11.0.6 it acts as O_DIRECT
        ("11.4.5", "O_DIRECT", False),
        ("11.4.5", "O_DSYNC", False),  # write-through is as safe
    ],
)
def test_it_states_o_direct_only_where_the_pasted_method_would_undo_the_switches(
    version, pasted, written
) -> None:
    result = result_for(
        **{"server.flavor": "mariadb", "server.version": version},
        current={"variables": {"innodb_flush_method": pasted}},
    )
    setting = result.setting("innodb_flush_method")
    assert (setting is not None and setting.value == "O_DIRECT") is written
    assert result.setting("innodb_data_file_buffering") is not None
