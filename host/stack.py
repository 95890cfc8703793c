"""Wiring the table's hardware stages to the referee, real or simulated.

Every hardware input (a tracker observation, an NFC card event, a button)
reaches the referee through one :class:`Inputs` queue drained by one thread,
so the stages' own threads (the serial link, the NFC readers, gpiozero's
callbacks) never wait for a journal commit, and inputs are refereed in the
order they happened. Inputs go to whatever table the host holds *now*, so a
new game set up from a tablet is refereed by the same stack.
"""

from __future__ import annotations

import logging
import math
import queue
import threading
import time
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

from .link_scans import KeyScan
from .runtime import Runtime, wait_until
from .table import Table, TableHost

log = logging.getLogger(__name__)


#: Where a piece waits in the box beside the board (far out of every sensor's reach).
OFF_BOARD = (0.0, -500.0)
#: Inputs the simulated players make by laying cards on the readers.
CARD_ACTS = frozenset({"place_crime", "reveal_perp", "draw", "commit", "discard_sector"})


class Inputs:
    """One queue and one thread carrying hardware inputs to the current table's referee.

    The same thread keeps the referee's time: when the game's rules wait for a
    moment (GW's magnet resting), it wakes then and ticks the referee with
    ``clock``, the clock the board's scans are timed by.
    """

    def __init__(self, host: TableHost, clock: Callable[[], float] = time.monotonic) -> None:
        self.host = host
        self.clock = clock
        self._queue: queue.Queue[Callable[[Table], None] | None] = queue.Queue()
        self._thread = threading.Thread(target=self._run, name="referee-inputs", daemon=True)
        self.handled = 0
        self.errors: list[str] = []
        self._thread.start()

    def put(self, deliver: Callable[[Table], None]) -> None:
        """Queue one input; ``deliver(table)`` runs on the referee thread."""
        self._queue.put(deliver)

    def drain(self, timeout: float = 5.0) -> bool:
        """Wait until everything queued so far has been handled (tests, benches)."""
        done = threading.Event()
        self._queue.put(lambda _table: done.set())
        return done.wait(timeout)

    def close(self) -> None:
        self._queue.put(None)
        self._thread.join(timeout=5)

    def _run(self) -> None:
        while True:
            try:
                deliver = self._queue.get(timeout=self._until_due())
            except queue.Empty:
                self._tick()
                continue
            if deliver is None:
                return
            table = self.host.table
            if table is None:
                continue
            try:
                deliver(table)
            except Exception as exc:  # noqa: BLE001 - one bad input must not stop the table
                log.exception("input failed")
                self.errors.append(f"{type(exc).__name__}: {exc}")
            self.handled += 1
            self._tick()

    def _until_due(self) -> float | None:
        """Seconds until the referee has something to do by the clock (``None``: nothing)."""
        table = self.host.table
        due = None if table is None else table.referee.due_at()
        return None if due is None else max(0.0, due - self.clock())

    def _tick(self) -> None:
        table = self.host.table
        if table is not None and table.referee.due_at() is not None:
            try:
                table.referee.tick(self.clock())
            except Exception as exc:  # noqa: BLE001 - as for any input
                log.exception("tick failed")
                self.errors.append(f"{type(exc).__name__}: {exc}")


def health_of(runtime: Runtime) -> Any:
    """The runtime's :class:`~lawmaster.host.health.Health`, its changes sent to the referee.

    The runtime shows the health on every page (:func:`~lawmaster.host.runtime.watch_health`);
    here its changes also reach the current referee through the input queue,
    in order with the board's inputs, so it pauses while the board is blind.
    """
    health = runtime.health
    if getattr(health, "refereed", False):
        return health
    inputs_of(runtime)

    def changed() -> None:
        # The queue of the stages wired now: a new game's stages bring their own.
        inputs = runtime.inputs
        if inputs is not None:
            inputs.put(lambda table: table.referee.health_changed())

    health.on_change.append(changed)
    health.refereed = True
    return health


def _nfc_events(runtime: Runtime) -> Callable[[Any], None]:
    """Card events to the referee; a reader's online/offline report to the health panel."""
    inputs, health = inputs_of(runtime), health_of(runtime)

    def deliver(event: Any) -> None:
        if type(event).__name__ == "ReaderStatus":
            health.reader_status(event)
        else:
            inputs.put(lambda table: table.referee.nfc(event))

    return deliver


def _watch_readers(runtime: Runtime, readers: Any) -> None:
    health = health_of(runtime)
    for name, reader in readers.items():
        health.add_reader(name, reader.config.seat)


def inputs_of(runtime: Runtime) -> Inputs:
    """The runtime's input queue, created on first use."""
    if runtime.inputs is None:
        runtime.inputs = Inputs(runtime.host)
        runtime.closers.append(runtime.inputs.close)
    return runtime.inputs


def wire_nfc(
    runtime: Runtime,
    readers: Any,
    registry: Any,
    *,
    opener: Callable[[Any], Any] | None = None,
) -> Any:
    """Start the NFC readers; each card event goes to the referee."""
    from .nfc.table import TableReaders

    extra = {} if opener is None else {"opener": opener}
    table_readers = TableReaders(
        readers, registry, runtime.table.game, _nfc_events(runtime), **extra
    )
    _watch_readers(runtime, table_readers.readers)
    table_readers.start()
    runtime.closers.append(table_readers.stop)
    return table_readers


def wire_panel(runtime: Runtime, pins: Any, pin_factory: Any = None) -> Any:
    """The panel on ``pins``: LED and buzzer show each verdict; buttons go to the referee.

    Confirm first grants what waits for someone at the table: a device asking to be
    host, or a seat moving to another tablet (see :mod:`lawmaster.host.web.access`);
    only a press that granted nothing reaches the referee.
    """
    from .panel import Panel

    inputs = inputs_of(runtime)

    def pressed(name: str) -> None:
        web = runtime.web
        access = getattr(web, "access", None)
        if name == "confirm" and access is not None and access.confirm_pressed():
            return
        inputs.put(lambda table: table.referee.button(name))

    panel = Panel(pins, pressed, pin_factory=pin_factory)
    runtime.closers.append(panel.close)

    def attach(table: Table) -> None:
        table.referee.attach_panel(panel)

    attach(runtime.table)
    runtime.host.on_new_table.append(attach)
    return panel


def wire_real_panel(runtime: Runtime, config: Any) -> Any:
    """The panel with the pins and pin factory of the table config's ``[panel]``."""
    from .panel import PanelPins, panel_pin_factory

    pins = PanelPins.from_config(config)
    return wire_panel(runtime, pins, panel_pin_factory(False, config.pin_factory))


def wire_simulated_panel(runtime: Runtime) -> Any:
    """The panel on gpiozero's mock pins (the demo's LED, buzzer and buttons)."""
    from .panel import PanelPins, panel_pin_factory

    return wire_panel(runtime, PanelPins(), panel_pin_factory(True))


def wire_simulated_nfc(runtime: Runtime, seed: int, seats: tuple[str | None, ...] = (None,)) -> Any:
    """Emulated PN532s (``None``: the table's shared reader) with the whole deck enrolled."""
    from .nfc.simulated import SimulatedNfc

    nfc = SimulatedNfc(runtime.table.game, _nfc_events(runtime), seats=seats, seed=seed)
    _watch_readers(runtime, nfc.readers.readers)
    nfc.__enter__()
    runtime.closers.append(nfc.close)
    return nfc


class BoardFeed:
    """Scanner frames → sensing → tracker → the referee's input queue, on the link's thread.

    The referee tells the feed what to expect (:meth:`expect`, any thread); the
    link's thread hands it to the tracker before the next frame, so the tracker
    is only ever touched by one thread.
    """

    #: Frames read before observations count: the sensing layer needs a few (its
    #: debounce) to see the pieces already standing on the board at start-up.
    WARMUP_FRAMES = 20

    #: How long (scan time) the board must match the game, after it came back, to resume.
    RECHECK_S = 0.3

    def __init__(
        self,
        sensing: Any,
        tracker: Any,
        inputs: Inputs,
        clock: Callable[[], float] = time.monotonic,
        watch: Any = None,
        health: Any = None,
    ) -> None:
        self.sensing = sensing
        self.tracker = tracker
        self.inputs = inputs
        self.clock = clock
        #: The channel watch (:class:`~lawmaster.host.sensing.faults.ChannelWatch`), if any.
        self.watch = watch
        self.health = health
        self.frames = 0
        self._lock = threading.Lock()
        self._expectation: Any = None
        self._latest: Any = None
        self._recheck = False
        self._holding = False
        self._match_since: float | None = None
        self._matched = False
        self._rate_t0: float | None = None
        self._rate_frames = 0
        #: Called with each observation and the time it was made (for the bench).
        self.on_observation: list[Callable[[Any, float], None]] = []

    def expect(self, expectation: Any) -> None:
        with self._lock:
            self._expectation = expectation
            self._latest = expectation

    def hold(self, on: bool) -> None:
        """The referee holds its inputs (blind, or checking): pieces astray are no sensor fault."""
        self._holding = on

    def recheck(self, on: bool) -> None:
        """Compare the board with the expectation until they agree (the board came back)."""
        with self._lock:
            if on != self._recheck:
                self._recheck = on
                self._match_since = None
                self._matched = False

    def on_scan(self, frame: Any) -> None:
        t = self.clock()
        self.frames += 1
        with self._lock:
            expectation, self._expectation = self._expectation, None
            if self.frames == self.WARMUP_FRAMES:
                # Match the game's pieces to what the sensors now see on the board.
                expectation = self._latest
        if expectation is not None:
            self.tracker.expect(expectation, t)
            if self.watch is not None:
                self.watch.expect(expectation)
        observations = self.tracker.feed(self.sensing.feed(frame.readings, t), t)
        self._look_after(frame.readings, t, fresh=isinstance(frame, KeyScan))
        if self.frames <= self.WARMUP_FRAMES:
            return  # the pieces standing on the board at start-up are not moves
        for observation in observations:
            for listener in self.on_observation:
                listener(observation, t)
            self.inputs.put(lambda table, o=observation: table.referee.observation(o, t))

    def _look_after(self, readings: Any, t: float, fresh: bool) -> None:
        """Channel faults, the scan rate, and the check of a board that came back."""
        health = self.health
        watch = self.watch
        judge = not self._holding
        changed = watch is not None and watch.feed(
            readings, t, self.sensing.kind_at, judge, fresh=fresh
        )
        if watch is not None and changed and health:
            health.channel_faults("play", watch.flagged)
        if self._rate_t0 is None:
            self._rate_t0, self._rate_frames = t, 0
        self._rate_frames += 1
        if t - self._rate_t0 >= 1.0:
            if health is not None:
                health.set_scan_rate(self._rate_frames / (t - self._rate_t0))
            self._rate_t0, self._rate_frames = t, 0
        if not self._recheck or self._matched or self.frames % 8:
            return
        from .sensing.faults import board_agrees

        with self._lock:
            latest = self._latest
        if latest is None or not board_agrees(self.tracker.seen, latest):
            self._match_since = None
            return
        if self._match_since is None:
            self._match_since = t
        elif t - self._match_since >= self.RECHECK_S:
            self._matched = True
            self.inputs.put(lambda table: table.referee.board_matches())


def sensor_faults(failed: Mapping[int, str]) -> dict[int, str]:
    """The self-test's failures that mean a broken channel whatever stands on the board.

    An offset out of tolerance is also what a magnet on the spot reads like: with
    a game under way (or resumed after a power cut) pieces stand on the board while
    the scanner tests itself, so that reason is left to the calibration's check of
    an empty board. A rail or a reading without noise no magnet can cause.
    """
    from lawmaster.firmware import protocol

    offset = protocol.FAULT_NAMES[protocol.FAULT_OFFSET]
    return {channel: reason for channel, reason in failed.items() if reason != offset}


def wire_board(
    runtime: Runtime, port: str, sensor_map: Any, calibration: Any, rate: int | None = None
) -> BoardFeed:
    """Link on ``port`` → sensing → tracker → referee; the referee tells it what to expect.

    The scanner is told to scan at ``rate`` (default: what the firmware's per-channel
    budget allows for the map's channels, :func:`~lawmaster.host.sensing.rate.scan_rate`)
    once it answers; the link repeats it after every reconnect.
    """
    from lawmaster.firmware import protocol

    from .link import Link, LinkError
    from .sensing import Sensing
    from .sensing.faults import ChannelWatch
    from .sensing.rate import scan_rate
    from .tracker import Tracker

    wanted = rate or scan_rate(sensor_map.channels)
    health = health_of(runtime)
    health.map = sensor_map
    feed = BoardFeed(
        Sensing(sensor_map, calibration, rate=wanted),
        Tracker(sensor_map),
        inputs_of(runtime),
        watch=ChannelWatch(sensor_map, calibration, rate=wanted),
        health=health,
    )

    def attach(table: Table) -> None:
        table.referee.attach_board(feed)
        table.referee.health_changed()

    attach(runtime.table)
    runtime.host.on_new_table.append(attach)
    link = Link(
        port,
        feed.on_scan,
        on_status=health.link_status,
        expect_channels=sensor_map.channels,
        # The scanner's own self-test report (channel -> reason), at boot and on demand.
        on_selftest=lambda report: health.channel_faults_reported(
            source="self-test", failed=sensor_faults(report.failed)
        ),
    )
    health.watch_link(lambda: link.stats)
    link.start()
    runtime.closers.append(link.stop)
    feed.link = link  # type: ignore[attr-defined]

    closed = threading.Event()
    runtime.closers.append(closed.set)

    def set_rate() -> None:
        # A scanner not plugged in yet gets the rate when it first answers.
        while not closed.is_set():
            if link.wait_ready(0.5):
                try:
                    link.send_command(protocol.RATE, wanted)
                except LinkError:
                    log.warning("could not set the scan rate to %d/s", wanted)
                return

    threading.Thread(target=set_rate, name="scan-rate", daemon=True).start()
    return feed


def wire_real_board(runtime: Runtime, config: Any) -> BoardFeed:
    """The scanner on the configured serial port, with the board's calibration file."""
    from .sensing import Calibration

    return wire_board(
        runtime,
        config.scanner.port,
        runtime.table.plugin.sensor_map(file=config.board_map),
        Calibration.load(config.calibration),
    )


class SimulatedBoard:
    """The demo's physical board: magnets, hands, and the real firmware on a pty.

    Everything runs on the wall clock, rounded to the scan period so one scan
    reads one consistent board. The firmware's thread reads the board while
    the players' hands move pieces from another: one lock keeps them apart.
    """

    def __init__(self, runtime: Runtime, seed: int, rate: float | None = None) -> None:
        from .sensing.rate import scan_rate
        from .sim.hands import Hands
        from .sim.physics import PhysicalBoard
        from .sim.pico import SimulatedPico

        game = runtime.table.game
        self.map = runtime.table.plugin.sensor_map()
        calibration = self._calibration(runtime, game, self.map, seed)
        #: Scans per second: what the firmware's per-channel budget allows for this board.
        self.rate = float(rate or scan_rate(self.map.channels))
        self.lock = threading.RLock()
        #: Called with (piece, rest time) for each gesture (the bench times what follows).
        self.on_gesture: list[Callable[[str, float], None]] = []
        #: When a list: (time, {piece: (x, y, height)}) at the start of every scan.
        self.trace: list[tuple[float, dict[str, tuple[float, float, float]]]] | None = None
        self.board = PhysicalBoard(self.map, seed=seed, clock=self.now)
        self.hands = Hands(self.board, seed=seed + 1)
        self._place(runtime.table)
        self.pico = SimulatedPico(
            field=self._read, channels=self.map.channels, config={"rate": round(self.rate)}
        )
        self.pico.start()
        runtime.closers.append(self.pico.stop)
        self.feed = wire_board(runtime, self.pico.port, self.map, calibration, round(self.rate))
        if not self.feed.link.wait_ready(10):  # type: ignore[attr-defined]
            raise RuntimeError("the simulated scanner did not answer")
        # The referee checks the board it has just started seeing against the game.
        # A board still blind after that (a dead sensor) is shown, not hidden: play waits.
        referee = runtime.table.referee
        wait_until(lambda: not referee.holding, 5)

    @staticmethod
    def _calibration(runtime: Runtime, game: str, sensor_map: Any, seed: int) -> Any:
        """The board's calibration file next to the journal, measured once if missing.

        A simulated person calibrates the simulated board through the real guided
        flow, as on a real table; a restarted demo loads the file, as a real table does.
        """
        from .sensing import Calibration
        from .sim.rig import calibration_for

        path = Path(runtime.host.journal.path).with_name(f"calibration-{game}-{seed}.json")
        if path.exists():
            return Calibration.load(path)
        calibration = calibration_for(sensor_map, seed)
        calibration.save(path)
        return calibration

    def now(self) -> float:
        """Wall-clock time, rounded down to the scan period."""
        return math.floor(time.monotonic() * self.rate) / self.rate

    def _read(self, channel: int) -> int:
        with self.lock:
            if channel == 0 and self.trace is not None:
                # The scanner starts a scan: note where every piece is (the bench's truth).
                now = self.now()
                if not self.trace or self.trace[-1][0] != now:
                    poses = {name: self.board.where(name) for name in self.board.pieces}
                    self.trace.append((now, poses))
            return self.board.read(channel)

    def _place(self, table: Table) -> None:
        """Pieces where the (possibly resumed) game has them: what the referee expects."""
        expectation = table.referee.expectation()
        if expectation is None:
            return  # the game's referee does not read the board
        with self.lock:
            for piece, where in sorted(expectation.positions.items()):
                if where is not None:
                    self.board.put(piece, expectation.kinds[piece], where)

    def is_on(self, piece: str, space: str) -> bool:
        """Whether ``piece`` stands on one of ``space``'s marked spots."""
        with self.lock:
            pose = self.board.pieces.get(piece)
            if pose is None or pose.riding_on is not None or pose.height > 5:
                return False
            return any(
                math.hypot(pose.x - spot.x, pose.y - spot.y) < 8
                for spot in self.map.spots_of(space)
            )

    def in_the_box(self, piece: str, kind: str) -> None:
        """A piece not on the board yet is in the box beside it, ready to be picked up."""
        with self.lock:
            if piece not in self.board.pieces:
                self.board.put(piece, kind, OFF_BOARD)

    def lift(self, piece: str) -> float:
        """Take ``piece`` off the board into the hand; returns when it is out of reach."""
        with self.lock:
            return self.hands.lift(piece, self.now())

    def criminal_at(self, space: str) -> str | None:
        """The criminal magnet standing on ``space`` now (what GW's hand would click onto)."""
        cx, cy = self.map.centre(space)
        with self.lock:
            for name, pose in self.board.pieces.items():
                near = math.hypot(pose.x - cx, pose.y - cy) < 10
                if pose.kind == "criminal" and pose.riding_on is None and near:
                    return name
        return None

    def lift_place(self, piece: str, to: str) -> float:
        """Pick ``piece`` up and put it on ``to``; returns when it comes to rest."""
        with self.lock:
            rest = self.hands.lift_place(piece, to, self.now())
        self._gesture(piece, rest)
        return rest

    def slide(self, piece: str, path: list[str]) -> float:
        """Slide ``piece`` through ``path``; returns when it comes to rest."""
        with self.lock:
            rest = self.hands.slide(piece, path, self.now())
        self._gesture(piece, rest)
        return rest

    def _gesture(self, piece: str, rest: float) -> None:
        for listener in self.on_gesture:
            listener(piece, rest)


class SimulatedTable:
    """The demo's people at the table: hands on the board, cards on the reader, tablets.

    :meth:`act` carries out one :class:`~lawmaster.host.sim.players.Decision`
    the way a person would: a criminal says its die on the tablet and moves
    its piece on the board; GW rolls on the tablet and slides its magnet
    (stopping where it clicks onto a criminal); a caught piece is put in the
    jail; evidence is handed in by tapping its card on the reader; everything
    else is typed on the seat's tablet. It waits until the referee has taken
    the input before returning.
    """

    def __init__(
        self,
        runtime: Runtime,
        nfc: Any = None,
        board: SimulatedBoard | None = None,
        timeout: float = 15.0,
    ) -> None:
        self.runtime = runtime
        self.nfc = nfc
        self.board = board
        self.timeout = timeout
        #: When a simulated player answered a "which way" question on its tablet.
        self.answered: list[float] = []

    def act(self, table: Table, decision: Any) -> bool:
        # A person at a paused table waits until the referee says play goes on.
        wait_until(lambda: not table.referee.holding, self.timeout, 0.02)
        action = decision.action
        before = table.last_seq
        taps = decision.notes.get("taps") or []
        if self.nfc is not None and action.get("act") == "destroy_evidence":
            self._reader_clear(None)
            self.nfc.tap(action["card"])
            self._wait(table, before, decision)
        elif self.nfc is not None and taps and action.get("act") in CARD_ACTS:
            self._tap_cards(table, decision, taps)
        elif self.board is not None and decision.move is not None:
            self._on_board(table, decision, before)
        else:
            result = table.submit(decision.seat, action)
            if not result.get("ok"):
                raise RuntimeError(f"{decision.seat}: {action} refused: {result.get('error')}")
        self._tidy(table)
        return True

    def _tidy(self, table: Table) -> None:
        """Carry out what the game did to pieces by itself (a Judge sent to hospital).

        Like a person reading the table's status, the simulation moves every piece
        that may not move now but stands somewhere other than where the game has it.
        """
        if self.board is None:
            return
        expectation = table.referee.expectation()
        if expectation is None:
            return
        for piece, where in sorted(expectation.positions.items()):
            if where is None or piece in expectation.movers or piece in expectation.to_jail:
                continue
            if not self.board.is_on(piece, where):
                self.board.in_the_box(piece, expectation.kinds[piece])
                rest = self.board.lift_place(piece, where)
                time.sleep(max(0.0, rest - self.board.now()) + 0.4)

    def _tap_cards(self, table: Table, decision: Any, taps: list[tuple[str, Any]]) -> bool:
        """Cards laid on the readers (Judge Dredd): each tap is an input, or part of one."""
        assert self.nfc is not None
        before = len(table.actions)
        expected = len(taps) if decision.action["act"] == "draw" else 1
        for card, seat in taps:
            self._reader_clear(seat)
            self.nfc.tap(card, seat)
        deadline = time.monotonic() + self.timeout
        while not wait_until(lambda: len(table.actions) >= before + expected, 0.1):
            # Several Judges fight: the seat's tablet asks which one the card is for.
            _answer(table, decision.seat, "commit_for", "for", decision.action.get("for"))
            if time.monotonic() > deadline:
                raise RuntimeError(
                    f"{decision.seat}: {decision.action} was not taken: {table.status.message}"
                    f" / {table.status.detail}"
                )
        return True

    def _reader_clear(self, seat: str | None) -> None:
        """Wait until the reader has noticed the last card was lifted off it.

        A reader reports a card once, however long it lies there: a card laid
        again before the reader saw it go would not be read again.
        """
        assert self.nfc is not None
        reader = next(r for r in self.nfc.readers.readers.values() if r.config.seat == seat)
        wait_until(lambda: reader.present_uid is None, 2.0)

    def _on_board(self, table: Table, decision: Any, before: int) -> bool:
        assert self.board is not None
        piece, start, to, path = decision.move
        taken = decision.notes.get("take_off")
        if taken:
            # An arrest: the pawn comes off the board before the Judge goes on.
            rest = self.board.lift(taken)
            time.sleep(max(0.0, rest - self.board.now()) + 0.05)
        if start == "hand":
            expectation = table.referee.expectation()
            assert expectation is not None, "the game reads no board"
            kinds = expectation.kinds
            self.board.in_the_box(piece, kinds.get(piece, next(iter(kinds.values()))))
        said = decision.said or (decision.action if decision.action.get("act") == "trump" else None)
        if said is not None:
            said = {k: v for k, v in said.items() if k not in ("to", "path", "direction", "exit")}
            result = table.submit(decision.seat, said)
            if not result.get("ok"):
                raise RuntimeError(f"{decision.seat}: {said} refused: {result.get('error')}")
        walked: list[str] = []
        if path and decision.action.get("card") != "helicopter":
            # GW's hand feels the click and stops where it catches a criminal.
            for cell in path:
                walked.append(cell)
                if self.board.criminal_at(cell) is not None:
                    break
            self.board.slide(piece, walked)
        else:
            self.board.lift_place(piece, to)
        self._wait(table, before, decision, walked)
        # The table's status says which caught pieces go to the jail; the hands put them there.
        for caught in sorted(_to_jail(table)):
            self.board.lift_place(caught, "jail")
        wait_until(lambda: not _to_jail(table), self.timeout)
        return True

    def _wait(
        self, table: Table, before: int, decision: Any, walked: list[str] | None = None
    ) -> bool:
        """Wait for the input to be taken, answering the tablet if it asks which way."""
        deadline = time.monotonic() + self.timeout
        while not wait_until(lambda: table.last_seq > before, 0.1):
            if walked:
                self._say_which_way(table, decision.seat, walked)
            self._say_who_moved(table, decision)
            if time.monotonic() > deadline:
                raise RuntimeError(
                    f"{decision.seat}: {decision.action} was not taken: {table.status.message}"
                )
        return True

    @staticmethod
    def _say_who_moved(table: Table, decision: Any) -> None:
        """The sensors cannot tell two pieces apart and the tablet asks: say which moved."""
        if decision.move is None:
            return
        # GW:s brott's options name the piece, Judge Dredd's the seat whose standee it is.
        if not _answer(table, decision.seat, "choose_reading", "piece", decision.move[0]):
            _answer(table, decision.seat, "choose_reading", "seat", decision.seat)

    def _say_which_way(self, table: Table, seat: str, walked: list[str]) -> None:
        """GW's tablet asks which way the magnet went: GW says the way it slid."""
        for prompt in table.snapshot(seat)["prompts"]:
            if prompt.get("kind") == "which_path" and walked in prompt["options"]:
                choice = {"act": "choose_path", "index": prompt["options"].index(walked)}
                table.submit(seat, choice)
                self.answered.append(time.monotonic())


def _answer(table: Table, seat: str, act: str, key: str, wanted: object) -> bool:
    """Answer a question on ``seat``'s tablet: the option whose ``key`` is ``wanted``."""
    for asked in table.snapshot(seat)["prompts"]:
        if asked.get("act") != act:
            continue
        options = [o.get(key) if isinstance(o, Mapping) else None for o in asked["options"]]
        if wanted in options:
            table.submit(seat, {"act": act, "index": options.index(wanted)})
            return True
    return False


def _to_jail(table: Table) -> frozenset[str]:
    """The caught pieces the table waits to see put in the jail."""
    expectation = table.referee.expectation()
    return frozenset() if expectation is None else expectation.to_jail


def wire_simulated_table(
    runtime: Runtime, seed: int, *, board: bool = True
) -> Callable[[Table, Any], bool]:
    """The simulated panel, NFC reader and board; returns the players' hands."""
    wire_simulated_panel(runtime)
    readers = runtime.table.plugin.readers
    seats: tuple[str | None, ...] = (None,)
    if readers == "per-seat":
        seats = (None, *runtime.table.seats())  # each player lays its cards on its own reader
    nfc = None
    if readers != "none":
        nfc = wire_simulated_nfc(runtime, seed, seats)
    simulated = SimulatedBoard(runtime, seed) if board else None
    runtime.simulated_board = simulated
    return SimulatedTable(runtime, nfc, simulated).act
