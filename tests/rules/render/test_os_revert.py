"""The udev and sysctl revert twins say how to undo the OS change, never "no rule is needed"."""

from rules.engine import recommend
from rules.inputs.examples import raw_profile
from rules.inputs.validation import parse_profile
from rules.render import render_revert
from rules.render.udev import NOTHING_TO_PERSIST
from tests.rules.render.fixtures import mysql80_result


def _with_current():  # type: ignore[no-untyped-def]
    raw = raw_profile()
    raw["current"] = {"mycnf": "[mysqld]\ninnodb_io_capacity = 200\n"}
    return recommend(parse_profile(raw))


def test_the_udev_twin_removes_the_rule_and_sets_each_device_back_by_hand() -> None:
    result = _with_current()
    assert any(item.persist_path.endswith(".rules") for item in result.os)
    twin = render_revert(result, "udev")
    assert NOTHING_TO_PERSIST not in twin
    assert "no rule is needed" not in twin.lower()
    assert "#   rm /etc/udev/rules.d/60-innodb-io-advisor.rules\n" in twin
    assert "#   udevadm control --reload\n" in twin
    assert "io_scheduler" in twin
    assert "reboot" in twin
    assert all(line == "" or line.startswith("#") for line in twin.splitlines())  # no rule


def test_the_sysctl_twin_names_each_setting_and_the_command_that_sets_it_back() -> None:
    result = _with_current()
    twin = render_revert(result, "sysctl")
    assert "No sysctl setting is recommended" not in twin
    assert "#   rm /etc/sysctl.d/60-innodb-io-advisor.conf\n" in twin
    assert "vm.swappiness (host): the result set 1." in twin
    assert all(line == "" or line.startswith("#") for line in twin.splitlines())


def test_a_known_value_before_is_set_back_with_the_results_own_command() -> None:
    twin = render_revert(mysql80_result(), "udev")  # its scheduler was cfq
    assert "# Before, it was cfq:\n#   echo cfq > /sys/block/sdX/queue/scheduler\n" in twin
