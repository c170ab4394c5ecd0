"""benchmarks/gain_coverage.py's report: the share of pairs held, counted three ways."""

import pytest

from benchmarks.gain_coverage import print_held


def test_the_share_held_is_counted_per_pair_weighted_and_as_a_mean_over_sources(
    capsys: pytest.CaptureFixture[str],
) -> None:
    print_held("held", {"big": [True, True, True, False], "small": [False]})
    line = capsys.readouterr().out.strip()
    # per pair 3 of 5; weighted: the big source's pairs weigh 1/2 each, the small one's 1:
    # 1.5 of 3; a mean over sources: (0.75 + 0) / 2
    assert line.startswith("held, 5 pairs of 2 sources: covered 0.600 per pair, 0.500 weighted")
    assert line.endswith("0.375 as a mean over sources")
