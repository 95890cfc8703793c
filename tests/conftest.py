"""Fixtures every test folder may use: headless Debian Chromium through playwright."""

from __future__ import annotations

from pathlib import Path

import pytest

CHROMIUM = Path("/usr/bin/chromium")
WAIT = 15_000  # ms; generous for a loaded CI machine, never asserted as a duration


@pytest.fixture(scope="module")
def browser():
    """Debian's chromium (playwright cannot download a browser here), one per module."""
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        browser = p.chromium.launch(
            executable_path=str(CHROMIUM),
            headless=True,
            args=[
                "--no-sandbox",
                "--disable-gpu",
                "--disable-background-networking",
                "--disable-component-update",
                "--disable-sync",
                "--disable-dev-shm-usage",
            ],
        )
        yield browser
        browser.close()


@pytest.fixture
def context(browser):
    """A tablet-sized browser context whose waits are generous."""
    context = browser.new_context(viewport={"width": 900, "height": 1200})
    context.set_default_timeout(WAIT)
    yield context
    context.close()
