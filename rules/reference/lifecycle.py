"""Vendor support lifecycle: which release series are past their end of life, and the warning.

The table is `rules/data/lifecycle.json`, one row per series with the vendor's page. A series is
judged against the table's own `as_of` date, never the clock: the engine stays pure, the same
profile under the same table gives the same result, and a result's id hashes the table
(`TABLE_DIGEST`), so a stored result is never served once the table has moved on.
"""

import calendar
import datetime
import hashlib
import json
import re
from dataclasses import dataclass
from importlib import resources
from typing import Any

from rules.inputs.enums import Flavor
from rules.inputs.version import FLAVOR_NAMES, ServerVersion

_DAY = re.compile(r"^\d{4}-\d{2}-\d{2}$")
_MONTH = re.compile(r"^\d{4}-\d{2}$")
_SERIES = re.compile(r"^\d{1,3}\.\d{1,3}$")
KINDS = frozenset({"lts", "bugfix", "innovation", "rolling"})
VENDORS: dict[Flavor, str] = {
    Flavor.MYSQL: "Oracle",
    Flavor.PERCONA: "Percona, following Oracle's MySQL dates",
    Flavor.MARIADB: "MariaDB",
}


@dataclass(frozen=True, slots=True)
class Lifecycle:
    """One series' support as the vendor states it."""

    flavor: Flavor
    series: tuple[int, int]
    kind: str
    ends: datetime.date | None  # the last day of support (a month's last day for "2026-04")
    ends_text: str  # "24 June 2025", "April 2026", "" without a date
    maintained: bool  # as of the table's date
    source: str

    @property
    def series_text(self) -> str:
        return f"{self.series[0]}.{self.series[1]}"


def _end_of(text: str) -> tuple[datetime.date, str]:
    """The last supported day and how the vendor words it."""
    if _DAY.match(text):
        day = datetime.date.fromisoformat(text)
        return day, f"{day.day} {calendar.month_name[day.month]} {day.year}"
    if _MONTH.match(text):
        year, month = (int(part) for part in text.split("-"))
        last = calendar.monthrange(year, month)[1]
        return datetime.date(year, month, last), f"{calendar.month_name[month]} {year}"
    raise ValueError(f"lifecycle: end date {text!r} is neither YYYY-MM-DD nor YYYY-MM")


def _row(raw: dict[str, Any], flavor: Flavor, as_of: datetime.date) -> Lifecycle:
    series = str(raw["series"])
    source = str(raw.get("source") or "")
    if not _SERIES.match(series):
        raise ValueError(f"lifecycle: series {series!r} is not major.minor")
    if not source.startswith("https://"):
        raise ValueError(f"lifecycle: {flavor.value} {series} has no https source")
    if raw["kind"] not in KINDS:
        raise ValueError(f"lifecycle: {flavor.value} {series} has kind {raw['kind']!r}")
    major, minor = (int(part) for part in series.split("."))
    if raw.get("ends") is None:
        if not isinstance(raw.get("maintained"), bool):
            raise ValueError(f"lifecycle: {flavor.value} {series} needs ends or maintained")
        ends, ends_text, maintained = None, "", bool(raw["maintained"])
    else:
        if "maintained" in raw:
            raise ValueError(f"lifecycle: {flavor.value} {series} has both ends and maintained")
        ends, ends_text = _end_of(str(raw["ends"]))
        maintained = ends >= as_of
    return Lifecycle(flavor, (major, minor), raw["kind"], ends, ends_text, maintained, source)


def _load() -> tuple[datetime.date, dict[tuple[Flavor, tuple[int, int]], Lifecycle], str]:
    text = resources.files("rules").joinpath("data/lifecycle.json").read_text(encoding="utf-8")
    data = json.loads(text)
    as_of = datetime.date.fromisoformat(data["meta"]["as_of"])
    table: dict[tuple[Flavor, tuple[int, int]], Lifecycle] = {}
    for raw in data["rows"]:
        for name in raw["flavors"]:
            row = _row(raw, Flavor(name), as_of)
            key = (row.flavor, row.series)
            if key in table:
                raise ValueError(f"lifecycle: {name} {row.series_text} is listed twice")
            table[key] = row
    return as_of, table, hashlib.sha256(text.encode()).hexdigest()[:12]


# Checked at import: every row has a https source, a known kind, and a date or a stated status.
AS_OF, LIFECYCLE, TABLE_DIGEST = _load()


def lifecycle_of(flavor: Flavor, version: ServerVersion) -> Lifecycle | None:
    return LIFECYCLE.get((flavor, version.series))


def _newer_lts(row: Lifecycle) -> list[str]:
    """The flavor's long-term series newer than `row`, still supported as of the table's date."""
    newer = (
        other
        for other in LIFECYCLE.values()
        if other.flavor is row.flavor
        and other.kind == "lts"
        and other.maintained
        and other.series > row.series
    )
    return [other.series_text for other in sorted(newer, key=lambda other: other.series)]


def lifecycle_warning(flavor: Flavor, version: ServerVersion) -> str | None:
    """The warning for a series past its end of life as of the table's date; None otherwise."""
    row = lifecycle_of(flavor, version)
    if row is None or row.maintained:
        return None
    name = FLAVOR_NAMES[flavor]
    if row.ends is not None:
        on = "on" if row.ends_text[0].isdigit() else "in"  # "on 24 June 2025", "in April 2026"
        when = f"reached its end of life {on} {row.ends_text}"
    else:
        when = f"is a {row.kind} release that is no longer maintained"
    targets = _newer_lts(row)
    if targets:
        listed = ", ".join(targets[:-1]) + (" or " if len(targets) > 1 else "") + targets[-1]
        releases = "releases" if len(targets) > 1 else "release"
        advice = f"upgrade to {name} {listed}, the long-term {releases} still supported"
    else:
        advice = "upgrade to a release the vendor still supports"
    return (
        f"{name} {row.series_text} {when} ({VENDORS[flavor]}: {row.source}): it gets no more "
        f"security or bug fixes. Plan to {advice} (lifecycle checked {AS_OF.isoformat()})."
    )
