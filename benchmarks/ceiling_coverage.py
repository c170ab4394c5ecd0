"""How often published calibration results lie above their own device/flush/sync ceiling
(calibration.model.Demand.ceilings), and the in-sample coverage of the 80% intervals with and
without cutting them there (docs/estimates.md, "Effects and ceilings"). Needs no database (~5 s)."""

import sys
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


def main() -> None:
    calibration = load_latest()
    assert calibration is not None
    estimator = CalibratedEstimator(calibration)
    params = np.array(calibration.params)
    n = above = covered = covered_cut = cut = 0
    for point in used_points(load_points()):
        situation = situation_of_point(point)
        interval = estimator.estimate_situation(situation)
        _, _, _, demand = predict_rows_detailed(params, as_arrays([situation]))
        top = min(float(v[0]) for v in demand.ceilings().values())
        n += 1
        above += point.value > top
        cut += interval.high > top
        covered += interval.low <= point.value <= interval.high
        covered_cut += min(interval.low, top) <= point.value <= min(interval.high, top)
    print(f"{n} points; {above} published results above their own ceiling")
    print(f"intervals cut: {cut}; coverage {covered / n:.3f} uncut, {covered_cut / n:.3f} cut")


if __name__ == "__main__":
    main()
