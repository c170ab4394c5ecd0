"""Playwright driving Debian's Chromium (/usr/bin/chromium, installed by `make system-deps`)
against pytest-django's live server. Never `playwright install`: the browser is the system's."""

import os
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest

# Playwright's sync API runs an event loop in this thread; Django's ORM (the live server's
# database set-up, and the tests' own queries) would otherwise refuse to run beside it.
os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")

from playwright.sync_api import BrowserContext, Page, Playwright, expect, sync_playwright

CHROMIUM = Path("/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
# The README's screenshots are refreshed by `make screenshots` (which points this at
# docs/screenshots); an ordinary test run writes them to a temporary folder, so running the
# suite never leaves the work tree changed.
SCREENSHOTS = Path(
    os.environ.get("ADVISOR_SCREENSHOTS_DIR") or tempfile.mkdtemp(prefix="advisor-screenshots-")
)
SCREENSHOTS.mkdir(parents=True, exist_ok=True)
TIMEOUT_MS = 15_000  # generous: the machine has two cores and other suites may run beside us

expect.set_options(timeout=TIMEOUT_MS)


@pytest.fixture(scope="session")
def playwright() -> Iterator[Playwright]:
    if not CHROMIUM.exists():
        pytest.fail(f"{CHROMIUM} is missing: run `make system-deps` (Debian package chromium)")
    with sync_playwright() as driver:
        yield driver


def open_context(playwright: Playwright, user_data: Path, *, javascript: bool) -> BrowserContext:
    """A fresh Chromium profile: no cookies, no cache, nothing shared between tests."""
    return playwright.chromium.launch_persistent_context(
        str(user_data),
        executable_path=str(CHROMIUM),
        headless=True,
        args=CHROMIUM_ARGS,
        java_script_enabled=javascript,
        viewport={"width": 1280, "height": 900},
        accept_downloads=True,
    )


@pytest.fixture
def browser_page(playwright, tmp_path, request) -> Iterator[Page]:
    """A page in a fresh profile; `@pytest.mark.parametrize("javascript", ...)` or JS on."""
    javascript = getattr(request, "param", True)
    context = open_context(playwright, tmp_path / "profile", javascript=javascript)
    page = context.pages[0] if context.pages else context.new_page()
    page.set_default_timeout(TIMEOUT_MS)
    problems: list[str] = []
    page.on("pageerror", lambda error: problems.append(f"page error: {error}"))
    page.on(
        "console",
        lambda message: (
            problems.append(f"console {message.type}: {message.text}")
            if message.type in ("error", "warning")
            else None
        ),
    )
    page.problems = problems  # type: ignore[attr-defined]
    # Every request, printed at the end: pytest shows it only when the test failed.
    requests: list[str] = []
    page.on("request", lambda r: requests.append(f"{r.method} {r.url} {(r.post_data or '')[:400]}"))
    try:
        yield page
    finally:
        print("\n".join(requests))
        context.close()
