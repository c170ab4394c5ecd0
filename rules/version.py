"""Server release strings, and which releases the product can write configuration for."""

import re
from dataclasses import dataclass
from enum import StrEnum

from rules.enums import Flavor

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

SUPPORTED_RANGE_TEXT: dict[Flavor, str] = {
    Flavor.MYSQL: "MySQL 5.7, 8.0, 8.4 and 9.x",
    Flavor.PERCONA: "Percona Server 5.7, 8.0, 8.4 and 9.x",
    Flavor.MARIADB: "MariaDB 10.6, 10.11, 11.4 and later 11.x",
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
