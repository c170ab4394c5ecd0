"""Server release strings, and which releases the product can write configuration for."""

import functools
import re
from dataclasses import dataclass
from enum import StrEnum

from rules.inputs.enums import Flavor

_RELEASE = re.compile(r"^\s*(\d{1,3})\.(\d{1,3})(?:\.(\d{1,4}))?(?:[-+~_ ][0-9A-Za-z.+~_ -]*)?\s*$")


class Support(StrEnum):
    SUPPORTED = "supported"  # my.cnf and SQL are written for it
    TOO_OLD = "too_old"  # estimates only
    UNSUPPORTED_SERIES = "unsupported_series"  # a short-term series the product does not target
    TOO_NEW = "too_new"  # newer than the variable catalog knows


@dataclass(frozen=True, slots=True, order=True)
class ServerVersion:
    """A release such as 8.0.36 or a whole series such as 10.11 (patch is None)."""

    major: int
    minor: int
    patch: int | None = None

    @property
    def series(self) -> tuple[int, int]:
        return (self.major, self.minor)

    def key(self) -> tuple[int, int, int]:
        """Sort key; a bare series sorts as its first release."""
        return (self.major, self.minor, self.patch or 0)

    def __str__(self) -> str:
        base = f"{self.major}.{self.minor}"
        return base if self.patch is None else f"{base}.{self.patch}"


@functools.lru_cache(maxsize=1024)  # parsed three times per profile, from a few distinct texts
def parse_version(text: str) -> ServerVersion | None:
    """Parse '8.0.36', '8.4', '10.11.6-MariaDB' or '8.0.36-28' (Percona); None when unparseable."""
    match = _RELEASE.match(text)
    if match is None:
        return None
    major, minor, patch = match.groups()
    return ServerVersion(int(major), int(minor), int(patch) if patch is not None else None)


# Release series the product writes my.cnf/SQL for (product contract, "Input: the profile").
_SUPPORTED_SERIES: dict[Flavor, frozenset[tuple[int, int]]] = {
    Flavor.MYSQL: frozenset({(5, 7), (8, 0), (8, 4)}),
    Flavor.PERCONA: frozenset({(5, 7), (8, 0), (8, 4)}),
    Flavor.MARIADB: frozenset({(10, 6), (10, 11)}),
}
# Majors whose every minor release is supported: MySQL/Percona 9.x, MariaDB 11.4 and later 11.x.
_SUPPORTED_FROM: dict[Flavor, tuple[int, int, int]] = {
    Flavor.MYSQL: (9, 0, 9),  # (major, first minor, last major)
    Flavor.PERCONA: (9, 0, 9),
    Flavor.MARIADB: (11, 4, 11),
}
_OLDEST: dict[Flavor, tuple[int, int]] = {
    Flavor.MYSQL: (5, 7),
    Flavor.PERCONA: (5, 7),
    Flavor.MARIADB: (10, 6),
}

FLAVOR_NAMES: dict[Flavor, str] = {
    Flavor.MYSQL: "MySQL",
    Flavor.PERCONA: "Percona Server",
    Flavor.MARIADB: "MariaDB",
}
SUPPORTED_RANGE_TEXT: dict[Flavor, str] = {
    Flavor.MYSQL: "MySQL 5.7, 8.0, 8.4 and 9.x",
    Flavor.PERCONA: "Percona Server 5.7, 8.0, 8.4 and 9.x",
    Flavor.MARIADB: "MariaDB 10.6, 10.11, 11.4 and later 11.x",
}


def _minors(major: int, last_minor: int) -> frozenset[tuple[int, int]]:
    return frozenset((major, minor) for minor in range(last_minor + 1))


# Release series that exist (the vendors' release notes, through MySQL 26.10 of October 2026 and
# MariaDB 13.2). A version outside them cannot be described at all; an older real one is kept
# for estimates only (Support.TOO_OLD). Percona Server follows MySQL's numbering.
_MYSQL_SERIES = (
    frozenset({(3, 23), (4, 0), (4, 1), (5, 0), (5, 1), (5, 5), (5, 6), (5, 7)})
    | _minors(8, 4)
    | _minors(9, 7)
)
# MySQL numbers by calendar (YY.M) after 9.7: 26.7 of July 2026 is the first such release
# (https://dev.mysql.com/doc/refman/26.7/en/mysql-releases.html), 26.10 the next
# (https://dev.mysql.com/doc/refman/26.10/en/mysql-nutshell.html). Percona ships no Innovation
# releases after 8.4 (https://www.percona.com/blog/no-mysql-9-x-innovation-releases-from-percona/),
# so no Percona 26.x exists.
_MYSQL_CALENDAR_SERIES = frozenset({(26, 7), (26, 10)})
KNOWN_SERIES: dict[Flavor, frozenset[tuple[int, int]]] = {
    Flavor.MYSQL: _MYSQL_SERIES | _MYSQL_CALENDAR_SERIES,
    Flavor.PERCONA: _MYSQL_SERIES,
    Flavor.MARIADB: frozenset({(5, 1), (5, 2), (5, 3), (5, 5)})
    | _minors(10, 11)
    | _minors(11, 8)
    | _minors(12, 3)
    | _minors(13, 2),
}


def exists(flavor: Flavor, version: ServerVersion) -> bool:
    """Whether the flavor ever had a release series `version` belongs to."""
    return version.series in KNOWN_SERIES[flavor]


def known_series_text(flavor: Flavor) -> str:
    """'3.23, 4.0, ..., 8.0 to 8.4 and 9.0 to 9.7': three or more minors in a row as a range."""
    runs: list[list[tuple[int, int]]] = []
    for series in sorted(KNOWN_SERIES[flavor]):
        if runs and runs[-1][-1] == (series[0], series[1] - 1):
            runs[-1].append(series)
        else:
            runs.append([series])
    texts: list[str] = []
    for run in runs:
        if len(run) >= 3:
            texts.append(f"{_series_text(run[0])} to {_series_text(run[-1])}")
        else:
            texts.extend(_series_text(series) for series in run)
    return ", ".join(texts[:-1]) + " and " + texts[-1]


def _series_text(series: tuple[int, int]) -> str:
    return f"{series[0]}.{series[1]}"


# Why a release gets no my.cnf or SQL: said by the engine's refusal and the wizard's first step.
SUPPORT_REASONS: dict[Support, str] = {
    Support.TOO_OLD: "is older than the supported range",
    Support.UNSUPPORTED_SERIES: "is a short-term series outside the supported range",
    Support.TOO_NEW: "is newer than the variable catalog knows",
}


def support_of(flavor: Flavor, version: ServerVersion) -> Support:
    if version.series in _SUPPORTED_SERIES[flavor]:
        return Support.SUPPORTED
    major, first_minor, last_major = _SUPPORTED_FROM[flavor]
    if version.major == major and version.minor >= first_minor:
        return Support.SUPPORTED
    if version.series < _OLDEST[flavor]:
        return Support.TOO_OLD
    if version.major > last_major:
        return Support.TOO_NEW
    return Support.UNSUPPORTED_SERIES
