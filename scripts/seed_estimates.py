"""Print the five seed articles' published figures beside the shipped model's estimates.

Absolute figures (seeds 000, 001, 003) are compared with the 80% interval the estimator gives
their published configuration (the inputs an article left unstated are taken as each row's
`assumed_fields` name them; they do not widen it);
ratio-only seeds (002, 004) with the model's multiplier for the setting they measured.
Run: .venv/bin/python scripts/seed_estimates.py
"""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from calibration.artifact import load_latest
from calibration.device_terms import READ_AHEAD_ON_IO_FACTOR, SCHEDULER_IO_FACTOR
from calibration.estimator import CalibratedEstimator
from calibration.features import situation_of_point
from calibration.points import load_points, used_points

SEEDS = {
    "callaghan-2009-2disk": "seed 000",
    "callaghan-2008-insert": "seed 001",
    "callaghan-2011-odirect-log": "seed 003",
}


def main() -> None:
    calibration = load_latest()
    if calibration is None:
        raise SystemExit("no calibration artifact: run `python manage.py calibrate` first")
    estimator = CalibratedEstimator(calibration)
    print(f"calibration {calibration.version}")
    print(f"{'seed':9} {'row':>4} {'published':>10} {'80% interval':>20} {'unit':>7}  inside")
    inside = total = 0
    for point in used_points(load_points()):
        if point.source not in SEEDS:
            continue
        e = estimator.estimate_situation(situation_of_point(point))
        ok = e.low <= point.value <= e.high
        inside, total = inside + ok, total + 1
        interval = f"{e.low:,.0f} - {e.high:,.0f}"
        print(
            f"{SEEDS[point.source]:9} {point.id:>4} {point.value:>10,.0f} {interval:>20} "
            f"{point.unit:>7}  {'yes' if ok else 'NO'}"
        )
    print(f"{inside} of {total} published figures inside their intervals")
    print(
        "seed 002: noop vs cfq '4x'; model scheduler multiplier for cfq "
        f"{SCHEDULER_IO_FACTOR['cfq']} ({1 / SCHEDULER_IO_FACTOR['cfq']:.1f}x on the IO term)"
    )
    print(
        "seed 004: read-ahead off 'about 15%'; model multiplier with read-ahead on "
        f"{READ_AHEAD_ON_IO_FACTOR['array']} (+{1 / READ_AHEAD_ON_IO_FACTOR['array'] - 1:.0%})"
    )


if __name__ == "__main__":
    main()
