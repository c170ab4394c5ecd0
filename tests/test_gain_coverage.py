"""benchmarks/gain_coverage.py's width report: the source whose pairs are missed most is the
one whose absence narrows the pooled ratio interval most, and it is listed first."""

import pytest

from benchmarks.gain_coverage import width_drivers
from calibration.pairs import Pair


def _pairs(source: str, misses: list[float]) -> list[Pair]:
    return [
        Pair(f"{source}{i}a", f"{source}{i}b", 0.5 + miss, 0.5, ("bp_gb",), source)
        for i, miss in enumerate(misses)
    ]


def test_the_most_missed_source_is_listed_first_with_the_narrowest_width_without_it(
    capsys: pytest.CaptureFixture[str],
) -> None:
    calm = ("a", "b", "c", "d", "e")
    pairs = [p for name in calm for p in _pairs(name, [0.1, -0.05])] + _pairs("wild", [1.0, -1.2])
    kinds = dict.fromkeys((*calm, "wild"), "oltp")
    width_drivers(pairs, kinds)
    lines = capsys.readouterr().out.splitlines()
    first = lines[1]
    assert first.startswith("  without wild (oltp, 2 pairs, bp_gb; median miss 1.100)")
    without_wild = float(first.rsplit(": ", 1)[1])
    pooled = float(lines[0].split()[2])
    assert without_wild < pooled
    # Every pair weighs 1/sqrt 2 (two pairs a source), 8.49 in all; with split conformal's
    # extra point of average weight, 80% is 7.35 of it, which the calm pairs (7.07) and the
    # 1.0 miss reach: the half-width is 1.0 and only the -1.2 miss falls outside, 11 of 12 held.
    # Every estimated change is x1.65 (log 0.5): one size band.
    assert pooled == pytest.approx(1.0)
    bands = [line for line in lines if "estimated change" in line]
    assert len(bands) == 1
    assert "12 pairs of 6 sources, held 0.917" in bands[0]
