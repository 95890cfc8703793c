"""What a table is made of: the hardware factory, real or simulated.

Like gpiozero's pin factories, a :class:`Hardware` builds the devices a table
reads and keeps the clock they are timed by; the code that wires them to the
referee (:func:`lawmaster.host.stack.wire`) is the same whichever factory it
is given. Per game, a factory opens:

* the board: its sensor map, its calibration (the calibration page follows it)
  and the serial port of its scanner;
* the NFC readers: their configurations and the registry of the cards' stickers;
* the panel: the pins of its buttons, LED and buzzer, and the gpiozero pin factory.

:class:`RealHardware` is the table's TOML configuration
(``Hardware.real(config)``, what ``lawmaster run`` uses); the simulated table
is :class:`lawmaster.host.sim.hardware.SimulatedHardware` (magnets, the real
firmware on a pty, emulated PN532s, mock pins, one simulated clock). It lives
with the other simulated devices so that a real table never imports the
magnetics behind them.
"""

from __future__ import annotations

import time
from abc import ABC, abstractmethod
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, replace
from typing import Any

from lawmaster.hardware.sensor_map import SensorMap

from .config import TableConfig
from .nfc.reader import TagReader
from .nfc.registry import CardRegistry
from .nfc.transport import ReaderConfig, readers_from_config
from .panel import PanelPins, panel_pin_factory
from .progress import CalibrationProgress
from .sensing import Calibration
from .table import Table, TableHost


def _nothing() -> None:
    """Nothing to close."""


@dataclass
class BoardDevice:
    """A game's board as the hardware has it: what the wiring needs to read it."""

    sensor_map: SensorMap
    calibration: Calibration
    #: The scanner's serial port (what :class:`~lawmaster.host.link.Link` opens).
    port: str
    #: Scans per second to ask of the scanner (``None``: what the map's channels allow).
    rate: int | None = None
    close: Callable[[], None] = field(default=_nothing)


@dataclass
class ReaderDevices:
    """A game's NFC readers and the registry of the cards' stickers."""

    configs: list[ReaderConfig]
    registry: CardRegistry
    close: Callable[[], None] = field(default=_nothing)
    #: Told the host's readers (by name) once they run: a simulated person watches
    #: them for a card laid down, as a person watches a reader's light.
    watched_by: Callable[[Mapping[str, TagReader]], None] = field(default=lambda readers: None)


class Hardware(ABC):
    """A table's devices and its clock; see the module docstring.

    ``clock`` times the board's scans and the referee's ticks (the input queue):
    ``time.monotonic`` at a real table, the simulated world's clock in a simulation.
    """

    clock: Callable[[], float]
    #: Whether the table has a board to read (else moves are entered on the tablets).
    has_board: bool
    #: Seconds the wiring waits for the scanner to answer before saying it has not.
    link_wait: float = 5.0

    @staticmethod
    def real(config: TableConfig) -> RealHardware:
        """The devices the table's configuration names (``lawmaster run``)."""
        return RealHardware(config)

    @abstractmethod
    def open_board(self, host: TableHost, table: Table) -> BoardDevice:
        """The board of ``table``'s game, its calibration shown on ``host``'s calibration page.

        ``OSError``, ``ValueError`` or ``LookupError``: it cannot be read (no map
        for the game, no usable calibration); the calibration page says why.
        """

    @abstractmethod
    def open_readers(self, table: Table) -> ReaderDevices | None:
        """The NFC readers for ``table``'s game (``None``: this table has none)."""

    @abstractmethod
    def panel_pins(self) -> tuple[PanelPins, Any]:
        """The panel's pins and the gpiozero pin factory that makes them."""


class RealHardware(Hardware):
    """The devices named by the table's TOML configuration (``deploy/table.toml``)."""

    def __init__(self, config: TableConfig, clock: Callable[[], float] = time.monotonic) -> None:
        self.config = config
        self.clock = clock
        self.has_board = config.board

    def open_board(self, host: TableHost, table: Table) -> BoardDevice:
        config = self.config
        try:
            sensor_map = table.plugin.sensor_map(file=config.board_map or None)
        except (OSError, ValueError, LookupError):
            host.calibration = None  # no sensor map: the board is reported missing
            raise
        host.calibration = CalibrationProgress.from_file(sensor_map, config.calibration)
        return BoardDevice(sensor_map, Calibration.load(config.calibration), config.scanner.port)

    def open_readers(self, table: Table) -> ReaderDevices | None:
        if not self.config.nfc:
            return None
        registry = CardRegistry(self.config.cards)
        try:
            configs = readers_from_config(self.config.nfc)
        except BaseException:
            registry.close()
            raise
        return ReaderDevices(configs, registry, registry.close)

    def panel_pins(self) -> tuple[PanelPins, Any]:
        panel = self.config.panel
        pins = replace(PanelPins.from_config(panel), led_active_high=panel.led_active_high)
        return pins, panel_pin_factory(False, panel.pin_factory)
