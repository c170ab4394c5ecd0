"""How often published calibration results lie above their own device/flush/sync ceiling
(calibration.model.Demand.ceilings), grouped by media, kind, source and the limit that binds,
and the coverage of the 80% intervals with and without cutting them there: in sample (the
fitted vector's intervals and ceilings) and held out by source (the artifact's table: each
point's interval from a fit without its source, cut at the ceiling that fit computes).
docs/estimates.md, "Effects and ceilings". Needs no database (~5 s)."""

import sys
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

import numpy as np  # noqa: E402

from calibration.artifact import load_latest  # noqa: E402
from calibration.estimator import CalibratedEstimator  # noqa: E402
from calibration.features import as_arrays, situation_of_point  # noqa: E402
from calibration.model import predict_rows_detailed  # noqa: E402
from calibration.points import load_points, used_points  # noqa: E402


def _ceiling(params: np.ndarray, x: dict[str, np.ndarray]) -> tuple[str, float]:
    _, _, _, demand = predict_rows_detailed(params, x)
    limit, top = min(((k, float(v[0])) for k, v in demand.ceilings().items()), key=lambda kv: kv[1])
    return limit, top


def main() -> None:
    calibration = load_latest()
    assert calibration is not None
    estimator = CalibratedEstimator(calibration)
    params = np.array(calibration.params)
    held = {row["id"]: row for row in calibration.report.get("table", [])}
    n = covered = covered_cut = cut = 0
    held_n = held_covered = held_cut = 0
    above = []
    for point in used_points(load_points()):
        situation = situation_of_point(point)
        x = as_arrays([situation])
        interval = estimator.estimate_situation(situation)
        limit, top = _ceiling(params, x)
        n += 1
        if point.value > top:
            above.append((point, limit, point.value / top))
        cut += interval.high > top
        covered += interval.low <= point.value <= interval.high
        covered_cut += min(interval.low, top) <= point.value <= min(interval.high, top)
        row = held.get(point.id)
        refit = calibration.loso_params.get(point.source)
        if row is None or refit is None:
            continue
        _, held_top = _ceiling(np.array(refit), x)
        held_n += 1
        held_covered += row["low"] <= point.value <= row["high"]
        held_cut += min(row["low"], held_top) <= point.value <= min(row["high"], held_top)
    print(f"{n} points; {len(above)} published results above their own ceiling")
    for name, key in (
        ("media", lambda a: a[0].media),
        ("kind", lambda a: a[0].kind),
        ("limit", lambda a: a[1]),
        ("source", lambda a: a[0].source),
    ):
        print(f"  by {name}: " + ", ".join(f"{k} {v}" for k, v in Counter(map(key, above)).items()))
    for point, limit, ratio in sorted(above, key=lambda a: -a[2]):
        assumed = ", ".join(sorted(point.assumed_fields)) or "none"
        print(f"  {point.id:>5} x{ratio:.2f} {limit:<10} {point.source} (assumed: {assumed})")
    share, share_cut = covered / n, covered_cut / n
    print(f"in sample: intervals cut {cut}; coverage {share:.3f} uncut, {share_cut:.3f} cut")
    if held_n:
        print(
            f"held out by source ({held_n} points): coverage {held_covered / held_n:.3f} uncut, "
            f"{held_cut / held_n:.3f} cut"
        )


if __name__ == "__main__":
    main()
