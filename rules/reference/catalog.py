"""The variable catalog: which server variables a flavor and release has, with type, default,
range, allowed values and the sources of each row (data in `rules/data/variables.json`).

Choosing the row that answers for a release (`catalog_for`):

* Ranges are inclusive. A two-part `since` ("8.0") is the series' first release, a two-part
  `until` its last release; a queried bare series ("8.4", patch None) is its first release.
* A row covering the release answers. Between two rows of the release's own series (8.0.35
  between rows ending 8.0.30 and starting 8.0.39) the nearer sample answers, the older one on a
  tie; in any other gap the preceding row answers.
* Newer than every row: the newest row answers when it reaches the last series the catalog
  sampled (`meta.sampled_through`: MySQL/Percona 8.4, MariaDB 11.4), so MySQL 9.x and MariaDB
  11.5+ behave like 8.4 and 11.4; a variable whose rows stop earlier is treated as gone.
* Older than every row: the oldest row answers only when it starts at the first release the
  catalog sampled (`meta.first_sampled`); otherwise the variable did not exist yet.
* Percona: a Percona row covering the release answers; otherwise the MySQL rows answer (through
  the rules above); Percona-only variables use the Percona rows.
* A row recording absence, or marked `verification: "unverified"`, yields no variable: `get()`
  returns None, so nothing unchecked is ever emitted.
"""

import functools
import json
import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from importlib import resources
from typing import Any

from rules.inputs.enums import Flavor
from rules.inputs.version import ServerVersion, parse_version

Number = int | float
Key = tuple[int, int, int]

_LAST_PATCH = 1 << 30  # `until` "8.0" = the series' last release
NUMERIC_TYPES = frozenset({"int", "bytes", "float"})
UNVERIFIED = "unverified"

CATALOG_SERIES: dict[Flavor, tuple[str, ...]] = {
    Flavor.MYSQL: ("5.7.44", "8.0.29", "8.0.30", "8.0.36", "8.0.39", "8.4.3", "9.1.0"),
    Flavor.PERCONA: ("5.7.44", "8.0.29", "8.0.30", "8.0.36", "8.0.39", "8.4.3", "9.1.0"),
    Flavor.MARIADB: ("10.6.18", "10.11.9", "11.4.3", "11.8.2"),
}


@dataclass(frozen=True, slots=True)
class VariableSpec:
    name: str
    flavor: str  # flavor of the row that answered (mysql rows answer for percona)
    since: str
    until: str
    type: str  # int | bytes | float | bool | enum | string
    default: int | float | str | None  # None when computed at startup (see default_text)
    default_text: str
    minimum: int | float | None
    maximum: int | float | None
    values: tuple[str, ...]  # allowed values for enum/bool ("OFF","ON" for bool)
    dynamic: bool
    unit: str
    block_size: int | None
    deprecated: bool
    verification: str
    sources: tuple[str, ...]
    notes: str


@dataclass(frozen=True, slots=True)
class _Row:
    spec: VariableSpec
    exists: bool
    start: Key
    end: Key


def _since_key(text: str) -> Key:
    version = _parse(text)
    return (version.major, version.minor, version.patch or 0)


def _until_key(text: str) -> Key:
    version = _parse(text)
    patch = _LAST_PATCH if version.patch is None else version.patch
    return (version.major, version.minor, patch)


def _parse(text: str) -> ServerVersion:
    version = parse_version(text)
    if version is None:
        raise ValueError(f"bad version in the catalog: {text!r}")
    return version


def _row(raw: Mapping[str, Any]) -> _Row:
    notes = " ".join([raw["notes"], *raw["catalog_notes"]]).strip()
    spec = VariableSpec(
        name=raw["name"],
        flavor=raw["flavor"],
        since=raw["since"],
        until=raw["until"],
        type=raw["type"] or "",
        default=raw["default"],
        default_text=raw["default_text"],
        minimum=raw["min"],
        maximum=raw["max"],
        values=tuple(raw["values"]),
        dynamic=raw["dynamic"],
        unit=raw["unit"],
        block_size=raw["block_size"],
        deprecated=raw["deprecated"],
        verification=raw["verification"],
        sources=tuple(raw["sources"]),
        notes=notes,
    )
    return _Row(spec, bool(raw["exists"]), _since_key(spec.since), _until_key(spec.until))


@dataclass(frozen=True, slots=True)
class _Data:
    rows: tuple[_Row, ...]
    by_name: Mapping[tuple[str, str], tuple[_Row, ...]]  # (name, flavor) -> rows sorted by start
    first: Mapping[str, Key]  # flavor -> first sampled release
    through: Mapping[str, tuple[int, int]]  # flavor -> last sampled series


@functools.cache
def _data() -> _Data:
    text = resources.files("rules").joinpath("data/variables.json").read_text(encoding="utf-8")
    document = json.loads(text)
    rows = tuple(_row(raw) for raw in document["variables"])
    grouped: dict[tuple[str, str], list[_Row]] = {}
    for row in rows:
        grouped.setdefault((row.spec.name, row.spec.flavor), []).append(row)
    meta = document["meta"]
    return _Data(
        rows=rows,
        by_name={k: tuple(sorted(v, key=lambda r: r.start)) for k, v in grouped.items()},
        first={f: _since_key(v) for f, v in meta["first_sampled"].items()},
        through={f: _parse(v).series for f, v in meta["sampled_through"].items()},
    )


def _covering(rows: Sequence[_Row], key: Key) -> _Row | None:
    hits = [row for row in rows if row.start <= key <= row.end]
    return max(hits, key=lambda r: r.start) if hits else None


def _pick(rows: Sequence[_Row], key: Key, flavor: str) -> _Row | None:
    """The row that answers for `key` among one flavor's rows of one variable."""
    data = _data()
    hit = _covering(rows, key)
    if hit is not None:
        return hit
    before = [row for row in rows if row.end < key]
    after = [row for row in rows if row.start > key]
    prev = max(before, key=lambda r: r.end) if before else None
    nxt = min(after, key=lambda r: r.start) if after else None
    if prev is not None and nxt is not None:
        if prev.end[:2] == key[:2] == nxt.start[:2]:
            return prev if key[2] - prev.end[2] <= nxt.start[2] - key[2] else nxt
        return prev
    if prev is not None:
        return prev if prev.end[:2] >= data.through[flavor] else None
    if nxt is not None:
        return nxt if nxt.start <= data.first[flavor] else None
    return None


def _resolve(name: str, flavor: Flavor, key: Key) -> VariableSpec | None:
    by_name = _data().by_name
    row: _Row | None
    if flavor is Flavor.PERCONA:
        own = by_name.get((name, Flavor.PERCONA.value), ())
        row = _covering(own, key)
        if row is None:
            upstream = by_name.get((name, Flavor.MYSQL.value), ())
            row = _pick(upstream, key, "mysql") if upstream else _pick(own, key, "percona")
    else:
        row = _pick(by_name.get((name, flavor.value), ()), key, flavor.value)
    if row is None or not row.exists or row.spec.verification == UNVERIFIED:
        return None
    return row.spec


class ServerCatalog:
    """The variables of one flavor and release; built once per release by `catalog_for`."""

    __slots__ = ("_specs", "flavor", "version")

    def __init__(self, flavor: Flavor, version: ServerVersion) -> None:
        flavor = Flavor(flavor)
        self.flavor = flavor
        self.version = version
        key = version.key()
        flavors = {flavor.value} | ({Flavor.MYSQL.value} if flavor is Flavor.PERCONA else set())
        names = sorted({name for name, f in _data().by_name if f in flavors})
        specs = ((name, _resolve(name, flavor, key)) for name in names)
        self._specs: dict[str, VariableSpec] = {n: s for n, s in specs if s is not None}

    def get(self, name: str) -> VariableSpec | None:
        """The variable, or None when it does not exist (or is unverified) for this release."""
        return self._specs.get(name)

    def exists(self, name: str) -> bool:
        return name in self._specs

    def names(self) -> tuple[str, ...]:
        return tuple(self._specs)  # built in sorted order

    def default(self, name: str) -> int | float | str | None:
        """The compiled default; None when computed at startup or when the variable is absent."""
        spec = self._specs.get(name)
        return None if spec is None else spec.default

    def clamp(self, name: str, value: Number) -> tuple[Number, bool]:
        """`value` moved into [min, max] and rounded down to the block size; and whether it moved.

        Raises KeyError for a variable absent from this release, TypeError for a non-numeric one.
        """
        spec = self._specs[name]
        if spec.type not in NUMERIC_TYPES:
            raise TypeError(f"{name} is not numeric ({spec.type})")
        result: Number = math.floor(value) if spec.type != "float" else value
        if spec.block_size:
            result = result // spec.block_size * spec.block_size
        if spec.minimum is not None and result < spec.minimum:
            result = spec.minimum
        if spec.maximum is not None and result > spec.maximum:
            result = spec.maximum
        return result, result != value

    def accepts(self, name: str, value: Number | str) -> bool:
        """Whether the release accepts `value`: in range (and integral for integer types), or one
        of the allowed values (case-insensitive; bool also takes 0 and 1). The block size is not
        checked here: the server rounds such values, see `clamp`."""
        spec = self._specs.get(name)
        if spec is None:
            return False
        if spec.type in ("enum", "bool"):
            if spec.type == "bool" and isinstance(value, int) and value in (0, 1):
                return True
            allowed = {v.casefold() for v in spec.values}
            return isinstance(value, str) and value.casefold() in allowed
        if spec.type == "string":
            return isinstance(value, str)
        number = as_number(value)
        if number is None or (spec.type != "float" and number != int(number)):
            return False
        if spec.values and str(int(number)) not in spec.values:
            return False
        low_ok = spec.minimum is None or number >= spec.minimum
        return low_ok and (spec.maximum is None or number <= spec.maximum)


def as_number(value: Number | str) -> Number | None:
    """A catalog or server-printed value as a number, None when it is not one."""
    if isinstance(value, bool):
        return None
    if isinstance(value, int | float):
        return value if math.isfinite(value) else None
    try:
        return int(value)
    except ValueError:
        try:
            parsed = float(value)
        except ValueError:
            return None
        return parsed if math.isfinite(parsed) else None


@functools.lru_cache(maxsize=256)
def catalog_for(flavor: Flavor, version: ServerVersion) -> ServerCatalog:
    return ServerCatalog(flavor, version)


def all_rows() -> tuple[VariableSpec, ...]:
    """Every row that describes an existing variable (rows recording absence are left out)."""
    return tuple(row.spec for row in _data().rows if row.exists)


@functools.cache
def known_names() -> frozenset[str]:
    """Every variable the catalog has rows for, under any flavor: what the advisor reads."""
    return frozenset(name for name, _ in _data().by_name)


def variable_names(flavor: Flavor) -> tuple[str, ...]:
    """Every variable the catalog has rows for under this flavor (existing or not), sorted."""
    return tuple(
        sorted({name for name, row_flavor in _data().by_name if row_flavor == flavor.value})
    )
