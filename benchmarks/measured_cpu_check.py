"""Does a measured point-select rate (hardware.measured_cpu) improve the estimates? Checked on
published data: where a source ran cached point selects and other workloads on the same machine
and server, its point-select result plays the user's measurement.

For each such source the fit that never saw it (calibration.fit's leave-one-source-out refit)
predicts the source's other results three times: as published profiles get them (the CPU's
speed from the year); with c shifted so the model reproduces one of the source's cached
point-select results (calibration.measured_cpu's closed form); and with that shift plus the
kind's CPU cost offset (calibration.kind_cpu_cost) computed from the other sources alone, as
the estimator applies it to a measured machine. It prints the held-out errors of the three,
overall and per source, and exits 0; it measures, it asserts nothing. About 5 s.
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
from calibration.kind_cpu_cost import anchored_misses, kind_cost_offsets, machine_of
from calibration.measured_cpu import SPEED_INDICES
from calibration.model import LAYOUT, predict_log
from calibration.points import Point, load_points


def held_out_offsets(points: list[Point], x: dict, source: str, params: np.ndarray) -> dict:
    """calibration.kind_cpu_cost's offsets from every source but `source`, under the fit that
    never saw it: the offset a new machine would get."""
    keep = [i for i, p in enumerate(points) if p.source != source]
    rows = {k: v[keep] for k, v in x.items()}
    return kind_cost_offsets(anchored_misses([points[i] for i in keep], rows, params))


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
    offset: dict[str, list[float]] = defaultdict(list)
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
        offsets = held_out_offsets(list(points), x, source, params)
        kinds = [points[i].kind for i in others]
        by_kind = np.array([offsets.get(k, 0.0) for k in kinds])
        f_columns = np.array([LAYOUT.index(f"f_{k}") for k in kinds])
        for anchor in anchors:
            one = {k: v[anchor : anchor + 1] for k, v in x.items()}
            shifted = params.copy()
            shifted[SPEED_INDICES] += y[anchor] - predict_log(params, one)[0]
            errors = np.abs(y[others] - predict_log(shifted, rows))
            measured[source].extend(errors.tolist())
            plain[source].extend(np.abs(fit.residuals[others]).tolist())
            # each unit with its own kind's offset: one pass per kind present
            with_offset = np.empty(len(others))
            for column in set(f_columns.tolist()):
                moved = shifted.copy()
                mask = f_columns == column
                moved[column] += by_kind[mask][0]
                with_offset[mask] = np.abs(y[others] - predict_log(moved, rows))[mask]
            offset[source].extend(with_offset.tolist())
    every_plain = [e for errors in plain.values() for e in errors]
    every_measured = [e for errors in measured.values() for e in errors]
    every_offset = [e for errors in offset.values() for e in errors]
    print(
        f"{len(every_plain)} predictions of {len(set(plain))} sources' other workloads, "
        "held out (|log error|, as a factor):"
    )
    named = (
        ("year's core", every_plain),
        ("measured", every_measured),
        ("+ kind cost", every_offset),
    )
    for name, errors in named:
        q80 = float(np.quantile(errors, 0.8))
        print(
            f"  {name:12s} median x{np.exp(statistics.median(errors)):.3f}, "
            f"80th percentile x{np.exp(q80):.3f}"
        )
    for source in plain:
        print(
            f"  {source}: {len(plain[source])} predictions, median "
            f"x{np.exp(statistics.median(plain[source])):.3f} -> "
            f"x{np.exp(statistics.median(measured[source])):.3f} -> "
            f"x{np.exp(statistics.median(offset[source])):.3f}"
        )


if __name__ == "__main__":
    main()
