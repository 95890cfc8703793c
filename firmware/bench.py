"""Time the scan loop's parts where it runs: the unix port here, a real Pico there.

    MICROPYPATH=. micropython -m firmware.bench [channels]      # stand-in pins and ADC
    mpremote mount . exec "import firmware.bench as b; b.main(122)"   # on a Pico

On a Pico (``machine.ADC`` exists) the scanner is built from ``config.CONFIG``'s
real pins, so ``scan_into`` includes the real ``ADC.read_u16`` and pin writes;
elsewhere trivial stand-ins measure the interpreter's share alone. Each figure is
the best of five runs of 200 (a loaded machine only ever adds time). Prints one
``name value`` line per figure, in µs.
"""

import sys
import time

from . import config as _config
from . import protocol
from .app import Firmware
from .changes import Changes
from .scanner import MuxScanner


class _ADC:
    def read_u16(self) -> int:
        return 0x8008


class _Pin:
    def value(self, v: int | None = None) -> None:
        pass


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


def _scanner(channels: int) -> MuxScanner:
    muxes = (channels + 15) // 16
    try:
        import machine

        machine.ADC  # noqa: B018 - only a Pico's machine module has it
    except (ImportError, AttributeError):
        return MuxScanner(
            [_Pin() for _ in range(4)], [_ADC()], [_Pin() for _ in range(4)], muxes, channels
        )
    from .main import build

    return build(machine, dict(_config.CONFIG, muxes=muxes, channels=channels), time)


def main(channels: int = 122) -> None:
    scanner = _scanner(channels)
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
