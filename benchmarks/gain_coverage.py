"""How often the gain interval holds a new source's published ratios. Checked on published data.

For each source with within-source pairs inside the data's range, the gain intervals are built
from the other sources' pairs alone (calibration.gain_interval, as the calibration builds them,
with the pairs' held-out ratios). The script then counts the share of the source's pairs that
fall inside, in three ways: per pair; weighted by 1/sqrt(pairs of the source), as the intervals
weigh the sources; and as a plain mean over sources.

Second, it asks how many sources an interval needs. It builds the pooled interval from every
subset of k sources and scores the other sources' pairs; the mean over subsets is printed for
each k. It prints, asserts nothing, and exits 0. About 10 s.
"""

import itertools
import math
import statistics
import sys
from collections import defaultdict
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from calibration.domain import outside_other_sources
from calibration.features import as_arrays, situation_of_point
from calibration.fit import fit_points
from calibration.gain_interval import gain_bounds
from calibration.interval import symmetric_bounds
from calibration.pairs import Pair, setting_pairs
from calibration.points import load_points, used_points

SUBSET_SIZES = (2, 3, 5, 7)


def error(pair: Pair) -> float:
    return pair.published_log_ratio - pair.estimated_log_ratio


def main() -> None:
    points = used_points(load_points())
    fit = fit_points(points)
    x = as_arrays([situation_of_point(p) for p in points])
    outside = outside_other_sources(x, list(fit.sources), [p.kind for p in points])
    index = {p.id: i for i, p in enumerate(points)}
    pairs = setting_pairs(points, list(fit.predicted))

    def inside(pair: Pair) -> bool:
        return not (outside[index[pair.first]] or outside[index[pair.second]])

    covered: dict[str, list[bool]] = defaultdict(list)
    for source in sorted({p.source for p in pairs if inside(p)}):
        bounds = gain_bounds([p for p in pairs if p.source != source], points, outside).bounds
        for pair in pairs:
            if pair.source == source and inside(pair):
                low, high = bounds.get(points[index[pair.first]].kind, bounds["pooled"])
                covered[source].append(low <= error(pair) <= high)
    every = [c for hits in covered.values() for c in hits]
    weights = [1 / math.sqrt(len(hits)) for hits in covered.values() for _ in hits]
    weighted = sum(w * c for w, c in zip(weights, every, strict=True)) / sum(weights)
    print(
        f"gain intervals from the other sources, {len(every)} pairs of {len(covered)} sources: "
        f"covered {statistics.mean(every):.3f} per pair, {weighted:.3f} weighted by "
        f"1/sqrt(pairs), {statistics.mean(statistics.mean(h) for h in covered.values()):.3f} "
        "as a mean over sources"
    )
    for source, hits in sorted(covered.items(), key=lambda kv: statistics.mean(kv[1])):
        print(f"  {source}: {sum(hits)} of {len(hits)}")

    by_source: dict[str, list[float]] = defaultdict(list)
    for pair in pairs:
        if inside(pair):
            by_source[pair.source].append(error(pair))
    names = sorted(by_source)
    for k in SUBSET_SIZES:
        shares, widths = [], []
        for chosen in itertools.combinations(names, k):
            errors = np.array([e for s in chosen for e in by_source[s]])
            sources = [s for s in chosen for _ in by_source[s]]
            low, high = symmetric_bounds(errors, sources)
            others = [s for s in names if s not in chosen]
            shares.append(
                statistics.mean(
                    statistics.mean(low <= e <= high for e in by_source[s]) for s in others
                )
            )
            widths.append(math.exp(high - low))
        print(
            f"an interval from {k} sources ({len(shares)} subsets): the other sources' pairs "
            f"covered {statistics.mean(shares):.3f} on average (mean over sources), median "
            f"width x{statistics.median(widths):.2f}"
        )


if __name__ == "__main__":
    main()
