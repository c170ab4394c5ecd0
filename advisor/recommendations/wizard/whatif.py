"""What if: one hardware choice changed, both results side by side.

A variant is the stored result's validated inputs with one change, validated again by
`parse_profile`; a change that does not apply to the machine (a cache it already has, RAM beyond
the schema's maximum) is not offered. Both sides are computed with today's rules, so the
comparison shows what the hardware change does and nothing else.
"""

import copy
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from advisor.recommendations.wizard.chart import Bar, number
from advisor.recommendations.wizard.display import EstimatePanel, estimate_panel
from rules.inputs.echo import profile_from_echo
from rules.inputs.enums import Media, RaidLevel
from rules.inputs.errors import ProfileError
from rules.inputs.field_table import FIELDS_BY_PATH
from rules.inputs.profile import Profile, Storage
from rules.inputs.validation import parse_profile
from rules.output.result import Result
from rules.render.mycnf import config_value

ABSENT = "—"
MAX_RAM_GB = FIELDS_BY_PATH["hardware.ram_gb"].maximum or 0


@dataclass(frozen=True, slots=True)
class Variant:
    slug: str
    label: str  # the button: "Add a battery-backed cache"
    short: str  # the column heading: "With BBU cache"
    profile: Profile


@dataclass(frozen=True, slots=True)
class Difference:
    name: str
    before: str
    after: str


@dataclass(frozen=True, slots=True)
class Comparison:
    variant: Variant
    changed: tuple[Difference, ...]
    unchanged: int
    os_changed: tuple[Difference, ...]
    estimate: EstimatePanel | None
    estimate_text: str


Option = tuple[str, str, dict[str, Any]]  # button label, column heading, {path: new value}
_STORAGE = "hardware.storage."
VOID_MEASUREMENT = {_STORAGE + "measured_iops": None}  # fio figures of the old disks


def _bbu(storage: Storage, ram_gb: float) -> Option | None:
    if storage.has_protected_write_cache or storage.media is Media.NETWORK_SSD:
        return None  # already there, or a network volume: no RAID controller of ours
    changes = {**VOID_MEASUREMENT, _STORAGE + "controller_cache": "write_back_bbu"}
    return "Add a battery-backed cache", "With BBU cache", changes


def _raid10(storage: Storage, ram_gb: float) -> Option | None:
    level, count = storage.raid_level, storage.device_count
    if level in (RaidLevel.RAID10, RaidLevel.NONE) or count < 2:
        return None
    even = count + count % 2
    label = f"RAID10 instead of {level.value.upper()}" + (f" ({even} devices)" * (even != count))
    changes = {_STORAGE + "raid_level": "raid10", _STORAGE + "device_count": even}
    return label, "RAID10", {**VOID_MEASUREMENT, **changes}


def _ssd(storage: Storage, ram_gb: float) -> Option | None:
    if storage.media is not Media.HDD:
        return None
    changes = {_STORAGE + "media": "sata_ssd", _STORAGE + "rpm": None}
    return "SSD instead of HDD", "SATA SSD", {**VOID_MEASUREMENT, **changes}


def _ram(storage: Storage, ram_gb: float) -> Option | None:
    if not 0 < ram_gb * 2 <= MAX_RAM_GB:
        return None
    return (
        f"Twice the RAM ({number(ram_gb * 2)} GB)",
        "Twice the RAM",
        {"hardware.ram_gb": ram_gb * 2},
    )


OPTIONS: dict[str, Callable[[Storage, float], Option | None]] = {
    "bbu": _bbu,
    "raid10": _raid10,
    "ssd": _ssd,
    "ram": _ram,
}


def variants(result: Result) -> tuple[Variant, ...]:
    """The options that apply to the result's machine, each a profile validated again: its
    inputs as given (`profile_from_echo` of the profile's echo) with the option's changes."""
    hardware = result.profile.hardware
    offers = {slug: option(hardware.storage, hardware.ram_gb) for slug, option in OPTIONS.items()}
    if not any(offers.values()):
        return ()
    raw = profile_from_echo(result.profile.raw)
    found = []
    for slug, offer in offers.items():
        if offer is None:
            continue
        label, short, changes = offer
        changed = copy.deepcopy(raw)
        for path, value in changes.items():
            *parents, leaf = path.split(".")
            node = changed
            for part in parents:
                node = node[part]
            node[leaf] = value
        try:
            found.append(Variant(slug, label, short, parse_profile(changed)))
        except ProfileError:
            continue
    return tuple(found)


def compare(
    result: Result, slug: str, compute: Callable[..., Result]
) -> tuple[tuple[Variant, ...], Comparison | None]:
    """The variants on offer, and the comparison for `slug` (None when it is not one of them)."""
    offered = variants(result)
    chosen = next((v for v in offered if v.slug == slug), None)
    if chosen is None:
        return offered, None
    base = compute(profile=result.profile)
    other = compute(profile=chosen.profile)
    before = {s.name: config_value(s) for s in base.settings}
    after = {s.name: config_value(s) for s in other.settings}
    names = list(dict.fromkeys([*before, *after]))
    changed = tuple(
        Difference(n, before.get(n, ABSENT), after.get(n, ABSENT))
        for n in names
        if before.get(n) != after.get(n)
    )
    os_before = {i.name: i.value for i in base.os}
    os_after = {i.name: i.value for i in other.os}
    os_changed = tuple(
        Difference(n, os_before.get(n, ABSENT), os_after.get(n, ABSENT))
        for n in dict.fromkeys([*os_before, *os_after])
        if os_before.get(n) != os_after.get(n)
    )
    panel, text = _estimates(base, other, chosen)
    comparison = Comparison(chosen, changed, len(names) - len(changed), os_changed, panel, text)
    return offered, comparison


def _estimates(base: Result, other: Result, chosen: Variant) -> tuple[EstimatePanel | None, str]:
    if base.estimate is None or other.estimate is None:
        return None, ""
    one, two = base.estimate.recommended, other.estimate.recommended
    bars = [Bar("This machine", one, "recommended"), Bar(chosen.short, two, "variant")]
    title = f"Estimated throughput: this machine against {chosen.label}"
    panel = estimate_panel(bars, chart_id="whatif-chart", title=title)
    mid_one, mid_two = (one.low + one.high) / 2, (two.low + two.high) / 2
    if one.unit != two.unit or mid_one <= 0:
        return panel, ""
    ratio = mid_two / mid_one
    # rounded first: a tiny fall reads +0%, not -0%; from three times on, a ratio reads better
    change = f"{number(ratio)} times as much" if ratio >= 3 else f"{round((ratio - 1) * 100):+d}%"
    text = (
        f"The middle of the estimate moves from {number(mid_one)} to {number(mid_two)} "
        f"{two.unit} ({change})."
    )
    return panel, text
