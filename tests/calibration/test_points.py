import csv
from pathlib import Path

import pytest

from calibration.points import DATA_FILES, load_points, update_test_of, used_points
from rules.reference.bibliography import has_source


def test_the_shipped_data_keeps_every_published_row() -> None:
    """Every row of both files: the shared set (118, as imported) and the collected ones."""
    folder = Path(__file__).resolve().parents[2] / "calibration" / "data"
    rows = sum(
        len(list(csv.DictReader((folder / name).read_text("utf-8").splitlines())))
        for name in DATA_FILES
    )
    points = load_points()
    assert len(points) == rows
    assert len(load_points(folder / "benchmarks.csv")) == 118
    assert len(used_points(points)) >= 250
    assert len({p.source for p in used_points(points)}) >= 40


def test_every_collected_row_names_its_url_author_and_date() -> None:
    path = Path(__file__).resolve().parents[2] / "calibration" / "data" / "published.csv"
    with path.open(encoding="utf-8") as handle:
        for row in csv.DictReader(handle):
            assert row["url"].startswith("https://"), row["id"]
            assert row["author"], row["id"]
            assert row["date"][:4].isdigit(), row["id"]


def test_every_row_cites_a_bibliography_source() -> None:
    assert all(has_source(p.source) for p in load_points())


def test_excluded_rows_say_why_and_used_rows_are_complete() -> None:
    for point in load_points():
        if point.excluded:
            assert len(point.excluded) > 10
        else:
            assert point.value > 0
            assert point.data_gb > 0
            assert point.bp_gb > 0
            assert point.kind
            assert point.media
            assert point.cpu_cores > 0


def test_ratio_and_device_rows_are_kept_but_excluded() -> None:
    by_id = {p.id: p for p in load_points()}
    assert "ratio only" in by_id["26"].excluded
    assert "device-level" in by_id["146"].excluded
    assert "dip level" in by_id["54"].excluded


def test_guessed_fields_are_named_on_the_row() -> None:
    by_id = {p.id: p for p in load_points()}
    assert "rpm" in by_id["1"].assumed_fields  # seed 000 does not state the disks' rpm
    assert by_id["114"].assumed_fields == frozenset()  # the 2026 sweep states everything


@pytest.mark.parametrize(
    ("kind", "notes", "test"),
    [
        ("update_heavy", "sysbench microbenchmark update-index (range=100 setting)", "index"),
        (
            "update_heavy",
            "sysbench microbenchmark update-nonindex (range=100 setting)",
            "non_index",
        ),
        ("update_heavy", "oltp_update_non_index, 16 threads", "non_index"),
        ("update_heavy", "Intel Optane 960; group commit", ""),
        ("read_write", "update-index mentioned in a read_write row's notes", ""),
    ],
)
def test_an_update_run_takes_the_sysbench_test_its_notes_name(kind, notes, test) -> None:
    assert update_test_of(kind, notes) == test


def test_the_shipped_update_runs_that_name_a_test_get_it() -> None:
    """Callaghan's cached update runs name update-index or update-nonindex: both are found."""
    tests = {p.update_test for p in load_points() if p.kind == "update_heavy" and p.used}
    assert tests == {"", "index", "non_index"}
