"""Time the scan loop's parts on the scan path the firmware runs where this runs.

    MICROPYPATH=. micropython -m firmware.bench [channels]      # the unix port
    mpremote mount . exec "import firmware.bench as b; b.main(122)"   # on a Pico

What ``scan_into`` is differs, and the first line printed says which:

* on a Pico (``machine`` has ``ADC``): ``scan_path register``, the scanner built by
  ``firmware.main.build`` from ``config.CONFIG``'s pins, i.e. the viper scan on the
  SIO, ADC and SysTick registers (``rp2040.RegisterScan``) with its settling waits and
  real conversions, as the firmware runs it on a board;
* elsewhere (the unix port, CPython): ``scan_path standin``, the scanner
  ``firmware.unix_main`` runs, i.e. bytecode calls of the stand-in pins' ``value`` and
  the stand-in ADCs' ``read_u16`` on a ``standin.MuxBoard``. That is the unix port's
  own scan, not the Pico's: the register scan runs only on an RP2040, and its cost on
  one is what ``lawmaster bench --json pico`` measures (the emulated RP2040).

The change finder and the frame encoder are the firmware's own on both (viper where
the port has the emitter). Each figure is the best of five runs of 200 (a loaded
machine only ever adds time). Prints one ``name value`` line per figure, in µs.
"""

import sys
import time

from . import config as _config
from . import protocol
from .app import Firmware
from .changes import Changes
from .scanner import MuxScanner
from .standin import MuxBoard, pattern_field


class _Port:
    def write(self, data: bytes) -> None:
        pass

    def read(self) -> None:
        return None


class _Clock:
    def ticks_us(self) -> int:
        return time.ticks_us()

    def ticks_diff(self, a: int, b: int) -> int:
        return time.ticks_diff(a, b)

    def ticks_add(self, a: int, b: int) -> int:
        return time.ticks_add(a, b)

    def sleep_us(self, us: int) -> None:
        pass


def _best(fn: object, runs: int = 5, n: int = 200) -> float:
    best = None
    for _ in range(runs):
        start = time.ticks_us()
        for _ in range(n):
            fn()
        took = time.ticks_diff(time.ticks_us(), start) / n
        best = took if best is None or took < best else best
    return best


def _scanner(channels: int) -> tuple:
    """The scanner this port's firmware runs, and the name of its scan path."""
    muxes = (channels + 15) // 16
    config = dict(_config.CONFIG, muxes=muxes, channels=channels)
    try:
        import machine

        machine.ADC  # noqa: B018 - the unix port's machine has mem32 but no ADC
    except (ImportError, AttributeError):
        board = MuxBoard(dict(config, channels=256, muxes=16), pattern_field)
        scanner = MuxScanner(board.select_pins, board.adcs, board.bank_pins, muxes, channels)
        return scanner, "standin"
    from .main import build

    return build(machine, config, time), "register"


def main(channels: int = 122) -> None:
    scanner, path = _scanner(channels)
    print("scan_path", path)
    buffer = scanner.new_buffer()
    scan = _best(lambda: scanner.scan_into(buffer))
    print("scan_into_us", scan)
    print("per_channel_us", scan / channels)
    changes = Changes(channels, 96)
    changes.take_all(buffer)
    print("find_changes_us", _best(lambda: changes.find(buffer)))
    writer = protocol.FrameWriter()
    count = min(channels, protocol.KEY_PART)
    print("key_part_us", _best(lambda: writer.key(1, 2, 3, 1, buffer, 0, count)))
    print("empty_delta_us", _best(lambda: writer.delta(1, 2, 3, 1, changes.out, 0, 0)))
    for mode, name in ((protocol.MODE_CHANGES, "changes"), (protocol.MODE_FULL, "full")):
        firmware = Firmware(scanner, _Port(), _Clock(), rate=0, streaming=True)
        firmware.mode = mode
        firmware.scan_once()
        print("scan_once_" + name + "_us", _best(firmware.scan_once))


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 122)
