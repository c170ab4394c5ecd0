"""The result every face renders: frozen values, never pre-formatted strings.

These classes also declare the JSON result (product.md, "Output: the result"): each field, in
order, is a key of its object, and its `doc(...)` is the API schema's description. A new output
field is one line here; `rules.render.jsonout` writes and reads it and describes it for the API.
"""

from dataclasses import dataclass, field
from enum import StrEnum
from typing import TypedDict

from rules.current.rds_parameters import RdsParameterList
from rules.inputs.profile import Profile
from rules.output.jsonshape import doc


class Change(StrEnum):
    RAISE = "raise"
    LOWER = "lower"
    KEEP = "keep"
    CHANGE = "change"  # a non-numeric value differs


@dataclass(frozen=True, slots=True)
class Evidence:
    source: str = field(  # key into the bibliography (rules/data/sources.json)
        metadata=doc("Key into the result's `sources` (and GET /api/v1/sources).")
    )
    finding: str


@dataclass(frozen=True, slots=True)
class Effect:
    """Estimated throughput change of one setting alone, in percent, as a range."""

    low_pct: float
    high_pct: float
    # What binds before and after the change, said for large effects (beyond +300%), which
    # only a bottleneck moving can explain; and for effects under 0.5%, what binds instead.
    why: str = field(
        default="",
        metadata=doc(
            "For an effect beyond +300%: the bottleneck that gives way; for one under 0.5% "
            "either way: the capacity that binds and what the setting moves instead.",
            omit_empty=True,
        ),
    )


@dataclass(frozen=True, slots=True, kw_only=True)
class Setting:
    name: str
    value: int | float | str = field(  # bytes for sizes; the server's spelling for enums
        metadata=doc("As the server reports it (bytes for sizes).")
    )
    scope: str = "mysqld"
    kind: str = "number"  # number | bytes | enum | percent
    current: str | None = None
    current_is_default: bool = False
    change: Change | None = None
    is_default: bool = field(
        default=False,
        metadata=doc("The value is what this server version runs with when it is not set."),
    )
    written: bool = field(  # see `Result.written_settings`
        default=True,
        metadata=doc(
            "The my.cnf and SQL exports set it: false for a version default, unless "
            "options.include_defaults is true or the current value differs."
        ),
    )
    dynamic: bool = field(
        metadata=doc(
            "When it takes effect on this server version (the catalog's `dynamic`, unless this "
            "change needs a restart anyway): true: now, through SET PERSIST (MySQL and Percona "
            "8.0+) or SET GLOBAL; false: at the next restart (SET PERSIST_ONLY or my.cnf)."
        )
    )
    apply_note: str = field(
        default="",
        metadata=doc(
            "Limits of applying it now on this version (e.g. the buffer pool resizes in "
            "chunks); empty when there are none.",
            omit_empty=True,
        ),
    )
    rule: str
    reason: str  # one line, written above the value in my.cnf
    explanation: str
    evidence: tuple[Evidence, ...]
    effect: Effect | None = None
    effect_note: str | None = field(
        default=None,
        metadata=doc(
            "With estimates and no effect: why the model cannot estimate this change (no term "
            "for the setting, none that this change moves on this profile, or no change)."
        ),
    )


class SettingFields(TypedDict):
    """A Setting's fields before the estimate: the engine gathers them, the estimator reads the
    values and current values, and the Setting is built once with its effect. Building it first
    and replacing it with its effect cost 6.9 us a setting against 3.2 us for one build
    (timeit, 21 settings a result)."""

    name: str
    value: int | float | str
    kind: str
    current: str | None
    current_is_default: bool
    change: Change | None
    is_default: bool
    written: bool
    dynamic: bool
    apply_note: str
    rule: str
    reason: str
    explanation: str
    evidence: tuple[Evidence, ...]


@dataclass(frozen=True, slots=True, kw_only=True)
class OsItem:
    name: str
    value: str
    devices: str
    rule: str
    reason: str = field(  # written above the item in the files that persist it
        default="", metadata=doc("One line; empty in results stored before it existed.")
    )
    explanation: str
    evidence: tuple[Evidence, ...]
    commands: tuple[str, ...]
    persist: str = field(  # a udev rule, fstab line, sysctl file
        metadata=doc("The file that keeps it after a reboot; empty when none.")
    )
    persist_path: str  # where that file goes; empty when nothing is written
    current: str | None = None
    change: Change | None = None


@dataclass(frozen=True, slots=True)
class GainExclusion:
    """A change a gain does not fold in: its class's held-out pairs cannot bound it."""

    setting: str
    change: str = field(metadata=doc("From the current value to the recommended one."))
    why: str = field(
        metadata=doc(
            "Why the model cannot bound it, with the published pair ratios of its class of "
            "change (range and sources), as published figures, not an estimate."
        )
    )


@dataclass(frozen=True, slots=True)
class Estimate:
    unit: str
    low: float
    high: float
    interval: float
    bottleneck: str
    in_domain: bool
    outside: tuple[str, ...] = field(
        default=(),
        metadata=doc(
            "When in_domain is false, why: each input beyond the range of the published "
            "results of its workload kind, with its value and that range."
        ),
    )
    capped: str = field(
        default="",
        metadata=doc(
            "When the interval was cut to what the estimate's own device, page cleaner or log "
            "syncs allow: the ceiling, what sets it and its figures.",
            omit_empty=True,
        ),
    )
    excludes: tuple[GainExclusion, ...] = field(
        default=(),
        metadata=doc(
            "In a gain: the recommended changes it does not count (each held at its current "
            "value), since the published pairs cannot bound them; the gain covers the rest.",
            omit_empty=True,
        ),
    )


@dataclass(frozen=True, slots=True)
class Anchor:
    """What anchors the estimates on this host's own measurements, and how far they lie from
    the model's figures for the same configurations (rules.estimate.anchor)."""

    source: str = field(
        metadata=doc("measured_throughput or lab_results: the input the measurements came from.")
    )
    runs: int = field(metadata=doc("How many measurements: 1 for measured_throughput."))
    configurations: int = field(metadata=doc("How many different configurations they measured."))
    host_factor: float = field(
        metadata=doc(
            "Measured over modelled throughput for the measured configurations (the geometric "
            "mean over them): 1 when this host does what the model expects for the machine."
        )
    )
    outside_model: bool = field(
        metadata=doc(
            "A measurement lies outside the model's own 80% interval for its configuration: the "
            "model's absolute figures do not describe this host; its gain still applies."
        )
    )
    measured: tuple[str, ...] = field(
        default=(),
        metadata=doc(
            "Which of the estimates (current, recommended) are the measurement itself: the "
            "range of its runs, with `interval` the share of further runs that range is "
            "expected to hold, (n - 1) / (n + 1) for n runs."
        ),
    )
    host_factor_low: float = field(
        default=0.0,
        metadata=doc(
            "With lab_results: the lowest and highest host factor of one measured "
            "configuration; far apart (over 2x), the model's gain between them missed too.",
            omit_empty=True,
        ),
    )
    host_factor_high: float = field(default=0.0, metadata=doc(omit_empty=True))
    note: str = field(default="", metadata=doc("What the result page says about the anchor."))


@dataclass(frozen=True, slots=True)
class Estimates:
    """The recommended configuration's estimate; with the current configuration known, its
    estimate and the gain (recommended / current, unit "x") as an interval of its own, which is
    narrower than the two estimates' ratio because one machine's unknowns cancel out; a change
    whose class the published pairs cannot bound (how commits sync, from 2 sources) is not
    counted in the gain but listed in its `excludes`. With a measured current throughput, the
    recommended estimate is that measurement times the gain. With neither, `defaults` and
    `defaults_gain` weigh it against the version's defaults."""

    recommended: Estimate
    current: Estimate | None = None
    gain: Estimate | None = field(
        default=None,
        metadata=doc(
            "recommended / current as an 80% interval (unit x), when current is known; over "
            "the changes it prices (see its `excludes`)"
        ),
    )
    measured: float | None = field(
        default=None, metadata=doc("workload.measured_throughput, when given")
    )
    anchor: Anchor | None = field(
        default=None,
        metadata=doc(
            "With workload.measured_throughput or workload.lab_results: how the estimates are "
            "anchored on them and whether the measurements lie inside the model's interval.",
            omit_empty=True,
        ),
    )
    # Without a current configuration (nor a measured rate), the recommendation is still weighed
    # against what the server runs when nothing is set (issue #42: the gain first).
    defaults: Estimate | None = field(
        default=None,
        metadata=doc(
            "Without a current configuration: the estimate for this server version's defaults.",
            omit_empty=True,
        ),
    )
    defaults_gain: Estimate | None = field(
        default=None,
        metadata=doc(
            "Without a current configuration: recommended / the version's defaults as an 80% "
            "interval (unit x).",
            omit_empty=True,
        ),
    )


@dataclass(frozen=True, slots=True)
class Result:
    id: str
    ruleset_version: str
    calibration_version: str | None
    # The typed profile every face reads; its JSON is the contract's `inputs`, the profile's echo
    # (`Profile.raw`), written only where a result becomes JSON or a stored row
    # (rules.render.jsonout) and parsed back once when a stored row is read.
    profile: Profile = field(
        metadata=doc("The validated profile, defaults filled in.", key="inputs")
    )
    settings: tuple[Setting, ...]
    os: tuple[OsItem, ...]
    estimate: Estimates | None
    warnings: tuple[str, ...] = field(default=())
    output_refused: str | None = field(
        default=None, metadata=doc("Why no my.cnf or SQL can be written for this version.")
    )
    rds_parameters: RdsParameterList | None = field(
        default=None,
        metadata=doc(
            "The rows of the user's RDS parameter list (aws rds "
            "describe-engine-default-parameters) that this result's settings need, when one "
            "was given: the RDS exports read it.",
            omit_empty=True,
        ),
    )

    @property
    def permalink(self) -> str:
        return f"/r/{self.id}/"

    def setting(self, name: str) -> Setting | None:
        return next((s for s in self.settings if s.name == name), None)

    def written_settings(self) -> tuple[Setting, ...]:
        """The settings the exports write: all but the version's own defaults, unless the
        profile asked for those too or the server runs something else today."""
        return tuple(s for s in self.settings if s.written)

    def left_out(self) -> tuple[Setting, ...]:
        """The settings the exports leave out because they equal the version's default."""
        return tuple(s for s in self.settings if not s.written)
