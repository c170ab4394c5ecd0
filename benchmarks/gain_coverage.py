"""How often the gain interval holds a new source's published ratios. Checked on published data.

For each source with within-source pairs inside the data's range, the gain intervals are built
from the other sources' pairs alone (calibration.gain_interval, as the calibration builds them,
with the pairs' held-out ratios), and each of the source's pairs is scored against the interval
its change gets: changes to how the logs are flushed take their own
(calibration.gain_interval.SYNC_PATH). The script counts the share that fall inside, for all
pairs, then for those off and on that path, in three ways: per pair; weighted by
1/sqrt(pairs of the source), as the intervals weigh the sources; and as a plain mean over
sources.

Second, it asks how many sources an interval needs. It builds the pooled interval from every
subset of k sources and scores the other sources' pairs; the mean over subsets is printed for
each k.

Third, what sets the pooled interval's width: each source's pairs (kind, settings changed,
median miss), the pooled half-width with that source left out, and the share of pairs the
pooled interval holds by the size of the estimated change. The second and third parts take the
pairs off the log-flushing path, as the pooled interval does. It prints, asserts nothing, and
exits 0. About 10 s.
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
from calibration.gain_interval import gain_bounds, pair_on_sync_path, ratio_bounds_for
from calibration.interval import interval_weights, symmetric_bounds
from calibration.pairs import Pair, setting_pairs
from calibration.points import load_points, used_points

SUBSET_SIZES = (2, 3, 5, 7)
# Sizes of an estimated change, |log ratio|, by which the pooled interval's hold is split.
CHANGE_SIZES = (0.0, 0.1, 0.3, 0.6, 1.0, math.inf)


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

    covered: dict[bool, dict[str, list[bool]]] = {False: defaultdict(list), True: defaultdict(list)}
    for source in sorted({p.source for p in pairs if inside(p)}):
        bounds = gain_bounds([p for p in pairs if p.source != source], points, outside).bounds
        for pair in pairs:
            if pair.source == source and inside(pair):
                kind = points[index[pair.first]].kind
                on_path = pair_on_sync_path(pair.changed)
                low, high = ratio_bounds_for(bounds, kind, sync_path=on_path)
                covered[on_path][source].append(low <= error(pair) <= high)
    every_pair: dict[str, list[bool]] = defaultdict(list)
    for by_path in covered.values():
        for source, hits in by_path.items():
            every_pair[source] += hits
    print_held("gain intervals from the other sources", every_pair)
    print_held("  pairs off the log-flushing path", covered[False])
    print_held("  pairs changing how the logs are flushed", covered[True])
    for source, hits in sorted(every_pair.items(), key=lambda kv: statistics.mean(kv[1])):
        print(f"  {source}: {sum(hits)} of {len(hits)}")

    # The pooled interval serves the changes off the log-flushing path (gain_interval.SYNC_PATH)
    by_source: dict[str, list[float]] = defaultdict(list)
    for pair in pairs:
        if inside(pair) and not pair_on_sync_path(pair.changed):
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
    inside_pairs = [p for p in pairs if inside(p) and not pair_on_sync_path(p.changed)]
    kinds = {p.source: points[index[p.first]].kind for p in inside_pairs}
    width_drivers(inside_pairs, kinds)


def print_held(label: str, covered: dict[str, list[bool]]) -> None:
    """The share of the pairs their held-out interval held: per pair, weighted by
    1/sqrt(pairs of the source) as the intervals weigh them, and as a mean over sources."""
    every = [c for hits in covered.values() for c in hits]
    if not every:
        return
    weights = [1 / math.sqrt(len(hits)) for hits in covered.values() for _ in hits]
    weighted = sum(w * c for w, c in zip(weights, every, strict=True)) / sum(weights)
    print(
        f"{label}, {len(every)} pairs of {len(covered)} sources: covered "
        f"{statistics.mean(every):.3f} per pair, {weighted:.3f} weighted by 1/sqrt(pairs), "
        f"{statistics.mean(statistics.mean(h) for h in covered.values()):.3f} as a mean over "
        "sources"
    )


def width_drivers(pairs: list[Pair], kinds: dict[str, str]) -> None:
    """Which sources' pairs set the pooled interval's half-width, and how well it holds
    changes of each estimated size (weighted as the interval weighs its sources)."""
    errors = np.array([error(p) for p in pairs])
    sources = [p.source for p in pairs]
    names = np.array(sources)
    _, half = symmetric_bounds(errors, sources)
    print(f"pooled half-width {half:.3f} (x{math.exp(2 * half):.2f} wide), {len(pairs)} pairs")
    rows = []
    for source in sorted(set(sources)):
        own = np.array([s == source for s in sources])
        _, without = symmetric_bounds(errors[~own], [s for s in sources if s != source])
        changed = sorted({"+".join(p.changed) for p in pairs if p.source == source})
        rows.append((without, source, int(own.sum()), np.median(np.abs(errors[own])), changed))
    for without, source, count, miss, changed in sorted(rows):
        print(
            f"  without {source} ({kinds[source]}, {count} pairs, {', '.join(changed)}; "
            f"median miss {miss:.3f}): {without:.3f}"
        )
    weights = interval_weights(sources)
    estimated = np.abs(np.array([p.estimated_log_ratio for p in pairs]))
    held = np.abs(errors) <= half
    for low, high in itertools.pairwise(CHANGE_SIZES):
        size = (estimated >= low) & (estimated < high)
        if size.any():
            share = float(weights[size & held].sum() / weights[size].sum())
            print(
                f"  estimated change x{math.exp(low):.2f} to x{math.exp(high):.2f}: "
                f"{int(size.sum())} pairs of {len(set(names[size].tolist()))} "
                f"sources, held {share:.3f}"
            )


if __name__ == "__main__":
    main()
