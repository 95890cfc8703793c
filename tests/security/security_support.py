"""A player at the table with a laptop on the same Wi-Fi: raw HTTP from a chosen address.

Everything here talks to a real server on 127.0.0.1 (waitress, as ``lawmaster run``
and ``lawmaster demo`` serve the dashboard) with real cookies. A :class:`Device`
is one machine on the network: its own cookie jar, its own source address
(``127.0.0.2`` is "another machine"), nothing a page of ours would add unless the
test says so. A browser's navigation is imitated by :meth:`Device.navigate`
(the fetch-metadata headers a browser sends when a person opens a link).
"""

from __future__ import annotations

import contextlib
import http.client
import json
import queue
import re
import socket
import threading
import time
import zlib
from collections.abc import Iterator
from dataclasses import dataclass, field
from http.cookies import SimpleCookie
from pathlib import Path
from typing import Any

from lawmaster.host.runtime import Runtime, open_host, start_web
from lawmaster.host.web.guard import TOKEN_HEADER

#: Words that appear only in one seat's own view of GW:s brott (never the table's).
PRIVATE_KEYS = {
    "red": ("evidence_held", "ability", "criminal_card"),
    "green": ("evidence_held", "ability", "criminal_card"),
    "gw": ("trumps_left", "deduction"),
}


@dataclass
class Answer:
    status: int
    headers: http.client.HTTPMessage
    text: str

    def json(self) -> Any:
        return json.loads(self.text or "null")

    @property
    def location(self) -> str:
        return self.headers.get("Location", "")


@dataclass
class Device:
    """One machine on the table's network: a cookie jar and a source address."""

    port: int
    source: str = "127.0.0.1"
    cookies: dict[str, str] = field(default_factory=dict)
    set_cookies: list[str] = field(default_factory=list)

    def _connect(self, timeout: float) -> http.client.HTTPConnection:
        return http.client.HTTPConnection(
            "127.0.0.1", self.port, timeout=timeout, source_address=(self.source, 0)
        )

    def _headers(self, extra: dict[str, str] | None) -> dict[str, str]:
        headers = {"Host": f"127.0.0.1:{self.port}", "Connection": "close"}
        if self.cookies:
            headers["Cookie"] = "; ".join(f"{k}={v}" for k, v in self.cookies.items())
        headers.update(extra or {})
        return headers

    def _keep(self, response: http.client.HTTPResponse) -> None:
        for raw in response.headers.get_all("Set-Cookie") or []:
            self.set_cookies.append(raw)
            jar: SimpleCookie = SimpleCookie()
            jar.load(raw)
            for name, morsel in jar.items():
                if morsel["max-age"] in ("0",) or not morsel.value:
                    self.cookies.pop(name, None)
                else:
                    self.cookies[name] = morsel.value

    def request(
        self,
        method: str,
        path: str,
        body: bytes | None = None,
        headers: dict[str, str] | None = None,
        timeout: float = 10.0,
    ) -> Answer:
        conn = self._connect(timeout)
        try:
            conn.request(method, path, body, self._headers(headers))
            response = conn.getresponse()
            text = response.read().decode("utf-8", "replace")
            self._keep(response)
            return Answer(response.status, response.headers, text)
        finally:
            conn.close()

    def get(self, path: str, headers: dict[str, str] | None = None) -> Answer:
        return self.request("GET", path, headers=headers)

    def navigate(self, path: str, site: str = "none") -> Answer:
        """Open ``path`` as a person opening a link does (redirects followed)."""
        for _ in range(6):
            answer = self.get(
                path,
                {
                    "Accept": "text/html,application/xhtml+xml",
                    "Sec-Fetch-Site": site,
                    "Sec-Fetch-Mode": "navigate",
                    "Sec-Fetch-Dest": "document",
                },
            )
            if answer.status not in (301, 302, 303, 307, 308):
                return answer
            path = _path_of(answer.location)
            site = "same-origin" if site != "none" else site
        return answer

    def post_json(self, path: str, body: Any, token: str | None = None) -> Answer:
        """A JSON post as a seat page's script sends it (the token header when given)."""
        headers = {"Content-Type": "application/json"}
        if token is None and path.startswith("/seat/"):
            token = path.split("/")[2]
        if token:
            headers[TOKEN_HEADER] = token
        return self.request("POST", path, json.dumps(body).encode(), headers)

    def post_form(self, path: str, fields: dict[str, str]) -> Answer:
        from urllib.parse import urlencode

        headers = {
            "Content-Type": "application/x-www-form-urlencoded",
            "Origin": f"http://127.0.0.1:{self.port}",
            "Sec-Fetch-Site": "same-origin",
        }
        return self.request("POST", path, urlencode(fields).encode(), headers)

    def submit(self, page: Answer, action: str, extra: dict[str, str] | None = None) -> Answer:
        """Press the button of the form on ``page`` that posts to ``action`` (its fields sent)."""
        fields = form_fields(page.text, action)
        assert fields is not None, f"no form posting to {action} on the page:\n{page.text[:2000]}"
        fields.update(extra or {})
        answer = self.post_form(action, fields)
        if answer.status in (302, 303):
            return self.navigate(_path_of(answer.location), site="same-origin")
        return answer

    def claim(self, token: str) -> Answer:
        """Join a seat the way a player does: open its code's link (and confirm, if asked)."""
        answer = self.navigate(f"/join/{token}")
        if form_fields(answer.text, f"/join/{token}") is not None:
            answer = self.submit(answer, f"/join/{token}")
        return answer

    def stream(self, path: str, gzip: bool = False) -> Stream:
        """``path``'s event stream, read as it arrives (``gzip``: asked for compressed, as a
        browser asks, and undone here as a browser does)."""
        return Stream(self, path, gzip)


def _path_of(location: str) -> str:
    return re.sub(r"^https?://[^/]+", "", location) or "/"


def form_fields(page: str, action: str) -> dict[str, str] | None:
    """The named fields of the form on ``page`` posting to ``action`` (``None``: no such form)."""
    for match in re.finditer(r"<form\b[^>]*>(.*?)</form>", page, re.S):
        tag = match.group(0)[: match.group(0).index(">") + 1]
        if f'action="{action}"' not in tag:
            continue
        fields = {}
        for field_tag in re.findall(r"<(?:input|button)\b[^>]*>", match.group(1)):
            name = re.search(r'name="([^"]*)"', field_tag)
            value = re.search(r'value="([^"]*)"', field_tag)
            if name:
                fields[name.group(1)] = value.group(1) if value else ""
        return fields
    return None


class Stream:
    """An event stream read by a thread of its own, so a test can watch it for a while."""

    def __init__(self, device: Device, path: str, gzip: bool = False) -> None:
        self.conn = device._connect(timeout=30)
        headers = {"Accept": "text/event-stream"}
        if gzip:
            headers["Accept-Encoding"] = "gzip"
        self.conn.request("GET", path, headers=device._headers(headers))
        self.response = self.conn.getresponse()
        self.status = self.response.status
        packed = self.response.headers.get("Content-Encoding") == "gzip"
        self._unpack = zlib.decompressobj(16 + zlib.MAX_WBITS) if packed else None
        self.blocks: queue.Queue[str | None] = queue.Queue()
        self.ended = threading.Event()
        self._thread = threading.Thread(target=self._read, daemon=True)
        self._thread.start()

    def _lines(self) -> Iterator[bytes]:
        """The stream's lines as they arrive (gzip undone first when the server packed it)."""
        if self._unpack is None:
            while line := self.response.readline():
                yield line
            return
        pending = b""
        while piece := self.response.read1(65536):
            pending += self._unpack.decompress(piece)
            *whole, pending = pending.split(b"\n")
            for line in whole:
                yield line + b"\n"

    def _read(self) -> None:
        lines: list[str] = []
        try:
            for line in self._lines():
                text = line.decode("utf-8", "replace").rstrip("\r\n")
                if text:
                    lines.append(text)
                elif lines:
                    self.blocks.put("\n".join(lines))
                    lines = []
        except (OSError, ValueError, AttributeError, http.client.HTTPException):
            pass
        finally:
            self.ended.set()
            self.blocks.put(None)

    def watch(self, seconds: float) -> list[str]:
        """Every block received within ``seconds`` (or until the server ends the stream)."""
        out: list[str] = []
        deadline = time.monotonic() + seconds
        while True:
            left = deadline - time.monotonic()
            if left <= 0:
                break
            try:
                block = self.blocks.get(timeout=left)
            except queue.Empty:
                break
            if block is None:
                break
            out.append(block)
        return out

    def close(self) -> None:
        with contextlib.suppress(OSError):
            self.response.close()
        with contextlib.suppress(OSError):
            self.conn.close()


def updates(blocks: list[str]) -> list[dict[str, Any]]:
    """The data of every ``update`` event among ``blocks``."""
    found = []
    for block in blocks:
        if "event: update" not in block:
            continue
        lines = [line[5:].lstrip() for line in block.split("\n") if line.startswith("data:")]
        data = "\n".join(lines)
        found.append(json.loads(data))
    return found


def carries_seat(text: str, seat: str) -> bool:
    """Whether ``text`` (a page, a JSON answer, a stream) holds anything of ``seat``'s own view."""
    return any(f'"{key}"' in text for key in PRIVATE_KEYS[seat])


@dataclass
class Served:
    runtime: Runtime
    port: int
    path: Path

    @property
    def table(self) -> Any:
        return self.runtime.table

    @property
    def access(self) -> Any:
        assert self.runtime.web is not None
        return self.runtime.web.access

    def device(self, source: str = "127.0.0.1") -> Device:
        return Device(self.port, source)

    def host_device(self) -> Device:
        """A device that opened the host link (as the person at the Pi's screen does)."""
        device = self.device()
        assert self.runtime.web is not None
        link = self.runtime.web.host_url
        answer = device.navigate(_path_of(link))
        assert answer.status == 200, answer.text[:500]
        return device


@contextlib.contextmanager
def served(
    tmp_path: Path, header: dict[str, Any], settings: dict[str, Any] | None = None
) -> Iterator[Served]:
    """The real table host and dashboard on 127.0.0.1, as ``lawmaster run`` builds them."""
    path = tmp_path / "journal.db"
    runtime = Runtime(open_host(str(path), settings or {"board": False}, header))
    try:
        runtime.web = start_web(runtime.host, "127.0.0.1", 0)
        yield Served(runtime, int(runtime.web.server.effective_port), path)
    finally:
        runtime.close()


def trickle(sockets: list[socket.socket], stop: threading.Event, every: float) -> None:
    """Add one header line to every socket each ``every`` seconds, never ending the headers."""
    while not stop.wait(every):
        for sock in sockets:
            with contextlib.suppress(OSError):
                sock.send(b"X-Slow: 1\r\n")
