"""The revert twin: every export of a result with the current configuration, set back."""

from typing import Any

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from rules.current import parse_number
from rules.engine import recommend
from rules.inputs.enums import Flavor
from rules.inputs.errors import NothingToRevert, OutputRefused
from rules.inputs.examples import raw_profile
from rules.inputs.validation import parse_profile
from rules.inputs.version import parse_version
from rules.output.result import Result
from rules.output.revert import can_revert, revert
from rules.reference.catalog import catalog_for
from rules.render import FORMATS, filename_for, render, render_revert, revert_filename_for
from rules.render.mycnf import config_value, server_settings, server_value
from tests.rules.test_properties import raw_profiles

PASTED_MYCNF = (
    "[mysqld]\n"
    "innodb_buffer_pool_size = 2G\n"
    "innodb_io_capacity = 10000\n"
    "innodb_io_capacity_max = 20000\n"
    "innodb_flush_method = fsync\n"
    "innodb_random_read_ahead = 1\n"
)


def _result(flavor: str = "mariadb", version: str = "10.11.19", current: object = None) -> Result:
    raw = raw_profile(**{"server.flavor": flavor, "server.version": version})
    raw["current"] = current if current is not None else {"mycnf": PASTED_MYCNF}
    return recommend(parse_profile(raw))


def test_without_the_current_configuration_there_is_nothing_to_revert() -> None:
    result = recommend(parse_profile(raw_profile()))
    assert not can_revert(result)
    with pytest.raises(NothingToRevert, match="without the current configuration"):
        revert(result)
    with pytest.raises(NothingToRevert):
        render_revert(result, "mycnf")


@pytest.mark.parametrize(("flavor", "version"), [("mariadb", "10.11.19"), ("mysql", "8.0.36")])
def test_each_written_setting_goes_back_to_the_pasted_value_or_the_default(
    flavor: str, version: str
) -> None:
    result = _result(flavor, version)
    back = revert(result)
    catalog = catalog_for(Flavor(flavor), parse_version(version))  # type: ignore[arg-type]
    pasted = {"innodb_buffer_pool_size": 2 << 30, "innodb_io_capacity": 10000}
    pasted |= {"innodb_io_capacity_max": 20000, "innodb_flush_method": "fsync"}
    pasted |= {"innodb_random_read_ahead": "ON"}
    by_name = {s.name: s for s in back.settings}
    for name, value in pasted.items():
        if catalog.exists(name) and result.setting(name) is not None:
            assert by_name[name].value == value, name
            assert "before the advisor's change" in by_name[name].reason
    others = [s for s in back.settings if s.name not in pasted]
    assert others
    for setting in others:
        default = catalog.default(setting.name)
        if isinstance(default, int | float) and isinstance(setting.value, int | float):
            assert setting.value == default, setting.name
        assert setting.reason.startswith("not set before: back to this version's default")


def test_the_revert_writes_exactly_what_the_export_writes() -> None:
    result = _result()
    forward = {s.name for s in server_settings(result)}
    backward = {s.name for s in server_settings(revert(result))}
    assert forward == backward
    changed = {s.name for s in server_settings(result) if s.change and s.change.value != "keep"}
    assert changed <= backward


def refusal(result: Result, fmt: str) -> str | None:
    """Why export `fmt` of `result` is refused; None when it is written."""
    try:
        render(result, fmt)
    except OutputRefused as refused:
        return str(refused)
    return None


# The deploy formats a MariaDB 10.11 result cannot have: its twin is refused with the same reason.
REFUSED_FOR_MARIADB = {
    "k8s-percona",
    "k8s-mysql-operator",
    "rds-json",
    "rds-terraform",
    "aurora-json",
    "aurora-terraform",
}


@pytest.mark.parametrize("fmt", FORMATS)
def test_every_registered_format_has_a_revert_twin(fmt: str) -> None:
    result = _result()
    if fmt in REFUSED_FOR_MARIADB:
        with pytest.raises(OutputRefused) as forward:
            render(result, fmt)
        with pytest.raises(OutputRefused) as backward:
            render_revert(result, fmt)
        assert str(backward.value) == str(forward.value)
        return
    twin = render_revert(result, fmt)
    assert twin != render(result, fmt)
    assert f"Revert of result {result.id}" in twin or fmt in ("udev", "sysctl")
    name = revert_filename_for(result, fmt)
    assert name == filename_for(result, fmt).replace(".", "-revert.", 1)


def test_the_revert_of_the_revert_restores_the_recommended_values() -> None:
    result = _result()
    twice = revert(revert(result))
    for setting in server_settings(result):
        again = twice.setting(setting.name)
        assert again is not None
        assert config_value(again) == config_value(setting)


def test_the_revert_keeps_the_apply_tag_and_orders_io_capacity_for_the_way_back() -> None:
    result = _result()
    back = revert(result)
    for setting in back.settings:
        original = result.setting(setting.name)
        assert original is not None
        assert setting.dynamic is original.dynamic
    text = render_revert(result, "sql")
    # Back up from ~100 to 10000: the maximum must rise first.
    assert text.index("innodb_io_capacity_max = 20000") < text.index("innodb_io_capacity = 10000")


def test_operating_system_items_are_named_not_reverted() -> None:
    back = revert(_result())
    assert back.os == ()
    assert back.estimate is None
    assert any("Operating-system items are not reverted" in w for w in back.warnings)


def test_pasted_sizes_with_suffixes_come_back_as_bytes() -> None:
    back = revert(_result())
    pool = back.setting("innodb_buffer_pool_size")
    assert pool is not None
    assert pool.value == parse_number("2G")


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(raw_profiles(), raw_profiles(), st.data())
def test_a_machine_running_another_machines_advice_gets_exactly_it_back(
    today: dict[str, Any], machine: dict[str, Any], data: st.DataObject
) -> None:
    """Server B runs what the advisor told server A (same version); B's revert restores it."""
    machine = {**machine, "server": today["server"]}
    advice = recommend(parse_profile(today))
    pasted = {s.name: server_value(s) for s in advice.settings}
    assume(pasted)
    kept = data.draw(st.sets(st.sampled_from(sorted(pasted)), min_size=1))
    machine["current"] = {"variables": {name: pasted[name] for name in kept}}
    result = recommend(parse_profile(machine))
    back = revert(result)
    emitted = {s.name for s in result.settings} & kept
    assert emitted <= {s.name for s in back.settings}  # none dropped as unknown
    for setting in back.settings:
        if setting.name in kept:
            assert server_value(setting) == pasted[setting.name], setting.name
    for fmt in FORMATS:
        # refused only when the whole result is, or as the forward export is (a deploy tool
        # that runs another server, RDS without its list)
        assert (
            refusal(back, fmt) is None
            or back.output_refused
            or refusal(back, fmt) == (refusal(result, fmt))
        )
