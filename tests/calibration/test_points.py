from calibration.points import load_points, used_points
from rules.bibliography import has_source


def test_the_shipped_data_keeps_every_published_row() -> None:
    points = load_points()
    assert len(points) == 118
    assert len(used_points(points)) >= 100


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
