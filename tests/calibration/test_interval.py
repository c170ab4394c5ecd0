"""The interval's groups: a workload kind gets its own interval only when enough sources
measured it, and it is never narrower than the pooled one."""

import numpy as np

from calibration.interval import KIND_MIN_SOURCES, bounds_by_group, conformal_bounds


def residuals_of(group: str, sources: int, spread: float, seed: int):
    rng = np.random.default_rng(seed)
    names = [f"{group}-{i}" for i in range(sources) for _ in range(4)]
    return rng.normal(0.0, spread, len(names)), [group] * len(names), names


def test_a_kind_with_wider_misses_gets_a_wider_interval_and_never_a_narrower_one() -> None:
    wide = residuals_of("bulk_insert", KIND_MIN_SOURCES, 1.5, 1)
    narrow = residuals_of("read_mostly", KIND_MIN_SOURCES, 0.05, 2)
    rest = residuals_of("oltp", 20, 0.4, 3)
    parts = (wide, narrow, rest)
    residuals = np.concatenate([p[0] for p in parts])
    bounds = bounds_by_group(
        residuals, [g for p in parts for g in p[1]], [s for p in parts for s in p[2]]
    )
    pooled = bounds["pooled"]
    assert bounds["bulk_insert"][0] < pooled[0]
    assert bounds["bulk_insert"][1] > pooled[1]
    assert bounds["read_mostly"] == pooled  # its own would be narrower: the pooled stands
    for low, high in bounds.values():
        assert low <= pooled[0]
        assert high >= pooled[1]


def test_a_kind_from_too_few_sources_takes_the_pooled_interval() -> None:
    few = residuals_of("read_write", KIND_MIN_SOURCES - 1, 3.0, 4)
    rest = residuals_of("oltp", 20, 0.4, 5)
    residuals = np.concatenate([few[0], rest[0]])
    bounds = bounds_by_group(residuals, few[1] + rest[1], few[2] + rest[2])
    assert "read_write" not in bounds
    assert bounds["pooled"] == conformal_bounds(
        residuals, weights=np.full(len(residuals), 0.5)
    )  # every source has 4 points: equal weights
