"""How many bytes a tablet receives: each live push, the same moment as a whole page, and
a page's first load. Part of the ``table`` group (:mod:`.table`).

A whole simulated game of each shipped game is played at a table served by waitress
on 127.0.0.1 (the demo's header and simulated players). Every seat joins as a tablet
does (claims its seat with ``POST /join/<token>``, keeping its device cookie; the table
screen is paired by the screen link) and opens its page's event stream as the page's
script does (``?diff=1``: light pushes, see
:mod:`lawmaster.host.web.delta`); the table screen too. After each input the bench
waits until every stream has carried the new version, then counts:

* ``update_bytes``: each push every stream carried for it, in bytes on the wire (the
  whole SSE event, in the stream's gzip as a browser receives it), per seat per input;
  ``update_bytes_uncompressed``: the same events before compression;
* ``update_bytes_full_page``: for the same pushes, the seat's whole page at that
  moment (``GET /seat/<token>``, the table screen's ``GET /table``), in bytes: what
  a push would weigh if it sent the page, as the tables did before
  (``update_bytes_full_page_gzip``: each such page gzipped on its own);
* ``page_bytes_first_load``: a seat's page as a tablet first loads it (the page, its
  stylesheet and script, each as sent to a browser that takes gzip, and the stream's
  first push, which carries the page's regions whole), the largest of any seat of any
  game.
"""

from __future__ import annotations

import gzip
import http.client
import tempfile
import threading
import time
import zlib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import urlencode

from lawmaster.host.journal import Journal
from lawmaster.host.runtime import demo_header, players_for, start_web
from lawmaster.host.table import TableHost
from lawmaster.host.web.guard import FORM_FIELD, join_scope

GAMES = ("gw-brott", "judge-dredd", "unamerican-graffiti")
#: No game of the demo's size runs longer; the bench stops there if one does.
LIMIT = 3000
WAIT = 20.0  # seconds for a push to arrive: generous on a loaded machine


class Client:
    """One tablet: an HTTP client on 127.0.0.1 that keeps its cookies."""

    def __init__(self, port: int) -> None:
        self.port = port
        self.cookies: dict[str, str] = {}

    def headers(self, extra: dict[str, str] | None = None) -> dict[str, str]:
        found = dict(extra or {})
        if self.cookies:
            found["Cookie"] = "; ".join(f"{k}={v}" for k, v in self.cookies.items())
        return found

    def get(self, path: str, extra: dict[str, str] | None = None) -> tuple[int, bytes]:
        return self.request("GET", path, extra)

    def join(self, token: str, access: Any) -> None:
        """Claim the seat of ``token`` as a player's tablet does: the join page's form,
        posted from our own site (the server's form field for the join)."""
        form = urlencode({FORM_FIELD: access.form_token(join_scope(token))})
        extra = {
            "Content-Type": "application/x-www-form-urlencoded",
            "Sec-Fetch-Site": "same-origin",
        }
        status, _body = self.request("POST", f"/join/{token}", extra, form.encode())
        if status != 303:
            raise RuntimeError(f"joining a seat answered {status}")

    def request(
        self, method: str, path: str, extra: dict[str, str] | None = None, body: bytes = b""
    ) -> tuple[int, bytes]:
        connection = http.client.HTTPConnection("127.0.0.1", self.port, timeout=60)
        try:
            connection.request(method, path, body=body or None, headers=self.headers(extra))
            response = connection.getresponse()
            body = response.read()
            for name, value in response.getheaders():
                if name.lower() == "set-cookie":
                    pair = value.split(";", 1)[0]
                    key, _sep, val = pair.partition("=")
                    self.cookies[key.strip()] = val.strip()
            return response.status, body
        finally:
            connection.close()


class Stream(threading.Thread):
    """One page's event stream: the size of each push and the version it carried."""

    def __init__(self, client: Client, path: str, packed: bool = True) -> None:
        super().__init__(name="bench-push", daemon=True)
        self.client = client
        self.path = path
        self.packed = packed
        #: (version, bytes on the wire, the same before compression) of each push.
        self.pushes: list[tuple[int, int, int]] = []
        self.lock = threading.Lock()

    def run(self) -> None:
        connection = http.client.HTTPConnection("127.0.0.1", self.client.port, timeout=600)
        headers = self.client.headers({"Accept-Encoding": "gzip"} if self.packed else None)
        connection.request("GET", self.path, headers=headers)
        response = connection.getresponse()
        gzip = response.getheader("Content-Encoding") == "gzip"
        unpack = zlib.decompressobj(16 + zlib.MAX_WBITS) if gzip else None
        text = b""
        wire = 0  # bytes received since the last whole event
        while True:
            # One HTTP chunk at a time: the server writes each event as one chunk.
            piece = response.read1(1 << 20)
            if not piece:
                return
            wire += len(piece)
            text += unpack.decompress(piece) if unpack is not None else piece
            while b"\n\n" in text:
                block, text = text.split(b"\n\n", 1)
                if block.startswith(b"id: "):
                    version = int(block[4 : block.index(b"\n")])
                    plain = len(block) + 2
                    with self.lock:
                        self.pushes.append((version, wire if gzip else plain, plain))
                wire = 0

    def since(self, count: int) -> list[tuple[int, int, int]]:
        with self.lock:
            return list(self.pushes[count:])

    def count(self) -> int:
        with self.lock:
            return len(self.pushes)


@dataclass
class Figures:
    updates: list[int] = field(default_factory=list)
    plain: list[int] = field(default_factory=list)
    full_pages: list[int] = field(default_factory=list)
    full_pages_gzip: list[int] = field(default_factory=list)
    first_loads: list[int] = field(default_factory=list)
    games: int = 0


def _wait(streams: list[Stream], marks: list[int], version: int) -> None:
    deadline = time.monotonic() + WAIT
    while time.monotonic() < deadline:
        if all(
            any(p[0] >= version for p in s.since(m)) for s, m in zip(streams, marks, strict=True)
        ):
            return
        time.sleep(0.002)
    raise RuntimeError(f"a push of version {version} did not arrive within {WAIT} s")


def one_game(game: str, seed: int, figures: Figures) -> None:
    with tempfile.TemporaryDirectory(prefix="lawmaster-bench-") as folder:
        host = TableHost(Journal(Path(folder) / "journal.db"), {})
        table = host.new_game(demo_header(game, seed))
        web = start_web(host, "127.0.0.1", 0)
        try:
            port = int(web.url.rsplit(":", 1)[1])
            players = players_for(table, seed)
            pages: dict[str, str] = {"table": "/table?qr=0"}
            streams: dict[str, Stream] = {}
            clients: dict[str, Client] = {"table": Client(port)}
            # The table screen is the Pi's own display, paired by the screen link.
            clients["table"].get(web.screen_url.split(str(port), 1)[1])
            for seat in table.seats():
                token = table.token(seat)
                client = clients[seat] = Client(port)
                client.join(token, web.access)
                pages[seat] = f"/seat/{token}"
            for seat, client in clients.items():
                url = "/events/table" if seat == "table" else f"/events/{table.token(seat)}"
                # As the page's script asks: light pushes, its regions whole at once.
                stream = Stream(client, f"{url}?diff=1&last=99999999999")
                stream.start()
                streams[seat] = stream
            order = list(streams)
            _wait([streams[s] for s in order], [0] * len(order), table.version)
            gz = {"Accept-Encoding": "gzip"}
            static = sum(len(clients["table"].get(f"/static/{n}", gz)[1]) for n in _STATIC)
            for seat in table.seats():
                page = len(clients[seat].get(pages[seat], gz)[1])
                base = sum(p[1] for p in streams[seat].since(0))
                figures.first_loads.append(page + static + base)
            for _ in range(LIMIT):
                if table.is_over():
                    break
                decision = players.decide()
                if decision is None:
                    break
                marks = [streams[s].count() for s in order]
                if not table.submit(decision.seat, decision.action).get("ok"):
                    continue
                _wait([streams[s] for s in order], marks, table.version)
                for seat, mark in zip(order, marks, strict=True):
                    pushed = streams[seat].since(mark)
                    page = clients[seat].get(pages[seat])[1]
                    packed = len(gzip.compress(page, compresslevel=6, mtime=0))
                    for _v, size, unpacked in pushed:
                        figures.updates.append(size)
                        figures.plain.append(unpacked)
                        figures.full_pages.append(len(page))
                        figures.full_pages_gzip.append(packed)
            figures.games += 1
        finally:
            web.close()
            host.journal.close()


_STATIC = ("lawmaster.css", "lawmaster.js")


def measure(seed: int = 3) -> Figures:
    """Whole games of every shipped game, counted (see the module docstring)."""
    figures = Figures()
    for game in GAMES:
        one_game(game, seed, figures)
    return figures


def summary(figures: Figures, percentile: Any) -> dict[str, float]:
    return {
        "update_bytes_p50": float(percentile(figures.updates, 50)),
        "update_bytes_p99": float(percentile(figures.updates, 99)),
        "update_bytes_full_page_p99": float(percentile(figures.full_pages, 99)),
        # The same figures without compression, and the whole pages compressed alone:
        # how much of the gain is the edit and how much the stream's gzip.
        "update_bytes_uncompressed_p99": float(percentile(figures.plain, 99)),
        "update_bytes_full_page_gzip_p99": float(percentile(figures.full_pages_gzip, 99)),
        "update_bytes_samples": float(len(figures.updates)),
        "page_bytes_first_load": float(max(figures.first_loads, default=0)),
    }
