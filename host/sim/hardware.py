"""The simulated table's hardware: the factory ``lawmaster demo``, the bench and the tests use.

:class:`SimulatedHardware` opens, per game, what :class:`~lawmaster.host.devices.RealHardware`
opens from a configuration, on simulated devices:

* the board: magnets moved by simulated hands over hall sensors
  (:class:`~lawmaster.host.sim.physics.PhysicalBoard`), scanned by the real
  firmware on a pty (:class:`~lawmaster.host.sim.pico.SimulatedPico`), calibrated
  by a simulated person through the real guided flow (kept beside the journal,
  as a table keeps its calibration file);
* the NFC readers: emulated PN532s on ptys, the game's deck enrolled
  (:class:`~lawmaster.host.nfc.simulated.EmulatedReaders`);
* the panel: gpiozero's mock pins.

Time is one simulated clock (:class:`~lawmaster.host.sim.physics.SimClock`), the
hardware's :attr:`~SimulatedHardware.clock`: every scan the firmware makes moves
it on by one scan period, and the physics, the hands' gestures, the board
feed's scan times and the referee's ticks all read it. The firmware paces its
scans by the wall (as on a Pico), so the simulated world keeps the wall's pace
and the people at the table can watch it.

What this makes deterministic for a seed: the sensors' spread and noise, scan
by scan; each gesture's course and landing; the dice and the players' choices.
What still depends on thread timing: *at which scan* a simulated person starts
a gesture (the players' thread acts when the referee has taken the last input,
and the firmware's thread keeps scanning meanwhile), when the link's thread
reads each scan off the pty (the feed times a scan by the clock when it reads
it, a scan or two late when the host lags), and the emulated readers' polling.
A game is therefore the same game for a seed in what is played, but not scan
for scan; the stepped rig (:mod:`lawmaster.host.sim.rig`) is deterministic to the scan.
"""

from __future__ import annotations

import math
import threading
import time
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

from lawmaster.hardware.sensor_map import SensorMap

from ..devices import BoardDevice, Hardware, ReaderDevices
from ..nfc.simulated import EmulatedReaders
from ..panel import PanelPins, panel_pin_factory
from ..progress import CalibrationProgress
from ..sensing import Calibration
from ..sensing.rate import scan_rate
from ..table import Table, TableHost
from .hands import Hands
from .physics import PhysicalBoard, SimClock
from .pico import SimulatedPico
from .rig import simulated_person_calibration

#: Where a piece waits in the box beside the board (far out of every sensor's reach).
OFF_BOARD = (0.0, -500.0)

#: A broken sensor: the reading it gives for the reading a good one would give.
Broken = Callable[[int], int]


def calibration_path(journal_path: str | Path, game: str, seed: int) -> Path:
    """Where a simulated table keeps its board's calibration: beside its journal."""
    return Path(journal_path).with_name(f"calibration-{game}-{seed}.json")


class SimulatedHardware(Hardware):
    """A simulated table's devices for ``seed``; see the module docstring.

    ``board``: whether the table has a board (``lawmaster demo --no-board``: no).
    ``broken``: channel → :data:`Broken`, sensors that read wrong (the fault tests
    mend one by deleting it). ``rate``: scans per second (default: what the
    firmware's per-channel budget allows for the map's channels).
    """

    link_wait = 10.0

    def __init__(
        self,
        seed: int,
        *,
        board: bool = True,
        broken: Mapping[int, Broken] | None = None,
        rate: int | None = None,
    ) -> None:
        self.seed = seed
        self.has_board = board
        self.broken = broken if broken is not None else {}
        self.rate = rate
        #: The simulated world's clock (see the module docstring).
        self.clock: SimClock = SimClock()
        #: The current game's board and readers (the simulated people use them).
        self.board: SimulatedBoard | None = None
        self.nfc: EmulatedReaders | None = None

    def open_board(self, host: TableHost, table: Table) -> BoardDevice:
        sensor_map = table.plugin.sensor_map()
        calibration = self.calibrate(host, table.game, sensor_map)
        rate = self.rate or scan_rate(sensor_map.channels)
        board = SimulatedBoard(
            sensor_map, seed=self.seed, clock=self.clock, rate=rate, broken=self.broken
        )
        board.place(table.referee.expectation())
        board.start()
        self.board = board

        def close() -> None:
            board.stop()
            if self.board is board:
                self.board = None

        return BoardDevice(sensor_map, calibration, board.pico.port, rate, close)

    def calibrate(self, host: TableHost, game: str, sensor_map: SensorMap) -> Calibration:
        """The board's calibration, shown step by step on the calibration page.

        A simulated person calibrates the simulated board through the real guided
        flow (as on a real table) and the result is saved beside the journal; a
        restarted table loads the file instead, as a real table does.
        """
        progress = CalibrationProgress(sensor_map)
        host.calibration = progress
        path = calibration_path(host.journal.path, game, self.seed)
        if path.exists():
            calibration = Calibration.load(path)
            progress.loaded(calibration, path)
            return calibration
        # The same board and seed as the one played on, on a clock of its own:
        # the person calibrates before the game, not during it.
        clock = SimClock()
        board = PhysicalBoard(sensor_map, seed=self.seed, clock=clock)
        calibration = simulated_person_calibration(board, clock, on_prompt=progress.on_prompt)
        calibration.save(path)
        return calibration

    def open_readers(self, table: Table) -> ReaderDevices | None:
        layout = table.plugin.readers
        if layout == "none":
            return None
        seats: tuple[str | None, ...] = (None,)
        if layout == "per-seat":
            seats = (None, *table.seats())  # each player lays its cards on its own reader
        nfc = EmulatedReaders(table.game, seats=seats, seed=self.seed)
        self.nfc = nfc

        def close() -> None:
            nfc.close()
            if self.nfc is nfc:
                self.nfc = None

        return ReaderDevices(nfc.configs, nfc.registry, close, watched_by=nfc.watch)

    def panel_pins(self) -> tuple[PanelPins, Any]:
        return PanelPins(), panel_pin_factory(True)


class SimulatedBoard:
    """A game's physical board: magnets, hands, and the real firmware scanning them on a pty.

    Each scan moves the simulated clock on by one scan period and reads the
    whole board at that moment, under the board's lock: the firmware's thread
    reads the board while the people's hands move pieces from another. With the
    scanner's cable out (:meth:`unplug`) the world goes on without it: a thread
    of the board's own moves the clock on at the scan rate until :meth:`replug`.
    """

    def __init__(
        self,
        sensor_map: SensorMap,
        *,
        seed: int,
        clock: SimClock,
        rate: float,
        broken: Mapping[int, Broken] | None = None,
    ) -> None:
        self.map = sensor_map
        self.rate = float(rate)
        self.clock = clock
        self.broken = broken if broken is not None else {}
        self.board = PhysicalBoard(sensor_map, seed=seed, clock=clock)
        self.lock = self.board.lock
        self.hands = Hands(self.board, seed=seed + 1)
        #: Called with (piece, rest time) for each gesture (the bench times what follows).
        self.on_gesture: list[Callable[[str, float], None]] = []
        #: When a list: (simulated time, wall time, {piece: (x, y, height)}) at every scan.
        self.trace: list[tuple[float, float, dict[str, tuple[float, float, float]]]] | None = None
        self._ticking = threading.Event()
        self._ticker: threading.Thread | None = None
        self.pico = SimulatedPico(
            frame=self.scan,
            channels=sensor_map.channels,
            config={"rate": round(self.rate)},
            autostart=False,
        )

    def start(self) -> None:
        """Power the scanner up (the host finds it at :attr:`pico` ``.port``).

        It has booted when this returns, as a table's scanner has long booted
        when the host opens its port: what it said at boot (its HELLO, its
        self-test) is flushed when the host opens the port (pyserial does),
        whatever the threads' timing, and the host asks for what it needs.
        """
        self.pico.start()
        if not self.pico.booted.wait(10):
            raise RuntimeError("the simulated scanner did not boot")

    def stop(self) -> None:
        self._stop_ticking()
        self.pico.stop()

    def unplug(self) -> None:
        """Pull the scanner's USB cable; the table's time goes on."""
        self.pico.unplug()
        self._ticking = threading.Event()
        self._ticker = threading.Thread(
            target=self._tick, args=(self._ticking,), name="unplugged board", daemon=True
        )
        self._ticker.start()

    def replug(self) -> None:
        """Plug the scanner back in: its scans move the clock on again."""
        self._stop_ticking()
        self.pico.replug()

    def _tick(self, stop: threading.Event) -> None:
        period = 1.0 / self.rate
        due = time.monotonic()
        while not stop.is_set():
            due += period
            stop.wait(max(0.0, due - time.monotonic()))
            with self.lock:
                self.clock.advance(period)

    def _stop_ticking(self) -> None:
        if self._ticker is not None:
            self._ticking.set()
            self._ticker.join(5)
            self._ticker = None

    def now(self) -> float:
        """The simulated time: that of the last scan."""
        return self.clock.now

    def wait_for(self, t: float, timeout: float = 15.0) -> bool:
        """Wait until the simulated clock reaches ``t`` (a person watching a piece settle)."""
        deadline = time.monotonic() + timeout
        while self.clock.now < t:
            if time.monotonic() > deadline:
                return False
            time.sleep(0.005)
        return True

    def scan(self) -> list[int]:
        """One scan: the clock moves on one period, the board is read at that moment."""
        with self.lock:
            now = self.clock.advance(1.0 / self.rate)
            frame = self.board.frame()
            if self.trace is not None:
                # Where every piece is at this scan, and when that was on the wall (the bench).
                poses = {name: self.board.where(name) for name in self.board.pieces}
                self.trace.append((now, time.monotonic(), poses))
            broken = dict(self.broken)  # the fault tests mend sensors from another thread
        if not broken:
            return frame
        frame = list(frame)
        for channel, wrong in broken.items():
            frame[channel] = wrong(frame[channel])
        return frame

    def place(self, expectation: Any) -> None:
        """Pieces where the (possibly resumed) game has them: what the referee expects."""
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

    def criminal_at(self, space: str) -> str | None:
        """The criminal magnet standing on ``space`` now (what GW's hand would click onto)."""
        cx, cy = self.map.centre(space)
        with self.lock:
            for name, pose in self.board.pieces.items():
                near = math.hypot(pose.x - cx, pose.y - cy) < 10
                if pose.kind == "criminal" and pose.riding_on is None and near:
                    return name
        return None

    def lift(self, piece: str) -> float:
        """Take ``piece`` off the board into the hand; returns when it is out of reach."""
        with self.lock:
            return self.hands.lift(piece, self.now())

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
