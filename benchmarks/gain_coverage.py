"""How often the gain interval holds a new source's published ratios. Checked on published data.

For each source, the gain's spread model (calibration.gain_spread) is fitted on the other
sources' pairs alone, with the pairs' ratios held out by source, and each of the source's pairs
is scored against the interval its change gets. A pair changing a class the shipped spread
leaves unpriced gets no interval: a result's gain does not count that change but lists it
apart. The script counts the share that fall inside, over the priced pairs (the gain's own
figure) and over every pair (an unpriced one as a miss), in three ways: per pair; weighted by
1/sqrt(pairs of the source), as the intervals weigh the sources; and as a plain mean over
sources; then each source's share, the worst first. It prints, asserts nothing, and exits 0.
About 30 s (one fit).
"""

import math
import statistics
import sys
from collections import defaultdict
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from calibration.domain import outside_other_sources
from calibration.features import as_arrays, situation_of_point
from calibration.fit import fit_points
from calibration.gain_spread import gain_spread, held_out_spread_coverage, pair_changes
from calibration.labs import lab_of
from calibration.pairs import setting_pairs
from calibration.points import load_points, used_points


def main() -> None:
    points = used_points(load_points())
    fit = fit_points(points)
    x = as_arrays([situation_of_point(p) for p in points])
    outside = outside_other_sources(x, list(fit.sources), [p.kind for p in points])
    by_lab = pair_changes(
        setting_pairs(points, list(fit.lab_predicted)),
        points,
        lambda p: fit.lab_params[lab_of(p.source)],
        outside,
    )
    unpriced = gain_spread(by_lab).unpriced  # the shipped spread's (calibration.calibrate)
    pairs = pair_changes(
        setting_pairs(points, list(fit.predicted)),
        points,
        lambda p: fit.loso_params[p.source],
        outside,
    )
    scored = held_out_spread_coverage(pairs, pairs, [p.source for p in pairs], unpriced)
    priced: dict[str, list[bool]] = defaultdict(list)
    every: dict[str, list[bool]] = defaultdict(list)
    for pair, hit, counted in zip(pairs, scored.covered, scored.priced, strict=True):
        every[pair.source].append(bool(hit))
        if counted:
            priced[pair.source].append(bool(hit))
    print(f"unpriced classes: {unpriced or 'none'}")
    print_held("gain intervals from the other sources, priced pairs", priced)
    print_held("every pair, an unpriced one as a miss", every)
    for source, hits in sorted(priced.items(), key=lambda kv: statistics.mean(kv[1])):
        print(f"  {source}: {sum(hits)} of {len(hits)}")


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


if __name__ == "__main__":
    main()
