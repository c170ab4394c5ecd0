"""A udev rules file that keeps the IO scheduler and read-ahead settings across reboots."""

from rules.render.mycnf import comment, header_lines, one_line
from rules.result import OsItem, Result

RULES_PATH = "/etc/udev/rules.d/60-innodb-io-advisor.rules"
NOTHING_TO_PERSIST = "No udev rule is needed: this result has no scheduler or read-ahead change."
RELOAD_COMMAND = "udevadm control --reload && udevadm trigger --subsystem-match=block"


def render_udev(result: Result, *, base_url: str = "") -> str:
    """The `.rules` persistence of every OS item that has one, each under its own comment."""
    header = [
        *header_lines(result, "udev rules for the IO scheduler and read-ahead", base_url=base_url),
        f"Install: copy this file to {RULES_PATH}, then run",
    ]
    lines = [comment("#", line) for line in header]
    lines.append(f"#   {RELOAD_COMMAND}")
    items = udev_items(result)
    for item in items:
        lines += ["", comment("#", f"{item.name}: {item.value} ({item.devices})")]
        lines += [line.rstrip() for line in item.persist.strip().splitlines()]
    if not items:
        lines += ["", f"# {NOTHING_TO_PERSIST}"]
    return "\n".join(lines) + "\n"


def udev_items(result: Result) -> tuple[OsItem, ...]:
    return tuple(
        item
        for item in result.os
        if item.persist_path.endswith(".rules") and one_line(item.persist) != ""
    )
