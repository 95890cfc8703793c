"""A standard board's scanner on the emulated Pico, with the host's link on its port.

:class:`EmulatedScanner` wires one standard board (``gw-brott``, ``judge-dredd``,
``unamerican-graffiti``) as ``wiring.md`` does: its multiplexer tree
(:func:`lawmaster.hardware.electronics.tree.tree_of`) on GP2-GP9 and the ADC pins, each
sensor reading what the simulator's field tables give
(:class:`lawmaster.host.sim.physics.PhysicalBoard`, so pieces can be placed and moved),
the board's own noise figure on every conversion, and the settling time the hardware
budget computes (:func:`lawmaster.hardware.electronics.budget.settling`): a conversion
started sooner reads the previous node. The firmware is this repository's, started as
a Pico starts it, and :class:`lawmaster.host.link.Link` reads it exactly as on a table
(handshake, the board's idle window and the map's LAYOUT, the rate the host asks for).
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable

from lawmaster.firmware import protocol
from lawmaster.firmware.protocol import ScanFrame
from lawmaster.hardware.electronics.bringup import idle_window_counts
from lawmaster.hardware.electronics.budget import settling
from lawmaster.hardware.electronics.tree import BANK_GPIO, SELECT_GPIO, tree_of
from lawmaster.hardware.magnetics.margins import noise as board_noise
from lawmaster.hardware.sensor_map import SensorMap
from lawmaster.host.link import Link, SelfTestReport
from lawmaster.host.sensing.rate import scan_rate
from lawmaster.host.sim.physics import PhysicalBoard

from .emulator import Board, EmulatedPico

#: The boards the project ships a sensor map for.
STANDARD_BOARDS = ("gw-brott", "judge-dredd", "unamerican-graffiti")


class EmulatedScanner:
    """One board, its emulated Pico and a :class:`Link`; use as a context manager.

    ``overrides`` change ``firmware.config.CONFIG`` for this boot (e.g. ``cpu_hz``);
    ``rate`` is what the host asks for (default: :func:`scan_rate` of the map, as
    ``lawmaster run`` asks); ``full_frames``: the link asks for calibration's mode.
    """

    def __init__(
        self,
        board: str,
        *,
        seed: int = 1,
        overrides: dict | None = None,
        rate: int | None = None,
        full_frames: bool = False,
    ) -> None:
        self.name = board
        self.map = SensorMap.load(board)
        self.tree = tree_of(board, self.map)
        self.physical = PhysicalBoard(self.map, seed=seed, noise_counts=0)
        self.noise = board_noise(self.map)
        self.settle_us = settling(self.tree).settle_us
        self.rate = rate or scan_rate(self.map.channels)
        self.overrides = overrides
        self.full_frames = full_frames
        self.scans: list[ScanFrame] = []
        self.selftests: list[SelfTestReport] = []
        self._lock = threading.Lock()
        self.pico = EmulatedPico(
            Board(
                channels=self.map.channels,
                muxes=self.tree.first_level,
                values=tuple(self.readings()),
                select=SELECT_GPIO,
                bank=BANK_GPIO if self.tree.second_level else (),
                adc_pins=self.tree.adc_pins,
                noise=self.noise,
                settle_ns=self.settle_us * 1000,
                seed=seed,
            )
        )
        self.link: Link | None = None

    def readings(self) -> list[int]:
        """Every channel's output now, without noise (the emulator adds it per conversion);
        0 on a channel no spot uses: the board ties that multiplexer input to ground."""
        return [self.physical.clean_reading(c) for c in range(self.map.channels)]

    def __enter__(self) -> EmulatedScanner:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.close()

    def start(self, timeout: float = 300.0) -> EmulatedScanner:
        """Boot, load and start the firmware, connect the link and ask for the rate."""
        self.pico.boot()
        self.pico.load_firmware()
        self.pico.start_firmware(self.overrides)
        self.link = Link(
            self.pico.port,
            self._on_scan,
            expect_channels=self.map.channels,
            on_selftest=self._on_selftest,
            full_frames=self.full_frames,
            idle_window=idle_window_counts(self.map),
            # The emulator runs ~60 times slower than the Pico: a second of wall time
            # is ~17 ms on the device, so the link waits in proportion.
            handshake_interval=10.0,
            stale_after=60.0,
        ).start()
        if not self.link.wait_ready(timeout):
            raise TimeoutError(f"{self.name}: no HELLO in {timeout:.0f} s ({self.link.stats})")
        reply = self.link.request(protocol.RATE, self.rate, timeout=timeout)
        if reply is None:
            raise TimeoutError(f"{self.name}: RATE not answered")
        return self

    def close(self) -> None:
        """Stop the link and the emulator."""
        if self.link is not None:
            self.link.stop()
        self.pico.close()

    def _on_scan(self, frame: ScanFrame) -> None:
        with self._lock:
            self.scans.append(frame)

    def _on_selftest(self, report: SelfTestReport) -> None:
        with self._lock:
            self.selftests.append(report)

    # ------------------------------------------------------------------ the board

    def place(self, piece: str, kind: str, where: str | tuple[float, float]) -> None:
        """Put a piece on a space, or at (x, y) mm; the sensors read it from the next
        conversion on."""
        self.physical.put(piece, kind, where)
        self.pico.set_values(self.readings())

    def remove(self, piece: str) -> None:
        """Lift a piece off the board."""
        self.physical.remove(piece)
        self.pico.set_values(self.readings())

    def wait(self, condition: Callable[[], object], timeout: float = 300.0) -> None:
        """Wait (wall time) until ``condition()`` holds."""
        deadline = time.monotonic() + timeout
        while not condition():
            if time.monotonic() > deadline:
                raise TimeoutError(f"{self.name}: waited {timeout:.0f} s for {condition}")
            time.sleep(0.05)

    def wait_scans(self, count: int, timeout: float = 300.0) -> list[ScanFrame]:
        """Wait for ``count`` more scans; returns them."""
        with self._lock:
            first = len(self.scans)
        self.wait(lambda: len(self.scans) >= first + count, timeout)
        with self._lock:
            return self.scans[first : first + count]
