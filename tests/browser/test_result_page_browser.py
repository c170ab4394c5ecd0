"""The result page as a DBA reads it (issue #45 item 6), measured in the real browser at a
desktop's and a phone's width, with JavaScript and without: nothing drawn over anything else,
no value broken inside, and the pages around it saying what they mean."""

import io
import json
import struct
import zlib
from typing import Any

import pytest
from django.core.management import call_command
from playwright.sync_api import Page, expect

from advisor.recommendations.services import recommendation_create
from rules.inputs.examples import hdd, raw_profile
from rules.inputs.validation import parse_profile
from tests.browser.conftest import SCREENSHOTS

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

WIDTHS = {"desktop": 1280, "phone": 390}
MODES = [
    pytest.param(width, javascript, id=f"{name}-{'js' if javascript else 'no-js'}")
    for name, width in WIDTHS.items()
    for javascript in (True, False)
]
PASTE = "[mysqld]\ninnodb_io_capacity = 200\ninnodb_flush_method = fsync\n"


def _stored(**overrides: Any) -> str:
    """A stored result's permalink: a profile with the current configuration pasted."""
    raw = raw_profile(**overrides)
    raw["current"] = {"mycnf": PASTE}
    return recommendation_create(profile=parse_profile(raw)).permalink


def _open(page: Page, url: str, width: int) -> None:
    page.set_viewport_size({"width": width, "height": 900})
    page.goto(url)


def _box(locator: Any) -> dict[str, float]:
    found = locator.bounding_box()
    assert found is not None
    return {
        "left": found["x"],
        "right": found["x"] + found["width"],
        "top": found["y"],
        "bottom": found["y"] + found["height"],
    }


def _pixel(page: Page, x: float, y: float) -> tuple[int, int, int]:
    """The colour at (x, y): a one-pixel screenshot, read with the standard library (for one
    pixel, every PNG row filter leaves the bytes as they are)."""
    png = page.screenshot(clip={"x": x, "y": y, "width": 1, "height": 1}, scale="css")
    chunks, at = {}, 8
    while at < len(png):
        (length,) = struct.unpack(">I", png[at : at + 4])
        kind = png[at + 4 : at + 8]
        chunks[kind] = chunks.get(kind, b"") + png[at + 8 : at + 8 + length]
        at += 12 + length
    red, green, blue = zlib.decompress(chunks[b"IDAT"])[1:4]
    return red, green, blue


def _overlap(a: dict[str, float], b: dict[str, float]) -> bool:
    return (
        a["left"] < b["right"]
        and b["left"] < a["right"]
        and a["top"] < b["bottom"]
        and b["top"] < a["bottom"]
    )


@pytest.mark.parametrize(("width", "browser_page"), MODES, indirect=["browser_page"])
def test_the_what_if_chart_draws_no_label_over_a_row_name(browser_page, live_server, width):
    """The preset's second bar ends near the axis' end: its range label went left of the bar,
    over the row's name ("SATA SSD")."""
    page = browser_page
    permalink = _stored(**hdd(8, "raid10", rpm=15000, cache="write_back_bbu"))
    _open(page, f"{live_server.url}{permalink}?whatif=ssd", width)
    rows = page.locator("#whatif svg .row")
    expect(rows).to_have_count(2)
    for index in range(2):
        row = rows.nth(index)
        label = _box(row.locator(".range"))
        for name in (_box(row.locator(".label")), _box(row.locator(".note"))):
            assert not _overlap(label, name), (index, label, name)
            assert label["left"] >= name["right"]
    page.locator("#whatif").screenshot(path=str(SCREENSHOTS / f"whatif-{width}.png"))


@pytest.mark.parametrize(("width", "browser_page"), MODES[:2], indirect=["browser_page"])
def test_a_single_hard_disk_against_an_ssd_keeps_its_bar_visible(browser_page, live_server, width):
    """On a linear axis to 50,000 NOTPM the disk's 112 to 554 was three units wide."""
    page = browser_page
    permalink = _stored(**hdd(1, "none"), **{"workload.data_size_gb": 2000})
    _open(page, f"{live_server.url}{permalink}?whatif=ssd", width)
    chart = page.locator("#whatif svg")
    expect(chart).to_contain_text("logarithmic axis")
    bars = chart.locator("rect.band")
    expect(bars).to_have_count(2)
    plot = chart.bounding_box()
    assert plot is not None
    for index in range(2):
        bar = bars.nth(index).bounding_box()
        assert bar is not None
        assert bar["width"] > plot["width"] / 20, (index, bar, plot)
    expect(page.locator("#whatif figcaption")).to_contain_text("times as much")


@pytest.mark.parametrize(("width", "browser_page"), MODES, indirect=["browser_page"])
def test_an_opened_explanation_reads_across_the_table_and_keeps_values_whole(
    browser_page, live_server, width
):
    page = browser_page
    permalink = _stored(**hdd(8, "raid10", rpm=15000, cache="write_back_bbu"))
    _open(page, live_server.url + permalink, width)
    row = page.locator("#setting-innodb_flush_method")
    expect(row.locator(".value code")).to_have_text("O_DIRECT_NO_FSYNC")
    row.locator("summary").click()
    explanation = row.locator(".explain")
    expect(explanation).to_be_visible()
    table = page.locator("table.settings").bounding_box()
    box = explanation.bounding_box()
    assert table is not None
    assert box is not None
    assert box["width"] >= 0.9 * table["width"], (box, table)
    # one line each: the value, the current value, and every setting name of the what-if table
    for code in row.locator("code").all():
        assert code.evaluate("e => e.getClientRects().length") == 1, code.text_content()
    _open(page, f"{live_server.url}{permalink}?whatif=ssd", width)
    for code in page.locator("#whatif table code").all():
        assert code.evaluate("e => e.getClientRects().length") == 1, code.text_content()
    assert page.evaluate("document.documentElement.scrollWidth") <= width
    page.goto(live_server.url + permalink + "#setting-innodb_flush_method")
    page.locator("#setting-innodb_flush_method summary").click()
    page.locator("#setting-innodb_flush_method").screenshot(
        path=str(SCREENSHOTS / f"explanation-{width}.png")
    )


@pytest.mark.parametrize(("width", "browser_page"), MODES, indirect=["browser_page"])
def test_a_files_row_keeps_its_separator_beside_its_links(browser_page, live_server, width):
    page = browser_page
    _open(page, live_server.url + _stored(), width)
    links = page.locator("#files .export-links").first
    separator = links.locator(".sep")
    expect(separator).to_have_text(" · ")
    rects = links.evaluate(
        "p => [...p.querySelectorAll('a')].map(a => [...a.getClientRects()].map(r => r.top))"
    )
    top = separator.evaluate("s => s.getClientRects()[0].top")
    beside = {
        round(rects[0][-1]),
        round(rects[1][0]),
    }  # the download's last line, the revert's first
    assert any(abs(top - t) < 4 for t in beside), (top, rects)


@pytest.mark.parametrize(
    ("browser_page", "javascript"), [(True, True), (False, False)], indirect=["browser_page"]
)
def test_the_sidebar_never_repeats_refused_input(browser_page, live_server, javascript):
    """It read "64GB GB RAM · 16.5 cores · Linux six" and "1 NUMA nodes"."""
    page = browser_page
    page.goto(live_server.url + "/wizard/hardware/")
    page.get_by_label("RAM (GB)").fill("64GB")
    page.get_by_label("CPU cores").fill("16.5")
    page.get_by_label("Linux kernel").fill("six")
    page.get_by_label("NUMA nodes").fill("1")
    page.get_by_label("NUMA nodes").press("Tab")
    if not javascript:  # checked when the form is sent
        page.get_by_role("button", name="Next: Storage").click()
        expect(page.get_by_role("alert")).to_contain_text("RAM (GB)")
    summary = page.locator("#summary")
    expect(summary).to_contain_text("1 NUMA node")
    text = summary.inner_text()
    assert "64GB" not in text
    assert "16.5" not in text
    assert "six" not in text
    assert "1 NUMA nodes" not in text
    page.screenshot(path=str(SCREENSHOTS / "wizard-refused.png"), full_page=True)
    page.goto(live_server.url + "/wizard/workload/")
    expect(page.locator("label", has_text="Measured throughput today")).not_to_contain_text(
        "(optional) (optional)"
    )
    expect(page.locator("form")).not_to_contain_text("true:")


@pytest.mark.parametrize(("width", "browser_page"), MODES, indirect=["browser_page"])
def test_the_start_page_gives_the_probes_one_line_command(browser_page, live_server, width):
    page = browser_page
    _open(page, live_server.url + "/", width)
    site = live_server.url
    expect(page.locator("#probe-command")).to_have_text(
        f"curl -fsS {site}/probe | sudo python3 - --post {site}"
    )
    assert page.evaluate("document.documentElement.scrollWidth") <= width
    page.locator(".probe-start").screenshot(path=str(SCREENSHOTS / f"start-probe-{width}.png"))


@pytest.mark.parametrize("width", WIDTHS.values())
def test_a_finished_fleet_shows_a_full_bar(browser_page, live_server, width):
    page = browser_page
    out = io.StringIO()
    call_command("create_api_token", "fleet-browser", stdout=out)
    token = out.getvalue().strip().splitlines()[-1]
    fleet = {"profiles": [{"name": f"db{i}", "profile": raw_profile()} for i in range(2)]}
    _open(page, live_server.url + "/batches/", width)
    page.locator("#batch-token").fill(token)
    page.locator("#batch-file").set_input_files(
        files=[
            {
                "name": "fleet.json",
                "mimeType": "application/json",
                "buffer": json.dumps(fleet).encode(),
            }
        ]
    )
    page.get_by_role("button", name="Start the batch").click()
    expect(page.locator("#batch-progress-text")).to_contain_text("100%")
    progress = page.locator("#batch-progress progress")
    expect(page.locator("#batch-progress")).to_have_class("batch-progress batch-progress--done")
    bar = progress.bounding_box()
    section = page.locator("#batch-progress").bounding_box()
    assert bar is not None
    assert section is not None
    assert bar["width"] >= 0.95 * section["width"]
    # The fill's colour, read off the screen (a progress bar's parts have no computed style).
    middle = (bar["x"] + bar["width"] * 0.98, bar["y"] + bar["height"] / 2)
    assert _pixel(page, *middle) == (26, 127, 55)  # --ok: finished, not the in-progress blue
    page.screenshot(path=str(SCREENSHOTS / f"fleet-done-{width}.png"))


@pytest.mark.parametrize(("width", "browser_page"), MODES[1:3], indirect=["browser_page"])
def test_what_changes_for_you_is_the_first_thing_under_the_title(browser_page, live_server, width):
    """Issue #42 item 6: the gain leads, above the machine, the estimate and the warnings, and
    fits the first screen at a phone's width."""
    page = browser_page
    permalink = _stored(**hdd(8, "raid10", rpm=15000, cache="write_back_bbu"))
    _open(page, f"{live_server.url}{permalink}", width)
    lead = page.locator("#headline")
    expect(lead.locator("h2")).to_contain_text("What changes for you, against the current")
    expect(lead).to_contain_text("Bottleneck: ")
    title, box = _box(page.locator("h1")), _box(lead)
    assert box["top"] >= title["bottom"]
    for later in ("dl.machine", "#estimate"):
        assert _box(page.locator(later))["top"] >= box["bottom"], later
    assert box["top"] < 900  # within the first screen
    assert box["right"] <= width  # no line runs off the page
    lead.screenshot(path=str(SCREENSHOTS / f"headline-{width}.png"))
