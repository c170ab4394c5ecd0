"""Microseconds per CalibratedEstimator.assess on the engine benchmark's scenarios, one core.

The engine's estimate is one assess per recommendation; this times it alone, with the calls the
engine makes for each scenario recorded once and replayed. Prints and exits 0; asserts nothing.
Compare two versions side by side in one process (the machine's load varies between runs).
"""

import os
import statistics
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from benchmarks.engine import SCENARIOS
from calibration.artifact import load_latest
from calibration.estimator import CalibratedEstimator
from rules.engine import recommend
from rules.estimate.interface import Assessment
from rules.inputs.validation import parse_profile

ROUNDS = 7
PER_ROUND = 500


class _Recorder:
    """Passes the engine's assess calls to the estimator and keeps their arguments."""

    def __init__(self, estimator: CalibratedEstimator) -> None:
        self.estimator = estimator
        self.calls: list[tuple[tuple[Any, ...], dict[str, Any]]] = []

    @property
    def calibration_version(self) -> str:
        return self.estimator.calibration_version

    def assess(self, *args: Any, **kwargs: Any) -> Assessment:
        self.calls.append((args, kwargs))
        return self.estimator.assess(*args, **kwargs)


def main() -> None:
    if hasattr(os, "sched_setaffinity"):
        os.sched_setaffinity(0, {min(os.sched_getaffinity(0))})
    calibration = load_latest()
    if calibration is None:
        print("no calibration artifact")
        return
    estimator = CalibratedEstimator(calibration)
    print(f"estimator benchmark: median of {ROUNDS} rounds x {PER_ROUND}, one core")
    for name, raw in SCENARIOS.items():
        recorder = _Recorder(estimator)
        recommend(parse_profile(raw), estimator=recorder)
        (args, kwargs) = recorder.calls[0]
        times = []
        for _ in range(ROUNDS):
            start = time.perf_counter()
            for _ in range(PER_ROUND):
                estimator.assess(*args, **kwargs)
            times.append((time.perf_counter() - start) / PER_ROUND)
        print(f"  {name}: {statistics.median(times) * 1e6:,.0f} us per assess")


if __name__ == "__main__":
    main()
