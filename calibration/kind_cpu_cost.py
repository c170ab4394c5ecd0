"""A kind's CPU per unit against a point select's, as published machines that ran both show it.

A machine that measured its own point selects (hardware.measured_cpu) gets its CPU capacity from
that measurement (calibration.measured_cpu). What it did not measure is what one unit of its own
kind costs against a point select; the model's f_k says so, and f_k is fitted over every source
of the kind, most of which ran no point selects and lean on the year's core instead. Where
published machines ran cached point selects and cached units of another kind at the same time,
their results say it directly: with c matched to the machine's point-select result, the kind's
CPU-bound units sit above or below the model by how much the model misprices their CPU.

The offset of a kind is the median over sources of each source's median such miss, once at
least MIN_SOURCES sources show it; the estimator adds it to f_k for a measured machine only.
Calibration 20261128.171831 (369 points): read_write -0.100 from 6 sources (-0.25 to -0.01), so
a transaction without the binary log costs 27.0 point selects instead of the fit's 24.5;
update_heavy +0.064 from 8 sources (-0.61 to +0.25). Before commits waited for their flushes
(calibration.model.commit_flushes), the fit priced a read_write unit's CPU higher to make up for
the durable sources' commit waits, and on these machines (all at trx_commit=2) read_write's
offset was -0.127, every source below the model. Held out
(benchmarks/measured_cpu_check.py: each source's offsets from the other sources, under the
fit that never saw it), 78 predictions of 8 sources: median x1.150 -> x1.138, 80th percentile
x1.338 -> x1.331 (calibration 20261128.171831).

The price holds where it was seen. None of these machines ran more clients than cores (from
1 client on 48 cores to 40 on 48), and the price moves with the load of the point selects it is
anchored on: on callaghan-2025-sysbench-cached-concurrency's server (48 cores), read_write's
misses run -0.08 to +0.17 anchored on point selects at 1 client and -0.49 to -0.24 anchored on
those at 40 (point selects gain more from more clients than the shared CPU term gives them). On
this project's 2-vCPU host, 16 clients, an oltp_read_write transaction without the binary log
costs 34.8 to 40.9 point selects of server CPU (benchmarks/statement_costs.py, three
measurements on 2026-11-27 and 28), and benchmarks/real_gain.py's tuned runs reached their
point selects' rate over 37 to 49 (seven runs), where this price says 27.0. One published host
shows the same rise: Percona's 2016 lab server (56 logical CPUs, data in memory, client on
another server) ran point selects at 28 to 30 times its oltp_read_write transactions from 5
to 68 threads and 39 times at 430 (7.7 threads a CPU), x1.38; plain MySQL 5.7's read_write
then collapsed past 430 threads. Those two sweeps are not a pair here: they ran on different
my.cnf files (binary log, adaptive hash index) and data sets, so they stand as two sources,
percona-lab-2016-pk-lookup-remote and percona-lab-2016-oltp-rw-proxy-threadpool, in the fit
only. Against the fit (calibration 20261128.171831), that read_write sweep falls from +0.12 to
+0.14 in log at 13 to 46 threads to -0.33 at 430. Other cached read_write sweeps past the
cores ran no point selects and do not fall: schwenke-2012-55-series-oltp stays within 0.05 of
its one-client miss at 2 and 4 clients a core, and schwenke-2013-mysql-5610-mariadb-1001 sits
higher at 10.7 clients a core than at 1.3 (MariaDB 10.0.1 +0.01 against -0.27, MySQL 5.6.10
-0.07 against -0.14). And one post that ran both tests on one my.cnf past the CPU count
shows the price falling: MySQL 8.0.19 on a 24-vCPU x86 VM, data in a 36 GB pool, durable
commits to a network volume, remote client, ran point selects at 42 to 48 times its
oltp_read_write transactions from 1 to 32 threads and 26 to 30 times at 128 and 256 (a
Kunpeng VM 49 to 58, then 37 to 43; Krunal Bauskar, "MySQL on x86 vs ARM", 2020-04-07,
https://github.com/mysqlonarm/mysqlonarm.github.io/blob/ea50c6ff8292fcb6bfa4583991f4d0353e2ad6be/_posts/2020-04-07-MySQL-on-x86-vs-ARM.md).
It is not in the data: its storage is a provisioned rate on an unnamed network volume, and
added with the volume taken as the other cloud sources' (1 ms, its provisioned 16,500 IOPS),
anchored on its own point selects the model puts its read_write runs up to 32 threads 0.3 to
0.6 in log above what they ran (each commit syncs the redo and the binary log on that
volume), and the median held-out width grows from x2.56 to x3.14. Whether a transaction's
price rises past the cores depends on the server, so a measured machine whose kind takes an
offset is inside the data only where its measurement's threads and its clients, per core, lie
within those of the runs that set the price (priced_loads, with calibration.domain's
tolerance); beyond, its estimates and gains are widened as any outside the data's range, not
moved. A CPU term growing with the log of clients
per core past one, for read_write and update_heavy (or every kind that changes rows), fitted
with the rest, stays at its lower bound 0 (manage.py calibrate, 345 points; again with the 369
points of 20261128.171831, coverage 0.821 against 0.824).
"""

import statistics
from collections import defaultdict
from collections.abc import Collection, Sequence
from dataclasses import dataclass

import numpy as np

from calibration.features import FloatArray
from calibration.measured_cpu import SPEED_INDICES
from calibration.model import LAYOUT, predict_log, predict_with_bottleneck
from calibration.points import Point

# What must agree for one result to stand for the machine's CPU speed in another.
SAME_MACHINE = ("source", "year", "server", "cpu_cores", "ram_gb", "media", "device_count")
# A kind gets an offset when this many sources show it, as a kind gets its own ratio interval
# (calibration.interval.OWN_RATIO_MIN_SOURCES).
MIN_SOURCES = 3
CACHED = 1.0  # pool over data at which every page is in the pool
Loads = dict[str, tuple[float, float]]  # kind -> (lowest, highest) clients per core


def machine_of(point: Point) -> tuple[object, ...]:
    return tuple(getattr(point, name) for name in SAME_MACHINE)


@dataclass(frozen=True, slots=True)
class AnchoredUnit:
    """A cached unit the model finds CPU-bound once c matches a point-select result of its
    machine: how far the published result sits from the model, in log, and its load."""

    kind: str
    source: str
    miss: float  # published - model, log
    loads: tuple[float, float]  # clients per core of the point selects, then of the unit


def anchored_misses(
    points: Sequence[Point], x: dict[str, FloatArray], params: FloatArray
) -> dict[str, dict[str, list[float]]]:
    """kind -> source -> the misses of anchored_units."""
    return misses_by_source(anchored_units(points, x, params))


def misses_by_source(units: Sequence[AnchoredUnit]) -> dict[str, dict[str, list[float]]]:
    misses: dict[str, dict[str, list[float]]] = defaultdict(lambda: defaultdict(list))
    for unit in units:
        misses[unit.kind][unit.source].append(unit.miss)
    return misses


def priced_loads(units: Sequence[AnchoredUnit], kinds: Collection[str]) -> Loads:
    """Per kind of `kinds` (those given an offset), the lowest and highest clients per core of
    the runs that priced it, point selects and units: where a measured machine's price of that
    kind was seen."""
    loads: dict[str, list[float]] = defaultdict(list)
    for unit in units:
        if unit.kind in kinds:
            loads[unit.kind].extend(unit.loads)
    return {kind: (min(values), max(values)) for kind, values in loads.items()}


def anchored_units(
    points: Sequence[Point], x: dict[str, FloatArray], params: FloatArray
) -> list[AnchoredUnit]:
    """Each cached unit the model finds CPU-bound, with c moved so that the model gives a
    cached point-select result of the same machine (each such result in turn)."""
    y = np.log([p.value for p in points])
    machines: dict[tuple[object, ...], list[int]] = defaultdict(list)
    for i, point in enumerate(points):
        machines[machine_of(point)].append(i)
    load = x["concurrency"] / x["cores"]  # clients per core
    units: list[AnchoredUnit] = []
    for members in machines.values():
        cached = [i for i in members if x["pool_to_data"][i] >= CACHED]
        anchors = [i for i in cached if points[i].kind == "read_mostly"]
        others = [i for i in cached if points[i].kind != "read_mostly"]
        if not anchors or not others:
            continue
        rows = {k: v[others] for k, v in x.items()}
        for anchor in anchors:
            one = {k: v[anchor : anchor + 1] for k, v in x.items()}
            moved = np.array(params, dtype=np.float64)
            moved[SPEED_INDICES] += y[anchor] - predict_log(moved, one)[0]
            logs, binding = predict_with_bottleneck(moved, rows)
            for i, log, name in zip(others, logs.tolist(), binding, strict=True):
                if name == "CPU":
                    loads = (float(load[anchor]), float(load[i]))
                    miss = float(y[i] - log)
                    units.append(AnchoredUnit(points[i].kind, points[i].source, miss, loads))
    return units


def kind_cost_offsets(misses: dict[str, dict[str, list[float]]]) -> dict[str, float]:
    """Per kind shown by MIN_SOURCES sources, the median over sources of their median miss
    (anchored_misses): what to add to f_k for a machine that measured its point selects."""
    offsets = {}
    for kind, by_source in misses.items():
        if len(by_source) >= MIN_SOURCES:
            offsets[kind] = statistics.median(statistics.median(m) for m in by_source.values())
    return offsets


def with_kind_offset(params: FloatArray, kind: str, offset: float) -> FloatArray:
    """The parameter vectors (one a row) with f_kind moved by `offset`, in place."""
    if offset:
        params[:, LAYOUT.index(f"f_{kind}")] += offset
    return params
