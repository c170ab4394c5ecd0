"""Server variables a release no longer has (data in `rules/data/removed_variables.json`).

An option file that sets a variable the server does not know stops it at startup ("unknown
variable"), unless the line carries the `loose-` prefix, which turns the error into a warning
(MySQL 8.4 Reference Manual, 6.2.2.4 "Program Option Modifiers",
https://dev.mysql.com/doc/refman/8.4/en/option-modifiers.html: "If an option is prefixed by
--loose, a program does not exit with an error if it does not recognize the option, but instead
issues only a warning"; MariaDB shares mysys my_getopt.cc, which handles the prefix). Every row
names the release that removed the variable and the pages that say so; the table checks itself
at import.
"""

import functools
import json
from dataclasses import dataclass
from importlib import resources

from rules.inputs.enums import Flavor
from rules.inputs.version import ServerVersion, parse_version


@dataclass(frozen=True, slots=True)
class Source:
    url: str
    section: str


@dataclass(frozen=True, slots=True)
class Removed:
    name: str
    flavors: frozenset[Flavor]
    removed_in: ServerVersion  # the first release without it
    replacement: str | None
    sources: tuple[Source, ...]
    note: str


def _source(raw: dict[str, str], name: str) -> Source:
    url, section = raw.get("url", ""), raw.get("section", "")
    if not url.startswith("https://") or not section.strip():
        raise ValueError(f"removed_variables.json: {name} has a source without a URL or section")
    return Source(url, section)


def _row(raw: dict[str, object]) -> Removed:
    name = str(raw["name"])
    version = parse_version(str(raw["removed_in"]))
    if version is None or version.patch is None:
        raise ValueError(f"removed_variables.json: {name} needs a full release in removed_in")
    sources = tuple(_source(s, name) for s in raw["sources"])  # type: ignore[attr-defined]
    if not sources:
        raise ValueError(f"removed_variables.json: {name} has no source")
    replacement = raw.get("replacement")
    return Removed(
        name=name,
        flavors=frozenset(Flavor(f) for f in raw["flavors"]),  # type: ignore[attr-defined]
        removed_in=version,
        replacement=str(replacement) if replacement else None,
        sources=sources,
        note=str(raw.get("note", "")),
    )


@functools.cache
def removed_rows() -> tuple[Removed, ...]:
    """Every row, checked: a source for each, one row per name and flavor."""
    text = resources.files("rules").joinpath("data/removed_variables.json").read_text("utf-8")
    rows = tuple(_row(raw) for raw in json.loads(text)["variables"])
    seen: set[tuple[str, Flavor]] = set()
    for row in rows:
        for flavor in row.flavors:
            if (row.name, flavor) in seen:
                raise ValueError(f"removed_variables.json: {row.name} twice for {flavor.value}")
            seen.add((row.name, flavor))
    return rows


@functools.cache
def _by_name() -> dict[tuple[str, Flavor], Removed]:
    return {(row.name, flavor): row for row in removed_rows() for flavor in row.flavors}


REMOVED_NAMES = frozenset(row.name for row in removed_rows())


def removed_from(name: str, flavor: Flavor, version: ServerVersion) -> Removed | None:
    """The row saying `version` of `flavor` no longer has `name`, or None while it still does."""
    row = _by_name().get((name, flavor))
    if row is None or version.key() < row.removed_in.key():
        return None
    return row
