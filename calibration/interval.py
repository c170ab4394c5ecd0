"""The 80% interval, built in one place: split conformal over held-out residuals.

Every residual comes from a fit that never saw its point's source (calibration.fit), so an
interval built from them is honest for a machine the data has never seen. The estimate's
interval is per workload kind where a kind has enough points (Mondrian), the gain's per kind
where pairs of it come from enough sources; out of the data's range both are widened.
"""

import math
from collections.abc import Sequence

import numpy as np

from calibration.features import FloatArray

INTERVAL = 0.8
# Outside the data's range the model extrapolates; widen the interval by half
# (advisor-engineering-judgement) and say so with in_domain=False.
OUT_OF_DOMAIN_WIDENING = 1.5

# A workload kind measured by at least this many sources gets its own interval, never narrower
# than the pooled one: the union of the two. Held-out coverage of bulk_insert under the pooled
# interval alone was 0.44 (its sources miss more than the others), 0.56 with the union; overall
# 0.799 at x4.20 pooled, 0.817 at x4.30 with the union (manage.py calibrate, 289 points). An own
# interval in place of the pooled one was tried before and dropped: a kind's tails from a
# handful of sources left a new source outside (0.69 at x4.4). Normalised conformal and groups
# by era or media (own intervals or a shrunk scale per group) all covered under 0.78.
KIND_MIN_SOURCES = 5
# Normalised conformal (dividing a residual by 1 + 0.25 per input its source left to be guessed,
# and widening estimates made with guesses by as much) was tried and dropped: nearly every
# published point has guessed inputs, so it made the interval a user sees (no guesses) narrower
# than anything in the data can check. With it, held-out coverage was 0.72 at x7.9; without,
# 0.77 at x4.6 (manage.py calibrate, 289 points).


# A kind gets its own ratio interval when pairs of it come from at least this many sources.
OWN_RATIO_MIN_SOURCES = 3


def conformal_bounds(
    residuals: FloatArray, level: float = INTERVAL, weights: FloatArray | None = None
) -> tuple[float, float]:
    """Lower and upper log offsets holding `level` of the (weighted) residuals.

    With interval_weights, a 21-point sweep of one machine cannot set the interval alone: the
    interval is meant for a machine the data has never seen.
    """
    if weights is None:
        weights = np.ones_like(residuals)
    order = np.argsort(residuals)
    ranked, mass = residuals[order], np.cumsum(weights[order])
    total = mass[-1]
    tail = (1 - level) / 2
    # One extra pseudo-point of average weight, as split conformal's (n + 1) correction.
    extra = total / len(residuals)
    low = ranked[min(np.searchsorted(mass, tail * (total + extra)), len(ranked) - 1)]
    high = ranked[min(np.searchsorted(mass, (1 - tail) * (total + extra)), len(ranked) - 1)]
    return float(low), float(high)


def interval_weights(sources: Sequence[str]) -> FloatArray:
    """1 / sqrt(points of the source), as in the fit: a source's weight in an interval grows
    with its points only as their square root, so a 24-point sweep of one machine counts as
    about 5 points, neither as 24 machines nor as a single one."""
    counts = {s: sources.count(s) for s in set(sources)}
    return np.array([1.0 / math.sqrt(counts[s]) for s in sources], dtype=np.float64)


def bounds_by_group(
    residuals: np.ndarray, groups: list[str], sources: Sequence[str]
) -> dict[str, tuple[float, float]]:
    """The interval's log offsets: "pooled" from every residual, and per group (workload kind)
    measured by KIND_MIN_SOURCES sources, the union of its own and the pooled interval."""
    names = np.array(groups)
    weights = interval_weights(list(sources))
    pooled = conformal_bounds(residuals, weights=weights)
    bounds = {"pooled": pooled}
    for group in sorted(set(groups)):
        mask = names == group
        own_sources = [s for s, keep in zip(sources, mask, strict=True) if keep]
        if len(set(own_sources)) < KIND_MIN_SOURCES:
            continue
        low, high = conformal_bounds(residuals[mask], weights=interval_weights(own_sources))
        bounds[group] = (min(low, pooled[0]), max(high, pooled[1]))
    return bounds


def symmetric_bounds(errors: FloatArray, sources: Sequence[str]) -> tuple[float, float]:
    """The interval of a log ratio's error, both orders of every pair counted: a against b is
    b against a with the sign flipped."""
    if not len(errors):
        return (-0.405, 0.405)  # no pairs: x1.5 either way (advisor-engineering-judgement)
    sources = list(sources)
    low, high = conformal_bounds(
        np.concatenate([errors, -errors]), weights=interval_weights(sources + sources)
    )
    return (min(low, 0.0), max(high, 0.0))


def widened(low: float, high: float) -> tuple[float, float]:
    """An interval out of the data's range: OUT_OF_DOMAIN_WIDENING wider around its middle."""
    middle, half = (low + high) / 2, (high - low) / 2 * OUT_OF_DOMAIN_WIDENING
    return middle - half, middle + half
