"""Runs the firmware under the unix MicroPython port, talking over a pty.

    MICROPYPATH=<repo> micropython -m firmware.unix_main /dev/pts/N [key=value ...]

keys: ``channels`` (default 256), ``muxes``, ``rate`` (default 200), ``stream``
(1 = stream at boot), ``scans`` (exit after this many scans; 0 = never),
``selftest`` (1 = self-test at boot), ``idle`` (1 = the sensors are an empty board
of live sensors, ``standin.IdleField``; else each reads a fixed
``standin.pattern_field``), ``magnet`` (with ``idle``: this channel reads 6000
counts high, a magnet left on it). The tests use this to prove the firmware
is MicroPython code: the same ``Firmware``, ``MuxScanner`` and ``protocol`` as on
the Pico, with stand-in pins and ADCs instead of ``machine``.
"""

import select
import sys
import termios

from . import config as _config
from .app import Firmware
from .scanner import MuxScanner
from .standin import IdleField, MuxBoard, SystemClock, pattern_field


class PtyPort:
    """The firmware's serial port on a tty path: blocking writes, polled reads."""

    def __init__(self, path: str) -> None:
        self.file = open(path, "r+b")  # noqa: SIM115 - lives as long as the port
        termios.setraw(self.file.fileno())
        self.poller = select.poll()
        self.poller.register(self.file, select.POLLIN)

    def write(self, data: bytes | bytearray | memoryview) -> None:
        written = self.file.write(data)
        if written == len(data):  # the usual case allocates nothing
            return
        view = memoryview(data)[written or 0 :]
        while len(view):
            written = self.file.write(view)
            if written is None:  # would block: wait until the tty drains
                self.poller.poll(10)
                continue
            view = view[written:]

    def read(self) -> bytes | None:
        # MicroPython's file.read(n) waits for all n bytes: take one byte per ready poll.
        data = b""
        while len(data) < 256 and self.poller.poll(0):
            byte = self.file.read(1)
            if not byte:  # hung up: the other end of the cable is gone
                raise OSError("serial port closed")
            data += byte
        return data or None


def main(argv: list[str]) -> None:
    options = {"channels": 256, "rate": 200, "stream": 0, "scans": 0, "selftest": 0, "idle": 0}
    for arg in argv[1:]:
        key, _, value = arg.partition("=")
        options[key] = int(value)
    config = dict(_config.CONFIG)
    config["channels"] = options["channels"]
    config["muxes"] = options.get("muxes", (options["channels"] + 15) // 16)
    # Sixteen multiplexers wired (the default board); the host may ask for fewer (LAYOUT).
    field = pattern_field
    if options["idle"]:
        field = IdleField({options["magnet"]: 6000} if "magnet" in options else None)
    board = MuxBoard(dict(config, channels=256, muxes=16), field)
    scanner = MuxScanner(
        board.select_pins, board.adcs, board.bank_pins, config["muxes"], config["channels"]
    )
    firmware = Firmware(
        scanner,
        PtyPort(argv[0]),
        SystemClock(),
        options["rate"],
        bool(options["stream"]),
        limits=_config.selftest_limits(),
        selftest_at_boot=bool(options["selftest"]),
    )
    limit = options["scans"]
    firmware.run(lambda: limit and firmware.scans >= limit)


if __name__ == "__main__":
    main(sys.argv[1:])
