"""Within-source pairs: one published machine and workload, one configuration against another.

The interval says how far an estimate may sit from a result; a DBA changing a setting wants to
know something else, how well the model predicts the ratio between two configurations of the
same machine. Pairs are points of one source that agree on the machine, the server and the
workload and differ in a setting; their published ratio is compared with the ratio of the
held-out predictions (made by the fit that never saw that source).

Every setting the model reads counts, io_capacity, its max and the redo size among them. A point
whose configuration also changed a setting the model does not read (flag OTHER_SETTINGS: a page
size, the adaptive hash index, buffer pool instances) pairs with nothing: its published ratio to
another point is not the ratio of the settings the two differ in.
"""

import itertools
import math
import statistics
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from calibration.points import Point

# A ratio estimate within this factor of the published one counts as right.
PAIR_TOLERANCE = 1.5
# A published change larger than this whose estimate points the other way is a wrong direction.
DIRECTION_THRESHOLD = 1.25

_MACHINE = ("source", "kind", "unit", "media", "flash_class", "rpm", "device_count",
            "raid_level", "controller_cache", "measured_read_iops", "measured_write_iops",
            "cpu_cores", "ram_gb", "data_gb", "concurrency", "server", "binlog")  # fmt: skip
_SETTINGS = ("bp_gb", "trx_commit", "flush_method", "max_dirty_pct", "read_ahead",
             "io_scheduler", "doublewrite", "access", "log_mb", "io_capacity",
             "io_capacity_max", "change_buffer", "flush_neighbors")  # fmt: skip
# A point's flag: its configuration also differs in a setting the model does not read.
OTHER_SETTINGS = "other_settings"


@dataclass(frozen=True, slots=True)
class Pair:
    first: str  # point ids
    second: str
    published_log_ratio: float  # log(second / first)
    estimated_log_ratio: float  # from the held-out predictions
    changed: tuple[str, ...] = ()  # the settings (Point fields) that differ between the two
    source: str = ""  # the source both points come from

    @property
    def abs_log_error(self) -> float:
        """How far the estimated ratio sits from the published one, in log."""
        return abs(self.estimated_log_ratio - self.published_log_ratio)

    @property
    def within_tolerance(self) -> bool:
        return self.abs_log_error <= math.log(PAIR_TOLERANCE)

    @property
    def wrong_direction(self) -> bool:
        big = abs(self.published_log_ratio) > math.log(DIRECTION_THRESHOLD)
        return big and self.estimated_log_ratio * self.published_log_ratio < 0


def setting_pairs(points: Sequence[Point], predicted_logs: Sequence[float]) -> list[Pair]:
    """Every pair of points of one machine and workload whose settings differ."""
    groups: dict[tuple[object, ...], list[int]] = {}
    for index, point in enumerate(points):
        if OTHER_SETTINGS in point.flags:
            continue
        key = tuple(getattr(point, name) for name in _MACHINE)
        groups.setdefault(key, []).append(index)
    pairs = []
    for members in groups.values():
        for i, j in itertools.combinations(members, 2):
            a, b = points[i], points[j]
            changed = tuple(s for s in _SETTINGS if getattr(a, s) != getattr(b, s))
            if not changed:
                continue  # the same configuration twice (e.g. two binaries): not a setting pair
            pairs.append(
                Pair(
                    a.id,
                    b.id,
                    math.log(b.value / a.value),
                    float(predicted_logs[j] - predicted_logs[i]),
                    changed,
                    a.source,
                )
            )
    return pairs


def pair_summary(pairs: Sequence[Pair]) -> dict[str, object]:
    """The share of pairs within PAIR_TOLERANCE and the wrong directions, for the report."""
    if not pairs:
        return {"pairs": 0, "within_tolerance": None, "wrong_direction": 0}
    return {
        "pairs": len(pairs),
        "tolerance": PAIR_TOLERANCE,
        "within_tolerance": round(sum(bool(p.within_tolerance) for p in pairs) / len(pairs), 3),
        "wrong_direction": sum(bool(p.wrong_direction) for p in pairs),
        "wrong_direction_pairs": [f"{p.first}/{p.second}" for p in pairs if p.wrong_direction],
        # which mechanism the ratios miss; and which sources: the ratio interval weighs every
        # source alike (calibration.gain_spread), so the few whose ratios it misses set its width
        "by_setting": _grouped(pairs, lambda p: "+".join(p.changed) or "unknown"),
        "by_source": _grouped(pairs, lambda p: p.source),
    }


def _grouped(pairs: Sequence[Pair], key: Callable[[Pair], str]) -> dict[str, dict[str, object]]:
    """Per group of pairs (the setting changed, "a+b" for two; or the source), how many, the
    share within PAIR_TOLERANCE, the wrong directions and the median |published - estimated|
    log ratio; most pairs first."""
    groups: dict[str, list[Pair]] = {}
    for pair in pairs:
        groups.setdefault(key(pair), []).append(pair)
    return {
        name: {
            "pairs": len(members),
            "within_tolerance": round(sum(p.within_tolerance for p in members) / len(members), 3),
            "wrong_direction": sum(p.wrong_direction for p in members),
            "median_abs_log_error": round(statistics.median(p.abs_log_error for p in members), 3),
        }
        for name, members in sorted(groups.items(), key=lambda kv: (-len(kv[1]), kv[0]))
    }
