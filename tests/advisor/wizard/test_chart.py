"""The estimate chart: inline SVG from the server, readable without JavaScript or inline style."""

import re

from advisor.recommendations.wizard.chart import (
    LEFT,
    Bar,
    interval_chart,
    interval_text,
    number,
)
from advisor.recommendations.wizard.display import estimate_bars, estimate_panel
from rules.output.result import Estimate
from tests.rules.render.fixtures import estimates

RECOMMENDED = Estimate("NOTPM", 5200.0, 9100.0, 0.8, "random reads", True)
CURRENT = Estimate("NOTPM", 2100.0, 3900.0, 0.8, "page flushing", False)


def chart(*bars: Bar) -> str:
    return str(interval_chart(bars, chart_id="c", title="Estimated throughput"))


def test_each_interval_is_a_band_on_a_shared_axis_from_zero():
    svg = chart(Bar("Current", CURRENT, "current"), Bar("Recommended", RECOMMENDED, "recommended"))
    bands = re.findall(
        r'<rect class="band band--(\w+)[^"]*" x="([\d.]+)" y="[\d.]+" width="([\d.]+)"', svg
    )
    assert [b[0] for b in bands] == ["current", "recommended"]
    (_, x_cur, w_cur), (_, x_rec, w_rec) = bands
    assert float(x_cur) < float(x_rec)
    assert float(x_cur) + float(w_cur) < float(x_rec) + float(w_rec)
    assert ">0</text>" in svg
    assert "10,000" in svg  # the axis ends on a round figure above 9,100


def test_the_chart_names_the_unit_the_interval_and_the_bottleneck():
    svg = chart(Bar("Recommended", RECOMMENDED, "recommended"))
    assert "NOTPM (80% prediction interval)" in svg
    assert "5,200–9,100" in svg
    assert "random reads" in svg
    assert 'role="img"' in svg
    assert '<title id="c-title">Estimated throughput</title>' in svg
    assert '<desc id="c-desc">Recommended: 5,200 to 9,100 NOTPM (80% interval)' in svg


def test_an_interval_outside_the_calibration_data_is_drawn_and_said_differently():
    svg = chart(Bar("Current", CURRENT, "current"))
    assert "band--outside" in svg
    assert "outside calibration" in svg


def test_the_chart_has_no_inline_style_and_escapes_its_labels():
    svg = chart(Bar("<script>", RECOMMENDED, "recommended"))
    assert "style=" not in svg
    assert "<script>" not in svg
    assert "&lt;script&gt;" in svg


def test_numbers_read_well_large_and_small():
    assert number(123456.7) == "123,457"
    assert number(42.25) == "42.2"
    assert number(0.5) == "0.5"
    assert interval_text(RECOMMENDED) == "5,200 to 9,100 NOTPM (80% interval)"


def test_the_panel_puts_current_before_recommended_and_says_when_outside_the_data():
    panel = estimate_panel(estimate_bars(estimates()), chart_id="chart", title="t")
    assert panel.outside
    assert panel.text.startswith("Current: 2,100 to 3,900 NOTPM")
    assert estimate_panel(estimate_bars(None), chart_id="chart", title="t") is None


HDD = Estimate("NOTPM", 112.0, 554.0, 0.8, "random reads", False)
SSD = Estimate("NOTPM", 7330.0, 47800.0, 0.8, "page writes", False)


def _bands(svg: str) -> list[tuple[float, float]]:
    found = re.findall(r'<rect class="band[^"]*" x="([\d.]+)" y="[\d.]+" width="([\d.]+)"', svg)
    return [(float(x), float(width)) for x, width in found]


def test_a_hard_disk_against_an_ssd_is_drawn_on_a_log_axis_where_both_bars_show():
    svg = chart(Bar("This machine", HDD, "recommended"), Bar("SATA SSD", SSD, "variant"))
    (_, hdd_width), (_, ssd_width) = _bands(svg)
    assert hdd_width > 40  # a linear axis to 50,000 draws it 3 units wide
    assert ssd_width > 40
    assert "logarithmic axis" in svg
    for tick in (">100</text>", ">1,000</text>", ">10,000</text>", ">100,000</text>"):
        assert tick in svg


def test_close_intervals_keep_the_linear_axis_from_zero():
    svg = chart(Bar("Current", CURRENT, "current"), Bar("Recommended", RECOMMENDED, "recommended"))
    assert "logarithmic" not in svg
    assert ">0</text>" in svg


def test_a_range_label_that_does_not_fit_right_of_its_bar_stays_out_of_the_names_column():
    """The label of a bar ending near the right edge went left of the bar, over the row's name."""
    wide = Estimate("NOTPM", 53300.0, 155000.0, 0.8, "CPU", True)
    other = Estimate("NOTPM", 59900.0, 138000.0, 0.8, "CPU", True)
    svg = chart(Bar("This machine", wide, "recommended"), Bar("SATA SSD", other, "variant"))
    for x in re.findall(r'<text class="range" x="([\d.]+)"', svg):
        assert float(x) >= LEFT
    assert 'class="range"' in svg
    assert 'text-anchor="end">53,300' not in svg
