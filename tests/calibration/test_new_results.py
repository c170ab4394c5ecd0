"""Scoring results the calibration never saw (calibration.new_results): the same intervals the
estimator gives, rows of a fitted source set aside, and a hostile file stopped with its line
and column named."""

import csv
import io
import math
import re
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from calibration.artifact import load_latest
from calibration.estimator import CalibratedEstimator
from calibration.features import situation_of_point
from calibration.new_results import (
    NON_NEGATIVE_COLUMNS,
    POSITIVE_COLUMNS,
    ResultsFileError,
    read_results,
    score,
)
from calibration.pairs import PAIR_TOLERANCE
from calibration.points import DATA_FILES, Point

CALIBRATION = load_latest()
assert CALIBRATION is not None, "the repository ships a calibration artifact"
ESTIMATOR = CalibratedEstimator(CALIBRATION)
DATA = Path(__file__).resolve().parents[2] / "calibration" / "data"
HEADER, *SHIPPED = list(csv.reader((DATA / DATA_FILES[0]).read_text("utf-8").splitlines()))
ROWS = [dict(zip(HEADER, row, strict=True)) for row in SHIPPED]
# published.csv's columns beyond benchmarks.csv's (the network volume's read latency)
FIELDS = HEADER + [c for c in POSITIVE_COLUMNS + NON_NEGATIVE_COLUMNS if c not in HEADER]
# one machine's runs at several buffer pools and doublewrite settings: pairs to score
MACHINE = "percona-2016-tpcc-samsung"


def write(path: Path, rows: list[dict[str, str]]) -> Path:
    out = io.StringIO()
    writer = csv.DictWriter(out, fieldnames=FIELDS)
    writer.writeheader()
    writer.writerows(rows)
    path.write_text(out.getvalue(), "utf-8")
    return path


def read_or_refusal(path: Path) -> tuple[tuple[Point, ...], str]:
    """The file's points and "", or none and the reason read_results refused it."""
    try:
        return read_results(path), ""
    except ResultsFileError as error:
        return (), str(error)


def renamed(source: str) -> list[dict[str, str]]:
    """A shipped source's used rows under a name the calibration never saw."""
    rows = [r for r in ROWS if r["source"] == source and not r["excluded"]]
    assert len(rows) >= 4
    return [{**r, "source": f"new-{source}"} for r in rows]


def test_each_result_gets_the_interval_the_estimator_gives_its_machine(tmp_path):
    rows = renamed(MACHINE)
    report = score(read_results(write(tmp_path / "r.csv", rows)), CALIBRATION)
    assert report["points"] == len(rows)
    inside = 0
    for row, scored in zip(rows, report["table"], strict=True):
        (point,) = read_results(write(tmp_path / "one.csv", [row]))
        estimate = ESTIMATOR.estimate_situation(
            situation_of_point(point, CALIBRATION.device_corrections)
        )
        assert (scored["low"], scored["high"]) == (estimate.low, estimate.high)
        inside += estimate.low <= float(row["value"]) <= estimate.high
    assert report["coverage"] == round(inside / len(rows), 3)
    assert sum(g["points"] for g in report["by_group"]["kind"].values()) == len(rows)


def test_rows_of_a_source_the_calibration_was_fitted_on_are_set_aside_and_not_scored(tmp_path):
    fitted = [r for r in ROWS if r["source"] == MACHINE and not r["excluded"]]
    new = renamed("callaghan-2009-2disk")
    report = score(read_results(write(tmp_path / "r.csv", fitted + new)), CALIBRATION)
    assert report["points"] == len(new)
    assert {r["source"] for r in report["table"]} == {"new-callaghan-2009-2disk"}
    assert len(report["set_aside"]) == len(fitted)
    assert all("fitted on this source" in r["reason"] for r in report["set_aside"])


def test_a_pairs_published_ratio_is_judged_against_its_estimated_ratio(tmp_path):
    """Two runs of one machine that differ in the buffer pool: the second's result set to the
    model's own ratio is within tolerance and inside its gain interval; ten times that is
    neither, and a tenth points the wrong way."""
    first, second = renamed(MACHINE)[:2]
    assert first["bp_gb"] != second["bp_gb"]
    points = read_results(write(tmp_path / "p.csv", [first, second]))
    logs = [
        ESTIMATOR.situation_with_centre(situation_of_point(p, CALIBRATION.device_corrections))[1]
        for p in points
    ]
    ratio = math.exp(logs[1] - logs[0])
    for factor, within in ((1.0, True), (10.0, False), (0.1, False)):
        value = f"{float(first['value']) * ratio * factor:.6g}"
        path = write(tmp_path / "p.csv", [first, {**second, "value": value}])
        pairs = score(read_results(path), CALIBRATION)["pairs"]
        assert pairs["pairs"] == 1
        assert (pairs["within_tolerance"] == 1.0) is within, factor
        assert (pairs["gain_interval_coverage"] == 1.0) is within, factor
    assert PAIR_TOLERANCE < 10.0
    assert ratio > 1  # estimated up, published (x0.1) down by far more than 25%
    assert pairs["wrong_direction"] == 1


def test_a_row_in_another_unit_or_of_an_unknown_media_is_set_aside_with_its_reason(tmp_path):
    good, other_unit, odd_media = renamed(MACHINE)[:3]
    rows = [good, {**other_unit, "unit": "transactions/s"}, {**odd_media, "media": "tape"}]
    report = score(read_results(write(tmp_path / "r.csv", rows)), CALIBRATION)
    assert report["points"] == 1
    reasons = {r["id"]: r["reason"] for r in report["set_aside"]}
    assert "oltp is scored in NOTPM" in reasons[other_unit["id"]]
    assert "tape" in reasons[odd_media["id"]]


def test_a_file_without_the_columns_is_refused_naming_them(tmp_path):
    path = tmp_path / "r.csv"
    path.write_text("id,source,value\n1,a,2\n", "utf-8")
    with pytest.raises(ResultsFileError, match="missing columns: year, kind, unit, excluded"):
        read_results(path)


def test_a_file_that_is_not_text_is_refused(tmp_path):
    path = tmp_path / "r.csv"
    path.write_bytes(b"\xff\xfe\x00\x81" * 64)
    with pytest.raises(ResultsFileError, match="cannot be read as UTF-8 text"):
        read_results(path)


NUMERIC = POSITIVE_COLUMNS + NON_NEGATIVE_COLUMNS
HOSTILE = st.one_of(
    st.sampled_from(["nan", "inf", "-inf", "-1", "0", "1e400", "1e13", "0x10", "1,5", " "]),
    st.text(max_size=30),
    st.floats(allow_nan=True, allow_infinity=True).map(repr),
)


@settings(
    max_examples=200, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(column=st.sampled_from(NUMERIC), text=HOSTILE)
def test_a_hostile_number_is_refused_naming_its_line_and_column_or_scored(tmp_path, column, text):
    row = {**renamed(MACHINE)[0], column: text}
    path = write(tmp_path / "h.csv", [row])
    points, refused = read_or_refusal(path)
    if refused:
        # the row's last line: past 2 where the field holds line breaks, which the file quotes
        assert re.match(r"line \d+ \(id '\d+'\): ", refused)
        assert column in refused
        return
    report = score(points, CALIBRATION)  # what reads is scored or set aside, never raises
    for scored in report["table"]:
        assert math.isfinite(scored["low"])
        assert math.isfinite(scored["high"])
        assert 0 < scored["low"] <= scored["high"]


WORDS = ("kind", "unit", "media", "flash_class", "raid_level", "controller_cache",
         "flush_method", "read_ahead", "io_scheduler", "doublewrite", "access", "binlog",
         "server", "notes", "flags", "assumed_fields")  # fmt: skip


@settings(
    max_examples=200, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(column=st.sampled_from(WORDS), text=st.text(max_size=40))
def test_any_text_in_a_word_column_is_scored_or_set_aside_with_a_reason(tmp_path, column, text):
    row = {**renamed(MACHINE)[0], column: text}
    report = score(read_results(write(tmp_path / "w.csv", [row])), CALIBRATION)
    assert report["points"] + len(report["set_aside"]) == 1
    for aside in report["set_aside"]:
        assert aside["reason"]
    for scored in report["table"]:
        assert 0 < scored["low"] <= scored["high"] < math.inf


@settings(
    max_examples=200, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(
    lines=st.lists(
        st.one_of(
            st.text(max_size=80),
            st.lists(st.text(max_size=12), max_size=len(FIELDS) + 3).map(",".join),
        ),
        max_size=4,
    ),
    header=st.one_of(st.just(len(FIELDS)), st.integers(0, len(FIELDS))),
)
def test_any_file_is_read_or_refused_with_a_reason_never_a_crash(tmp_path, lines, header):
    """The header cut short at any column, then rows of any text or any fields."""
    path = tmp_path / "any.csv"
    path.write_text("\n".join([",".join(FIELDS[:header]), *lines]), "utf-8")
    points, refused = read_or_refusal(path)
    if refused:
        assert re.match(rf"({re.escape(str(path))}: missing columns|line \d+)", refused)
        return
    report = score(points, CALIBRATION)
    assert report["points"] + len(report["set_aside"]) == len(points)
