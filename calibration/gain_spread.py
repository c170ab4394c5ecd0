"""The gain interval's width for the change at hand: a spread model of held-out pair errors.

How far a held-out ratio of two configurations of one machine sits from the published one
(calibration.pairs) depends on what changed and on how large the model says the change is. Each
changed setting belongs to a class (CHANGE_CLASSES: the pool, page flushing, the flush method,
how commits sync, the rest); each class's change alone, predicted by the fit that never saw the
pair's lab, has a spread `intercept + SLOPE * |its predicted log change|` in log, its intercept
per class and bottleneck regime (the binding capacity the same before and after, or moved), the
slope shared (fitted on every pair: per class, a handful of pairs spanning a few hundredths of a
log gave slopes of 100 and more). Several changes combine in log space: their spreads' squares
add. The 80% half-width is that spread times the share INTERVAL of the held-out errors measured
in spreads (normalised split conformal, weighted by source as calibration.interval weighs them),
per group: changes to how commits sync apart from the rest, as the pairs that made one miss by
far more. A class (or group) whose pairs come from fewer than OWN_RATIO_MIN_SOURCES sources may
widen what it would fall back on, never narrow it. Outside the data's range, widened by a factor
measured on the pairs outside, as calibration.interval does.

Fitted on the pairs' errors held out by lab (calibration.labs), 535 pairs of 5 labs (calibration
20261129.034223, 369 points): slope 0.027 a log of predicted change, intercepts 0.14 (flushing),
0.25 (flush method, 12 pairs of 5 sources) and 0.78 (commit sync, 4 pairs of 2 sources); a
predicted change near zero still carries most of the spread, as the data shows (bp_gb pairs
under x1.05: median miss 0.05; flushing pairs: 0.05, 80% under 0.26)."""

import math
from collections.abc import Callable, Collection, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

import numpy as np

from calibration.features import as_arrays, situation_of_point
from calibration.interval import (
    INTERVAL,
    OWN_RATIO_MIN_SOURCES,
    _weighted_quantiles,
    interval_weights,
    out_of_domain_widening,
)
from calibration.model import predict_with_bottleneck
from calibration.pairs import Pair
from calibration.points import Point

# The log's sync path is two classes: how commits sync (innodb_flush_log_at_trx_commit,
# sync_binlog) and how files are opened and synced (innodb_flush_method). Held out by lab
# (calibration 20261129.032611) the commit pairs missed by a median 0.89 in log and the flush
# method's by 0.19: one class gave every flush-method change the commit pairs' spread (x33 and
# wider at 80%), so a pasted my.cnf with another flush method got a gain x25 to x68 wide.
POOL, FLUSHING, FLUSH_METHOD, COMMIT, OTHER = (
    "pool",
    "flushing",
    "flush method",
    "commit sync",
    "other",
)
CHANGE_CLASSES = (POOL, FLUSHING, FLUSH_METHOD, COMMIT, OTHER)
# Point fields (calibration.pairs._SETTINGS) by class
FIELD_CLASS = {
    "bp_gb": POOL,
    "trx_commit": COMMIT,
    "flush_method": FLUSH_METHOD,
    "io_capacity": FLUSHING,
    "io_capacity_max": FLUSHING,
    "log_mb": FLUSHING,
    "max_dirty_pct": FLUSHING,
    "doublewrite": FLUSHING,
    "flush_neighbors": FLUSHING,
    "read_ahead": OTHER,
    "io_scheduler": OTHER,
    "access": OTHER,
    "change_buffer": OTHER,
}
# Configuration settings (calibration.features.MODELLED_SETTINGS) by class; sync_binlog syncs
# commits only where the binary log is written (setting_class).
SETTING_CLASS = {
    "innodb_buffer_pool_size": POOL,
    "innodb_flush_log_at_trx_commit": COMMIT,
    "innodb_flush_method": FLUSH_METHOD,
    "innodb_io_capacity": FLUSHING,
    "innodb_io_capacity_max": FLUSHING,
    "innodb_redo_log_capacity": FLUSHING,
    "innodb_log_file_size": FLUSHING,
    "innodb_log_files_in_group": FLUSHING,
    "innodb_max_dirty_pages_pct": FLUSHING,
    "innodb_doublewrite": FLUSHING,
    "innodb_flush_neighbors": FLUSHING,
}
SAME, MOVED = "same bottleneck", "bottleneck moves"
PLAIN_GROUP, COMMIT_GROUP = "plain", "commit sync"  # the conformal scale's groups
# No spread below this (log): a class whose pairs all hit their ratio still gets an interval.
MIN_INTERCEPT = 0.03  # x1.06 either way (advisor-engineering-judgement)


def setting_class(name: str, *, binlog: bool) -> str:
    """The class of a configuration setting's change."""
    if name == "sync_binlog":
        return COMMIT if binlog else OTHER
    return SETTING_CLASS.get(name, OTHER)


@dataclass(frozen=True, slots=True)
class PairChange:
    """One pair as the spread model sees it: its held-out error and what it changed."""

    error: float  # published - estimated log ratio
    changes: dict[str, float]  # class -> that class's change alone, predicted log ratio
    same_bottleneck: bool
    source: str
    outside: bool  # either point outside the other sources' (or labs') range

    @property
    def kind_of_change(self) -> str:
        return "+".join(c for c in CHANGE_CLASSES if c in self.changes)

    @property
    def estimated(self) -> float:
        return sum(self.changes.values())


def pair_changes(
    pairs: Sequence[Pair],
    points: Sequence[Point],
    params_for: Callable[[Point], np.ndarray],
    outside: np.ndarray,
) -> list[PairChange]:
    """Each pair with each class of its change predicted alone (its first point with that
    class's fields taken from the second) and its regime, under `params_for` its first point
    (the fit that never saw its source, or its lab)."""
    index = {p.id: i for i, p in enumerate(points)}
    changes = []
    for pair in pairs:
        a, b = points[index[pair.first]], points[index[pair.second]]
        classes = sorted({FIELD_CLASS[f] for f in pair.changed})
        situations = [situation_of_point(a), situation_of_point(b)]
        for cls in classes:
            moved = {f: getattr(b, f) for f in pair.changed if FIELD_CLASS[f] == cls}
            situations.append(situation_of_point(replace(a, **moved)))
        logs, binding = predict_with_bottleneck(params_for(a), as_arrays(situations))
        changes.append(
            PairChange(
                error=pair.published_log_ratio - pair.estimated_log_ratio,
                changes={c: float(logs[2 + k] - logs[0]) for k, c in enumerate(classes)},
                same_bottleneck=binding[0] == binding[1],
                source=pair.source,
                outside=bool(outside[index[pair.first]] or outside[index[pair.second]]),
            )
        )
    return changes


@dataclass(frozen=True, slots=True)
class GainSpread:
    slope: float
    intercepts: dict[str, float]  # "pooled", a class, "class|regime"
    scales: dict[str, float]  # PLAIN_GROUP, COMMIT_GROUP: the conformal quantile of error/spread
    out_of_domain_widening: float

    def half_width(
        self, changes: Mapping[str, float], *, same_bottleneck: bool, inside: bool
    ) -> float:
        """The 80% half-width in log of a gain whose classes change by `changes` (log)."""
        regime = SAME if same_bottleneck else MOVED
        squares = 0.0
        for cls, change in changes.items():
            intercept = (
                self.intercepts.get(f"{cls}|{regime}")
                or self.intercepts.get(cls)
                or self.intercepts["pooled"]
            )
            squares += (intercept + self.slope * abs(change)) ** 2
        spread = math.sqrt(squares) if changes else self.intercepts["pooled"]
        group = COMMIT_GROUP if COMMIT in changes else PLAIN_GROUP
        half = spread * self.scales.get(group, self.scales[PLAIN_GROUP])
        return half if inside else half * self.out_of_domain_widening

    def to_json(self) -> dict[str, Any]:
        return {
            "slope": self.slope,
            "intercepts": self.intercepts,
            "scales": self.scales,
            "out_of_domain_widening": self.out_of_domain_widening,
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> "GainSpread":
        return cls(
            float(data["slope"]),
            dict(data["intercepts"]),
            dict(data["scales"]),
            float(data["out_of_domain_widening"]),
        )


def _half_of(spread: GainSpread, pair: PairChange, *, inside: bool) -> float:
    return spread.half_width(pair.changes, same_bottleneck=pair.same_bottleneck, inside=inside)


def gain_spread(pairs: Sequence[PairChange]) -> GainSpread:
    """The spread model from held-out pair errors: the slope and the pooled intercept by
    weighted least squares of |error| on |predicted change| over the pairs inside the data's
    range; each class's intercept (and each class's within a regime) from the pairs changing
    that class alone, where OWN_RATIO_MIN_SOURCES sources have them; then the scales and the
    widening outside."""
    inside = [p for p in pairs if not p.outside]
    weights = interval_weights([p.source for p in inside])
    size = np.abs([p.estimated for p in inside])
    miss = np.abs([p.error for p in inside])
    pooled, slope = _line(size, miss, weights)
    intercepts = {"pooled": pooled}
    for cls in CHANGE_CLASSES:
        alone = [i for i, p in enumerate(inside) if p.kind_of_change == cls]
        for key, members in (
            (cls, alone),
            (f"{cls}|{SAME}", [i for i in alone if inside[i].same_bottleneck]),
            (f"{cls}|{MOVED}", [i for i in alone if not inside[i].same_bottleneck]),
        ):
            if not members:
                continue
            excess = np.maximum(miss[members] - slope * size[members], 0.0)
            own = max(float(np.average(excess, weights=weights[members])), MIN_INTERCEPT)
            # Pairs from fewer than OWN_RATIO_MIN_SOURCES sources may widen what their class
            # would fall back on, never narrow it (as calibration.interval treats a group).
            if len({inside[i].source for i in members}) < OWN_RATIO_MIN_SOURCES:
                own = max(own, intercepts.get(cls, pooled))
            intercepts[key] = own
    unscaled = GainSpread(slope, intercepts, {PLAIN_GROUP: 1.0}, 1.0)
    scores = np.array([abs(p.error) / _half_of(unscaled, p, inside=True) for p in inside])
    scales = {PLAIN_GROUP: _quantile(scores, [p.source for p in inside])}
    committing = np.array([COMMIT in p.changes for p in inside], dtype=bool)
    if committing.any():
        # The commit changes' own scale, never below the rest's (few sources may widen it).
        sources = np.array([p.source for p in inside])
        scales[PLAIN_GROUP] = _quantile(scores[~committing], sources[~committing].tolist())
        own = _quantile(scores[committing], sources[committing].tolist())
        scales[COMMIT_GROUP] = max(own, scales[PLAIN_GROUP])
    scaled = GainSpread(slope, intercepts, scales, 1.0)
    outer = [p for p in pairs if p.outside]
    misses = np.array([abs(p.error) / _half_of(scaled, p, inside=True) for p in outer])
    widening = out_of_domain_widening(misses, [p.source for p in outer], INTERVAL)
    return replace(scaled, out_of_domain_widening=widening)


def _line(size: np.ndarray, miss: np.ndarray, weights: np.ndarray) -> tuple[float, float]:
    """Weighted least squares miss = intercept + slope * size, neither below its floor."""
    if not len(size):
        return 0.405, 0.0  # no pairs: x1.5 either way (advisor-engineering-judgement)
    root = np.sqrt(weights)
    design = np.column_stack([np.ones_like(size), size]) * root[:, None]
    (intercept, slope), *_ = np.linalg.lstsq(design, miss * root, rcond=None)
    return max(float(intercept), MIN_INTERCEPT), max(float(slope), 0.0)


def _quantile(scores: np.ndarray, sources: Sequence[str]) -> float:
    (value,) = _weighted_quantiles(scores, interval_weights(list(sources)), (INTERVAL,))
    return value


@dataclass(frozen=True, slots=True)
class SpreadCoverage:
    covered: np.ndarray  # per scored pair
    widths: np.ndarray  # high / low of its interval


def held_out_spread_coverage(
    scored: Sequence[PairChange], fitted: Sequence[PairChange], units: Collection[str]
) -> SpreadCoverage:
    """Each unit's `scored` pairs (a source's, or a lab's) against the spread model fitted on
    the other units' `fitted` pairs alone; `units` goes by pair, both lists in one order."""
    unit_of = np.array(list(units))
    covered = np.zeros(len(scored), dtype=bool)
    widths = np.ones(len(scored))
    for unit in dict.fromkeys(unit_of.tolist()):
        spread = gain_spread([p for p, u in zip(fitted, unit_of, strict=True) if u != unit])
        for i in np.flatnonzero(unit_of == unit).tolist():
            half = _half_of(spread, scored[i], inside=not scored[i].outside)
            covered[i] = abs(scored[i].error) <= half
            widths[i] = math.exp(2 * half)
    return SpreadCoverage(covered, widths)
