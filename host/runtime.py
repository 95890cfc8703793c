"""One table's running parts: journal, table host, health, web, and simulated players.

``lawmaster demo`` and ``lawmaster run`` both build a :class:`Runtime`; they
differ only in the hardware factory its stages are wired from (simulated, or
the configured serial port, NFC readers and GPIO pins): see
:mod:`lawmaster.host.stack` for the wiring and :mod:`lawmaster.host.devices`
for the factories.
"""

from __future__ import annotations

import contextlib
import gc
import os
import sys
import threading
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from . import games
from .health import Health
from .journal import Journal
from .plugin import Players
from .table import Table, TableHost
from .web import create_app, make_server


def demo_games() -> list[str]:
    """The games the demo can play: those with simulated players and a demo setup."""
    return [
        slug
        for slug, game in games.games().items()
        if game.players is not None and game.setup.demo is not None
    ]


def demo_header(game: str, seed: int) -> dict[str, Any]:
    """The header of the demo's game (what a table would set up on its setup page)."""
    found = games.game(game)
    if found.setup.demo is None or found.players is None:
        raise ValueError(f"the demo has no simulated players for {game!r}")
    return {"game": found.slug, **found.setup.demo(seed)}


def players_for(table: Table, seed: int) -> Players:
    """The simulated players of the table's game (each decides from its own seat's page)."""
    factory = table.plugin.players
    if factory is None:
        raise ValueError(f"{table.plugin.title} has no simulated players")
    return factory(table, seed)


@dataclass
class WebServer:
    """The dashboard served by waitress in a background thread."""

    server: Any
    thread: threading.Thread
    url: str
    #: The host console's link: for the Pi's own screen or a file only its user reads
    #: (:func:`write_links`), never a shared page or the system log. New at every start.
    host_url: str = ""
    #: The dashboard's record of claimed seats, hosts and screens (the panel's long press grants).
    access: Any = None
    #: The link that pairs a table screen (the Pi's own display): it shows the seats' codes.
    screen_url: str = ""

    def close(self) -> None:
        self.server.close()
        self.thread.join(timeout=5)


def start_web(host: TableHost, bind: str, port: int, public_url: str = "") -> WebServer:
    """Serve the dashboard through waitress (never Werkzeug's dev server).

    ``public_url`` is the address the tablets reach the table by (the QR codes'
    base); empty: the address the table screen was opened by.
    """
    # Claimed seats and the host are kept beside the journal: a restart keeps them.
    access_file = f"{host.journal.path}.access.json"
    app = create_app(host, PUBLIC_URL=public_url.rstrip("/") or None, ACCESS_FILE=access_file)
    server = make_server(app, bind, port)
    # What start-up built lives as long as the table: kept out of the cyclic
    # collector, a full collection no longer walks it in the middle of a move.
    gc.collect()
    gc.freeze()
    thread = threading.Thread(target=server.run, name="waitress", daemon=True)
    thread.start()
    actual = server.effective_port
    shown = "127.0.0.1" if bind in ("0.0.0.0", "") else bind
    url = f"http://{shown}:{actual}"
    base = public_url.rstrip("/") or url
    access = app.extensions["lawmaster.access"]
    host_url = f"{base}/host/{access.host_token}"
    screen_url = f"{base}/screen/{access.screen_token}"
    return WebServer(server, thread, url, host_url, access, screen_url)


def links_path(journal_path: str) -> str:
    """Where :func:`write_links` keeps the host and screen links, beside the journal."""
    return f"{journal_path}.host-link"


def write_links(journal_path: str, web: WebServer) -> str:
    """Write the host console's and the table screen's links to a file only this user reads.

    ``lawmaster run`` runs as a service whose standard output goes to the system
    log, which others on the Pi may read: the links go here instead (mode 0600,
    written whole and renamed). Returns the file's path.
    """
    path = links_path(journal_path)
    partial = f"{path}.partial"
    text = (
        "# Lawmaster: the links of this start (new at every start). Keep them to yourself.\n"
        f"host console: {web.host_url}\n"
        f"table screen with the seats' codes: {web.screen_url}\n"
    )
    fd = os.open(partial, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    try:
        os.fchmod(fd, 0o600)
        os.write(fd, text.encode("utf-8"))
        os.fsync(fd)
    finally:
        os.close(fd)
    os.replace(partial, path)
    return path


def open_host(
    journal_path: str, settings: Mapping[str, Any], header: Mapping[str, Any]
) -> TableHost:
    """The table host on a journal: the open game resumed by replay, or a new one.

    A journal found damaged at start is said on standard error at once (and on
    the table screen, see :mod:`lawmaster.host.health`): never a silent resume.
    """
    journal = Journal(journal_path)
    host = TableHost(journal, settings)
    damage = journal.damage
    if host.table is None:
        host.new_game(header)
        if damage is not None:
            # A game set up because nothing of the old one could be read: the report
            # stays (on the screen, the tablets, at every start) until the host sets one up.
            journal.keep_damage(damage)
    if journal.damage is not None:
        print("\n".join(journal.damage.lines()), file=sys.stderr, flush=True)
    return host


def watch_health(host: TableHost) -> Any:
    """A :class:`~lawmaster.host.health.Health` shown on every table the host holds.

    It starts with what the journal's start-up check found, so a damaged
    journal is said on the table screen even at a table without hardware.
    Each change pushes fresh pages; the board's stages add the referee's side
    (:class:`lawmaster.host.stack.TableStages`).
    """
    health = Health()
    host.health = health  # type: ignore[attr-defined]
    damage = getattr(host.journal, "damage", None)
    if damage is not None:
        health.journal_damage(damage)

    def attach(table: Table) -> None:
        table.health = health
        table.referee.attach_health(health)

    def changed() -> None:
        table = host.table
        if table is not None:
            table.touch()

    def may_know(piece: str, seat: str) -> bool:
        # Whoever the game lets read why a piece's input was wrong may read where it stands.
        table = host.table
        if table is None:
            return False
        return seat in table.referee.detail_seats({"by": piece})

    if host.table is not None:
        attach(host.table)
    host.on_new_table.append(attach)
    health.on_change.append(changed)
    health.may_know = may_know
    return health


@dataclass
class Runtime:
    """Everything running for one table; :meth:`close` stops it in reverse order."""

    host: TableHost
    web: WebServer | None = None
    closers: list[Callable[[], None]] = field(default_factory=list)
    #: Stages not wired, with the reason, for the start-up message.
    missing: list[str] = field(default_factory=list)
    #: The stages wired to the referee (:class:`~lawmaster.host.stack.TableStages`), once started.
    stages: Any = None
    #: The table's hardware health, shown on every page.
    health: Any = None

    def __post_init__(self) -> None:
        if self.health is None:
            self.health = watch_health(self.host)

    @property
    def table(self) -> Table:
        assert self.host.table is not None
        return self.host.table

    def close(self) -> None:
        for closer in reversed(self.closers):
            # One stage failing to close must not keep the others open.
            with contextlib.suppress(Exception):
                closer()
        self.closers.clear()
        if self.web is not None:
            self.web.close()
            self.web = None


class Autoplay(threading.Thread):
    """Simulated players playing the table's game at ``pace`` seconds per input.

    ``act`` carries one decision out (on the tablets, or on the simulated
    board). It stops when the game is over or :meth:`stop` is called; with
    ``follow_new_games`` it waits for the next game set up instead, and plays it.
    """

    def __init__(
        self,
        host: TableHost,
        act: Callable[[Table, Any], bool],
        *,
        seed: int,
        pace: float,
        on_over: Callable[[Table], None] | None = None,
        follow_new_games: bool = False,
    ) -> None:
        super().__init__(name="autoplay", daemon=True)
        self.follow_new_games = follow_new_games
        self.host = host
        self.act = act
        self.seed = seed
        self.pace = pace
        self.on_over = on_over
        self.error: BaseException | None = None
        self._stop_event = threading.Event()

    def stop(self) -> None:
        self._stop_event.set()

    def run(self) -> None:
        players: Players | None = None
        playing: Table | None = None  # the game ``players`` play
        finished: Table | None = None  # the last game seen over (told once)
        try:
            while not self._stop_event.is_set():
                table = self.host.table
                if table is None:
                    self._stop_event.wait(0.2)
                    continue
                if players is None or playing is not table:
                    players, playing = players_for(table, self.seed), table
                if table.is_over():
                    if self.on_over is not None and table is not finished:
                        self.on_over(table)
                    if not self.follow_new_games:
                        return
                    finished = table
                    self._stop_event.wait(0.2)
                    continue
                if self.pace and self._stop_event.wait(self.pace):
                    return
                decision = players.decide()
                if decision is None:
                    self._stop_event.wait(0.05)
                    continue
                self.act(table, decision)
        except BaseException as exc:  # noqa: BLE001 - reported by the command
            self.error = exc


def tablet_act(table: Table, decision: Any) -> bool:
    """Carry a decision out on the tablets only (no board); raise if the table refuses it."""
    result = table.submit(decision.seat, decision.action)
    if not result.get("ok"):
        raise RuntimeError(f"{decision.seat}: {decision.action} refused: {result.get('error')}")
    return True


def wait_until(predicate: Callable[[], bool], timeout: float, step: float = 0.005) -> bool:
    """Poll ``predicate`` until true or ``timeout`` seconds pass."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if predicate():
            return True
        time.sleep(step)
    return predicate()
