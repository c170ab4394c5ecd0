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
over the priced pairs. A class whose pairs come from fewer than OWN_RATIO_MIN_SOURCES sources
may widen what it would fall back on, never narrow it. Outside the data's range, widened by a
factor measured on the priced pairs outside, as calibration.interval does.

A class the held-out pairs cannot bound is unpriced (`GainSpread.unpriced`): its pairs come from
fewer than PRICED_MIN_SOURCES sources, or its change alone would take an 80% half-width beyond
MAX_PRICED_HALF_WIDTH. A gain never folds such a change in: the estimator states the gain over
the other changes and lists it apart, with the class's published pair ratios
(`GainSpread.published`) as figures, as a setting whose effect the model cannot price carries an
effect_note (calibration.gain_excludes). Its pairs fit neither the scale nor the widening.

Fitted on the pairs' errors held out by lab (calibration.labs), 535 pairs of 5 labs (calibration
20261129.034223, 369 points): slope 0.027 a log of predicted change, intercepts 0.14 (flushing),
0.25 (flush method, 12 pairs of 5 sources) and 0.78 (commit sync, 4 pairs of 2 sources: unpriced);
a predicted change near zero still carries most of the spread, as the data shows (bp_gb pairs
under x1.05: median miss 0.05; flushing pairs: 0.05, 80% under 0.26)."""

import math
from collections.abc import Callable, Collection, Mapping, Sequence
from dataclasses import dataclass, field, replace
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
PLAIN_GROUP = "plain"  # the conformal scale's key (one scale, over the priced pairs)
# A class is priced from this many sources of pairs that change it: two sources' pairs (the
# commit ones: one post's x0.64 and x0.69, one bug report's x4.4 and x106) say nothing of a
# third machine's (advisor-engineering-judgement, as calibration.interval's own groups).
PRICED_MIN_SOURCES = OWN_RATIO_MIN_SOURCES
# Nor is a class priced whose change alone takes an 80% half-width beyond this (log): a gain
# wider than x4 tells a DBA nothing to act on (issue #42: no gain wider than x4).
MAX_PRICED_HALF_WIDTH = math.log(4) / 2
FEW_SOURCES, TOO_WIDE = "few sources", "too wide"  # why a class is unpriced
# No spread below this (log): a class whose pairs all hit their ratio still gets an interval.
MIN_INTERCEPT = 0.03  # x1.06 either way (advisor-engineering-judgement)


NO_CLASS = ""  # sync_binlog without a binary log: it syncs nothing, no class to price


def setting_class(name: str, *, binlog: bool) -> str:
    """The class of a configuration setting's change (NO_CLASS: none the gain need price)."""
    if name == "sync_binlog":
        return COMMIT if binlog else NO_CLASS
    return SETTING_CLASS.get(name, OTHER)


@dataclass(frozen=True, slots=True)
class PairChange:
    """One pair as the spread model sees it: its held-out error and what it changed."""

    error: float  # published - estimated log ratio
    changes: dict[str, float]  # class -> that class's change alone, predicted log ratio
    same_bottleneck: bool
    source: str
    outside: bool  # either point outside the other sources' (or labs') range
    published: float = 0.0  # the published log ratio, second over first
    # Point field -> (first's value, second's value), for each field the pair changes
    moves: dict[str, tuple[str, str]] = field(default_factory=dict)

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
                published=pair.published_log_ratio,
                moves={f: (str(getattr(a, f)), str(getattr(b, f))) for f in pair.changed},
            )
        )
    return changes


@dataclass(frozen=True, slots=True)
class GainSpread:
    slope: float
    intercepts: dict[str, float]  # "pooled", a class, "class|regime"
    scales: dict[str, float]  # PLAIN_GROUP: the conformal quantile of error/spread
    out_of_domain_widening: float
    unpriced: dict[str, str] = field(default_factory=dict)  # class -> why (FEW_SOURCES, ...)
    # unpriced class -> its pairs as published: {"moves": {field: [from, to]}, "ratio", "source"}
    published: dict[str, list[dict[str, Any]]] = field(default_factory=dict)

    def half_width(
        self, changes: Mapping[str, float], *, same_bottleneck: bool, inside: bool
    ) -> float:
        """The 80% half-width in log of a gain whose priced classes change by `changes` (log).
        An unpriced class has no half-width: the caller leaves its change out of the gain."""
        left = self.unpriced.keys() & changes.keys()
        if left:
            raise ValueError(f"unpriced classes have no gain interval: {sorted(left)}")
        return self._half(changes, same_bottleneck=same_bottleneck, inside=inside)

    def _half(self, changes: Mapping[str, float], *, same_bottleneck: bool, inside: bool) -> float:
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
        half = spread * self.scales[PLAIN_GROUP]
        return half if inside else half * self.out_of_domain_widening

    def prices(self, pair: PairChange) -> bool:
        """Does a gain over this pair's change fold every class it changes in?"""
        return self.unpriced.keys().isdisjoint(pair.changes)

    def to_json(self) -> dict[str, Any]:
        return {
            "slope": self.slope,
            "intercepts": self.intercepts,
            "scales": self.scales,
            "out_of_domain_widening": self.out_of_domain_widening,
            "unpriced": self.unpriced,
            "published": self.published,
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> "GainSpread":
        if "unpriced" not in data:
            raise ValueError(
                "calibration artifact's gain spread is from before unpriced classes: "
                "run `manage.py calibrate`"
            )
        return cls(
            float(data["slope"]),
            dict(data["intercepts"]),
            dict(data["scales"]),
            float(data["out_of_domain_widening"]),
            dict(data["unpriced"]),
            {k: list(v) for k, v in data["published"].items()},
        )


def _half_of(spread: GainSpread, pair: PairChange, *, inside: bool) -> float:
    return spread.half_width(pair.changes, same_bottleneck=pair.same_bottleneck, inside=inside)


def gain_spread(
    pairs: Sequence[PairChange], *, unpriced: Mapping[str, str] | None = None
) -> GainSpread:
    """The spread model from held-out pair errors: the slope and the pooled intercept by
    weighted least squares of |error| on |predicted change| over the pairs inside the data's
    range; each class's intercept (and each class's within a regime) from the pairs changing
    that class alone; the classes it cannot price (fewer than PRICED_MIN_SOURCES sources of
    pairs inside, or a half-width beyond MAX_PRICED_HALF_WIDTH), unless `unpriced` says which
    (held-out scoring keeps the whole data's: which classes a gain prices is known before the
    result, as an interval's group is); then the scale and the widening outside from the
    priced pairs alone."""
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
    few = unpriced or {
        cls: FEW_SOURCES
        for cls in CHANGE_CLASSES
        if len({p.source for p in inside if cls in p.changes}) < PRICED_MIN_SOURCES
    }
    scaled = _scaled(GainSpread(slope, intercepts, {PLAIN_GROUP: 1.0}, 1.0, dict(few)), inside)
    wide = {
        cls: TOO_WIDE
        for cls in CHANGE_CLASSES
        if cls not in few
        and intercepts.get(cls, pooled) * scaled.scales[PLAIN_GROUP] > MAX_PRICED_HALF_WIDTH
    }
    if wide and unpriced is None:
        scaled = _scaled(replace(scaled, unpriced={**few, **wide}), inside)
    outer = [p for p in pairs if p.outside and scaled.prices(p)]
    misses = np.array([abs(p.error) / _half_of(scaled, p, inside=True) for p in outer])
    widening = out_of_domain_widening(misses, [p.source for p in outer], INTERVAL)
    published = {cls: _published(pairs, cls) for cls in scaled.unpriced}
    return replace(scaled, out_of_domain_widening=widening, published=published)


def _scaled(spread: GainSpread, inside: Sequence[PairChange]) -> GainSpread:
    """`spread` with the scale its priced pairs inside give (normalised split conformal)."""
    priced = [p for p in inside if spread.prices(p)]
    unscaled = replace(spread, scales={PLAIN_GROUP: 1.0})
    scores = np.array([abs(p.error) / _half_of(unscaled, p, inside=True) for p in priced])
    return replace(spread, scales={PLAIN_GROUP: _quantile(scores, [p.source for p in priced])})


def _published(pairs: Sequence[PairChange], cls: str) -> list[dict[str, Any]]:
    """The pairs that change `cls` as published: what the class's fields moved from and to,
    the published ratio and the source, smallest ratio first."""
    rows = [
        {
            "moves": {f: list(v) for f, v in p.moves.items() if FIELD_CLASS.get(f) == cls},
            "ratio": round(math.exp(p.published), 3),
            "source": p.source,
        }
        for p in pairs
        if cls in p.changes
    ]
    return sorted(rows, key=lambda row: (row["ratio"], row["source"]))


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
    covered: np.ndarray  # per scored pair; an unpriced pair counts as not covered
    widths: np.ndarray  # high / low of its interval (1 for an unpriced pair)
    priced: np.ndarray  # the spread fitted without the pair's unit prices every class it changes


def held_out_spread_coverage(
    scored: Sequence[PairChange],
    fitted: Sequence[PairChange],
    units: Collection[str],
    unpriced: Mapping[str, str],
) -> SpreadCoverage:
    """Each unit's `scored` pairs (a source's, or a lab's) against the spread model fitted on
    the other units' `fitted` pairs alone, with the classes `unpriced` (the whole data's
    GainSpread.unpriced) left unpriced; `units` goes by pair, both lists in one order. A pair
    changing an unpriced class gets no interval (a gain would not fold its change in):
    `priced` says which pairs got one."""
    unit_of = np.array(list(units))
    covered = np.zeros(len(scored), dtype=bool)
    priced = np.zeros(len(scored), dtype=bool)
    widths = np.ones(len(scored))
    for unit in dict.fromkeys(unit_of.tolist()):
        others = [p for p, u in zip(fitted, unit_of, strict=True) if u != unit]
        spread = gain_spread(others, unpriced=unpriced)
        for i in np.flatnonzero(unit_of == unit).tolist():
            if not spread.prices(scored[i]):
                continue
            half = _half_of(spread, scored[i], inside=not scored[i].outside)
            priced[i] = True
            covered[i] = abs(scored[i].error) <= half
            widths[i] = math.exp(2 * half)
    return SpreadCoverage(covered, widths, priced)
