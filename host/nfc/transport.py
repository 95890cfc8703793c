"""Opening a PN532: reader configuration, the serial port, the Adafruit driver.

Over UART (any Linux host: a USB-serial adapter or the Pi's ``/dev/serial0``)
the driver talks through a pyserial port; over I2C (a Pi only) through Blinka's
``busio``. Which one is a :class:`ReaderConfig` field.

The Adafruit driver asks the port for more bytes than a reply holds, so with a
plain ``serial.Serial`` every reply costs the full read timeout.
:class:`FramedSerial` is a ``serial.Serial`` whose ``read`` returns as soon as
one whole PN532 frame has arrived; the timeout stays the upper bound for a frame
that never completes.
"""

from __future__ import annotations

import select
import time
from collections.abc import Callable, Mapping
from dataclasses import asdict, dataclass, fields, is_dataclass
from typing import Any

import serial

TRANSPORTS = ("uart", "i2c")


@dataclass(frozen=True)
class ReaderConfig:
    """One PN532 at the table.

    ``seat`` names the seat whose reader this is (a tap there is that seat's
    play), or ``None`` for a shared table reader. ``port`` is the serial device
    for ``"uart"`` (prefer a stable ``/dev/serial/by-id/…`` path) and unused for
    ``"i2c"``. ``timeout`` is the serial read timeout: it bounds a reply that
    never completes and must be a number (``None`` would hang the driver).
    ``poll_timeout`` is how long one wait for a tag lasts; a tag is reported
    removed after ``removal_misses`` such waits see nothing. ``ack_timeout`` is
    how long the chip has to acknowledge a command before that poll counts as
    unanswered (two in a row and the reader is offline): a real PN532 acknowledges
    within a few milliseconds, so this bounds only a busy host, which must not
    make a healthy reader flash "offline" nor a lying card look lifted.
    """

    name: str = "table"
    transport: str = "uart"
    port: str = "/dev/serial0"
    seat: str | None = None
    baudrate: int = 115200
    timeout: float = 0.05
    i2c_address: int = 0x24
    poll_timeout: float = 0.15
    ack_timeout: float = 0.5
    removal_misses: int = 1
    framed: bool = True
    #: BCM GPIO on the module's RSTPD_N (Pi only); the driver pulses it when it opens.
    reset_pin: int | None = None

    def __post_init__(self) -> None:
        if self.transport not in TRANSPORTS:
            raise ValueError(f"reader {self.name!r}: transport must be one of {TRANSPORTS}")
        if not isinstance(self.timeout, int | float) or not 0 < self.timeout <= 1:
            raise ValueError(f"reader {self.name!r}: timeout must be a number in (0, 1] seconds")
        if not 0 < self.poll_timeout <= 5:
            raise ValueError(f"reader {self.name!r}: poll_timeout must be in (0, 5] seconds")
        if not 0 < self.ack_timeout <= 5:
            raise ValueError(f"reader {self.name!r}: ack_timeout must be in (0, 5] seconds")
        if self.removal_misses < 1:
            raise ValueError(f"reader {self.name!r}: removal_misses must be at least 1")

    @classmethod
    def from_mapping(cls, data: Mapping[str, Any]) -> ReaderConfig:
        """A config from a TOML table / dict; unknown keys are an error, not ignored.

        The table config's spellings ``interface``, ``baud`` and ``address`` are
        accepted for ``transport``, ``baudrate`` and ``i2c_address``.
        """
        values = {_ALIASES.get(key, key): value for key, value in data.items()}
        known = {f.name for f in fields(cls)}
        unknown = sorted(set(values) - known)
        if unknown:
            raise ValueError(f"unknown NFC reader setting(s): {', '.join(unknown)}")
        return cls(**values)

    @classmethod
    def from_object(cls, config: Any) -> ReaderConfig:
        """A config from a dict, a :class:`ReaderConfig` or the table config's dataclass."""
        if isinstance(config, ReaderConfig):
            return config
        if isinstance(config, Mapping):
            return cls.from_mapping(config)
        if is_dataclass(config) and not isinstance(config, type):
            return cls.from_mapping({k: v for k, v in asdict(config).items() if v is not None})
        raise TypeError(f"not an NFC reader config: {config!r}")


_ALIASES = {"interface": "transport", "baud": "baudrate", "address": "i2c_address"}


def readers_from_config(config: Any) -> list[ReaderConfig]:
    """The readers of a table config.

    Accepts ``{"readers": [{...}, ...]}``, one reader's table, a list of
    tables, :class:`ReaderConfig` objects or the table config's reader
    dataclasses. Names must be unique.
    """
    if isinstance(config, Mapping) and "readers" in config:
        items: list[Any] = list(config["readers"])
    elif isinstance(config, Mapping | ReaderConfig) or is_dataclass(config):
        items = [config]
    else:
        items = list(config)
    readers = [ReaderConfig.from_object(item) for item in items]
    names = [r.name for r in readers]
    if len(set(names)) != len(names):
        raise ValueError(f"NFC reader names must be unique, got {names}")
    return readers


def _frame_end(buffer: bytes | bytearray) -> int | None:
    """Where the first PN532 frame in ``buffer`` ends, or ``None`` if not known yet.

    Returns ``-1`` when the bytes cannot be a frame (then the caller reads the
    way a plain port does).
    """
    start = 0
    while start < len(buffer) and buffer[start] == 0x00:
        start += 1
    if start == len(buffer):
        return None
    if start == 0 or buffer[start] != 0xFF:
        return -1
    if len(buffer) < start + 3:
        return None
    length, lcs = buffer[start + 1], buffer[start + 2]
    if (length, lcs) in ((0x00, 0xFF), (0xFF, 0x00)):
        return start + 4  # ACK / NACK, with the postamble
    if length == 0xFF and lcs == 0xFF:
        return -1  # an extended frame; never sent for the commands used here
    return start + 3 + length + 2  # data, DCS, postamble


class FramedSerial(serial.Serial):
    """A pyserial port whose ``read(n)`` also stops at the end of a PN532 frame."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        if self.timeout is None:
            raise ValueError("a PN532 port needs a read timeout; None would hang the driver")

    def read(self, size: int = 1) -> bytes:
        """Up to ``size`` bytes: fewer once a whole frame is in, or when the timeout ends."""
        deadline = time.monotonic() + float(self.timeout or 0)
        out = bytearray()
        while len(out) < size:
            end = _frame_end(out)
            if end == -1:
                want = size - len(out)
            elif end is None:
                want = 1
            else:
                want = min(end, size) - len(out)
                if want <= 0:
                    break
            waiting = self.in_waiting
            if waiting == 0:
                remaining = deadline - time.monotonic()
                if remaining <= 0:
                    break
                ready, _, _ = select.select([self.fd], [], [], remaining)
                if not ready:
                    break
                waiting = self.in_waiting
                if waiting == 0:
                    # Readable but empty: the device went away; let pyserial say so.
                    return bytes(out) + super().read(1)
            out.extend(super().read(min(want, waiting)))
        return bytes(out)


def open_uart(config: ReaderConfig) -> serial.Serial:
    """The serial port for a UART reader (framed unless the config says otherwise)."""
    port_class = FramedSerial if config.framed else serial.Serial
    return port_class(config.port, config.baudrate, timeout=config.timeout, write_timeout=1)


#: An ACK frame from the host aborts the command the PN532 is working on.
ABORT = b"\x00\x00\xff\x00\xff\x00"


def abort_command(pn532: Any) -> None:
    """Tell the chip to stop waiting for a tag the driver has given up on.

    Otherwise a tag arriving later is answered late, and that reply can land
    where the driver expects the next command's ACK (the PN532 user manual's
    remedy: the host sends an ACK frame). ``_write_data`` is the driver's
    per-bus raw write (UART: it also drops stale input first).
    """
    pn532._write_data(ABORT)


@dataclass
class OpenReader:
    """A connected PN532 driver and how to let go of its bus."""

    pn532: Any
    close: Callable[[], None]


def _reset_line(pin: int | None) -> Any:
    """Blinka's line for a Pi GPIO (``board.D<n>``), or None when no reset is wired."""
    if pin is None:
        return None
    # Blinka's GPIO, loaded only when a reset line is wired (a Pi's pins).
    import board
    import digitalio

    line = getattr(board, f"D{pin}", None)
    if line is None:
        raise RuntimeError(f"reset_pin {pin}: no GPIO{pin} here (a reset line needs the Pi's pins)")
    return digitalio.DigitalInOut(line)


def open_pn532(config: ReaderConfig) -> OpenReader:
    """Connect to the PN532 described by ``config`` (wake-up, SAM config, firmware check).

    Raises ``OSError``/``serial.SerialException`` if the port cannot be opened and
    ``RuntimeError`` if the chip does not answer.
    """
    if config.transport == "uart":
        # The PN532 driver and Blinka under it (third-party hardware libraries): loaded
        # when a reader is opened, never by a table that has none.
        from adafruit_pn532.uart import PN532_UART

        port = open_uart(config)
        try:
            pn532 = PN532_UART(port, reset=_reset_line(config.reset_pin))
        except BaseException:
            port.close()
            raise
        return OpenReader(pn532, port.close)
    # I2C is for the Pi: board.SCL/SDA exist only where Blinka finds a real board.
    import board
    import busio
    from adafruit_pn532.i2c import PN532_I2C

    i2c = busio.I2C(board.SCL, board.SDA)
    try:
        pn532 = PN532_I2C(i2c, address=config.i2c_address, reset=_reset_line(config.reset_pin))
    except BaseException:
        i2c.deinit()
        raise
    return OpenReader(pn532, i2c.deinit)
