"""The 80% interval, built in one place: split conformal over held-out residuals.

Every residual comes from a fit that never saw its point's source (calibration.fit), so an
interval built from them is honest for a machine the data has never seen. The estimate's
interval is centred on it and as wide as the held-out misses of points bound by the same
capacity in the same workload kind (Mondrian by bottleneck and kind, where enough sources have
such points; else by bottleneck alone; on spinning disks by disks whatever binds); the gain's is per
workload kind where pairs of it come from enough sources; out of the data's range both are
widened.
"""

import math
from collections.abc import Mapping, Sequence

import numpy as np

from calibration.features import FloatArray

INTERVAL = 0.8
# Outside the data's range the model extrapolates, so the interval is widened around its middle
# and says so with in_domain=False. How much is measured (out_of_domain_widening): held out, the
# points outside the other sources' range (calibration.domain) miss by more. Of 289 points, 54
# from 10 sources lie outside; by the intervals built from every residual they were covered
# 0.63 where the others were covered 0.85, and 0.72 once widened by half as the estimator did.
# With intervals built from the points inside alone and widened by the measured factor (x1.81;
# a gain's x1.87, from its pairs outside), they are covered 0.78, the others 0.84, at the same
# median width; since the CPU term counts busy cores (calibration.model.busy_cores) and a full
# change buffer makes inserts read (buffered_insert_rate), x1.89 and x1.83, covering 0.76 and
# 0.82; since disks write a page's dirty neighbours in its seek (features.neighbour_pages),
# x1.42 and x1.68, covering 0.74 and 0.82; on 330 points from 46 sources with intervals by
# bottleneck within kind, x1.40 and x1.76, the 65 points outside covered 0.79 (manage.py
# calibrate). Where fewer than GROUP_MIN_SOURCES
# sources have such points, by half (advisor-engineering-judgement).
OUT_OF_DOMAIN_WIDENING = 1.5

# A bottleneck (the capacity the held-out model finds binding for a point: CPU, random reads,
# page writes, ...) seen in at least this many sources gets an interval of its own: the model
# misses by different amounts by what binds, so one pooled interval must be as wide as the
# worst group's. The group is known before the result (it comes from the inputs through the
# model), so a new machine gets its group's interval. Intervals are centred on the estimate,
# their half-width the group's share of held-out miss sizes: a change that raises an estimate
# never lowers its range's middle. Intervals placed by each group's own tails (IO-bound
# estimates run high: median held-out residual -0.5 log where random reads bind, +0.2 where
# page writes do) were narrower, x6.8 at the same coverage, but moved a range's middle down
# by up to e^0.9 where a faster disk moved the binding capacity from page writes to random
# reads (tests/calibration/test_estimator.py's invariants). Leave-one-source-out, 289 points
# (manage.py calibrate): by workload kind, never narrower than pooled, 0.81 at x9.2; centred
# by bottleneck, 0.81 at x7.0; with queued device rates (calibration.device_terms.queued_iops),
# 0.81 at x4.3; with no commit syncs for point selects (the meltdown sweep's cached runs had
# borrowed that cap from the fsync rate) and no binary-log CPU for them, 0.81 at x4.5; with
# the cores c clients keep busy in place of min(c, cores), 0.80 at x4.2; with inserts reading
# what a full change buffer's merges cannot absorb, 0.81 at x3.9; with disks writing a page's
# dirty extent neighbours in the same seek, 0.80 at x3.4. Earlier
# tries: an own interval per workload kind covered 0.74; normalised conformal and groups by
# era or media all covered under 0.78.
GROUP_MIN_SOURCES = 5
# Within a bottleneck, a workload kind seen in GROUP_MIN_SOURCES sources gets an interval of its
# own (Mondrian by bottleneck and kind, both known before the result): the CPU misses of cached
# point selects (+-0.26 log) are a third of those of single-row updates (+-0.69), whose commit
# path the model does not know for old releases (seed 003). Leave-one-source-out, 330 points
# from 46 sources (manage.py calibrate): by bottleneck alone 0.81 at x3.39; by bottleneck
# within kind 0.81 at x2.95; update_heavy's points were covered 0.67 and 0.69.
KIND_SEPARATOR = "|"
# Spinning disks take their own interval, whatever binds them: a disk's rate hangs on what the
# model knows least (seek lengths over a sliver of the platters, the controller's reordering,
# schedulers, RAID), and by bottleneck within kind their points were covered 0.70 where flash's
# were 0.80 to 0.86 (held-out, 54 points from 10 sources). Grouped first by disks (too few
# sources split them by capacity), 330 points from 46 sources (manage.py calibrate): disks
# covered 0.78, 2008-2011's points 0.72 (from 0.65), all 0.818 (from 0.809) at x2.99 (x2.95).
# The media is an input, known before the result, as the bottleneck and the kind are.
DISKS_GROUP = "disks"
# The conformal level is raised from INTERVAL, a hundredth at a time, until the held-out
# coverage reaches INTERVAL (calibration.calibrate.conformal_level): the residuals of one
# source are not exchangeable with those of a new one, so the nominal level alone covers a
# little less than it promises (0.785 at level 0.80, 0.799 at 0.82, 0.81 at 0.83; 289 points,
# one-at-a-time device rates; with queued rates 0.80 already covers 0.82).
LEVEL_STEP = 0.01
MAX_LEVEL = 0.95
# Normalised conformal (dividing a residual by 1 + 0.25 per input its source left to be guessed,
# and widening estimates made with guesses by as much) was tried and dropped: nearly every
# published point has guessed inputs, so it made the interval a user sees (no guesses) narrower
# than anything in the data can check. With it, held-out coverage was 0.72 at x7.9; without,
# 0.77 at x4.6 (manage.py calibrate, 289 points).


# A kind gets its own ratio interval when pairs of it come from at least this many sources.
OWN_RATIO_MIN_SOURCES = 3


def _weighted_quantiles(
    values: FloatArray, weights: FloatArray | None, shares: tuple[float, ...]
) -> list[float]:
    """The values below which each share of the (weighted) mass lies, counting one extra
    pseudo-point of average weight, as split conformal's (n + 1) correction."""
    if weights is None:
        weights = np.ones_like(values)
    order = np.argsort(values)
    ranked, mass = values[order], np.cumsum(weights[order])
    total = mass[-1]
    extra = total / len(values)
    last = len(ranked) - 1
    return [
        float(ranked[min(np.searchsorted(mass, share * (total + extra)), last)]) for share in shares
    ]


def interval_weights(sources: Sequence[str]) -> FloatArray:
    """1 / sqrt(points of the source), as in the fit: a source's weight in an interval grows
    with its points only as their square root, so a 24-point sweep of one machine counts as
    about 5 points, neither as 24 machines nor as a single one."""
    counts = {s: sources.count(s) for s in set(sources)}
    return np.array([1.0 / math.sqrt(counts[s]) for s in sources], dtype=np.float64)


def centred_bounds(
    residuals: FloatArray, level: float = INTERVAL, weights: FloatArray | None = None
) -> tuple[float, float]:
    """Log offsets -h and +h, h holding `level` of the (weighted) residuals' sizes.

    With interval_weights, a 21-point sweep of one machine cannot set the interval alone: the
    interval is meant for a machine the data has never seen.
    """
    (half,) = _weighted_quantiles(np.abs(residuals), weights, (level,))
    return -half, half


def interval_group(bottleneck: str, kind: str, *, disks: bool) -> str:
    """An estimate's interval group: its bottleneck within its workload kind; on spinning
    disks, disks within the kind (DISKS_GROUP)."""
    return f"{DISKS_GROUP if disks else bottleneck}{KIND_SEPARATOR}{kind}"


def bottleneck_of(group: str) -> str:
    """The bottleneck (or DISKS_GROUP) an interval group belongs to, over every workload
    kind."""
    return group.split(KIND_SEPARATOR, 1)[0]


def bounds_for(bounds: Mapping[str, tuple[float, float]], group: str) -> tuple[float, float]:
    """The finest interval the calibration has for `group`: its bottleneck within its kind,
    else its bottleneck over every kind, else the pooled one."""
    return bounds.get(group) or bounds.get(bottleneck_of(group)) or bounds["pooled"]


def bounds_by_group(
    residuals: np.ndarray, groups: list[str], sources: Sequence[str], level: float = INTERVAL
) -> dict[str, tuple[float, float]]:
    """The interval's log offsets at `level`, centred on the estimate: "pooled" from every
    residual, per bottleneck and per bottleneck within a kind (interval_group) seen in
    GROUP_MIN_SOURCES sources, each from its own residuals alone."""
    bounds = {"pooled": centred_bounds(residuals, level, interval_weights(list(sources)))}
    for names in (np.array([bottleneck_of(g) for g in groups]), np.array(groups)):
        for group in sorted(set(names.tolist()) - set(bounds)):
            mask = names == group
            own_sources = [s for s, keep in zip(sources, mask, strict=True) if keep]
            if len(set(own_sources)) >= GROUP_MIN_SOURCES:
                bounds[group] = centred_bounds(
                    residuals[mask], level, interval_weights(own_sources)
                )
    return bounds


def symmetric_bounds(errors: FloatArray, sources: Sequence[str]) -> tuple[float, float]:
    """The interval of a log ratio's error: a against b is b against a with the sign flipped,
    so it is -h..+h, h holding INTERVAL of the errors' sizes (centred_bounds; the split-conformal
    extra point widens both ends alike, where percentiles of the errors and their negatives
    moved both ends up)."""
    if not len(errors):
        return (-0.405, 0.405)  # no pairs: x1.5 either way (advisor-engineering-judgement)
    return centred_bounds(errors, INTERVAL, interval_weights(list(sources)))


def out_of_domain_widening(
    misses: FloatArray, sources: Sequence[str], level: float = INTERVAL
) -> float:
    """How much wider an interval must be outside the data's range: the share `level` of the
    held-out misses of points outside the other sources' range, each miss measured in its own
    interval's half-widths (source-weighted as the intervals are). Never below 1: the model is
    not trusted more where it extrapolates; OUT_OF_DOMAIN_WIDENING where too few sources have
    such points to measure it."""
    if len(set(sources)) < GROUP_MIN_SOURCES:
        return OUT_OF_DOMAIN_WIDENING
    (factor,) = _weighted_quantiles(misses, interval_weights(list(sources)), (level,))
    return max(factor, 1.0)


def widened(low: float, high: float, factor: float) -> tuple[float, float]:
    """An interval out of the data's range: `factor` times wider around its middle."""
    middle, half = (low + high) / 2, (high - low) / 2 * factor
    return middle - half, middle + half
