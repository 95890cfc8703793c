"""Assembling one table's stack: journal, table host, referee wiring, web, simulated players.

``lawmaster demo`` and ``lawmaster run`` both build a :class:`Runtime`; they
differ only in where the inputs come from (simulated board and players, or the
real serial port, NFC readers and GPIO pins). See :mod:`lawmaster.host.stack`
for the board stages.
"""

from __future__ import annotations

import contextlib
import gc
import sys
import threading
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from . import games
from .journal import Journal
from .plugin import Players
from .table import Table, TableHost


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
    #: The host console's link: printed on the Pi's own console, never on a shared page.
    host_url: str = ""
    #: The dashboard's record of claimed seats and the host (the panel's confirm grants).
    access: Any = None

    def close(self) -> None:
        self.server.close()
        self.thread.join(timeout=5)


def start_web(host: TableHost, bind: str, port: int, public_url: str = "") -> WebServer:
    """Serve the dashboard through waitress (never Werkzeug's dev server).

    ``public_url`` is the address the tablets reach the table by (the QR codes'
    base); empty: the address the table screen was opened by.
    """
    from lawmaster.host.web import create_app, make_server

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
    return WebServer(server, thread, url, f"{base}/host/{access.host_token}", access)


def open_host(
    journal_path: str, settings: Mapping[str, Any], header: Mapping[str, Any]
) -> TableHost:
    """The table host on a journal: the open game resumed by replay, or a new one.

    A journal found damaged at start is said on standard error at once (and on
    the table screen, see :mod:`lawmaster.host.health`): never a silent resume.
    """
    journal = Journal(journal_path)
    if journal.damage is not None:
        print("\n".join(journal.damage.lines()), file=sys.stderr, flush=True)
    host = TableHost(journal, settings)
    if host.table is None:
        host.new_game(header)
    return host


def watch_health(host: TableHost) -> Any:
    """A :class:`~lawmaster.host.health.Health` shown on every table the host holds.

    It starts with what the journal's start-up check found, so a damaged
    journal is said on the table screen even at a table without hardware.
    Each change pushes fresh pages; the board's stages add the referee's side
    (:func:`lawmaster.host.stack.health_of`).
    """
    from .health import Health

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
    #: The queue carrying hardware inputs to the referee (:class:`stack.Inputs`).
    inputs: Any = None
    #: The demo's simulated board (:class:`stack.SimulatedBoard`), if any.
    simulated_board: Any = None
    #: The table's hardware health (:class:`~lawmaster.host.health.Health`), once wired.
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


def simulated_calibration_path(runtime: Runtime, seed: int) -> Path:
    """Where the demo keeps its simulated board's calibration (next to the journal).

    The same file the simulated board loads (see ``stack.SimulatedBoard``): a
    board calibrated here is not calibrated again.
    """
    game = runtime.table.game
    return Path(runtime.host.journal.path).with_name(f"calibration-{game}-{seed}.json")


def calibrate_simulated_board(runtime: Runtime, seed: int) -> None:
    """The demo's start-up calibration, shown step by step on the calibration page.

    A simulated person calibrates the simulated board through the real guided
    flow (as on a real table) and the result is saved where the simulated
    board loads it; a restarted demo loads the file instead, as a table does.
    """
    from .progress import CalibrationProgress
    from .sensing import Calibration
    from .sim.physics import PhysicalBoard, SimClock
    from .sim.rig import simulated_person_calibration

    sensor_map = runtime.table.plugin.sensor_map()
    progress = CalibrationProgress(sensor_map)
    runtime.host.calibration = progress
    path = simulated_calibration_path(runtime, seed)
    if path.exists():
        progress.loaded(Calibration.load(path), path)
        return
    clock = SimClock()
    # The same board, seed and scan rate as the simulated board the demo plays on.
    board = PhysicalBoard(sensor_map, seed=seed, clock=clock)
    calibration = simulated_person_calibration(board, clock, on_prompt=progress.on_prompt)
    calibration.save(path)


def track_simulated_enrollment(runtime: Runtime) -> None:
    """Show the demo's simulated deck (enrolled when its readers start) on the enrollment page."""
    from .nfc.simulated import SimulatedNfc
    from .progress import DeckProgress

    for closer in runtime.closers:
        nfc = getattr(closer, "__self__", None)
        if isinstance(nfc, SimulatedNfc):
            runtime.host.enrollment = DeckProgress(nfc.registry, nfc.game, nfc.cards)
            return


class SimulatedStages:
    """The demo's simulated hardware for the game on the table, rebuilt for each new game.

    A game set up from the web's setup page has its own pieces, and maybe
    another board and deck: the old game's simulated board, readers and panel
    are stopped, and the new game's are wired, its board calibrated (once per
    game and seed) and its pieces put where the game starts them. :meth:`act`
    carries out the simulated players' decisions with whatever is wired now.
    """

    def __init__(self, runtime: Runtime, seed: int, *, board: bool = True) -> None:
        self.runtime = runtime
        self.seed = seed
        self.board = board
        # Held while the stages are rebuilt, so a decision never starts on half of them.
        self._lock = threading.RLock()
        self._closers: list[Callable[[], None]] = []
        self._act: Callable[[Table, Any], bool] | None = None
        self._table: Table | None = None

    def start(self) -> SimulatedStages:
        """Wire the current game's stages, and rebuild them for every new game."""
        with self._lock:
            self._wire()
        self.runtime.host.on_new_table.append(self._renew)
        self.runtime.closers.append(self.close)
        return self

    def act(self, table: Table, decision: Any) -> bool:
        """Carry a decision out; ``False`` if its game was replaced meanwhile."""
        with self._lock:  # never a half-built set of stages
            act, current = self._act, self._table
        if act is None or table is not current:
            return False  # decided for a game that is no longer on the table
        try:
            return act(table, decision)
        except Exception:
            if table is not self.runtime.host.table:
                return False  # the game was replaced while its hardware was in use
            raise

    def close(self) -> None:
        """Stop the stages of the current game."""
        with self._lock:
            self._stop()
            self._act = None

    def _renew(self, table: Table) -> None:
        with self._lock:
            self._stop()
            self._wire()

    def _wire(self) -> None:
        from . import stack

        runtime, host = self.runtime, self.runtime.host
        listeners, start = len(host.on_new_table), len(runtime.closers)
        runtime.inputs = None  # the old queue is stopped with the old stages
        runtime.simulated_board = None
        host.calibration = host.enrollment = None
        try:
            if self.board:
                calibrate_simulated_board(runtime, self.seed)
            self._act = stack.wire_simulated_table(runtime, self.seed, board=self.board)
            self._table = runtime.table
            track_simulated_enrollment(runtime)
        finally:
            # These stages are this object's to stop, and it rewires each new game
            # itself: the stages' own "attach to the next game" hooks would attach
            # stopped hardware to it.
            self._closers = runtime.closers[start:]
            del runtime.closers[start:]
            del host.on_new_table[listeners:]

    def _stop(self) -> None:
        for closer in reversed(self._closers):
            with contextlib.suppress(Exception):  # one stage failing must not keep others
                closer()
        self._closers = []


def wait_until(predicate: Callable[[], bool], timeout: float, step: float = 0.005) -> bool:
    """Poll ``predicate`` until true or ``timeout`` seconds pass."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if predicate():
            return True
        time.sleep(step)
    return predicate()
