"""The 80% interval of a gain: the ratio of two configurations' throughputs on one machine.

Built from the within-source pairs (calibration.pairs): how far the held-out model's ratio sat
from the published one. Inside the data's range from the pairs inside it; outside, widened by a
factor measured on the pairs outside the other sources' range, as calibration.interval does
for an estimate.
"""

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from calibration.features import KINDS
from calibration.interval import (
    INTERVAL,
    OWN_RATIO_MIN_SOURCES,
    out_of_domain_widening,
    symmetric_bounds,
)
from calibration.pairs import Pair
from calibration.points import Point


@dataclass(frozen=True, slots=True)
class GainBounds:
    bounds: dict[str, tuple[float, float]]  # "pooled" and per kind: (low, high) log offsets
    out_of_domain_widening: float


def gain_bounds(pairs: Sequence[Pair], points: Sequence[Point], outside: np.ndarray) -> GainBounds:
    """The interval of (published - estimated) log ratio, each source once; per workload kind
    where OWN_RATIO_MIN_SOURCES sources have pairs of it, and pooled. A pair is outside when
    either of its points lies outside the other sources' range.

    A pair has no order (a against b is b against a with the sign flipped), so both orders
    count and the interval is symmetric.
    """
    index = {p.id: i for i, p in enumerate(points)}
    kinds = np.array([points[index[p.first]].kind for p in pairs])
    sources = np.array([points[index[p.first]].source for p in pairs])
    errors = np.array([p.published_log_ratio - p.estimated_log_ratio for p in pairs])
    out = np.array([bool(outside[index[p.first]] or outside[index[p.second]]) for p in pairs])

    def bounds_of(mask: np.ndarray) -> tuple[float, float]:
        return symmetric_bounds(errors[mask], list(sources[mask]))

    inside = ~out if len(pairs) else np.zeros(0, dtype=bool)
    bounds = {"pooled": bounds_of(inside)}
    for kind in KINDS:
        own = inside & (kinds == kind)
        if len(set(sources[own].tolist())) >= OWN_RATIO_MIN_SOURCES:
            bounds[kind] = bounds_of(own)
    return GainBounds(bounds, _widening(errors, sources, out))


def _widening(errors: np.ndarray, sources: np.ndarray, out: np.ndarray) -> float:
    """Each outside pair's miss in half-widths of the pooled interval built from the other
    sources' inside pairs; the share INTERVAL of those misses (out_of_domain_widening)."""
    misses = np.empty(len(errors))
    for source in dict.fromkeys(sources[out].tolist()):
        held = out & (sources == source)
        others = ~out & (sources != source)
        _, half = symmetric_bounds(errors[others], list(sources[others]))
        misses[held] = np.abs(errors[held]) / max(half, 1e-9)
    return out_of_domain_widening(misses[out], list(sources[out]), INTERVAL)
