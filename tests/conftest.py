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


class PageClient:
    """Mixed into Flask's test client: a device at the table, posting as our pages do.

    A seat's JSON input carries the seat's token in its header (as the page's
    script sends it), a plain form carries the page's signed form field, and
    every request says it comes from our own site (``Sec-Fetch-Site``). Like a
    player's tablet, the client joins a seat (``POST /join/<token>``) before it
    opens the seat's page, JSON or stream; host pages are opened from the host's
    device (the client follows the host link first), and the table screen from a
    paired screen (the screen link), so it shows the seats' codes. The security
    tests use Flask's plain client, or raw sockets, to show that a request
    without these is refused.
    """

    _HOST_PATHS = ("/setup", "/calibration", "/enrollment", "/host")

    def _join(self, path: str, base_url: str | None = None) -> None:
        """Join the seat ``path`` opens, once (a seat another device holds stays its own)."""
        import re

        from lawmaster.host.web.guard import FORM_FIELD, join_scope

        found = re.match(r"/(?:seat|events)/([A-Za-z0-9_-]+)", path)
        joined = self.__dict__.setdefault("_joined", set())
        if found is None or found.group(1) in joined or found.group(1) == "table":
            return
        token = found.group(1)
        joined.add(token)
        access = self.application.extensions["lawmaster.access"]
        if not access.is_claimed(token):
            field = access.form_token(join_scope(token))
            where = {"base_url": base_url} if base_url else {}
            super().post(f"/join/{token}", data={FORM_FIELD: field},
                         headers={"Sec-Fetch-Site": "same-origin"}, **where)  # fmt: skip

    def _pair(self, path: str, base_url: str | None = None) -> None:
        paired = self.__dict__.setdefault("_paired", set())
        if path.startswith("/table") and base_url not in paired:
            paired.add(base_url)
            access = self.application.extensions["lawmaster.access"]
            where = {"base_url": base_url} if base_url else {}
            super().get(f"/screen/{access.screen_token}", **where)

    def _prepare(self, path: str, kwargs: dict) -> dict:
        from lawmaster.host.web.guard import FORM_FIELD, HOST_SCOPE, TOKEN_HEADER, seat_scope

        access = self.application.extensions["lawmaster.access"]
        scope = None
        headers = dict(kwargs.pop("headers", None) or {})
        headers.setdefault("Sec-Fetch-Site", "same-origin")
        kwargs["headers"] = headers
        self._join(path, kwargs.get("base_url"))
        self._pair(path, kwargs.get("base_url"))
        if path.startswith("/seat/"):
            token = path.split("/")[2]
            scope = seat_scope(token)
            headers = dict(kwargs.pop("headers", None) or {})
            headers.setdefault(TOKEN_HEADER, token)
            kwargs["headers"] = headers
        elif path.startswith(self._HOST_PATHS):
            scope = HOST_SCOPE
            if not getattr(self, "_is_host", False):
                self._is_host = True
                super().get(f"/host/{access.host_token}")
        data = kwargs.get("data")
        if scope is not None and isinstance(data, dict):
            kwargs["data"] = {**data, FORM_FIELD: access.form_token(scope)}
        return kwargs

    def post(self, path: str, *args, **kwargs):
        return super().post(path, *args, **self._prepare(path, kwargs))

    def get(self, path: str, *args, **kwargs):
        if path.startswith(self._HOST_PATHS):
            self._prepare(path, {})
        self._join(path, kwargs.get("base_url"))
        self._pair(path, kwargs.get("base_url"))
        headers = dict(kwargs.pop("headers", None) or {})
        headers.setdefault("Sec-Fetch-Site", "same-origin")
        return super().get(path, *args, headers=headers, **kwargs)


@pytest.fixture(autouse=True, scope="session")
def _page_like_test_clients():
    """Every ``app.test_client()`` of a test posts as our pages do (see :class:`PageClient`);
    session-wide, so module-scoped fixtures' clients do too."""
    from flask import Flask
    from flask.testing import FlaskClient

    before = Flask.test_client_class
    Flask.test_client_class = type("PageTestClient", (PageClient, FlaskClient), {})
    yield
    Flask.test_client_class = before
