"""The revert twins of the udev and sysctl files: how to undo the operating-system change.

A udev rule or a sysctl.d file cannot set a value back by being installed, and removing it does
not change a running kernel: `udevadm control --reload` only rereads the rules, and
`sysctl --system` only reapplies the files that remain (systemd-sysctl.service(8), udevadm(8)).
So the twin holds no rule; it says, as comments, which file to remove and how to set each value
back: to the value the profile gave as before when it is known, else by a reboot, which leaves
the kernel's own default.
"""

from rules.output.result import OsItem, Result
from rules.render.mycnf import comment, header_lines
from rules.render.sysctl import sysctl_items
from rules.render.udev import RULES_PATH, udev_items
from rules.system.sysctl import SYSCTL_PATH

UDEV_RELOAD = "udevadm control --reload"
SYSCTL_RELOAD = "sysctl --system"


def render_udev_revert(result: Result, *, base_url: str = "") -> str:
    return _render(
        result,
        "revert of the udev rules for the IO scheduler and read-ahead",
        RULES_PATH,
        UDEV_RELOAD,
        udev_items(result),
        base_url=base_url,
    )


def render_sysctl_revert(result: Result, *, base_url: str = "") -> str:
    return _render(
        result,
        "revert of the kernel settings",
        SYSCTL_PATH,
        SYSCTL_RELOAD,
        sysctl_items(result),
        base_url=base_url,
    )


def _render(
    result: Result,
    what: str,
    path: str,
    reload: str,
    items: tuple[OsItem, ...],
    *,
    base_url: str,
) -> str:
    lines = [comment("#", line) for line in header_lines(result, what, base_url=base_url)]
    if not items:
        lines += ["", comment("#", f"This result wrote nothing to {path}: nothing to revert.")]
        return "\n".join(lines) + "\n"
    lines += [
        "",
        comment("#", "This file holds no setting: the operating-system change is reverted by"),
        comment("#", "hand. As root, remove the file the result installed and reload:"),
        f"#   rm {path}",
        f"#   {reload}",
        comment("#", "That stops the change at the next boot; a running server keeps it until"),
        comment("#", "each value is set back:"),
    ]
    for item in items:
        lines += ["", comment("#", f"{item.name} ({item.devices}): the result set {item.value}.")]
        back = _set_back(item)
        if back:
            lines += [comment("#", f"Before, it was {item.current}:"), f"#   {back}"]
        else:
            lines += [
                comment("#", "Its value before was not given: reboot for the kernel's default,"),
                comment("#", "or set the value you had with the result's own command."),
            ]
    return "\n".join(lines) + "\n"


def _set_back(item: OsItem) -> str:
    """The result's own first command with the value before in place of its value; empty when
    the value before is unknown or the command does not spell the value plainly."""
    if not item.current or not item.commands:
        return ""
    command = item.commands[0]
    for old, new in (
        (f"{item.name}={item.value}", f"{item.name}={item.current}"),
        (f"echo {item.value} >", f"echo {item.current} >"),
    ):
        if old in command:
            return command.replace(old, new)
    return ""
