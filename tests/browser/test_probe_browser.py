"""Start from a probe in a real browser, with JavaScript and without it: paste or upload the
probe's JSON, the steps open filled in and marked, the result shows the probe's report."""

import json
from pathlib import Path

import pytest
from playwright.sync_api import Page, expect

from tests.browser.test_wizard_browser import PERMALINK

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]
DOCUMENT = Path(__file__).resolve().parents[1] / "data" / "probe-ebs-gp3.json"


def field(page: Page, name: str):  # type: ignore[no-untyped-def]
    return page.locator(f".field--{name}")


def walk_to_the_result(page: Page) -> None:
    expect(page.get_by_role("heading", level=1)).to_have_text("Server")
    expect(page.get_by_label("Server")).to_have_value("mysql")
    page.get_by_role("button", name="Next: Hardware").click()
    expect(page.get_by_role("heading", level=1)).to_have_text("Hardware")
    expect(field(page, "ram_gb").locator(".mark")).to_have_text("detected")
    expect(field(page, "ram_gb")).to_contain_text("Probe: /proc/meminfo MemTotal")
    expect(page.get_by_label("Memory limit (GB)", exact=False)).to_have_value("48")
    page.get_by_role("button", name="Next: Storage").click()
    expect(page.get_by_role("heading", level=1)).to_have_text("Storage")
    expect(field(page, "media").locator(".mark")).to_have_text("detected")
    expect(field(page, "volume_type")).to_be_visible()  # shown for a network volume
    expect(field(page, "volume_type").locator(".mark")).to_have_text("assumed")
    expect(field(page, "provisioned_iops").locator(".mark")).to_have_text("measured")
    expect(field(page, "flash_class")).to_be_hidden()  # local flash only
    expect(field(page, "rpm")).to_be_hidden()
    page.get_by_text("What the probe could not detect (2)").click()
    expect(page.get_by_text("workload.concurrency")).to_be_visible()
    page.get_by_role("button", name="Next: Workload").click()
    expect(page.get_by_role("heading", level=1)).to_have_text("Workload")
    page.get_by_role("button", name="Next: Current configuration").click()
    expect(page.get_by_role("heading", level=1)).to_have_text("Current configuration")
    page.get_by_role("button", name="Get recommendations").click()
    expect(page).to_have_url(PERMALINK)
    report = page.locator("details.probe-report")
    report.locator("summary").click()
    expect(report).to_contain_text("How the probe 0.1.0 read these inputs")
    expect(report).to_contain_text("Amazon Elastic Block Store")
    expect(page.locator("#setting-innodb_io_capacity")).to_contain_text("provisioned IOPS")


@pytest.mark.parametrize(
    "browser_page", [True, False], indirect=True, ids=["javascript", "no-javascript"]
)
def test_a_pasted_probe_opens_the_steps_filled_in_and_marked(browser_page, live_server):
    page = browser_page
    page.goto(live_server.url + "/")
    page.get_by_label("The probe's JSON").fill(DOCUMENT.read_text())
    page.get_by_role("button", name="Open the steps filled in").click()
    walk_to_the_result(page)
    assert page.problems == []  # type: ignore[attr-defined]


def test_an_uploaded_probe_file_does_the_same(browser_page, live_server):
    page = browser_page
    page.goto(live_server.url + "/")
    page.get_by_label("Or its file").set_input_files(str(DOCUMENT))
    page.get_by_role("button", name="Open the steps filled in").click()
    walk_to_the_result(page)


def test_a_broken_probe_is_refused_on_the_first_page(browser_page, live_server):
    page = browser_page
    page.goto(live_server.url + "/")
    broken = json.loads(DOCUMENT.read_text())
    broken["provenance"]["hardware.nonsense"] = {"source": "detected"}
    page.get_by_label("The probe's JSON").fill(json.dumps(broken))
    page.get_by_role("button", name="Open the steps filled in").click()
    expect(page.get_by_role("alert")).to_contain_text("provenance.hardware.nonsense")
    expect(page.get_by_label("The probe's JSON")).not_to_be_empty()  # kept for correcting
