import re
import xml.etree.ElementTree as ET

from advisor.calibration_admin.plot import PALETTE, plot_svg, source_style

ROWS = [
    {
        "id": "1",
        "source": "a-2009",
        "unit": "NOTPM",
        "published": 1200.0,
        "predicted": 1500.0,
        "low": 700.0,
        "high": 3000.0,
        "covered": True,
    },
    {
        "id": "2",
        "source": "b-2011",
        "unit": "transactions/s",
        "published": 90.0,
        "predicted": 800.0,
        "low": 400.0,
        "high": 1600.0,
        "covered": False,
    },
    {
        "id": "u",
        "source": "user-submission-4",
        "unit": "NOTPM",
        "published": 5e5,
        "predicted": 4e5,
        "low": 2e5,
        "high": 9e5,
        "covered": True,
    },
]


def parse(svg):
    return ET.fromstring(svg)


def test_it_is_well_formed_svg_with_a_title():
    root = parse(plot_svg(ROWS, ["a-2009", "b-2011"]))
    assert root.tag == "{http://www.w3.org/2000/svg}svg"
    assert root.find("{http://www.w3.org/2000/svg}title").text.startswith("Predicted against")


def test_the_axes_are_log_decades_covering_every_value_and_labelled():
    svg = plot_svg(ROWS, ["a-2009", "b-2011"])
    for label in ("10", "100", "1k", "10k", "100k", "1M"):
        assert f">{label}</text>" in svg
    assert "published result" in svg
    assert "predicted without its source" in svg


def test_each_point_has_a_whisker_and_a_tooltip_with_its_interval():
    svg = plot_svg(ROWS, ["a-2009", "b-2011"])
    assert svg.count("<g><title>") == 3
    assert (
        "#2 b-2011: published 90 transactions/s, predicted 800 (80%: 400 to 1600, outside)" in svg
    )


def test_covered_points_are_filled_and_missed_points_hollow():
    svg = plot_svg(ROWS[:2], ["a-2009", "b-2011"])
    first, second = svg.split("<g><title>")[1:]
    assert f'fill="{PALETTE[0]}"' in first
    assert 'fill="none"' in second


def test_each_source_has_its_own_colour_in_the_legend_and_submissions_share_one():
    svg = plot_svg(ROWS, ["a-2009", "b-2011"])
    assert ">a-2009</text>" in svg
    assert ">b-2011</text>" in svg
    assert ">user submissions</text>" in svg
    assert ">user-submission-4</text>" not in svg


def test_styles_differ_for_forty_sources():
    assert len({source_style(i) for i in range(40)}) == 40


def test_source_names_are_escaped():
    row = {**ROWS[0], "source": "<b>&"}
    svg = plot_svg([row], ["<b>&"])
    assert "<b>" not in svg
    parse(svg)


def test_it_draws_an_empty_table_without_failing():
    parse(plot_svg([], []))


def test_it_makes_no_external_requests():
    svg = plot_svg(ROWS, ["a-2009"])
    assert not re.search(r"(href|src)=", svg)
