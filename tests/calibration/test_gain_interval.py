"""The gain's interval: from the pairs inside the data's range, widened outside it by a factor
the pairs outside measured; changes to how the logs are flushed apart from the rest."""

import dataclasses

import numpy as np

from calibration.gain_interval import (
    SYNC_PATH,
    change_on_sync_path,
    gain_bounds,
    pair_on_sync_path,
    ratio_bounds_for,
)
from calibration.interval import GROUP_MIN_SOURCES, OUT_OF_DOMAIN_WIDENING, symmetric_bounds
from calibration.pairs import Pair
from calibration.points import load_points, used_points

BASE = next(p for p in used_points(load_points()) if p.source == "percona-lab-2018-tpcc-mysql8")


def machine(source: str, errors: list[float]) -> tuple[list, list[Pair]]:
    """One source's points, each paired with the first, the pair's held-out ratio off by `error`."""
    points = [dataclasses.replace(BASE, id=f"{source}-0", source=source)]
    pairs = []
    for i, error in enumerate(errors, start=1):
        points.append(dataclasses.replace(BASE, id=f"{source}-{i}", source=source))
        pairs.append(Pair(f"{source}-0", f"{source}-{i}", error, 0.0))
    return points, pairs


def data(inside: int, outside: int, outside_error: float):
    rng = np.random.default_rng(3)
    points, pairs, out = [], [], []
    for i in range(inside + outside):
        far = i >= inside
        spread = outside_error if far else 0.2
        own_points, own_pairs = machine(f"s{i}", list(rng.normal(0.0, spread, 3)))
        points += own_points
        pairs += own_pairs
        out += [far] * len(own_points)
    return points, pairs, np.array(out)


def test_the_gain_interval_inside_comes_from_the_pairs_inside_alone() -> None:
    points, pairs, outside = data(inside=12, outside=GROUP_MIN_SOURCES, outside_error=2.0)
    gain = gain_bounds(pairs, points, outside)
    inner = [p for p in pairs if not outside[[q.id for q in points].index(p.first)]]
    expected = symmetric_bounds(
        np.array([p.published_log_ratio for p in inner]), [p.first.split("-")[0] for p in inner]
    )
    assert gain.bounds["pooled"] == expected
    assert gain.bounds["pooled"][1] < 0.6  # the outside pairs' misses of ~2 log left out


def test_pairs_outside_that_miss_widely_widen_the_gain_interval_outside() -> None:
    points, pairs, outside = data(inside=12, outside=GROUP_MIN_SOURCES, outside_error=1.0)
    assert gain_bounds(pairs, points, outside).out_of_domain_widening > 2.0
    points, pairs, outside = data(inside=12, outside=GROUP_MIN_SOURCES, outside_error=0.05)
    assert gain_bounds(pairs, points, outside).out_of_domain_widening == 1.0


def test_too_few_sources_outside_keep_the_default_gain_widening() -> None:
    points, pairs, outside = data(inside=12, outside=GROUP_MIN_SOURCES - 1, outside_error=3.0)
    assert gain_bounds(pairs, points, outside).out_of_domain_widening == OUT_OF_DOMAIN_WIDENING


def with_extra_sources(sources: int, spread: float, *, seed: int, pairs: int, **fields):
    """gain_bounds' arguments for 12 oltp sources missing their ratios by ~0.2 in log and
    `sources` more, each with `pairs` pairs missed by ~`spread`, its points and pairs given
    `fields` (a Point's kind, a Pair's changed)."""
    points, every_pair, _ = data(inside=12, outside=0, outside_error=0.0)
    point_fields = {k: v for k, v in fields.items() if k != "changed"}
    pair_fields = {k: v for k, v in fields.items() if k == "changed"}
    rng = np.random.default_rng(seed)
    for i in range(sources):
        own_points, own_pairs = machine(f"extra{i}", list(rng.normal(0.0, spread, pairs)))
        points += [dataclasses.replace(p, **point_fields) for p in own_points]
        every_pair += [dataclasses.replace(p, **pair_fields) for p in own_pairs]
    return every_pair, points, np.zeros(len(points), dtype=bool)


def with_read_write(sources: int, spread: float):
    """`sources` read_write sources beside the 12 oltp ones (with_extra_sources)."""
    return with_extra_sources(sources, spread, seed=5, pairs=3, kind="read_write")


def test_a_kind_from_few_sources_may_widen_the_gain_interval_but_not_narrow_it() -> None:
    few = GROUP_MIN_SOURCES - 1
    bounds = gain_bounds(*with_read_write(few, spread=0.01)).bounds
    assert bounds["read_write"] == bounds["pooled"]  # its tiny misses are not enough to narrow
    bounds = gain_bounds(*with_read_write(few, spread=1.5)).bounds
    assert bounds["read_write"][1] > bounds["pooled"][1] * 2  # its large misses widen
    assert bounds["read_write"][0] < bounds["pooled"][0] * 2


def test_a_kind_from_enough_sources_takes_its_own_narrower_gain_interval() -> None:
    bounds = gain_bounds(*with_read_write(GROUP_MIN_SOURCES, spread=0.01)).bounds
    assert bounds["read_write"][1] < bounds["pooled"][1] / 4


def with_sync_pairs(sources: int, spread: float):
    """`sources` sources whose pairs change trx_commit beside the 12 oltp ones."""
    return with_extra_sources(sources, spread, seed=7, pairs=2, changed=("trx_commit",))


def test_pairs_changing_how_the_logs_are_flushed_leave_the_pooled_interval_for_their_own() -> None:
    without = gain_bounds(*with_sync_pairs(0, spread=0.0)).bounds
    bounds = gain_bounds(*with_sync_pairs(GROUP_MIN_SOURCES, spread=1.5)).bounds
    assert bounds["pooled"] == without["pooled"]  # their misses of ~1.5 left out of it
    assert bounds[SYNC_PATH][1] > bounds["pooled"][1] * 3
    assert SYNC_PATH not in without


def test_few_sources_of_log_flushing_pairs_widen_their_interval_but_never_narrow_it() -> None:
    bounds = gain_bounds(*with_sync_pairs(GROUP_MIN_SOURCES - 1, spread=0.01)).bounds
    assert bounds[SYNC_PATH] == bounds["pooled"]
    bounds = gain_bounds(*with_sync_pairs(GROUP_MIN_SOURCES, spread=0.01)).bounds
    assert bounds[SYNC_PATH][1] < bounds["pooled"][1] / 4  # five sources may narrow it


def test_a_change_takes_the_wider_of_its_kinds_interval_and_the_log_flushing_one() -> None:
    bounds = {"pooled": (-0.3, 0.3), "oltp": (-0.2, 0.2), SYNC_PATH: (-1.3, 1.3)}
    assert ratio_bounds_for(bounds, "oltp", sync_path=False) == (-0.2, 0.2)
    assert ratio_bounds_for(bounds, "read_write", sync_path=False) == (-0.3, 0.3)
    assert ratio_bounds_for(bounds, "oltp", sync_path=True) == (-1.3, 1.3)
    narrow = {**bounds, SYNC_PATH: (-0.1, 0.1)}
    assert ratio_bounds_for(narrow, "read_write", sync_path=True) == (-0.3, 0.3)
    assert ratio_bounds_for({"pooled": (-0.3, 0.3)}, "oltp", sync_path=True) == (-0.3, 0.3)


def test_which_changes_are_on_the_log_flushing_path() -> None:
    assert pair_on_sync_path(("trx_commit",))
    assert pair_on_sync_path(("bp_gb", "flush_method"))
    assert not pair_on_sync_path(("bp_gb", "doublewrite"))
    assert change_on_sync_path(["innodb_flush_log_at_trx_commit"], binlog=False)
    assert change_on_sync_path(["innodb_buffer_pool_size", "innodb_flush_method"], binlog=False)
    assert not change_on_sync_path(["innodb_buffer_pool_size", "sync_binlog"], binlog=False)
    assert change_on_sync_path(["innodb_buffer_pool_size", "sync_binlog"], binlog=True)
