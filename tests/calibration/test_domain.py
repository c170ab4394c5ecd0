"""The data's range, one definition for the estimator and the held-out scoring."""

import dataclasses

import numpy as np
from hypothesis import given
from hypothesis import strategies as st

from calibration.domain import DOMAIN_COLUMNS, TOLERANCE, beyond, inside, outside_other_sources
from calibration.features import as_arrays, situation_of_point
from calibration.points import load_points, used_points

BASE = next(p for p in used_points(load_points()) if p.source == "percona-lab-2018-tpcc-mysql8")
RANGES = dict.fromkeys(DOMAIN_COLUMNS, (10.0, 100.0))


def values(**changes: float) -> dict[str, float]:
    return {**dict.fromkeys(DOMAIN_COLUMNS, 50.0), "pool_to_data": 0.5, **changes}


def test_within_the_tolerance_beyond_the_range_is_inside() -> None:
    ranges = {**RANGES, "pool_to_data": (0.1, 0.8)}
    assert inside(ranges, values(cores=100.0 * TOLERANCE))
    assert inside(ranges, values(cores=10.0 / TOLERANCE))
    assert not inside(ranges, values(cores=100.0 * TOLERANCE * 1.01))
    assert not inside(ranges, values(cores=10.0 / TOLERANCE / 1.01))


def test_a_pool_larger_than_the_data_counts_as_the_data_just_fitting() -> None:
    ranges = {**RANGES, "pool_to_data": (0.1, 0.8)}
    assert inside(ranges, values(pool_to_data=40.0))  # as 1.0, within 0.8 x 1.25
    assert not inside({**ranges, "pool_to_data": (0.1, 0.5)}, values(pool_to_data=40.0))


@given(st.fixed_dictionaries({c: st.floats(1e-3, 1e6) for c in DOMAIN_COLUMNS}))
def test_beyond_names_exactly_the_columns_outside_their_range(values) -> None:
    """What the estimator tells a user (Estimate.outside) is what made it outside: each column
    whose value (a pool past the data as 1) lies beyond its range by more than TOLERANCE, with
    that range, and no other; inside the data, none."""
    ranges = {**RANGES, "pool_to_data": (0.1, 0.8)}
    found = {b.column: b for b in beyond(ranges, values)}
    for column, (low, high) in ranges.items():
        value = min(values[column], 1.0) if column == "pool_to_data" else values[column]
        out = value < low / TOLERANCE or value > high * TOLERANCE
        assert (column in found) == out, column
        if out:
            assert (found[column].value, found[column].low, found[column].high) == (
                value,
                low,
                high,
            )
    assert inside(ranges, values) == (not found)


def point(id: str, source: str, **changes: object):
    return dataclasses.replace(BASE, id=id, source=source, **changes)


def test_a_point_beyond_the_other_sources_is_outside_even_if_its_own_source_spans_it() -> None:
    points = [
        point("a1", "a", cpu_cores=8),
        point("a2", "a", cpu_cores=2),  # no other source has fewer than 8 cores
        point("b1", "b", cpu_cores=8),
        point("c1", "c", cpu_cores=10),  # within 8 x 1.25
    ]
    x = as_arrays([situation_of_point(p) for p in points])
    outside = outside_other_sources(x, [p.source for p in points], [p.kind for p in points])
    assert outside.tolist() == [False, True, False, False]


def test_a_kind_no_other_source_has_is_outside() -> None:
    points = [point("a1", "a", kind="read_write"), point("b1", "b"), point("c1", "c")]
    x = as_arrays([situation_of_point(p) for p in points])
    outside = outside_other_sources(x, [p.source for p in points], [p.kind for p in points])
    assert outside.tolist() == [True, False, False]
    assert isinstance(outside, np.ndarray)
