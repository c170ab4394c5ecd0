"""Published results the model was not fitted on, scored against the shipped calibration.

`manage.py calibrate` scores the model on its own data by leaving one source out at a time.
A result from a source it never saw is the test that matters (issue 9: "we will check the
estimates on the results kept aside"), and a lab with its own results should be able to run
it too. Each row, in calibration/data/benchmarks.csv's columns, gets the 80% interval the
estimator gives its machine and configuration (CalibratedEstimator.situation_with_centre, so
widened where it lies outside the data's range), and each pair of rows of one machine that
differ in settings gets the gain interval (CalibratedEstimator.gain_of_logs), unless it changes a
class the calibration's gain does not price (calibration.gain_spread): such a pair is counted
apart, as a result's gain would list that change beside it.

A row whose source the calibration was fitted on is not new: it is set aside, named, and
scored nowhere, so a file mixing the shipped data with new rows cannot flatter the figures.
"""

import csv
import io
import math
import statistics
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from calibration.calibrate import Calibration, era_of
from calibration.estimator import CalibratedEstimator
from calibration.features import situation_of_point
from calibration.gain_spread import pair_changes
from calibration.pairs import Pair, pair_summary, setting_pairs
from calibration.points import UNITS, Point, point_of_row
from rules.output.result import Estimate

DIMENSIONS = ("kind", "media", "era", "bottleneck", "domain")  # as calibrate's by_group
REQUIRED_COLUMNS = ("id", "source", "year", "kind", "unit", "value", "excluded")
# The numeric columns a row's Point reads: sizes, counts and rates of a machine and its run.
POSITIVE_COLUMNS = ("value", "data_gb", "bp_gb", "ram_gb", "cpu_cores", "concurrency")
NON_NEGATIVE_COLUMNS = ("year", "rpm", "device_count", "measured_read_iops",
                        "measured_write_iops", "trx_commit", "max_dirty_pct", "log_mb",
                        "io_capacity", "read_latency_ms")  # fmt: skip
USED_ROWS_NEED = frozenset((*POSITIVE_COLUMNS, "device_count", "trx_commit"))
NUMERIC_COLUMNS = frozenset(POSITIVE_COLUMNS + NON_NEGATIVE_COLUMNS)
WHOLE_COLUMNS = frozenset({"year", "rpm", "cpu_cores", "concurrency", "device_count", "trx_commit"})
LARGEST = 1e12  # no column of a real machine or run comes near it (rows/s, GB, IOPS)


class ResultsFileError(ValueError):
    """A file that cannot be read as results, with the row and column that stopped it."""


def read_results(path: Path) -> tuple[Point, ...]:
    """The rows of a CSV file in calibration/data/benchmarks.csv's columns, as Points; a
    missing column or a value that is not a number stops it with the row and column named."""
    try:
        text = path.read_text("utf-8")
    except (OSError, UnicodeDecodeError) as error:
        raise ResultsFileError(f"{path}: cannot be read as UTF-8 text ({error})") from None
    # a file, not str.splitlines(): that also splits on \x1c-\x1e, \x85 and U+2028 inside a
    # field, and the csv module keeps a quoted field's line breaks itself
    reader = csv.DictReader(io.StringIO(text, newline=""), restval="")  # short row: ""
    try:
        return _points(path, reader)
    except csv.Error as error:  # e.g. a field past the csv module's size limit
        raise ResultsFileError(f"line {reader.line_num}: {error}") from None


def _points(path: Path, reader: "csv.DictReader[str]") -> tuple[Point, ...]:
    missing = [c for c in REQUIRED_COLUMNS if c not in (reader.fieldnames or ())]
    if missing:
        raise ResultsFileError(f"{path}: missing columns: {', '.join(missing)}")
    points = []
    for row in reader:
        number = reader.line_num  # the row's last line: a quoted field may hold line breaks
        row = {k: (v.strip() if k in NUMERIC_COLUMNS and v else v) for k, v in row.items()}
        problem = _bad_number(row)
        if problem:
            raise ResultsFileError(f"line {number} (id {row.get('id')!r}): {problem}")
        try:
            points.append(point_of_row(row))
        except KeyError as error:
            raise ResultsFileError(f"line {number}: missing column {error}") from None
        except (TypeError, ValueError) as error:
            raise ResultsFileError(f"line {number} (id {row.get('id')!r}): {error}") from None
    return tuple(points)


@dataclass(frozen=True, slots=True)
class ScoredPoint:
    point: Point
    estimate: Estimate
    centre_log: float  # the estimate's centre, log of the unit: the pairs' estimated ratios

    @property
    def covered(self) -> bool:
        return self.estimate.low <= self.point.value <= self.estimate.high

    @property
    def log_error(self) -> float:
        """published - estimated, in log: positive where the model predicted low."""
        return math.log(self.point.value) - self.centre_log

    @property
    def width_ratio(self) -> float:
        return self.estimate.high / self.estimate.low

    def group(self, dimension: str) -> str:
        point = self.point
        return {
            "kind": point.kind,
            "media": point.media,
            "era": era_of(point.year),
            "bottleneck": self.estimate.bottleneck,
            "domain": "inside" if self.estimate.in_domain else "outside",
        }[dimension]


@dataclass(frozen=True, slots=True)
class ScoredPair:
    pair: Pair
    gain: Estimate | None  # None: the pair changes a class the gain does not price

    @property
    def covered(self) -> bool:
        ratio = math.exp(self.pair.published_log_ratio)
        return self.gain is not None and self.gain.low <= ratio <= self.gain.high


def _bad_number(row: dict[str, str | None]) -> str:
    """The first numeric column of `row` that is not a finite number in its range ("" when
    none is): a used row needs its machine's sizes, each above zero."""
    used = not row.get("excluded")
    for column in POSITIVE_COLUMNS + NON_NEGATIVE_COLUMNS:
        text = row.get(column) or ""
        if not text:
            if used and column in USED_ROWS_NEED:
                return f"{column}: empty, and a row that is not excluded needs it"
            continue
        try:
            value = int(text) if column in WHOLE_COLUMNS else float(text)
        except ValueError:
            whole = "whole " if column in WHOLE_COLUMNS else ""
            return f"{column}: {text[:40]!r} is not a {whole}number"
        floor_ok = value > 0 if column in POSITIVE_COLUMNS else value >= 0
        if not math.isfinite(value) or not floor_ok or value > LARGEST:
            low = "above 0" if column in POSITIVE_COLUMNS else "0 or more"
            return f"{column}: {text[:40]!r} must be a finite number {low}, at most {LARGEST:g}"
    return ""


def unscorable(point: Point) -> str:
    """Why a row cannot be scored ("" when it can): the unit must be its kind's reference
    unit, as the model predicts in no other."""
    if point.kind not in UNITS:
        return f"kind {point.kind!r} is not one of {', '.join(sorted(UNITS))}"
    if point.unit != UNITS[point.kind]:
        return f"unit {point.unit!r}: {point.kind} is scored in {UNITS[point.kind]}"
    if not point.value > 0:
        return "value must be a positive throughput"
    return ""


def score(points: Sequence[Point], calibration: Calibration) -> dict[str, Any]:
    """The report: coverage, width and error of the point intervals (overall and by kind,
    media, era, bottleneck and domain), the pairs' ratio accuracy and gain-interval coverage,
    and every row set aside with its reason."""
    fitted_on = set(calibration.loso_params)
    set_aside: list[dict[str, str]] = []
    scorable: list[Point] = []
    for point in points:
        if point.excluded:
            why = f"excluded in the file: {point.excluded}"
        elif point.source in fitted_on:
            why = "the calibration was fitted on this source"
        else:
            why = unscorable(point)
        if why:
            set_aside.append({"id": point.id, "source": point.source, "reason": why})
        else:
            scorable.append(point)
    estimator = CalibratedEstimator(calibration)
    scored = []
    for point in scorable:
        try:
            scored.append(_scored(estimator, calibration, point))
        except ValueError as error:  # a media, RAID level or cache the model does not know
            set_aside.append({"id": point.id, "source": point.source, "reason": str(error)})
    pairs = _scored_pairs(estimator, scored)
    return {
        "calibration": calibration.version,
        **_summary(scored),
        "by_group": {d: _by(scored, d) for d in DIMENSIONS},
        "pairs": {
            **pair_summary([p.pair for p in pairs]),
            "gain_interval_coverage": _share(p.covered for p in pairs if p.gain is not None),
            "unpriced_pairs": sum(p.gain is None for p in pairs),
        },
        "set_aside": set_aside,
        "table": [_row(s) for s in scored],
    }


def _scored(estimator: CalibratedEstimator, calibration: Calibration, point: Point) -> ScoredPoint:
    situation = situation_of_point(point, calibration.device_corrections)
    return ScoredPoint(point, *estimator.situation_with_centre(situation))


def _scored_pairs(
    estimator: CalibratedEstimator, scored: Sequence[ScoredPoint]
) -> list[ScoredPair]:
    """Each pair with its gain interval: each class's change alone under the fitted vector
    (calibration.gain_spread.pair_changes); None for a pair changing an unpriced class."""
    points = [s.point for s in scored]
    pairs = setting_pairs(points, [s.centre_log for s in scored])
    params = np.array(estimator.calibration_params)
    outside = np.array([not s.estimate.in_domain for s in scored], dtype=bool)
    changes = pair_changes(pairs, points, lambda _: params, outside)
    by_id = {s.point.id: s for s in scored}
    unpriced = estimator.unpriced_classes
    return [
        ScoredPair(
            pair,
            None
            if not unpriced.keys().isdisjoint(change.changes)
            else estimator.gain_of_logs(
                pair.estimated_log_ratio,
                by_id[pair.second].estimate.bottleneck,
                inside=not change.outside,
                changes=change.changes,
                same_bottleneck=change.same_bottleneck,
            ),
        )
        for pair, change in zip(pairs, changes, strict=True)
    ]


def _summary(scored: Sequence[ScoredPoint]) -> dict[str, Any]:
    if not scored:
        return {"points": 0, "sources": 0, "coverage": None}
    return {
        "points": len(scored),
        "sources": len({s.point.source for s in scored}),
        "coverage": _share(s.covered for s in scored),
        "median_width_ratio": round(statistics.median(s.width_ratio for s in scored), 2),
        "median_abs_log_error": round(statistics.median(abs(s.log_error) for s in scored), 3),
        "median_log_error": round(statistics.median(s.log_error for s in scored), 3),
    }


def _by(scored: Sequence[ScoredPoint], dimension: str) -> dict[str, dict[str, Any]]:
    names = sorted({s.group(dimension) for s in scored})
    return {name: _summary([s for s in scored if s.group(dimension) == name]) for name in names}


def _share(flags: Any) -> float | None:
    values = [bool(f) for f in flags]
    return round(sum(values) / len(values), 3) if values else None


def _row(s: ScoredPoint) -> dict[str, Any]:
    return {
        "id": s.point.id,
        "source": s.point.source,
        "kind": s.point.kind,
        "unit": s.point.unit,
        "published": s.point.value,
        "estimated": round(math.exp(s.centre_log), 1),
        "low": s.estimate.low,
        "high": s.estimate.high,
        "covered": s.covered,
        "bottleneck": s.estimate.bottleneck,
        "in_domain": s.estimate.in_domain,
        "outside": list(s.estimate.outside),
    }
