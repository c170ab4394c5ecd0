"""A visitor completes the wizard in a real browser, with JavaScript and without it."""

import re
from pathlib import Path

import pytest
from playwright.sync_api import Page, expect

from advisor.recommendations.services import recommendation_get
from rules.render import render
from tests.browser.conftest import SCREENSHOTS

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PASTE = "[mysqld]\ninnodb_io_capacity = 200\ninnodb_flush_method = fsync\n"
PERMALINK = re.compile(r".*/r/([0-9a-f]{20})/$")


def next_step(page: Page, title: str) -> None:
    page.get_by_role("button", name=f"Next: {title}").click()
    expect(page.get_by_role("heading", level=1)).to_have_text(title)


def fill_server_and_hardware(page: Page, *, javascript: bool) -> None:
    page.get_by_label("Server").select_option("mysql")
    page.get_by_label("Version").press_sequentially("8.0.36")
    next_step(page, "Hardware")
    ram = page.get_by_label("RAM (GB)")
    ram.press_sequentially("99999")
    if javascript:  # checked as it is typed, with the API's message, before any submit
        expect(page.locator("#id_ram_gb_error")).to_have_text(
            "must be a number from 0.5 to 16384; got 99999"
        )
    else:  # checked when the form is sent
        page.get_by_role("button", name="Next: Storage").click()
        expect(page.locator("#id_ram_gb_error")).to_have_text(
            "must be a number from 0.5 to 16384; got 99999"
        )
        expect(page.get_by_role("alert")).to_contain_text("RAM (GB)")
    ram.fill("64")
    page.get_by_label("CPU cores").fill("16")
    next_step(page, "Storage")


def fill_storage(page: Page, *, javascript: bool) -> None:
    media = page.get_by_label("Media")
    media.select_option("nvme")
    expect(page.get_by_label("Disk speed (rpm)")).to_be_hidden()  # no rpm for flash
    media.select_option("hdd")
    expect(page.get_by_label("Disk speed (rpm)")).to_be_visible()
    page.get_by_label("Disk speed (rpm)").select_option("15000")
    page.get_by_label("RAID level").select_option("raid5")
    page.get_by_label("Devices").fill("2")
    if javascript:
        page.get_by_label("Devices").press("Tab")
        expect(page.locator("#id_raid_level_error")).to_have_text(
            "raid5 needs a device count of at least 3; got 2"
        )
    page.get_by_label("Devices").fill("8")
    page.get_by_label("RAID level").select_option("raid10")
    page.get_by_label("Controller cache").select_option("write_back_bbu")
    if javascript:
        expect(page.locator("#id_raid_level_error")).to_have_text("")
        expect(page.locator("#summary")).to_contain_text(
            "8 × 15,000 rpm HDD in RAID10, battery-backed write-back cache"
        )


def back_forward_and_reload_keep_the_answers(page: Page, *, javascript: bool) -> None:
    """With JavaScript, what was typed is saved as it is checked, so the browser's own back
    button keeps it; without, the step's Back button saves it, and the browser's back and forward
    then move between pages rendered from the saved draft."""
    if javascript:
        page.go_back()
    else:
        page.get_by_role("button", name="Back: Hardware").click()
    expect(page.get_by_role("heading", level=1)).to_have_text("Hardware")
    expect(page.get_by_label("RAM (GB)")).to_have_value("64")
    if javascript:
        page.go_forward()
    else:
        page.go_back()  # to the storage page, as the browser's history has it
    expect(page.get_by_role("heading", level=1)).to_have_text("Storage")
    expect(page.get_by_label("Devices")).to_have_value("8")
    page.reload()
    expect(page.get_by_label("Devices")).to_have_value("8")
    expect(page.get_by_label("RAID level")).to_have_value("raid10")


def fill_workload_and_paste(page: Page) -> None:
    next_step(page, "Workload")
    page.get_by_label("Workload", exact=True).select_option("oltp")
    page.get_by_label("Data size (GB)").fill("200")
    page.get_by_label("Concurrency").fill("64")
    next_step(page, "Current configuration")
    page.get_by_label("Current settings").fill(PASTE)
    page.get_by_role("button", name="Get recommendations").click()
    expect(page).to_have_url(PERMALINK)
    expect(page.get_by_role("heading", level=1)).to_have_text("Recommended InnoDB IO settings")


def read_the_result(page: Page) -> None:
    row = page.locator("#setting-innodb_io_capacity")
    expect(row).to_contain_text("200")  # the pasted current value
    explanation = row.locator(".explain")
    expect(explanation).to_be_hidden()
    row.locator("summary").click()
    expect(explanation).to_be_visible()
    expect(explanation).to_contain_text("Evidence")
    expect(row.get_by_role("link").first).to_have_attribute("href", re.compile(r"^/sources/#"))


def what_if_ssd(page: Page) -> None:
    page.get_by_role("button", name="SSD instead of HDD").click()
    comparison = page.locator("#whatif .comparison")
    expect(comparison).to_contain_text("This machine against: SSD instead of HDD")
    expect(comparison).to_contain_text("innodb_io_capacity")
    expect(page).to_have_url(re.compile(r"\?whatif=ssd"))


def download_the_my_cnf(page: Page, live_server, tmp_path: Path) -> None:
    with page.expect_download() as info:
        page.get_by_role("link", name="Download my.cnf").click()
    download = info.value
    result_id = PERMALINK.match(page.url.split("?")[0]).group(1)
    assert download.suggested_filename == f"innodb-io-advisor-{result_id}.cnf"
    saved = tmp_path / download.suggested_filename
    download.save_as(saved)
    text = saved.read_text(encoding="utf-8")
    assert text.startswith("# What changes for you")  # the lead, then the header
    assert "\n# InnoDB IO Advisor: my.cnf drop-in\n" in text
    assert "\n[mysqld]\n" in text
    assert f"# Permalink: {live_server.url}/r/{result_id}/" in text
    stored = recommendation_get(recommendation_id=result_id)
    assert text == render(stored, "mycnf", base_url=live_server.url)


def test_a_visitor_completes_the_wizard_with_javascript(browser_page, live_server, tmp_path):
    page = browser_page
    page.context.grant_permissions(["clipboard-read", "clipboard-write"], origin=live_server.url)
    page.goto(live_server.url + "/")
    expect(page.get_by_role("heading", level=1)).to_have_text("InnoDB IO Advisor")
    page.screenshot(path=str(SCREENSHOTS / "start.png"))
    page.get_by_role("link", name="Start").click()
    fill_server_and_hardware(page, javascript=True)
    expect(page).to_have_url(re.compile(r"/wizard/storage/$"))  # pushed by the HTMX swap
    fill_storage(page, javascript=True)
    page.screenshot(path=str(SCREENSHOTS / "step.png"))
    back_forward_and_reload_keep_the_answers(page, javascript=True)
    fill_workload_and_paste(page)
    page.screenshot(path=str(SCREENSHOTS / "result.png"))
    read_the_result(page)
    page.evaluate("window.advisorTestMarker = 1")
    what_if_ssd(page)
    assert page.evaluate("window.advisorTestMarker") == 1  # only the comparison was swapped
    copy = page.locator('button[data-copy-target="export-mycnf"]')
    copy.click()
    expect(copy).to_have_text("Copied")
    copied = page.evaluate("navigator.clipboard.readText()")
    assert copied.startswith("# What changes for you")
    assert "\n# InnoDB IO Advisor: my.cnf drop-in\n" in copied
    download_the_my_cnf(page, live_server, tmp_path)
    page.reload()
    expect(page.locator("#whatif .comparison")).to_contain_text("SSD instead of HDD")
    page.goto(page.url.split("?")[0])
    expect(page.locator("#setting-innodb_io_capacity")).to_be_visible()
    assert page.problems == []  # no CSP violation, no script error


@pytest.mark.parametrize("browser_page", [False], indirect=True, ids=["no-javascript"])
def test_the_same_visitor_without_javascript(browser_page, live_server, tmp_path):
    page = browser_page
    page.goto(live_server.url + "/")
    page.get_by_role("link", name="Start").click()
    fill_server_and_hardware(page, javascript=False)
    fill_storage(page, javascript=False)
    back_forward_and_reload_keep_the_answers(page, javascript=False)
    fill_workload_and_paste(page)
    read_the_result(page)
    expect(page.locator("button.copy").first).to_be_hidden()  # nothing to copy with
    what_if_ssd(page)
    download_the_my_cnf(page, live_server, tmp_path)
    page.reload()
    expect(page.locator("#whatif .comparison")).to_contain_text("SSD instead of HDD")
    assert page.problems == []


def test_a_preset_is_a_result_in_one_click(browser_page, live_server):
    page = browser_page
    page.goto(live_server.url + "/")
    preset = page.get_by_role("listitem").filter(has_text="6-disk RAID10 with battery-backed cache")
    preset.get_by_role("button", name="See the result").click()
    expect(page).to_have_url(PERMALINK)
    expect(page.locator("#estimate")).to_be_visible()
    expect(page.get_by_role("button", name="SSD instead of HDD")).to_be_visible()


def test_a_step_can_be_completed_with_the_keyboard_alone(browser_page, live_server):
    page = browser_page
    page.goto(live_server.url + "/wizard/server/")
    for _ in range(30):
        if page.evaluate("document.activeElement.id") == "id_version":
            break
        page.keyboard.press("Tab")
    assert page.evaluate("document.activeElement.id") == "id_version"
    outline = page.evaluate("getComputedStyle(document.activeElement).outlineStyle")
    assert outline == "solid"  # the focus is visible
    page.keyboard.type("8.4")
    page.keyboard.press("Enter")
    expect(page.get_by_role("heading", level=1)).to_have_text("Hardware")
    expect(page.get_by_role("heading", level=1)).to_be_focused()


def test_the_result_reads_on_a_phone(browser_page, live_server):
    page = browser_page
    page.set_viewport_size({"width": 390, "height": 844})
    page.goto(live_server.url + "/")
    page.get_by_role("button", name="See the result").first.click()
    expect(page).to_have_url(PERMALINK)
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    page.screenshot(path=str(SCREENSHOTS / "result-phone.png"))
    page.goto(live_server.url + "/wizard/storage/")
    assert page.evaluate("document.documentElement.scrollWidth") <= 390


def test_a_failed_request_is_said_on_the_page(browser_page, live_server):
    page = browser_page
    page.route("**/check/", lambda route: route.fulfill(status=500, body="boom"))
    page.goto(live_server.url + "/wizard/hardware/")
    page.get_by_label("RAM (GB)").fill("64")
    page.get_by_label("RAM (GB)").press("Tab")
    expect(page.get_by_role("alert")).to_contain_text("The server could not answer (HTTP 500)")
