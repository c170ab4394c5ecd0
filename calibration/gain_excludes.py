"""What a gain says of a change it does not fold in: the class's published pairs as figures.

A change whose class the held-out pairs cannot bound (calibration.gain_spread: `unpriced`) is
listed beside the gain, as a setting whose effect the model cannot price carries an effect_note:
the published ratios of the pairs that changed its class, their range and sources, read in the
direction of the recommended change where a pair moved the same setting (a pair from the
recommended value, or to the current one, is turned round), and why the model cannot bound it.
"""

from collections.abc import Mapping, Sequence
from typing import Any

from calibration.gain_spread import FEW_SOURCES, PRICED_MIN_SOURCES, GainSpread
from calibration.server_config import ConfigValue
from rules.output.result import GainExclusion

# A class of change as a reader reads it (calibration.gain_spread.CHANGE_CLASSES)
CLASS_WORDS = {
    "commit sync": "how commits sync (innodb_flush_log_at_trx_commit)",
    "other": "read-ahead or the IO scheduler",
    "flush method": "innodb_flush_method",
    "flushing": "page flushing",
    "pool": "the buffer pool",
}
# The Point field (calibration.points) a configuration setting's published pairs moved
SETTING_FIELD = {
    "innodb_flush_log_at_trx_commit": "trx_commit",
    "innodb_flush_method": "flush_method",
    "io_scheduler": "io_scheduler",
}


def gain_exclusion(
    spread: GainSpread, cls: str, setting: str, before: ConfigValue | None, after: ConfigValue
) -> GainExclusion:
    """The exclusion of one recommended change of unpriced class `cls` from `before` to
    `after`, with its class's published pairs and why they cannot bound it."""
    published = spread.published.get(cls, [])
    change = f"{_spelled(before)} -> {_spelled(after)}"
    sources = sorted({row["source"] for row in published})
    if spread.unpriced[cls] == FEW_SOURCES:
        cannot = (
            f"its pairs come from {len(sources)} source{'s' if len(sources) != 1 else ''}, "
            f"fewer than the {PRICED_MIN_SOURCES} the model needs to bound a change"
        )
    else:
        cannot = "held out, the model missed its pairs by more than a x4 gain allows"
    if not published:
        words = CLASS_WORDS.get(cls, cls)
        return GainExclusion(setting, change, f"no published pair changes {words}; {cannot}")
    ratios = _oriented(published, SETTING_FIELD.get(setting), _spelled(before), _spelled(after))
    low, high = min(ratios), max(ratios)
    span = f"x{_ratio(low)}" if low == high else f"x{_ratio(low)} to x{_ratio(high)}"
    return GainExclusion(
        setting,
        change,
        f"published pairs changing {CLASS_WORDS.get(cls, cls)}: {span} ({len(published)} pairs; "
        f"{', '.join(sources)}) on machines unlike this one; the model cannot bound it: "
        f"{cannot}",
    )


def _oriented(
    published: Sequence[Mapping[str, Any]], point_field: str | None, before: str, after: str
) -> list[float]:
    """Each pair's published ratio, turned round where it moved `point_field` the other way
    from the recommended change (from `after`, or to `before`)."""
    ratios = []
    for row in published:
        moved = row["moves"].get(point_field) if point_field else None
        turned = moved is not None and (moved[0] == after or moved[1] == before)
        ratios.append(1 / row["ratio"] if turned else row["ratio"])
    return ratios


def _ratio(value: float) -> str:
    """Two significant figures, without an exponent: 0.0094, 0.64, 4.4, 106."""
    return f"{value:.0f}" if value >= 10 else f"{value:.2g}"


def _spelled(value: ConfigValue | None) -> str:
    """A value as a pair records it: 2.0 as 2 (a Point's trx_commit is an int)."""
    if value is None:
        return "default"
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    return str(value)


def unbounded_note(exclusion: GainExclusion) -> str:
    """A setting's effect_note when its change is one the gain does not count: the same
    published figures, so that neither the effect nor the gain states a number the pairs
    cannot bound."""
    return f"not estimated, and not counted in the gain: {exclusion.why}"
