"""A tablet at a real table, in headless Chromium: the page catches up after the Wi-Fi
drops, and the screen is kept awake while a game is shown."""

from __future__ import annotations

import contextlib
import socket
import threading
from pathlib import Path

import pytest
from web_support import gw_header, live_server, make_host

CHROMIUM = Path("/usr/bin/chromium")
pytestmark = [
    pytest.mark.browser,
    pytest.mark.skipif(not CHROMIUM.exists(), reason="Debian chromium is not at /usr/bin/chromium"),
]


class WiFi:
    """A TCP relay between the tablet and the table that can drop, like a Wi-Fi link.

    ``drop()`` cuts every open connection (the event stream included) and refuses
    new ones; ``restore()`` lets connections through again. The server never
    notices anything but closed sockets, as with a tablet walking out of range.
    """

    def __init__(self, port: int) -> None:
        self.target = port
        self.listener = socket.create_server(("127.0.0.1", 0))
        self.port = self.listener.getsockname()[1]
        self.up = threading.Event()
        self.up.set()
        self.open: list[socket.socket] = []
        self.lock = threading.Lock()
        threading.Thread(target=self._accept, name="wifi", daemon=True).start()

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def _accept(self) -> None:
        while True:
            try:
                tablet, _ = self.listener.accept()
            except OSError:
                return  # closed
            if not self.up.is_set():
                tablet.close()  # out of range: the connection fails at once
                continue
            table = socket.create_connection(("127.0.0.1", self.target))
            with self.lock:
                self.open += [tablet, table]
            for a, b in ((tablet, table), (table, tablet)):
                threading.Thread(target=self._pipe, args=(a, b), daemon=True).start()

    @staticmethod
    def _pipe(src: socket.socket, dst: socket.socket) -> None:
        try:
            while data := src.recv(65536):
                dst.sendall(data)
        except OSError:
            pass
        for s in (src, dst):
            with contextlib.suppress(OSError):
                s.shutdown(socket.SHUT_RDWR)

    def drop(self) -> None:
        self.up.clear()
        with self.lock:
            dropped, self.open = self.open, []
        for s in dropped:
            with contextlib.suppress(OSError):
                s.shutdown(socket.SHUT_RDWR)
            s.close()

    def restore(self) -> None:
        self.up.set()

    def close(self) -> None:
        self.drop()
        self.listener.close()


@pytest.fixture
def served(tmp_path):
    host = make_host(tmp_path)
    table = host.new_game(gw_header(3, ["red", "green"]))
    with live_server(host) as live:
        wifi = WiFi(live.port)
        yield table, wifi
        wifi.close()


def test_web_ui_live_page_catches_up_after_the_link_drops(served, context):
    table, wifi = served
    page = context.new_page()
    page.goto(f"{wifi.url}/seat/{table.token('gw')}")
    page.wait_for_selector('body[data-live="1"]')
    page.evaluate("window.__same_page = true")
    assert "red rolls" not in page.locator('[data-region="log"]').inner_text()

    # The Wi-Fi drops (the stream ends, nothing gets through); a move is made meanwhile.
    wifi.drop()
    page.wait_for_selector("#live.offline")
    assert page.locator("#live").inner_text() == "reconnecting…"
    faces = ["2", "3", "3", "4", "arrow"]
    assert table.submit("red", {"act": "roll", "by": "red", "faces": faces})["ok"]

    # The link is back: the page says so and shows the move, without a reload.
    wifi.restore()
    page.wait_for_selector('body[data-live="1"]')
    page.locator('[data-region="log"]').get_by_text("red rolls 2, 3, 3, 4, arrow.").wait_for()
    assert page.locator("#live").inner_text() == "live"
    assert page.evaluate("window.__same_page") is True


#: A stand-in for the Screen Wake Lock API that counts requests; ``__drop()`` lets go
#: of the lock as the browser does when the tablet hides the page.
FAKE_WAKE_LOCK = """
(() => {
  window.__wake = { requests: 0, lock: null };
  const wakeLock = {
    request(kind) {
      window.__wake.requests += 1;
      window.__wake.kind = kind;
      const listeners = [];
      const lock = {
        released: false,
        addEventListener(name, fn) { if (name === 'release') listeners.push(fn); },
        release() {
          lock.released = true;
          listeners.forEach(fn => fn());
          return Promise.resolve();
        },
      };
      window.__wake.lock = lock;
      return Promise.resolve(lock);
    },
  };
  Object.defineProperty(navigator, 'wakeLock', { value: wakeLock, configurable: true });
  window.__drop = () => window.__wake.lock.release();
})();
"""


def test_web_ui_live_screen_stays_awake_during_a_game(served, context):
    table, wifi = served
    context.add_init_script(FAKE_WAKE_LOCK)
    page = context.new_page()
    page.goto(f"{wifi.url}/seat/{table.token('red')}")
    page.wait_for_selector('body[data-wake="on"]')
    assert page.evaluate("window.__wake.kind") == "screen"
    # The browser lets go when the page is hidden; back in view, the page asks again.
    page.evaluate("window.__drop()")
    page.wait_for_selector('body[data-wake="off"]')
    page.evaluate("document.dispatchEvent(new Event('visibilitychange'))")
    page.wait_for_selector('body[data-wake="on"]')
    assert page.evaluate("window.__wake.requests") == 2
    # The table screen keeps itself awake too.
    screen = context.new_page()
    screen.goto(f"{wifi.url}/table")
    screen.wait_for_selector('body[data-wake="on"]')


def test_web_ui_live_without_wake_lock_the_page_still_works(served, context):
    table, wifi = served
    context.add_init_script("delete Navigator.prototype.wakeLock;")
    page = context.new_page()
    page.goto(f"{wifi.url}/seat/{table.token('red')}")
    page.wait_for_selector('body[data-live="1"]')
    assert page.locator("body").get_attribute("data-wake") == "unsupported"
