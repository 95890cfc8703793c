"""Shared helpers for the dashboard tests: a real host and table, a live waitress server,
random legal GW:s brott inputs, and SSE reading over a plain socket.

Everything runs the real thing: the journal on a temp file, the real ``Table``
and referee, the real GW:s brott engine, the app under waitress on 127.0.0.1.
"""

from __future__ import annotations

import http.client
import json
import random
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from lawmaster.host.games.gw_brott.boards import board_of
from lawmaster.host.games.gw_brott.setup import deal_gw
from lawmaster.host.journal import Journal
from lawmaster.host.table import Table, TableHost
from lawmaster.host.web import create_app, make_server, stop
from lawmaster.host.web.guard import TOKEN_HEADER
from lawmaster.rules.gw_brott.board import Board

TOKENLESS = "table"

#: (port, seat token) → the cookie of the device that joined that seat (see seat_cookie).
_JOINED: dict[tuple[int, str], str | None] = {}
_JOINED_LOCK = threading.Lock()


def seat_cookie(port: int, token: str) -> str | None:
    """The ``Cookie`` header of a device that joined the seat ``token`` opens, on the server at
    ``port``: joined once (as a player opening the seat's code does), then reused. ``None``
    when another device holds the seat already (a browser page of the test, say)."""
    key = (port, token)
    with _JOINED_LOCK:
        if key in _JOINED:
            return _JOINED[key]
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
        try:
            conn.request("GET", f"/join/{token}", headers={"Sec-Fetch-Site": "none"})
            response = conn.getresponse()
            response.read()
            cookie = None
            for raw in response.headers.get_all("Set-Cookie") or []:
                name_value = raw.split(";", 1)[0]
                if name_value.startswith("lawmaster_device="):
                    cookie = name_value
        finally:
            conn.close()
        _JOINED[key] = cookie if response.status == 303 else None
        return _JOINED[key]


def with_device(port: int, path: str, cookie: str | None) -> str | None:
    """``cookie`` with the seat's device cookie added (the device that joined it), if the path
    is a seat's and ``cookie`` names no device of its own."""
    token = _seat_token(path)
    if token is None or (cookie and "lawmaster_device=" in cookie):
        return cookie
    device = seat_cookie(port, token)
    if device is None:
        return cookie
    return f"{device}; {cookie}" if cookie else device


def device_of(context: Any) -> str:
    """The ``Cookie`` header of a browser context's device (a Playwright context): to post as
    the page of a seat that browser joined does."""
    found = [c["value"] for c in context.cookies() if c["name"] == "lawmaster_device"]
    assert found, "the browser joined no seat"
    return f"lawmaster_device={found[0]}"


def _seat_token(path: str) -> str | None:
    import re

    found = re.match(r"/(?:seat|events)/([A-Za-z0-9_-]+)", path)
    return found.group(1) if found and found.group(1) != TOKENLESS else None


def gw_header(
    seed: int, criminals: list[str] | None = None, two_player: bool = False
) -> dict[str, Any]:
    """A GW:s brott header with cards dealt by a seeded shuffle."""
    header: dict[str, Any] = {"game": "gw-brott", "criminals": criminals or ["red", "green"]}
    if two_player:
        header["two_player"] = True
    return deal_gw(header, random.Random(seed))


def make_host(tmp_path: Path, settings: dict[str, Any] | None = None) -> TableHost:
    """A host on a fresh journal, as the runtime builds it."""
    return TableHost(Journal(tmp_path / "journal.sqlite"), settings or {})


def tokens(table: Table) -> dict[str, str]:
    """Seat → token for every player seat."""
    return {seat: table.token(seat) for seat in table.seats()}


def _gw_path(board: Board, start: str, steps: int, rng: random.Random) -> list[str]:
    cell = board.cell(start)
    path = []
    for _ in range(steps):
        options = board.neighbours[cell]
        if not options:
            break
        cell = rng.choice(options)
        path.append(board.name_of(cell))
    return path


def random_input(table: Table, rng: random.Random) -> tuple[str, dict[str, Any]]:
    """A legal-looking input for the seat to act, chosen at random (GW's paths included).

    Criminal inputs come from the engine's legal actions (moves preferred over
    rerolls, so games progress); GW's from its own view's ``asked``.
    """
    seat = table.to_act()[0]
    actions = table.engine.legal_actions(table.state)
    if actions is not None:
        moves = [a for a in actions if a["act"] in ("move", "pass", "destroy_evidence", "inform")]
        pool = moves if moves and rng.random() < 0.85 else actions
        return seat, rng.choice(pool)
    view = table.snapshot("gw")["view"]
    asked = view["asked"]
    board = board_of(view)
    if asked["act"] == "gw_roll":
        trumps = asked.get("or_trump") or []
        if trumps and rng.random() < 0.2:
            card = rng.choice(trumps)
            action: dict[str, Any] = {"act": "trump", "card": card}
            if card == "helicopter":
                action["to"] = board.name_of(rng.choice(board.open_cells))
            elif card == "breakthrough":
                action["path"] = _gw_path(board, view["gw_position"], 8, rng)
            elif card == "informer":
                free = [p for p, info in view["criminals"].items() if not info["out"]]
                action["informer"] = rng.choice(free)
            return "gw", action
        return "gw", {"act": "gw_roll", "face": rng.randint(1, 6)}
    steps = asked["steps"] if asked["exactly"] else rng.randint(0, asked["steps"])
    return "gw", {"act": "gw_move", "path": _gw_path(board, view["gw_position"], steps, rng)}


def play_random(table: Table, rng: random.Random) -> tuple[str, dict[str, Any], dict[str, Any]]:
    """Submit one random input through the table; retry GW's path as staying put if refused."""
    seat, action = random_input(table, rng)
    result = table.submit(seat, action)
    if not result["ok"] and action["act"] in ("gw_move", "trump"):
        # A random path may run into a rule (exact steps blocked, a catch mid-path):
        # a short walk, then no walk at all.
        for fallback in ({"act": "gw_move", "path": []}, {"act": "gw_roll", "face": 1}):
            result = table.submit(seat, fallback)
            if result["ok"]:
                return seat, fallback, result
    return seat, action, result


@dataclass
class LiveServer:
    """The app served by waitress in a thread on a free port of 127.0.0.1."""

    app: Any
    server: Any
    thread: threading.Thread
    #: The browser cookies each page's device was left with (page path → cookies): a new
    #: browser context on the same seat is the same tablet opened again, not a stranger.
    devices: dict[str, list[dict[str, Any]]] = field(default_factory=dict)

    @property
    def port(self) -> int:
        return int(self.server.effective_port)

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def get_json(self, path: str, cookie: str | None = None) -> tuple[int, Any]:
        """GET a JSON answer from the device that joined the seat ``path`` names
        (:func:`seat_cookie`), unless ``cookie`` names another."""
        cookie = with_device(self.port, path, cookie)
        conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=10)
        try:
            conn.request("GET", path, headers={"Cookie": cookie} if cookie else {})
            response = conn.getresponse()
            return response.status, json.loads(response.read() or b"null")
        finally:
            conn.close()

    def post_json(
        self, path: str, body: Any, cookie: str | None = None
    ) -> tuple[int, dict[str, Any]]:
        """POST JSON the way a seat page's script does (its token in the header), from the
        device that joined the seat (:func:`seat_cookie`) unless ``cookie`` names another."""
        cookie = with_device(self.port, path, cookie)
        conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=10)
        try:
            data = json.dumps(body).encode()
            headers = {"Content-Type": "application/json"}
            if path.startswith("/seat/"):
                headers[TOKEN_HEADER] = path.split("/")[2]
            if cookie:
                headers["Cookie"] = cookie
            conn.request("POST", path, data, headers)
            response = conn.getresponse()
            return response.status, json.loads(response.read() or b"{}")
        finally:
            conn.close()


@contextmanager
def live_server(host: TableHost, **config: Any) -> Iterator[LiveServer]:
    """Serve ``host``'s dashboard until the block ends."""
    app = create_app(host, **config)
    server = make_server(app, "127.0.0.1", 0)
    thread = threading.Thread(target=server.run, name="waitress", daemon=True)
    thread.start()
    try:
        yield LiveServer(app, server, thread)
    finally:
        stop(server)
        thread.join(timeout=10)


class SseReader:
    """An SSE stream read over a raw HTTP connection (no client library buffering).

    A seat's stream is opened from the device that joined the seat
    (:func:`seat_cookie`) unless ``cookie`` names another.
    """

    def __init__(
        self,
        port: int,
        path: str,
        timeout: float = 10.0,
        cookie: str | None = None,
        source: str | None = None,
    ) -> None:
        cookie = with_device(port, path, cookie)
        bound = (source, 0) if source else None
        self.conn = http.client.HTTPConnection(
            "127.0.0.1", port, timeout=timeout, source_address=bound
        )
        headers = {"Accept": "text/event-stream"}
        if cookie:
            headers["Cookie"] = cookie
        self.conn.request("GET", path, headers=headers)
        self.response = self.conn.getresponse()

    def next_block(self) -> str:
        """The next blank-line-terminated block (an event or a comment)."""
        lines = []
        while True:
            line = self.response.readline()
            if not line:
                raise EOFError("the stream ended")
            text = line.decode("utf-8").rstrip("\r\n")
            if text == "":
                if lines:
                    return "\n".join(lines)
                continue
            lines.append(text)

    def next_event(self) -> tuple[str, Any]:
        """The next event (comments skipped): its name and its JSON data."""
        while True:
            block = self.next_block()
            if block.startswith(":"):
                continue
            name, data = "message", []
            for line in block.split("\n"):
                if line.startswith("event:"):
                    name = line[6:].strip()
                elif line.startswith("data:"):
                    data.append(line[5:].lstrip())
            return name, json.loads("\n".join(data))

    def close(self) -> None:
        # The response holds its own reference to the socket: close both, or the
        # connection stays open on the server's side.
        self.response.close()
        self.conn.close()
