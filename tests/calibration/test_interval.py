"""The interval's groups and level: a bottleneck gets its own interval only when enough sources
have points bound by it, and the level rises until held-out sources are covered as promised."""

import numpy as np
import pytest

from calibration.calibrate import conformal_level
from calibration.fit import Fit
from calibration.interval import (
    DISKS_GROUP,
    GROUP_MIN_SOURCES,
    INTERVAL,
    OUT_OF_DOMAIN_WIDENING,
    bottleneck_of,
    bounds_by_group,
    bounds_for,
    centred_bounds,
    interval_group,
    out_of_domain_widening,
    symmetric_bounds,
    widened,
)


def residuals_of(group: str, sources: int, spread: float, seed: int, centre: float = 0.0):
    rng = np.random.default_rng(seed)
    names = [f"{group}-{i}" for i in range(sources) for _ in range(4)]
    return rng.normal(centre, spread, len(names)), [group] * len(names), names


def joined(*parts):
    residuals = np.concatenate([p[0] for p in parts])
    return residuals, [g for p in parts for g in p[1]], [s for p in parts for s in p[2]]


def test_each_bottleneck_gets_an_interval_as_wide_as_its_own_misses() -> None:
    """Estimates bound by random reads that miss widely get a wide interval; CPU-bound ones
    that miss little a narrow one, narrower than the pooled interval. Every interval is
    centred on the estimate, so a change of bottleneck never moves the range's middle."""
    residuals, groups, sources = joined(
        residuals_of("random reads", GROUP_MIN_SOURCES, 0.8, 1, centre=-0.5),
        residuals_of("CPU", GROUP_MIN_SOURCES + 3, 0.1, 2),
    )
    bounds = bounds_by_group(residuals, groups, sources)
    pooled, reads, cpu = bounds["pooled"], bounds["random reads"], bounds["CPU"]
    assert cpu[1] - cpu[0] < pooled[1] - pooled[0] < reads[1] - reads[0]
    assert all(low == -high for low, high in bounds.values())
    mask = np.array(groups) == "CPU"
    within = (residuals[mask] >= cpu[0]) & (residuals[mask] <= cpu[1])
    assert INTERVAL <= within.mean() < 1.0


def test_a_bottleneck_seen_in_too_few_sources_takes_the_pooled_interval() -> None:
    residuals, groups, sources = joined(
        residuals_of("fsync/commit", GROUP_MIN_SOURCES - 1, 3.0, 4),
        residuals_of("CPU", 20, 0.4, 5),
    )
    bounds = bounds_by_group(residuals, groups, sources)
    assert "fsync/commit" not in bounds
    assert bounds["pooled"] == centred_bounds(
        residuals, weights=np.full(len(residuals), 0.5)
    )  # every source has 4 points: equal weights


def test_a_higher_level_gives_a_wider_interval() -> None:
    residuals, groups, sources = joined(residuals_of("CPU", 20, 0.4, 6))
    narrow = bounds_by_group(residuals, groups, sources, 0.8)["CPU"]
    wide = bounds_by_group(residuals, groups, sources, 0.9)["CPU"]
    assert wide[0] < narrow[0]
    assert wide[1] > narrow[1]


def fit_of(residuals: np.ndarray, sources: list[str]) -> Fit:
    return Fit(np.zeros(1), {}, residuals, np.zeros_like(residuals), tuple(sources))


def test_the_level_stays_nominal_when_held_out_sources_are_covered() -> None:
    residuals, groups, sources = joined(residuals_of("CPU", 30, 0.3, 7))
    inside = np.zeros(len(sources), dtype=bool)
    assert conformal_level(fit_of(residuals, sources), groups, inside)[0] == INTERVAL


def test_the_level_rises_when_each_source_misses_as_a_block() -> None:
    """Sources whose points all miss the same way (a source-level bias, as published machines
    have) are covered less than the nominal level promises; the level rises until they are."""
    rng = np.random.default_rng(8)
    biases = rng.normal(0.0, 0.6, 25)
    sources = [f"s{i}" for i in range(25) for _ in range(6)]
    residuals = np.repeat(biases, 6) + rng.normal(0.0, 0.05, len(sources))
    groups = ["CPU"] * len(sources)
    inside = np.zeros(len(sources), dtype=bool)
    level, held_out = conformal_level(fit_of(residuals, sources), groups, inside)
    covered = held_out.covered
    assert level > INTERVAL
    names = np.array(sources)
    held_in = 0
    for i in range(25):
        held = names == f"s{i}"
        kept = list(names[~held])
        low, high = bounds_by_group(residuals[~held], ["CPU"] * len(kept), kept, level)["CPU"]
        held_in += int(((residuals[held] >= low) & (residuals[held] <= high)).sum())
    assert held_in / len(sources) >= INTERVAL
    assert covered.mean() == held_in / len(sources)  # the scoring it returns is that one


def test_the_widening_outside_the_data_is_measured_from_the_points_outside() -> None:
    """Points outside the other sources' range that missed by up to 2.5 half-widths make the
    widening the share INTERVAL of those misses (source-weighted), never below 1."""
    sources = [f"s{i}" for i in range(GROUP_MIN_SOURCES) for _ in range(3)]
    misses = np.linspace(0.5, 2.5, len(sources))
    factor = out_of_domain_widening(misses, sources)
    assert factor in misses
    # equal weights (every source has 3 points), with split conformal's one extra point
    share = INTERVAL * (len(misses) + 1) / len(misses)
    assert (misses <= factor).mean() >= share
    assert (misses < factor).mean() < share
    assert out_of_domain_widening(misses / 10, sources) == 1.0


def test_too_few_sources_outside_keep_the_default_widening() -> None:
    sources = [f"s{i}" for i in range(GROUP_MIN_SOURCES - 1) for _ in range(3)]
    misses = np.full(len(sources), 4.0)
    assert out_of_domain_widening(misses, sources) == OUT_OF_DOMAIN_WIDENING


def test_widened_keeps_the_middle_and_scales_the_half_width() -> None:
    low, high = widened(-0.2, 0.6, 2.0)
    assert (low, high) == pytest.approx((-0.6, 1.0))


def test_points_outside_the_other_sources_range_are_scored_with_the_widened_interval() -> None:
    """Held out, a point outside the others' range gets the interval inside points get, widened
    by the factor measured on the other sources' outside points only, and inside points'
    intervals are built from inside points alone: a wild miss outside widens nothing inside."""
    rng = np.random.default_rng(9)
    n_inside, n_outside = 20, 8
    sources = [f"in{i}" for i in range(n_inside) for _ in range(4)]
    sources += [f"out{i}" for i in range(n_outside) for _ in range(4)]
    residuals = np.concatenate(
        [rng.normal(0.0, 0.3, 4 * n_inside), rng.normal(0.0, 1.2, 4 * n_outside)]
    )
    outside = np.array([s.startswith("out") for s in sources])
    groups = ["CPU"] * len(sources)
    held_out = conformal_level(fit_of(residuals, sources), groups, outside)[1]
    half = (held_out.highs - held_out.lows) / 2
    assert half[outside].min() > 1.5 * half[~outside].max()
    names = np.array(sources)
    for i in np.flatnonzero(~outside)[:8]:
        kept = ~outside & (names != names[i])
        level = conformal_level(fit_of(residuals, sources), groups, outside)[0]
        _, own = bounds_by_group(
            residuals[kept], ["CPU"] * int(kept.sum()), list(names[kept]), level
        )["CPU"]
        assert half[i] == own
    assert held_out.covered[outside].mean() >= INTERVAL - 0.1


def test_a_bottleneck_within_a_kind_gets_its_own_interval_when_enough_sources_have_it() -> None:
    """CPU-bound point selects that miss little get a narrower interval than CPU-bound updates
    that miss widely; a kind seen in too few sources takes its bottleneck's interval."""
    residuals, groups, sources = joined(
        residuals_of(interval_group("CPU", "read_mostly", disks=False), GROUP_MIN_SOURCES, 0.1, 10),
        residuals_of(
            interval_group("CPU", "update_heavy", disks=False), GROUP_MIN_SOURCES, 0.8, 11
        ),
        residuals_of(
            interval_group("CPU", "bulk_insert", disks=False), GROUP_MIN_SOURCES - 1, 0.3, 12
        ),
    )
    bounds = bounds_by_group(residuals, groups, sources)
    points, updates = bounds["CPU|read_mostly"], bounds["CPU|update_heavy"]
    assert points[1] < bounds["CPU"][1] < updates[1]
    assert "CPU|bulk_insert" not in bounds
    assert bounds_for(bounds, interval_group("CPU", "bulk_insert", disks=False)) == bounds["CPU"]
    assert (
        bounds_for(bounds, interval_group("page writes", "oltp", disks=False)) == bounds["pooled"]
    )
    assert bottleneck_of(interval_group("random reads", "oltp", disks=False)) == "random reads"


def test_spinning_disks_take_the_interval_of_disks_whatever_binds_them() -> None:
    """Disks that missed widely get their own, wider interval, whichever capacity bound them;
    flash bound by the same capacity keeps its own."""
    residuals, groups, sources = joined(
        residuals_of(
            interval_group("random reads", "oltp", disks=True), GROUP_MIN_SOURCES, 0.9, 20
        ),
        residuals_of(
            interval_group("random reads", "oltp", disks=False), GROUP_MIN_SOURCES, 0.3, 22
        ),
    )
    bounds = bounds_by_group(residuals, groups, sources)
    disks = bounds_for(bounds, interval_group("random reads", "oltp", disks=True))
    flash = bounds_for(bounds, interval_group("random reads", "oltp", disks=False))
    assert disks == bounds[DISKS_GROUP]
    assert flash == bounds["random reads|oltp"]
    assert disks[1] > flash[1]
    assert bounds_for(bounds, interval_group("page writes", "oltp", disks=True)) == disks


def test_a_ratios_interval_is_symmetric_and_as_wide_as_its_largest_share_of_misses() -> None:
    # a against b is b against a with the sign flipped; three sources of unequal sizes
    errors = np.array([0.05, 0.26, 0.4, 0.1, 0.2, 0.3])
    low, high = symmetric_bounds(errors, ["a", "b", "b", "c", "c", "c"])
    assert low == -high
    assert high == 0.4  # the largest miss: 80% of six sizes plus the extra point reaches it
    assert symmetric_bounds(np.array([]), []) == (-0.405, 0.405)
