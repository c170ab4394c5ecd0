"""Recommendations per second of the engine on one core: validation plus every rule.

Run with `make bench`. Prints one line per scenario and exits 0; it measures, it asserts nothing.
The process is pinned to one CPU where the OS allows it, so the figure is per core. It depends on
the host as much as on the code (2026-11-28, one commit, the same 3.69 M instructions a
recommendation under callgrind: 1,686 and 2,571 pasted-my.cnf recommendations/s on two hosts of
this project), so the first line names the host.
"""

import os
import platform
import re
import statistics
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from calibration.artifact import load_latest
from calibration.estimator import CalibratedEstimator
from rules.engine import recommend
from rules.inputs.examples import raw_profile
from rules.inputs.validation import parse_profile
from rules.render.mycnf import render_mycnf

_CALIBRATION = load_latest()
ESTIMATOR = CalibratedEstimator(_CALIBRATION) if _CALIBRATION is not None else None
ROUNDS = 5
PER_ROUND = 2000
SCENARIOS = {
    "contract example (mysql 8.0, 8 x 15k RAID10 BBU)": raw_profile(),
    "mariadb 11.4 on NVMe": raw_profile(
        **{
            "server.flavor": "mariadb",
            "server.version": "11.4",
            "hardware.storage": {"media": "nvme", "device_count": 4, "raid_level": "raid10"},
        }
    ),
    "with a pasted my.cnf": raw_profile(
        current={"mycnf": "[mysqld]\ninnodb_io_capacity=200\ninnodb_buffer_pool_size=8G\n"}
    ),
}


def rates(raw: dict[str, object]) -> tuple[float, float, float]:
    """Recommendations per second, plain, rendered to my.cnf and with the calibrated estimate:
    the median of ROUNDS rounds, the three timed in turn within each round, so that the
    machine's load weighs on each alike and their ratio holds within one run."""
    modes = ((False, None), (True, None), (False, ESTIMATOR))
    measured: list[list[float]] = [[], [], []]
    for _ in range(ROUNDS):
        for rates_of, (render, estimator) in zip(measured, modes, strict=True):
            start = time.perf_counter()
            for _ in range(PER_ROUND):
                result = recommend(parse_profile(raw), estimator=estimator)
                if render:
                    render_mycnf(result)
            rates_of.append(PER_ROUND / (time.perf_counter() - start))
    plain, rendered, estimated = (statistics.median(r) for r in measured)
    return plain, rendered, estimated


def host() -> str:
    """The CPU model, as /proc/cpuinfo names it (else the platform's guess), and the Python and
    numpy the figures were measured with."""
    try:
        with open("/proc/cpuinfo", encoding="utf-8") as cpuinfo:
            found = re.search(r"^model name\s*:\s*(.+)$", cpuinfo.read(), re.MULTILINE)
        model = found.group(1).strip() if found else platform.processor()
    except OSError:
        model = platform.processor()
    return f"{model or 'unknown CPU'}; Python {platform.python_version()}; numpy {np.__version__}"


def main() -> None:
    if hasattr(os, "sched_setaffinity"):
        os.sched_setaffinity(0, {min(os.sched_getaffinity(0))})
    recommend(parse_profile(raw_profile()))  # warm the catalog cache
    print(f"engine benchmark: median of {ROUNDS} rounds x {PER_ROUND}, one core of {host()}")
    for name, raw in SCENARIOS.items():
        plain, rendered, estimated = rates(raw)
        print(
            f"  {name}: {plain:,.0f} recommendations/s; {rendered:,.0f}/s with my.cnf; "
            f"{estimated:,.0f}/s with the calibrated estimate and effects "
            f"({estimated / plain:.2f} of the engine's own rate)"
        )


if __name__ == "__main__":
    main()
