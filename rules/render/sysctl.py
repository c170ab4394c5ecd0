"""A sysctl.d file with the kernel memory settings, each under its reason and sources."""

from rules.output.result import OsItem, Result
from rules.reference.bibliography import source
from rules.render.mycnf import comment, install_header
from rules.system.sysctl import RELOAD_COMMAND, SYSCTL_PATH

NOTHING_TO_PERSIST = "No sysctl setting is recommended for this result."


def render_sysctl(result: Result, *, base_url: str = "") -> str:
    """The `/etc/sysctl.d/` file: every OS item kept there, its reason and sources above it."""
    lines = install_header(
        result,
        "kernel settings for a dedicated database host",
        SYSCTL_PATH,
        RELOAD_COMMAND,
        base_url=base_url,
    )
    items = sysctl_items(result)
    for item in items:
        lines += ["", comment("#", f"{item.name}: {item.reason or item.value}")]
        lines += [comment("#", f"  Source: {_citation(e.source)}") for e in item.evidence]
        lines += [line.rstrip() for line in item.persist.strip().splitlines()]
    if not items:
        lines += ["", f"# {NOTHING_TO_PERSIST}"]
    return "\n".join(lines) + "\n"


def sysctl_items(result: Result) -> tuple[OsItem, ...]:
    return tuple(item for item in result.os if item.persist_path == SYSCTL_PATH and item.persist)


def _citation(key: str) -> str:
    """A stored result may cite a source the bibliography no longer has: then its key."""
    try:
        return source(key).citation()
    except KeyError:
        return key
