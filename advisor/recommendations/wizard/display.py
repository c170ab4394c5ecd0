"""What the result page shows, prepared from a `Result`: rows, texts, the chart and the exports.

Templates stay free of logic; nothing here computes a recommendation, it only formats one.
"""

from collections.abc import Mapping
from dataclasses import dataclass

from django.utils.safestring import SafeString

from advisor.recommendations.wizard.chart import Bar, describe, interval_chart
from calibration.model import BOTTLENECKS
from rules.inputs.errors import OutputRefused
from rules.inputs.profile import MeasuredCpu
from rules.output.result import Change, Effect, Estimate, Estimates, Evidence, Result, Setting
from rules.output.revert import can_revert
from rules.reference.apply import apply_groups
from rules.reference.bibliography import source
from rules.render import FORMATS, REGISTRY, filename_for, render, revert_filename_for
from rules.render.mycnf import config_value
from rules.render.sql import uses_set_persist
from rules.units import bytes_text

CHANGE_LABELS = {
    Change.RAISE: "↑ raise",
    Change.LOWER: "↓ lower",
    Change.KEEP: "= keep",
    Change.CHANGE: "≠ change",
}
# Every format but JSON is shown in a copyable block; JSON is a download only. The server and OS
# files come first and have a button at the top; the deploy-tool files follow under their own
# heading. JSON, the whole result, comes last.
_ORDER = {"server": 0, "os": 1, "deploy": 2, "data": 3}
SHOWN_ORDER = tuple(f.name for f in sorted(REGISTRY, key=lambda f: _ORDER[f.group]))


@dataclass(frozen=True, slots=True)
class EvidenceRow:
    key: str
    citation: str
    finding: str


@dataclass(frozen=True, slots=True)
class SettingRow:
    name: str
    value: str
    current: str
    current_is_default: bool
    change: str  # "raise" | "lower" | "keep" | "change" | ""
    change_label: str
    reason: str
    explanation: str
    evidence: tuple[EvidenceRow, ...]
    effect: str
    effect_why: str  # why there is no effect, when the result has estimates
    effect_bottleneck: str  # for a large effect, the bottleneck that gives way
    dynamic: bool
    apply_note: str = ""  # limits of applying it now on this version
    is_default: bool = False  # the version's own default
    written: bool = True  # in the my.cnf and SQL downloads


@dataclass(frozen=True, slots=True)
class OsRow:
    name: str
    value: str
    devices: str
    reason: str
    explanation: str
    evidence: tuple[EvidenceRow, ...]
    commands: str
    persist: str
    persist_path: str
    current: str


@dataclass(frozen=True, slots=True)
class Export:
    fmt: str
    label: str
    filename: str
    text: str  # empty when refused
    refused: str
    group: str = "server"  # server | os | deploy | data (rules.render.Format.group)
    revert_filename: str = ""  # its revert twin's name; empty without the current configuration
    refused_field: str = ""  # the input that would lift the refusal (OutputRefused.field)


@dataclass(frozen=True, slots=True)
class EstimatePanel:
    svg: SafeString
    text: str
    outside: bool  # some interval lies outside the calibration data


def short_citation(key: str) -> str:
    try:
        entry = source(key)
    except KeyError:
        return key
    year = (entry.date or "n.d.")[:4]
    return f"{entry.author} ({year}), “{entry.title}”"


def evidence_rows(evidence: tuple[Evidence, ...]) -> tuple[EvidenceRow, ...]:
    return tuple(EvidenceRow(e.source, short_citation(e.source), e.finding) for e in evidence)


def effect_text(effect: Effect | None) -> str:
    """Whole percents, signed; rounded before the sign is chosen, so a change smaller than
    half a percent either way reads +0%, never -0%."""
    if effect is None:
        return ""
    return f"{round(effect.low_pct):+d}% to {round(effect.high_pct):+d}% throughput"


def current_text(setting: Setting) -> str:
    """The current value, sizes in my.cnf spelling (134217728 reads as 128M)."""
    return bytes_text(setting.kind, setting.current or "")


@dataclass(frozen=True, slots=True)
class SettingGroup:
    slug: str  # "now" | "restart" | "unchanged"
    title: str
    hint: str
    rows: tuple[SettingRow, ...]


def setting_groups(result: Result) -> tuple[SettingGroup, ...]:
    """The settings in the SQL export's two parts, now and at the next restart, then the static
    ones the server already runs (in neither part: they need nothing)."""
    now, restart = apply_groups(result.settings, result.profile)
    rows = {row.name: row for row in setting_rows(result)}
    persist = uses_set_persist(result.profile.server)
    return (
        SettingGroup(
            "now",
            "Now, on the running server",
            "SET PERSIST applies and keeps these."
            if persist
            else "SET GLOBAL applies these; keep them in my.cnf for the next start.",
            tuple(rows[s.name] for s in now),
        ),
        SettingGroup(
            "restart",
            "At the next restart",
            "SET PERSIST_ONLY or my.cnf; they take effect when the server starts again."
            if persist
            else "Put these in my.cnf; they take effect when the server starts again.",
            tuple(rows[s.name] for s in restart),
        ),
        *_unchanged_group(result, now + restart, rows),
    )


def _unchanged_group(
    result: Result, grouped: tuple[Setting, ...], rows: Mapping[str, SettingRow]
) -> tuple[SettingGroup, ...]:
    """The static settings the server already runs: no restart, nothing to apply."""
    names = {s.name for s in grouped}
    left = tuple(rows[s.name] for s in result.settings if s.name not in names)
    if not left:
        return ()
    return (
        SettingGroup(
            "unchanged",
            "Already running",
            "The server runs these values today: nothing to apply, no restart.",
            left,
        ),
    )


def setting_rows(result: Result) -> tuple[SettingRow, ...]:
    return tuple(
        SettingRow(
            name=s.name,
            value=config_value(s),
            current=current_text(s),
            current_is_default=s.current_is_default,
            change=s.change.value if s.change else "",
            change_label=CHANGE_LABELS.get(s.change, "") if s.change else "",
            reason=s.reason,
            explanation=s.explanation,
            evidence=evidence_rows(s.evidence),
            effect=effect_text(s.effect),
            effect_why=s.effect_note or "",
            effect_bottleneck=s.effect.why if s.effect else "",
            dynamic=s.dynamic,
            apply_note=s.apply_note,
            is_default=s.is_default,
            written=s.written,
        )
        for s in result.settings
    )


def os_rows(result: Result) -> tuple[OsRow, ...]:
    return tuple(
        OsRow(
            name=item.name,
            value=item.value,
            devices=item.devices,
            reason=item.reason,
            explanation=item.explanation,
            evidence=evidence_rows(item.evidence),
            commands="\n".join(item.commands),
            persist=item.persist.rstrip("\n"),
            persist_path=item.persist_path,
            current=item.current or "",
        )
        for item in result.os
    )


def exports(result: Result, *, base_url: str) -> tuple[Export, ...]:
    """Every download, with its text for the copy blocks (not JSON); refused ones say why."""
    items = []
    revertible = can_revert(result)
    by_name = {f.name: f for f in REGISTRY}
    for fmt in SHOWN_ORDER:
        entry = by_name[fmt]
        text, refused, field = "", "", ""
        try:
            if fmt != "json":  # JSON is never refused, and a download only
                text = render(result, fmt, base_url=base_url)
        except OutputRefused as problem:
            refused, field = str(problem), problem.field
        twin = revert_filename_for(result, fmt) if revertible else ""
        filename = filename_for(result, fmt)
        items.append(Export(fmt, entry.label, filename, text, refused, entry.group, twin, field))
    assert {item.fmt for item in items} == set(FORMATS)
    return tuple(items)


def estimate_bars(estimates: Estimates | None, *, label: str = "Recommended") -> list[Bar]:
    if estimates is None:
        return []
    bars = [Bar(label, estimates.recommended, "recommended")]
    if estimates.current is not None:
        bars.insert(0, Bar("Current", estimates.current, "current"))
    return bars


def estimate_panel(bars: list[Bar], *, chart_id: str, title: str) -> EstimatePanel | None:
    if not bars:
        return None
    svg = interval_chart(bars, chart_id=chart_id, title=title)
    outside = any(not bar.estimate.in_domain for bar in bars)
    return EstimatePanel(svg, describe(bars), outside)


# Past this high/low ratio an interval gets a word on why it is wide.
WIDE_INTERVAL = 3.0
CPU_BOUND = BOTTLENECKS[0]  # an estimate's bottleneck when the CPU binds


def interval_meaning(
    estimates: Estimates | None,
    *,
    on_disks: bool = False,
    measured_cpu: MeasuredCpu | None = None,
) -> list[str]:
    """What the ranges mean, in a sentence each: the interval, why it is wide, the gain, and
    the measurements they rest on. `on_disks`: the storage is spinning disks, whose interval
    is that of published disks (calibration.interval.DISKS_GROUP); `measured_cpu`: the
    profile's hardware.measured_cpu. A gain names the changes it does not count
    (Estimate.excludes: their class the published pairs cannot bound). An estimate outside
    the published data says which of its inputs put it there (Estimate.outside); one cut to
    its device's ceiling says so (Estimate.capped)."""
    if estimates is None:
        return []
    rec = estimates.recommended
    lines = [
        "Each range is an 80% interval: calibrated so that 4 results in 5 of the reference "
        "benchmark on a machine like this fall inside it (the calibration page shows how "
        "often such ranges held for published machines the model had not seen)."
    ]
    width = rec.high / rec.low if rec.low > 0 else float("inf")
    if not rec.in_domain and rec.outside:
        wide = f" (high/low ×{width:.1f})" if width > WIDE_INTERVAL else ""
        lines.append(
            f"This machine lies outside the published measurements, so its ranges are "
            f"widened{wide}: {'; '.join(rec.outside)}."
        )
    elif width > WIDE_INTERVAL:
        if not rec.in_domain:  # a result stored before estimates said why
            why = "this machine lies outside the published measurements"
        elif on_disks:
            why = (
                "published results on spinning disks missed by more than flash's: a disk's "
                "rate hangs on what a profile does not say (how far its seeks travel over the "
                "data, how the controller reorders them)"
            )
        else:
            why = (
                "machines described alike still differ in what a profile does not say "
                "(the CPU model, exact drives, server build, client settings)"
            )
        lines.append(f"This one is wide (high/low ×{width:.1f}) because {why}.")
    for label, capped in (("recommended", rec), ("current", estimates.current)):
        if capped is not None and capped.capped:  # the device's ceiling cut it (issue #42)
            lines.append(f"The {label} range is {capped.capped}.")
    gain = estimates.gain
    if gain is not None:
        lines.append(gain_sentence(gain))
    if measured_cpu is not None:
        lines.append(
            f"The CPU's speed comes from the {measured_cpu.point_select_qps:g} point selects/s "
            f"you measured at {measured_cpu.threads:g} threads: the model is set to give "
            "exactly that rate for that run, instead of assuming a typical core of today."
        )
    elif rec.bottleneck == CPU_BOUND:
        lines.append(
            "The recommended estimate is bound by the CPU, which the model takes as a typical "
            "core of today: a slower or shared one (a cloud vCPU) can run well below it. "
            "Measuring it replaces that assumption: the point selects per second sysbench's "
            "oltp_point_select reaches on this server with its data cached, and at how many "
            "threads (Measured CPU on the hardware step; hardware.measured_cpu in the API)."
        )
    if estimates.measured is not None and gain is not None:
        lines.append(
            f"Anchored on the {estimates.measured:g} {rec.unit} you measured today: the "
            f"recommended range is that figure times the gain, {rec.low:g} to {rec.high:g}."
        )
    if estimates.anchor is not None and estimates.anchor.note:
        lines.append(estimates.anchor.note)
    return lines


def gain_sentence(gain: Estimate) -> str:
    """Recommended against current, and the changes it does not count with their published
    figures (Estimate.excludes): one interval, over the changes the evidence can bound."""
    said = f"Recommended against current: ×{gain.low:g} to ×{gain.high:g} (80%)"
    if not gain.excludes:
        return (
            f"{said}, a narrower question than either estimate, since what the model does not "
            "know of this machine cancels out of a ratio."
        )
    left = "; ".join(f"{e.setting} {e.change} ({e.why})" for e in gain.excludes)
    return f"{said}, not counting {left}."
