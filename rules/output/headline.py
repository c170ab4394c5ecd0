"""What changes for you (issue #42, item 6): the lead of every face, read off the Result.

The gain of the recommended configuration against the current one (or against the version's
defaults when none was given), the two or three settings that give most of it, and what binds
before and after, in a DBA's words; then the absolute figure and what its unit is. The result
page, the API's `headline`, the CLI and the exports' headers print the same `lines`.

The bottleneck named here is the estimate's own (`Estimate.bottleneck`): the cache-fit warning
(`rules.settings.buffer_pool.cache_fit_warning`) reads the same one, so the result gives one
diagnosis.
"""

import dataclasses
from dataclasses import dataclass, field

from rules.inputs.enums import WorkloadKind
from rules.inputs.profile import Profile
from rules.output.jsonshape import doc
from rules.output.result import Change, Effect, Estimate, Result, Setting
from rules.reference.catalog import catalog_for
from rules.reference.defaults import server_name

LEVERS_SHOWN = 3  # "the two or three settings that give most of it"
# An effect whose middle is under a percent is not one of the settings that give the gain.
LEVER_MIN_PCT = 1.0

# The model's names for what binds (calibration.model.BOTTLENECKS, bottleneck_name) in the
# words a DBA uses. A name not listed is shown as the model gives it.
CPU = "CPU"
BOTTLENECK_WORDS: dict[str, str] = {
    "CPU": CPU,
    "random reads": "random reads from disk",
    "page writes": "page flushing",
    "checkpoint flushing": "page flushing to advance the checkpoint",
    "fsync/commit": "redo log syncs per commit",
}

# What each workload's reference unit counts (product.md, "workload.kind").
UNIT_MEANING: dict[WorkloadKind, str] = {
    WorkloadKind.OLTP: "new-order transactions per minute of a TPC-C-like benchmark "
    "(tpcc-mysql, HammerDB)",
    WorkloadKind.READ_WRITE: "transactions per second of sysbench oltp_read_write, "
    "a web-app mix of point reads and small writes",
    WorkloadKind.UPDATE_HEAVY: "transactions per second of sysbench update_index / "
    "update_non_index, small commit-bound updates",
    WorkloadKind.BULK_INSERT: "rows inserted per second by the insert benchmark (iibench) "
    "into tables with secondary indexes",
    WorkloadKind.READ_MOSTLY: "queries per second of sysbench oltp_point_select, "
    "primary-key lookups",
}


@dataclass(frozen=True, slots=True)
class Lever:
    """A setting among those that give most of the gain, with its effect alone."""

    name: str
    effect: Effect


@dataclass(frozen=True, slots=True)
class Headline:
    against: str = field(
        metadata=doc(
            "What the gain is measured against: `current` (the configuration given) or "
            "`defaults` (this server version's defaults, when none was given)."
        )
    )
    baseline: str = field(
        metadata=doc("The same in words: 'the current configuration', \"MySQL 8.4's defaults\".")
    )
    gain: Estimate | None = field(
        metadata=doc("recommended / baseline as an 80% interval (unit x); null when unknown.")
    )
    levers: tuple[Lever, ...] = field(
        metadata=doc(
            "The two or three settings that give most of the gain, largest effect first "
            "(each effect is that setting alone against the baseline)."
        )
    )
    unpriced: tuple[str, ...] = field(
        metadata=doc(
            "Settings the recommendation changes whose effect the model cannot estimate "
            "(effect null): named, not ranked."
        )
    )
    bottleneck_before: str = field(
        metadata=doc("What binds the baseline, in a DBA's words ('random reads from disk').")
    )
    bottleneck_after: str = field(
        metadata=doc("What binds the recommended configuration, in the same words.")
    )
    unit: str = field(metadata=doc("The unit of the absolute estimate (NOTPM, transactions/s)."))
    unit_meaning: str = field(metadata=doc("What that unit counts, in one line."))
    lines: tuple[str, ...] = field(
        metadata=doc("The above as the lines every face prints first, the gain leading.")
    )


def headline(result: Result) -> Headline | None:
    """The lead of `result`; None without an estimate (no calibrated model)."""
    estimates = result.estimate
    if estimates is None:
        return None
    given = result.profile.current is not None
    before = estimates.current or estimates.defaults
    gain = estimates.gain or estimates.defaults_gain
    after = estimates.recommended
    baseline = "the current configuration" if given else f"{_server(result.profile)}'s defaults"
    levers, unpriced = levers_of(result.settings, current_given=given)
    kind = result.profile.workload.kind
    found = Headline(
        against="current" if given else "defaults",
        baseline=baseline,
        gain=gain,
        levers=levers,
        unpriced=unpriced,
        bottleneck_before=bottleneck_words(before.bottleneck) if before else "",
        bottleneck_after=bottleneck_words(after.bottleneck),
        unit=after.unit,
        unit_meaning=UNIT_MEANING.get(kind, ""),
        lines=(),
    )
    return dataclasses.replace(found, lines=lines_of(found, after))


def bottleneck_words(name: str) -> str:
    return BOTTLENECK_WORDS.get(name, name)


def levers_of(
    settings: tuple[Setting, ...], *, current_given: bool
) -> tuple[tuple[Lever, ...], tuple[str, ...]]:
    """The settings giving most of the gain (largest effect first, at most LEVERS_SHOWN), and
    the changed settings the model does not price."""
    changed = [s for s in settings if _changes(s, current_given=current_given)]
    priced = [s for s in changed if s.effect is not None and _middle(s.effect) >= LEVER_MIN_PCT]
    priced.sort(key=lambda s: -_middle(s.effect) if s.effect else 0.0)
    levers = tuple(Lever(s.name, s.effect) for s in priced[:LEVERS_SHOWN] if s.effect)
    unpriced = tuple(s.name for s in changed if s.effect is None)
    return levers, unpriced


def lines_of(found: Headline, after: Estimate) -> tuple[str, ...]:
    lines = [f"What changes for you, against {found.baseline}: {_gain_text(found.gain)}."]
    if found.levers:
        shown = ", ".join(f"{lever.name} {_effect_text(lever.effect)}" for lever in found.levers)
        lines.append(f"Largest single effects: {shown} (each alone, against {found.baseline}).")
    if found.unpriced:
        lines.append(f"Not priced by the model: {', '.join(found.unpriced)}.")
    lines.append(_bottleneck_line(found))
    lines.append(
        f"Recommended: {_number(after.low)} to {_number(after.high)} {after.unit} "
        f"({after.interval:.0%} interval)"
        + ("" if after.in_domain else ", outside the calibration data")
        + "."
    )
    if found.unit_meaning:
        lines.append(f"{found.unit}: {found.unit_meaning}.")
    return tuple(lines)


def _bottleneck_line(found: Headline) -> str:
    before, after = found.bottleneck_before, found.bottleneck_after
    if not before:
        return f"Bottleneck with the recommendation: {after}."
    today = "today" if found.against == "current" else "with the defaults"
    if before == after:
        return f"Bottleneck: {after}, {today} and with the recommendation."
    return f"Bottleneck: {before} {today}; {after} with the recommendation."


def _gain_text(gain: Estimate | None) -> str:
    if gain is None:
        return "not estimated"
    text = f"×{_ratio(gain.low)} to ×{_ratio(gain.high)} throughput ({gain.interval:.0%} interval)"
    if gain.excludes:  # changes the published pairs cannot bound: named, never folded in
        left_out = ", ".join(f"{e.setting} {e.change}" for e in gain.excludes)
        text += f", not counting {left_out} (the published pairs cannot bound them)"
    return text


def _ratio(value: float) -> str:
    """Two significant figures: ×0.67, ×1.5, ×12 (a gain is not known better than that)."""
    return f"{value:.2g}" if value < 9.95 else f"{round(value):,}"


def _effect_text(effect: Effect) -> str:
    """Whole percents, as the settings table prints them (+0%, never -0%)."""
    low, high = round(effect.low_pct), round(effect.high_pct)
    return f"{low:+d}%" if low == high else f"{low:+d}% to {high:+d}%"


def _number(value: float) -> str:
    """1,234 for large figures, 3 significant digits for small ones (as the chart writes)."""
    return f"{value:,.0f}" if abs(value) >= 100 else f"{value:.3g}"


def _changes(setting: Setting, *, current_given: bool) -> bool:
    """Whether the recommendation changes the setting from the baseline."""
    if current_given:
        return setting.change is not None and setting.change is not Change.KEEP
    return not setting.is_default


def _middle(effect: Effect) -> float:
    return (effect.low_pct + effect.high_pct) / 2


def _server(profile: Profile) -> str:
    return server_name(catalog_for(profile.server.flavor, profile.server.version))
