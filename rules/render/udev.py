"""A udev rules file that keeps the IO scheduler and read-ahead settings across reboots."""

from rules.output.result import OsItem, Result
from rules.render.mycnf import comment, install_header, one_line

RULES_PATH = "/etc/udev/rules.d/60-innodb-io-advisor.rules"
NOTHING_TO_PERSIST = "No udev rule is needed: this result has no scheduler or read-ahead change."
NR_REQUESTS_NOTE = (
    "nr_requests is not set: blk-mq sizes it from each device's queue depth, and no published "
    "InnoDB measurement supports another value."
)
RELOAD_COMMAND = "udevadm control --reload && udevadm trigger --subsystem-match=block"


def render_udev(result: Result, *, base_url: str = "") -> str:
    """The `.rules` persistence of every OS item that has one, each under its own comment."""
    lines = install_header(
        result,
        "udev rules for the IO scheduler and read-ahead",
        RULES_PATH,
        RELOAD_COMMAND,
        base_url=base_url,
    )
    items = udev_items(result)
    for item in items:
        lines += ["", comment("#", f"{item.name}: {item.value} ({item.devices})")]
        lines += [line.rstrip() for line in item.persist.strip().splitlines()]
    if items:
        lines += ["", comment("#", NR_REQUESTS_NOTE)]
    else:
        lines += ["", f"# {NOTHING_TO_PERSIST}"]
    return "\n".join(lines) + "\n"


def udev_items(result: Result) -> tuple[OsItem, ...]:
    return tuple(
        item
        for item in result.os
        if item.persist_path.endswith(".rules") and one_line(item.persist) != ""
    )
