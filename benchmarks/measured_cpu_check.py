"""Does a measured point-select rate (hardware.measured_cpu) improve the estimates? Checked on
published data: where a source ran cached point selects and other workloads on the same machine
and server, its point-select result plays the user's measurement.

For each such source the fit that never saw it (calibration.fit's leave-one-source-out refit)
predicts the source's other results twice: as published profiles get them (the CPU's speed from
the year), and with c shifted so the model reproduces one of the source's cached point-select
results (calibration.measured_cpu's closed form). It prints the held-out errors of both, overall
and per source, and exits 0; it measures, it asserts nothing. About 15 s.
"""

import statistics
import sys
from collections import defaultdict
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from calibration.calibrate import used_points
from calibration.features import as_arrays, situation_of_point
from calibration.fit import fit_points
from calibration.measured_cpu import C_INDEX
from calibration.model import predict_log
from calibration.points import Point, load_points

# What must agree for one result to stand for the machine's CPU speed in another.
SAME_MACHINE = ("source", "year", "server", "cpu_cores", "ram_gb", "media", "device_count")


def machine_of(point: Point) -> tuple[object, ...]:
    return tuple(getattr(point, name) for name in SAME_MACHINE)


def main() -> None:
    points = used_points(load_points())
    fit = fit_points(points)
    x = as_arrays([situation_of_point(p) for p in points])
    y = np.log([p.value for p in points])
    groups: dict[tuple[object, ...], list[int]] = defaultdict(list)
    for i, point in enumerate(points):
        groups[machine_of(point)].append(i)
    plain: dict[str, list[float]] = defaultdict(list)
    measured: dict[str, list[float]] = defaultdict(list)
    for members in groups.values():
        anchors = [
            i for i in members if points[i].kind == "read_mostly" and x["pool_to_data"][i] >= 1
        ]
        others = [i for i in members if points[i].kind != "read_mostly"]
        if not anchors or not others:
            continue
        source = points[members[0]].source
        params = fit.loso_params[source]
        rows = {k: v[others] for k, v in x.items()}
        for anchor in anchors:
            one = {k: v[anchor : anchor + 1] for k, v in x.items()}
            shifted = params.copy()
            shifted[C_INDEX] += y[anchor] - predict_log(params, one)[0]
            errors = np.abs(y[others] - predict_log(shifted, rows))
            measured[source].extend(errors.tolist())
            plain[source].extend(np.abs(fit.residuals[others]).tolist())
    every_plain = [e for errors in plain.values() for e in errors]
    every_measured = [e for errors in measured.values() for e in errors]
    print(
        f"{len(every_plain)} predictions of {len(set(plain))} sources' other workloads, "
        "held out (|log error|, as a factor):"
    )
    for name, errors in (("year's core", every_plain), ("measured", every_measured)):
        q80 = float(np.quantile(errors, 0.8))
        print(
            f"  {name:12s} median x{np.exp(statistics.median(errors)):.3f}, "
            f"80th percentile x{np.exp(q80):.3f}"
        )
    for source in plain:
        print(
            f"  {source}: {len(plain[source])} predictions, median "
            f"x{np.exp(statistics.median(plain[source])):.3f} -> "
            f"x{np.exp(statistics.median(measured[source])):.3f}"
        )


if __name__ == "__main__":
    main()
