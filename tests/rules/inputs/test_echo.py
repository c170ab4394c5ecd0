"""The echoed inputs: their order comes back after storage, and they make the same profile."""

import json
from typing import Any

import pytest

from rules.inputs.echo import echo_ordered, profile_from_echo
from rules.inputs.examples import raw_profile
from rules.inputs.validation import parse_profile


def _reversed(value: Any) -> Any:
    """Every object's keys in reverse, as a store that keeps its own key order might give them."""
    if isinstance(value, dict):
        return {key: _reversed(value[key]) for key in reversed(value)}
    return value


PROFILES = {
    "plain": raw_profile(),
    "every section": raw_profile(
        hardware={
            "ram_gb": 64,
            "cpu_cores": 16,
            "storage": {
                "media": "nvme",
                "device_count": 2,
                "raid_level": "raid1",
                "measured_iops": {"random_read": 50000, "random_write": 20000},
            },
            "kernel": "5.15",
        },
        options={"include_defaults": True},
        current={
            "variables": {"sync_binlog": "1", "innodb_io_capacity": "200", "binlog_format": "ROW"}
        },
    ),
}


@pytest.mark.parametrize("raw", PROFILES.values(), ids=list(PROFILES))
def test_stored_inputs_come_back_in_the_order_they_were_echoed(raw: dict[str, Any]) -> None:
    echoed = parse_profile(raw).raw
    restored = echo_ordered(_reversed(echoed))
    assert json.dumps(restored) == json.dumps(echoed)


@pytest.mark.parametrize("raw", PROFILES.values(), ids=list(PROFILES))
def test_the_echo_validates_again_to_the_same_machine(raw: dict[str, Any]) -> None:
    """The same server, hardware, workload, options and kept variables (dropped ones are gone)."""
    profile = parse_profile(raw)
    again = parse_profile(profile_from_echo(profile.raw))
    assert (again.server, again.hardware, again.workload) == (
        profile.server,
        profile.hardware,
        profile.workload,
    )
    assert again.options == profile.options
    assert (again.current and again.current.variables) == (
        profile.current and profile.current.variables
    )
