"""One calibration run: fit, leave-one-source-out scoring, intervals, and the report (with
leave-one-lab-out scoring beside it: calibration.labs)."""

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from calibration.domain import outside_other_sources, ranges_of
from calibration.features import Corrections, as_arrays, situation_of_point
from calibration.fit import RIDGE, Fit, fit_points
from calibration.gain_spread import (
    GainSpread,
    PairChange,
    SpreadCoverage,
    gain_spread,
    held_out_spread_coverage,
    pair_changes,
)
from calibration.interval import (
    INTERVAL,
    LEVEL_STEP,
    MAX_LEVEL,
    OUT_OF_DOMAIN_WIDENING,
    bounds_by_group,
    bounds_for,
    interval_group,
    out_of_domain_widening,
)
from calibration.kind_cpu_cost import (
    anchored_units,
    kind_cost_offsets,
    misses_by_source,
    priced_loads,
)
from calibration.labs import lab_of
from calibration.model import LAYOUT, predict_log, predict_with_bottleneck
from calibration.pairs import Pair, pair_summary, setting_pairs
from calibration.points import Point, used_points
from calibration.submissions import FioSample, device_corrections


@dataclass(frozen=True, slots=True)
class Calibration:
    version: str
    params: list[float]
    loso_params: dict[str, list[float]]
    # interval group (a bottleneck, or "pooled") -> (low, high) log offsets
    bounds: dict[str, tuple[float, float]]
    domain: dict[str, dict[str, tuple[float, float]]]  # kind -> column -> (min, max)
    report: dict[str, Any]
    device_corrections: dict[str, float] = field(default_factory=dict)
    # how many times wider an interval is outside the data's range (calibration.interval)
    out_of_domain_widening: float = OUT_OF_DOMAIN_WIDENING
    # kind -> what to add to f_k for a machine that measured its point selects
    # (calibration.kind_cpu_cost)
    cpu_cost_offsets: dict[str, float] = field(default_factory=dict)
    # kind -> (lowest, highest) clients per core of the runs that set its offset: where a
    # measured machine's price of the kind was seen (calibration.kind_cpu_cost.priced_loads)
    cpu_cost_loads: dict[str, tuple[float, float]] = field(default_factory=dict)
    # the gain interval's spread model (calibration.gain_spread), fitted on pair errors held
    # out by lab; None in an artifact from before it, which the estimator refuses
    gain_spread: GainSpread | None = None

    def to_json(self) -> dict[str, Any]:
        return {
            "version": self.version,
            "params": self.params,
            "loso_params": self.loso_params,
            "bounds": {k: list(v) for k, v in self.bounds.items()},
            "domain": {
                kind: {c: list(r) for c, r in cols.items()} for kind, cols in self.domain.items()
            },
            "report": self.report,
            "device_corrections": self.device_corrections,
            "out_of_domain_widening": self.out_of_domain_widening,
            "cpu_cost_offsets": self.cpu_cost_offsets,
            "cpu_cost_loads": {k: list(v) for k, v in self.cpu_cost_loads.items()},
            "layout": list(LAYOUT.names),
            "gain_spread": self.gain_spread.to_json() if self.gain_spread else None,
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> "Calibration":
        if data.get("layout") != list(LAYOUT.names):
            raise ValueError("calibration artifact was fitted with another model layout")
        return cls(
            version=data["version"],
            params=data["params"],
            loso_params=data["loso_params"],
            bounds={k: (v[0], v[1]) for k, v in data["bounds"].items()},
            domain={
                kind: {c: (r[0], r[1]) for c, r in cols.items()}
                for kind, cols in data["domain"].items()
            },
            report=data["report"],
            device_corrections=data.get("device_corrections", {}),
            out_of_domain_widening=data.get("out_of_domain_widening", OUT_OF_DOMAIN_WIDENING),
            cpu_cost_offsets=data.get("cpu_cost_offsets", {}),
            cpu_cost_loads={k: (v[0], v[1]) for k, v in data.get("cpu_cost_loads", {}).items()},
            gain_spread=GainSpread.from_json(data["gain_spread"])
            if data.get("gain_spread")
            else None,
        )


def run_calibration(
    points: Sequence[Point], *, version: str, fio_samples: Sequence[FioSample] = ()
) -> Calibration:
    """Fit on the used points; approved fio samples first correct the device model."""
    corrections = device_corrections(fio_samples)
    used = used_points(points)
    fit = fit_points(used, corrections)
    bottlenecks = held_out_bottlenecks(fit, used, corrections)
    groups = [
        interval_group(b, p.kind, disks=p.media == "hdd")
        for b, p in zip(bottlenecks, used, strict=True)
    ]
    x = as_arrays([situation_of_point(p, corrections) for p in used])
    outside = outside_other_sources(x, list(fit.sources), [p.kind for p in used])
    level, held_out = conformal_level(fit, groups, outside)
    covered, lows, highs = held_out.covered, held_out.lows, held_out.highs
    sources, inside = np.array(fit.sources), ~outside
    bounds = bounds_by_group(
        fit.residuals[inside],
        np.array(groups)[inside].tolist(),
        sources[inside].tolist(),
        level,
    )
    widening = out_of_domain_widening(held_out.misses[outside], sources[outside].tolist(), level)
    widths = np.exp(highs - lows)
    pairs = setting_pairs(used, list(fit.predicted))
    lab_changes = _lab_changes(fit, used, outside)
    spread = gain_spread(lab_changes)
    anchored = anchored_units(used, x, fit.params)
    cpu_misses = misses_by_source(anchored)
    cpu_offsets = kind_cost_offsets(cpu_misses)
    cpu_loads = priced_loads(anchored, cpu_offsets)
    report = {
        "version": version,
        "points": len(used),
        "sources": len(set(fit.sources)),
        "excluded": [
            {
                "id": p.id,
                "source": p.source,
                "kind": p.kind,
                "unit": p.unit,
                "value": p.value,
                "reason": p.excluded,
            }
            for p in points
            if not p.used
        ],
        "interval": INTERVAL,
        "conformal_level": level,
        "coverage": round(float(np.mean(covered)), 3),
        "median_width_ratio": round(float(np.median(widths)), 2),
        "median_abs_log_error": round(float(np.median(np.abs(fit.residuals))), 3),
        "ridge": RIDGE,
        "bounds": {k: [round(v[0], 3), round(v[1], 3)] for k, v in bounds.items()},
        "out_of_domain_widening": round(widening, 3),
        "pairs": {
            **pair_summary(pairs),
            "spread": spread.to_json(),
            "out_of_domain_widening": round(spread.out_of_domain_widening, 3),
            "unpriced": spread.unpriced,
        },
        "measured_cpu_cost": {
            kind: {
                "sources": len(by_source),
                "offset": round(cpu_offsets[kind], 3) if kind in cpu_offsets else None,
                "clients_per_core": (
                    [round(v, 3) for v in cpu_loads[kind]] if kind in cpu_loads else None
                ),
            }
            for kind, by_source in cpu_misses.items()
        },
        "held_out": _held_out_report(
            fit,
            used,
            corrections,
            x,
            groups,
            level,
            (covered, widths),
            pairs,
            outside,
            (lab_changes, spread.unpriced),
        ),
        "by_group": _by_group(used, fit, covered, widths, bottlenecks, outside),
        "per_source": _per_source(fit, covered),
        "table": _table(used, fit, lows, highs, covered, corrections),
        "params": dict(zip(LAYOUT.names, (round(float(v), 4) for v in fit.params), strict=True)),
    }
    return Calibration(
        version=version,
        params=[float(v) for v in fit.params],
        loso_params={s: [float(v) for v in p] for s, p in fit.loso_params.items()},
        device_corrections=corrections,
        out_of_domain_widening=widening,
        cpu_cost_offsets=cpu_offsets,
        cpu_cost_loads=cpu_loads,
        gain_spread=spread,
        bounds=bounds,
        domain=_domain(used, x),
        report=report,
    )


def _lab_changes(fit: Fit, points: Sequence[Point], outside: np.ndarray) -> list[PairChange]:
    """The pairs with their ratios and each class's change predicted by the fit without
    their lab, outside meaning outside the other sources' range (as the estimator's inside
    is inside the whole data's): what the spread is fitted on. Outside the other labs' range
    instead left the pool's pairs inside from fewer than 3 sources, and the interval of a
    held-out lab's pool change x4.1 wide where this gives x2.0 (calibration 171831)."""
    pairs = setting_pairs(points, list(fit.lab_predicted))
    return pair_changes(pairs, points, lambda p: fit.lab_params[lab_of(p.source)], outside)


def held_out_bottlenecks(fit: Fit, points: Sequence[Point], corrections: Corrections) -> list[str]:
    """Each point's binding capacity under the fit that never saw its source: the interval's
    group, found as a new machine's would be, by a model that has not seen it."""
    return _bottlenecks(fit.loso_params, fit.sources, points, corrections)


def _bottlenecks(
    refits: Mapping[str, np.ndarray],
    units: Sequence[str],
    points: Sequence[Point],
    corrections: Corrections,
) -> list[str]:
    """Each point's binding capacity under the refit without its unit (source or lab)."""
    unit_of = np.array(units)
    x = [situation_of_point(p, corrections) for p in points]
    names = [""] * len(points)
    for unit, params in refits.items():
        held = np.flatnonzero(unit_of == unit)
        binding = predict_with_bottleneck(params, as_arrays([x[i] for i in held]))[1]
        for i, name in zip(held.tolist(), binding, strict=True):
            names[i] = name
    return names


@dataclass(frozen=True, slots=True)
class HeldOut:
    """Each point scored against an interval built without its source."""

    covered: np.ndarray
    lows: np.ndarray  # log offsets from the held-out estimate
    highs: np.ndarray
    misses: np.ndarray  # |residual| in half-widths of the point's interval before any widening


def conformal_level(fit: Fit, groups: list[str], outside: np.ndarray) -> tuple[float, HeldOut]:
    """The lowest level from INTERVAL up, in LEVEL_STEPs, whose held-out coverage reaches
    INTERVAL (calibration.interval explains why the nominal level covers a little less), with
    its held-out scoring (held_out_coverage's, by source)."""
    level = INTERVAL
    scored = _loso_coverage(fit, groups, outside, level)
    while level < MAX_LEVEL and np.mean(scored.covered) < INTERVAL:
        level = round(level + LEVEL_STEP, 2)
        scored = _loso_coverage(fit, groups, outside, level)
    return level, scored


def _loso_coverage(fit: Fit, groups: list[str], outside: np.ndarray, level: float) -> HeldOut:
    return held_out_coverage(
        fit.residuals, fit.residuals, fit.sources, fit.sources, groups, outside, level
    )


def held_out_coverage(
    scored: np.ndarray,
    residuals: np.ndarray,
    units: Sequence[str],
    sources: Sequence[str],
    groups: list[str],
    outside: np.ndarray,
    level: float,
    scored_groups: list[str] | None = None,
) -> HeldOut:
    """Each unit (a source, or a lab: calibration.labs) scored against intervals built from the
    other units' `residuals` only: those of their points inside the rest's range, as an
    estimate inside the data's range gets an interval from estimates made inside; where a
    point lies outside the other units' range, widened as the estimator widens a new
    machine's outside the data's, by a factor measured on the other units' points outside
    alone. The unit's own `scored` residuals are scored: by source, the residuals themselves;
    by lab, each point's miss by the fit without its lab, against the interval the
    calibration's own residuals give (the interval a machine of a new lab would get), in the
    interval group its binding capacity under that fit gives it (`scored_groups`)."""
    own_groups = groups if scored_groups is None else scored_groups
    unit_of, names, by_source = np.array(units), np.array(groups), np.array(sources)
    lows, highs = np.empty(len(groups)), np.empty(len(groups))
    for unit in dict.fromkeys(units):
        held = unit_of == unit
        keep = ~held & ~outside
        others = bounds_by_group(residuals[keep], list(names[keep]), list(by_source[keep]), level)
        for i in np.flatnonzero(held):
            lows[i], highs[i] = bounds_for(others, own_groups[i])
    middle, half = (lows + highs) / 2, (highs - lows) / 2
    misses = np.abs(residuals - middle) / half
    for unit in dict.fromkeys(unit_of[outside].tolist()):
        held = outside & (unit_of == unit)
        others = outside & (unit_of != unit)
        factor = out_of_domain_widening(misses[others], list(by_source[others]), level)
        lows[held] = middle[held] - half[held] * factor
        highs[held] = middle[held] + half[held] * factor
    covered = (scored >= lows) & (scored <= highs)
    return HeldOut(covered, lows, highs, np.abs(scored - middle) / half)


def _held_out_report(
    fit: Fit,
    points: Sequence[Point],
    corrections: Corrections,
    x: dict[str, np.ndarray],
    groups: list[str],
    level: float,
    by_source: tuple[np.ndarray, np.ndarray],
    pairs: Sequence[Pair],
    outside: np.ndarray,
    lab_spread: tuple[Sequence[PairChange], Mapping[str, str]],
) -> dict[str, Any]:
    """Coverage and median width of the estimates and of the gains, held out by source (the
    intervals' own yardstick) and by lab (calibration.labs: every post of one author or
    organisation left out at once; each point's miss by the fit without its lab, scored
    against the interval the other labs' residuals give it, at the calibration's level)."""
    kinds = [p.kind for p in points]
    lab_outside = outside_other_sources(x, list(fit.labs), kinds)
    lab_groups = [
        interval_group(b, p.kind, disks=p.media == "hdd")
        for b, p in zip(
            _bottlenecks(fit.lab_params, fit.labs, points, corrections), points, strict=True
        )
    ]
    estimates = held_out_coverage(
        fit.lab_residuals,
        fit.residuals,
        fit.labs,
        fit.sources,
        groups,
        lab_outside,
        level,
        lab_groups,
    )
    lab_of_pair = [lab_of(p.source) for p in pairs]
    source_changes = pair_changes(pairs, points, lambda p: fit.loso_params[p.source], outside)
    lab_changes, unpriced = lab_spread  # the pairs held out by lab, the spread's unpriced
    source_gains = held_out_spread_coverage(
        source_changes, source_changes, [p.source for p in pairs], unpriced
    )
    lab_gains = held_out_spread_coverage(lab_changes, lab_changes, lab_of_pair, unpriced)
    labs = np.array(fit.labs)
    widths = np.exp(estimates.highs - estimates.lows)
    return {
        "by_source": {
            "units": len(set(fit.sources)),
            "estimates": _coverage_and_width(*by_source),
            **_gain_figures(source_changes, source_gains),
        },
        "by_lab": {
            "units": len(set(fit.labs)),
            "estimates": {
                **_coverage_and_width(estimates.covered, widths),
                "median_abs_log_error": round(float(np.median(np.abs(fit.lab_residuals))), 3),
            },
            **_gain_figures(lab_changes, lab_gains),
            "gains_by_lab": {
                lab: _coverage_and_width(
                    lab_gains.covered[(np.array(lab_of_pair) == lab) & lab_gains.priced],
                    lab_gains.widths[(np.array(lab_of_pair) == lab) & lab_gains.priced],
                )
                for lab in dict.fromkeys(lab_of_pair)
            },
            "per_lab": [
                {
                    "lab": lab,
                    "sources": len(
                        {s for s, b in zip(fit.sources, fit.labs, strict=True) if b == lab}
                    ),
                    "points": int((labs == lab).sum()),
                    "coverage": round(float(estimates.covered[labs == lab].mean()), 3),
                    "median_width_ratio": round(float(np.median(widths[labs == lab])), 2),
                    "median_abs_log_error": round(
                        float(np.median(np.abs(fit.lab_residuals[labs == lab]))), 3
                    ),
                    "mean_log_error": round(float(fit.lab_residuals[labs == lab].mean()), 3),
                    "pairs": sum(b == lab for b in lab_of_pair),
                }
                for lab in dict.fromkeys(fit.labs)
            ],
        },
    }


def _gain_figures(changes: Sequence[PairChange], scored: SpreadCoverage) -> dict[str, Any]:
    """Held-out gain coverage and median width over the priced pairs (those a gain folds in
    whole: the issue's targets), over every pair (an unpriced one counting as a miss), and
    by kind of change (the classes changed, and whether the bottleneck stays), most pairs
    first; an unpriced kind says so."""
    priced = scored.priced
    keys = np.array(
        [f"{c.kind_of_change}, {'same' if c.same_bottleneck else 'moved'}" for c in changes]
    )
    names = sorted(set(keys.tolist()), key=lambda k: (-int((keys == k).sum()), k))
    return {
        "gains": _coverage_and_width(scored.covered[priced], scored.widths[priced]),
        "gains_all_pairs": _coverage_and_width(scored.covered, scored.widths),
        "gains_by_change": {
            k: _coverage_and_width(
                scored.covered[(keys == k) & priced], scored.widths[(keys == k) & priced]
            )
            | {"unpriced": int(((keys == k) & ~priced).sum())}
            for k in names
        },
    }


def _coverage_and_width(covered: np.ndarray, widths: np.ndarray) -> dict[str, Any]:
    """The share covered and the median high/low of the intervals (None where none)."""
    if not len(covered):
        return {"count": 0, "coverage": None, "median_width_ratio": None}
    return {
        "count": len(covered),
        "coverage": round(float(np.mean(covered)), 3),
        "median_width_ratio": round(float(np.median(widths)), 2),
    }


def era_of(year: int) -> str:
    """Hardware and server generations: disks and 5.0/5.1, early flash and 5.5-5.7, today."""
    if year <= 2011:
        return "2008-2011"
    return "2012-2019" if year <= 2019 else "2020-"


def _by_group(
    points: Sequence[Point],
    fit: Fit,
    covered: np.ndarray,
    widths: np.ndarray,
    bottlenecks: Sequence[str],
    outside: np.ndarray,
) -> dict[str, dict[str, dict[str, Any]]]:
    """Coverage, width and error by workload kind, media, era, bottleneck, and whether the
    point lay inside the other sources' range."""
    keys = {
        "kind": [p.kind for p in points],
        "media": [p.media for p in points],
        "era": [era_of(p.year) for p in points],
        "bottleneck": list(bottlenecks),
        "domain": ["outside" if o else "inside" for o in outside.tolist()],
    }
    groups: dict[str, dict[str, dict[str, Any]]] = {}
    for dimension, values in keys.items():
        names = np.array(values)
        sources: dict[str, set[str]] = {}
        for point, value in zip(points, values, strict=True):
            sources.setdefault(value, set()).add(point.source)
        groups[dimension] = {
            value: {
                "points": int((names == value).sum()),
                "sources": len(
                    {p.source for p, v in zip(points, values, strict=True) if v == value}
                ),
                "coverage": round(float(covered[names == value].mean()), 3),
                "median_width_ratio": round(float(np.median(widths[names == value])), 2),
                "median_abs_log_error": round(
                    float(np.median(np.abs(fit.residuals[names == value]))), 3
                ),
            }
            for value in sorted(set(values))
        }
    return groups


def _per_source(fit: Fit, covered: np.ndarray) -> list[dict[str, Any]]:
    sources = np.array(fit.sources)
    rows = []
    for source in dict.fromkeys(fit.sources):
        held = sources == source
        rows.append(
            {
                "source": source,
                "points": int(held.sum()),
                "mean_log_error": round(float(fit.residuals[held].mean()), 3),
                "median_abs_log_error": round(float(np.median(np.abs(fit.residuals[held]))), 3),
                "coverage": round(float(covered[held].mean()), 3),
            }
        )
    return rows


def _table(
    points: Sequence[Point],
    fit: Fit,
    lows: np.ndarray,
    highs: np.ndarray,
    covered: np.ndarray,
    corrections: Corrections,
) -> list[dict[str, Any]]:
    in_sample = predict_log(
        fit.params, as_arrays([situation_of_point(p, corrections) for p in points])
    )
    return [
        {
            "id": p.id,
            "source": p.source,
            "kind": p.kind,
            "unit": p.unit,
            "published": p.value,
            "predicted": round(float(np.exp(pred)), 1),
            "fitted": round(float(np.exp(fitted)), 1),
            "low": round(float(np.exp(pred + low)), 1),
            "high": round(float(np.exp(pred + high)), 1),
            "covered": bool(cov),
            "assumed": sorted(p.assumed_fields),
        }
        for p, pred, fitted, low, high, cov in zip(
            points, fit.predicted, in_sample, lows, highs, covered, strict=True
        )
    ]


def _domain(
    points: Sequence[Point], x: dict[str, np.ndarray]
) -> dict[str, dict[str, tuple[float, float]]]:
    kinds = np.array([p.kind for p in points])
    return {kind: ranges_of(x, kinds == kind) for kind in sorted(set(kinds.tolist()))}
