"""Within-source pairs: only one machine under two configurations counts as a pair."""

import dataclasses
import math

import pytest

from calibration.pairs import OTHER_SETTINGS, Pair, pair_summary, setting_pairs
from calibration.points import load_points, used_points

BASE = next(p for p in used_points(load_points()) if p.source == "percona-lab-2018-tpcc-mysql8")


def point(id: str, value: float, **changes: object):
    return dataclasses.replace(BASE, id=id, value=value, **changes)


def test_a_setting_change_on_one_machine_is_a_pair_with_its_published_ratio() -> None:
    small, big = point("a", 100.0, bp_gb=10.0), point("b", 300.0, bp_gb=40.0)
    (pair,) = setting_pairs([small, big], [math.log(100.0), math.log(250.0)])
    assert pair.published_log_ratio == pytest.approx(math.log(3.0))
    assert pair.estimated_log_ratio == pytest.approx(math.log(2.5))
    assert pair.within_tolerance  # 2.5 is within x1.5 of 3


def test_another_volume_is_another_machine_not_a_pair() -> None:
    """Two provisioned cloud volumes (1,800 and 3,600 IOPS) differ in the machine itself."""
    slow = point("a", 100.0, measured_read_iops=1800.0, measured_write_iops=1800.0)
    fast = point("b", 200.0, bp_gb=40.0, measured_read_iops=3600.0, measured_write_iops=3600.0)
    assert setting_pairs([slow, fast], [0.0, 0.0]) == []


def test_io_capacity_and_the_redo_size_are_settings_that_make_a_pair() -> None:
    low = point("a", 100.0, io_capacity=200.0, log_mb=2048.0)
    high = point("b", 110.0, io_capacity=2000.0, log_mb=2048.0)
    bigger_redo = point("c", 120.0, io_capacity=200.0, log_mb=40960.0)
    pairs = setting_pairs([low, high, bigger_redo], [0.0, 0.0, 0.0])
    assert {(p.first, p.second, p.changed) for p in pairs} == {
        ("a", "b", ("io_capacity",)),
        ("a", "c", ("log_mb",)),
        ("b", "c", ("log_mb", "io_capacity")),
    }


def test_a_point_that_changed_a_setting_the_model_does_not_read_pairs_with_nothing() -> None:
    """callaghan-2020-ibench-nuc-innodb-configs' 8K-page configuration also raised io_capacity:
    its ratio to the 16K baseline is not io_capacity's."""
    base = point("a", 3542.0, io_capacity=200.0)
    page_8k = dataclasses.replace(
        point("b", 2715.0, io_capacity=1000.0), flags=frozenset({OTHER_SETTINGS})
    )
    assert setting_pairs([base, page_8k], [0.0, 0.0]) == []
    flagged = {p.id for p in load_points() if OTHER_SETTINGS in p.flags}
    assert {"p120", "p121", "p125"} <= flagged  # page size 8K and 4K, one pool instance


def test_a_row_that_states_its_flush_neighbours_pairs_on_them() -> None:
    """XtraDB 5.5's innodb_flush_neighbor_pages area, cont and none on one machine
    (schwenke-2012-55-series-oltp's res_A, res_C, res_D): the rows' flush_neighbors column, not
    the release's default, tells the three configurations apart."""
    by_id = {p.id: p for p in load_points()}
    runs = [by_id[i] for i in ("p242", "p243", "p244")]
    assert [p.flush_neighbors for p in runs] == [2, 1, 0]
    pairs = setting_pairs(runs, [0.0, 0.0, 0.0])
    assert {p.changed for p in pairs} == {("flush_neighbors",)}
    assert len(pairs) == 3
    # a row that says nothing keeps its release's default: MySQL 5.5 flushed the whole extent
    assert by_id["p224"].flush_neighbors == 2


def test_the_same_configuration_twice_is_not_a_pair() -> None:
    assert setting_pairs([point("a", 100.0), point("b", 120.0)], [0.0, 0.0]) == []


def test_a_wrong_direction_needs_a_published_change_above_a_quarter() -> None:
    big_change = Pair("a", "b", published_log_ratio=math.log(1.5), estimated_log_ratio=-0.1)
    small_change = Pair("a", "b", published_log_ratio=math.log(1.1), estimated_log_ratio=-0.1)
    assert big_change.wrong_direction
    assert not small_change.wrong_direction
    summary = pair_summary([big_change, small_change])
    assert summary["wrong_direction"] == 1
    assert summary["wrong_direction_pairs"] == ["a/b"]


def test_the_summary_counts_pairs_by_the_setting_that_changed() -> None:
    small, big = point("a", 100.0, bp_gb=10.0), point("b", 300.0, bp_gb=40.0)
    no_dw = point("c", 130.0, bp_gb=10.0, doublewrite="off")
    pairs = setting_pairs([small, big, no_dw], [math.log(100.0), math.log(150.0), 4.6])
    by_setting = pair_summary(pairs)["by_setting"]
    assert by_setting["bp_gb"] == {
        "pairs": 1,
        "within_tolerance": 0.0,
        "wrong_direction": 0,
        "median_abs_log_error": round(math.log(2.0), 3),
    }
    assert by_setting["doublewrite"]["pairs"] == 1
    assert by_setting["bp_gb+doublewrite"]["pairs"] == 1


def test_the_summary_counts_pairs_by_source_with_their_median_ratio_error() -> None:
    small, big = point("a", 100.0, bp_gb=10.0), point("b", 300.0, bp_gb=40.0)
    other = dataclasses.replace(BASE, source="another-source")
    near, far = (
        dataclasses.replace(other, id="c", value=100.0, bp_gb=10.0),
        dataclasses.replace(other, id="d", value=110.0, bp_gb=40.0),
    )
    logs = [math.log(100.0), math.log(150.0), math.log(100.0), math.log(110.0)]
    by_source = pair_summary(setting_pairs([small, big, near, far], logs))["by_source"]
    assert by_source[BASE.source]["pairs"] == 1
    assert by_source[BASE.source]["median_abs_log_error"] == round(math.log(2.0), 3)
    assert by_source[BASE.source]["within_tolerance"] == 0.0
    assert by_source["another-source"]["median_abs_log_error"] == 0.0
    assert by_source["another-source"]["within_tolerance"] == 1.0
