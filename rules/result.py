"""The result every face renders: frozen values, never pre-formatted strings."""

from dataclasses import dataclass, field
from enum import StrEnum


class Change(StrEnum):
    RAISE = "raise"
    LOWER = "lower"
    KEEP = "keep"
    CHANGE = "change"  # a non-numeric value differs


@dataclass(frozen=True, slots=True)
class Evidence:
    source: str  # key into the bibliography (rules/data/sources.json)
    finding: str


@dataclass(frozen=True, slots=True)
class Effect:
    """Estimated throughput change of one setting alone, in percent, as a range."""

    low_pct: float
    high_pct: float


@dataclass(frozen=True, slots=True)
class Setting:
    name: str
    value: int | float | str  # bytes for sizes; the server's spelling for enums
    rule: str
    reason: str  # one line, written above the value in my.cnf
    explanation: str
    evidence: tuple[Evidence, ...]
    dynamic: bool
    scope: str = "mysqld"
    kind: str = "number"  # number | bytes | enum | percent
    current: str | None = None
    current_is_default: bool = False
    change: Change | None = None
    effect: Effect | None = None


@dataclass(frozen=True, slots=True)
class OsItem:
    name: str
    value: str
    devices: str
    rule: str
    explanation: str
    evidence: tuple[Evidence, ...]
    commands: tuple[str, ...]
    persist: str  # text of a file that makes it survive a reboot (udev rule, fstab line, sysctl)
    persist_path: str
    current: str | None = None
    change: Change | None = None


@dataclass(frozen=True, slots=True)
class Estimate:
    unit: str
    low: float
    high: float
    interval: float
    bottleneck: str
    in_domain: bool


@dataclass(frozen=True, slots=True)
class Estimates:
    """The recommended configuration's estimate; with the current configuration known, its
    estimate and the gain (recommended / current, unit "x") as an interval of its own, which is
    narrower than the two estimates' ratio because one machine's unknowns cancel out. With a
    measured current throughput, the recommended estimate is that measurement times the gain."""

    recommended: Estimate
    current: Estimate | None = None
    gain: Estimate | None = None
    measured: float | None = None  # workload.measured_throughput, when given


@dataclass(frozen=True, slots=True)
class Result:
    id: str
    ruleset_version: str
    calibration_version: str | None
    inputs: dict[str, object]
    settings: tuple[Setting, ...]
    os: tuple[OsItem, ...]
    estimate: Estimates | None
    warnings: tuple[str, ...] = field(default=())
    output_refused: str | None = None  # why my.cnf/SQL cannot be written for this version

    @property
    def permalink(self) -> str:
        return f"/r/{self.id}/"

    def setting(self, name: str) -> Setting | None:
        return next((s for s in self.settings if s.name == name), None)
