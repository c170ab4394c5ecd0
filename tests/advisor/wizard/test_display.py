"""How the result page words an estimate's numbers."""

import pytest

from advisor.recommendations.wizard.display import effect_text
from rules.output.result import Effect


@pytest.mark.parametrize(
    ("low", "high", "said"),
    [
        (-0.3, -0.0, "+0% to +0% throughput"),
        (-0.6, 0.4, "-1% to +0% throughput"),
        (12.4, 184.6, "+12% to +185% throughput"),
    ],
)
def test_an_effect_reads_in_whole_signed_percents_and_never_minus_zero(low, high, said) -> None:
    assert effect_text(Effect(low_pct=low, high_pct=high)) == said
