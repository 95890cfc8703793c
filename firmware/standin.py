"""Stand-in hardware: pins, multiplexers, ADCs and a clock without a Pico.

Used by the simulator (CPython) and by the firmware tests under the unix
MicroPython port. The model is the circuit, not the scanner's idea of it: each
ADC reports the sensor that the *current* select-pin levels connect to it, so a
scanner that drives the wrong pins or reads at the wrong time reads the wrong
sensor, as it would on the board.
"""

import time

try:  # type names for annotations only; MicroPython has no typing module
    from typing import TYPE_CHECKING
except ImportError:
    TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable


class StandInPin:
    """An output pin: ``value(v)`` sets it, ``value()`` reads it back.

    ``watch(callback)`` calls ``callback(level)`` on every write (how a ``MuxBoard``
    follows its select lines without re-reading them on every conversion).
    """

    def __init__(self, number: int | None = None) -> None:
        self.number = number
        self.level = 0
        self.writes = 0
        self._watch = None

    def watch(self, callback: "Callable[[int], None]") -> None:
        self._watch = callback

    def value(self, v: int | None = None) -> int | None:
        if v is None:
            return self.level
        self.level = 1 if v else 0
        self.writes += 1
        if self._watch is not None:
            self._watch(self.level)
        return None


def rp2040_u16(value: int) -> int:
    """What ``machine.ADC.read_u16()`` returns for an input of ``value`` (0..65535).

    The RP2040's ADC has 12 bits; MicroPython scales to 16 by repeating the top
    four bits in the bottom four.
    """
    if value < 0:
        value = 0
    elif value > 0xFFFF:
        value = 0xFFFF
    v12 = value >> 4
    return (v12 << 4) | (v12 >> 8)


class MuxBoard:
    """Multiplexers wired as in ``config`` (see ``firmware/config.py``), sensors behind them.

    ``field(channel) -> int`` gives the sensor's output (u16, 0x8000 = no field);
    channels beyond ``config["channels"]`` and unfitted multiplexers read ``floating``.
    """

    def __init__(self, config: dict, field: "Callable[[int], int]", floating: int = 0) -> None:
        self.config = config
        self.field = field
        self.floating = floating
        self.select_pins = [StandInPin(n) for n in config["select_pins"]]
        self.bank_pins = [StandInPin(n) for n in config.get("bank_select_pins", [])]
        self.inputs = 1 << len(self.select_pins)
        self.banks = 1 << len(self.bank_pins)
        self.muxes = config["muxes"]
        channels = config.get("channels")
        self.channels = self.muxes * self.inputs if channels is None else channels
        self.adcs = [StandInADC(self, i) for i in range(len(config["adc_pins"]))]
        self.reads = 0
        self._select = 0
        self._bank = 0
        for i, pin in enumerate(self.select_pins):
            pin.watch(self._follower("_select", 1 << i))
        for i, pin in enumerate(self.bank_pins):
            pin.watch(self._follower("_bank", 1 << i))

    def _follower(self, name: str, mask: int) -> "Callable[[int], None]":
        def follow(level: int) -> None:
            value = getattr(self, name)
            setattr(self, name, (value | mask) if level else (value & ~mask))

        return follow

    def connected_channel(self, adc_index: int) -> int | None:
        """The channel the current select levels connect to ADC ``adc_index``, or None."""
        mux = adc_index * self.banks + self._bank
        if mux >= self.muxes:
            return None
        channel = mux * self.inputs + self._select
        return channel if channel < self.channels else None

    def sample(self, adc_index: int) -> int:
        self.reads += 1
        channel = self.connected_channel(adc_index)
        if channel is None:
            return rp2040_u16(self.floating)
        return rp2040_u16(self.field(channel))


class StandInADC:
    """One ADC pin of a ``MuxBoard``: ``read_u16()`` like ``machine.ADC``."""

    def __init__(self, board: MuxBoard, index: int) -> None:
        self.board = board
        self.index = index

    def read_u16(self) -> int:
        return self.board.sample(self.index)


class SystemClock:
    """MicroPython's ticks API on any Python: ``ticks_us``, ``ticks_diff``, ``ticks_add``,
    ``sleep_us``. Ticks wrap at 2**30 as on the RP2040, so wrap handling is exercised."""

    PERIOD = 1 << 30

    def __init__(self) -> None:
        self._mp = hasattr(time, "ticks_us")
        if not self._mp:
            self._ns = time.perf_counter_ns

    def ticks_us(self) -> int:
        if self._mp:
            return time.ticks_us()
        return (self._ns() // 1000) & (self.PERIOD - 1)

    def ticks_diff(self, a: int, b: int) -> int:
        if self._mp:
            return time.ticks_diff(a, b)
        half = self.PERIOD >> 1
        return ((a - b + half) & (self.PERIOD - 1)) - half

    def ticks_add(self, a: int, delta: int) -> int:
        if self._mp:
            return time.ticks_add(a, delta)
        return (a + delta) & (self.PERIOD - 1)

    def sleep_us(self, us: int) -> None:
        if self._mp:
            time.sleep_us(us)
        else:
            time.sleep(us / 1_000_000)


def pattern_field(channel: int) -> int:
    """A fixed, different reading per channel (for checking the channel mapping)."""
    return 0x2000 + (channel * 2371) % 0xC000


class IdleField:
    """An empty board of live sensors: ``field(channel) -> u16`` for a ``MuxBoard``.

    Each channel sits at mid-scale plus its own offset (within ±200 counts, a
    DRV5055's spread is ±1 900) and wobbles by up to three ADC steps on every read, as
    a live sensor and the ADC do; ``offsets`` (channel → counts) move single channels,
    e.g. one a magnet was left on. The wobble comes from a 31-bit LCG: small ints only.
    """

    def __init__(self, offsets: "dict | None" = None, seed: int = 1) -> None:
        self.offsets = offsets or {}
        self.state = seed

    def quiet(self, channel: int) -> int:
        """The channel's reading without the wobble."""
        return 0x8000 + (channel * 37) % 401 - 200 + self.offsets.get(channel, 0)

    def __call__(self, channel: int) -> int:
        self.state = (self.state * 1103515245 + 12345) & 0x7FFFFFFF
        return self.quiet(channel) + (self.state >> 16) % 96 - 48


class StandInMachine:
    """Enough of MicroPython's ``machine`` module for ``firmware.main``, on a ``MuxBoard``.

    ``Pin(n)`` returns the board's pin wired to GPIO ``n`` (a plain pin otherwise);
    ``ADC(Pin(n))`` the board's ADC on that GPIO. ``safe_level`` is what the
    safe-mode pin reads (1 = no jumper).
    """

    def __init__(self, board: MuxBoard, safe_level: int = 1) -> None:
        self.board = board
        self.frequency = None
        machine = self
        pins = {}
        for pin in board.select_pins + board.bank_pins:
            pins[pin.number] = pin
        adcs = {}
        for i, number in enumerate(board.config["adc_pins"]):
            adcs[number] = board.adcs[i]

        class Pin:
            IN = 0
            OUT = 1
            PULL_UP = 1

            def __new__(
                cls,
                number: int,
                mode: int | None = None,
                pull: int | None = None,
                value: int | None = None,
            ) -> StandInPin:
                pin = pins.get(number)
                if pin is None:
                    pin = StandInPin(number)
                    pin.level = safe_level
                    pins[number] = pin
                if value is not None:
                    pin.value(value)
                return pin

        def adc(pin: StandInPin) -> StandInADC:
            return adcs[pin.number]

        def freq(hz: int | None = None) -> int | None:
            if hz is None:
                return machine.frequency
            machine.frequency = hz

        self.Pin = Pin
        self.ADC = adc
        self.freq = freq
