"""The scan-and-send loop allocates nothing: proven on the MicroPython unix port.

The firmware's ``Firmware.step`` (commands polled, pacing, scan, change finding,
KEY/DELTA encoding, the port write) runs inside ``micropython.heap_lock()``: any
heap allocation raises ``MemoryError`` there and the script fails. The device
clock starts past 2**30 µs and past 2**32 µs, on ticks that wrap at 2**30 as on
the RP2040 and on ticks that do not wrap (the unix port's). The unix port is
64-bit, so its small ints hold 62 bits and a long int would not show as an
allocation there: the test also checks that every integer the firmware keeps and
every ``seq`` and timestamp on the wire stays under 2**30, the RP2040's small-int
range. The captured stream is then decoded under CPython and every scan the host
rebuilds is compared with what the sensors read.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

import lawmaster.firmware
from lawmaster.firmware import protocol as p
from lawmaster.firmware.standin import rp2040_u16
from lawmaster.host.link_scans import ScanAssembler

MICROPYTHON = shutil.which("micropython", path=str(Path(sys.executable).parent)) or shutil.which(
    "micropython"
)
REPO = str(Path(lawmaster.firmware.__file__).resolve().parent.parent)

CHANNELS = 122
STEPS = 2500

SCRIPT = """
import array, micropython, sys
from firmware import protocol
from firmware.app import Firmware
from firmware.scanner import MuxScanner
from firmware.standin import MuxBoard
from firmware import config

class Clock:
    def __init__(self, uptime, bits):
        self.mask = (1 << bits) - 1
        self.half = 1 << (bits - 1)
        self.t = uptime
    def ticks_us(self):
        return self.t & self.mask
    def ticks_diff(self, a, b):
        return ((a - b + self.half) & self.mask) - self.half
    def ticks_add(self, a, d):
        return (a + d) & self.mask
    def sleep_us(self, us):
        self.t += us

class Port:
    def __init__(self, size):
        self.buf = bytearray(size)
        self.n = 0
    def write(self, data):
        k = len(data)
        protocol._copy_viper(self.buf, self.n, data, k)
        self.n += k
    def read(self):
        return None

CHANNELS = {channels}
values = array.array("H", [0x8000] * CHANNELS)
def field(c):
    return values[c]
cfg = dict(config.CONFIG, channels=CHANNELS, muxes=(CHANNELS + 15) // 16)
board = MuxBoard(cfg, field)
scanner = MuxScanner(board.select_pins, board.adcs, board.bank_pins, cfg["muxes"], CHANNELS)
clock = Clock({uptime}, {bits})
port = Port(400000)
fw = Firmware(scanner, port, clock, rate=200, streaming=True, keyframe_ms=50)
fw.mode = {mode}

def play(fw, values, steps):
    # Locals only: a new global would grow the module's dict, an allocation of the test's own.
    for i in range(steps):
        k = fw.scans
        values[k % CHANNELS] = 0x8000 + ((k // CHANNELS) % 2) * 0x1000
        fw.step()

micropython.heap_lock()
try:
    play(fw, values, {steps})
finally:
    micropython.heap_unlock()
def big(v):
    return isinstance(v, int) and not -(1 << 30) <= v < (1 << 30)

big = [name for name, v in fw.__dict__.items() if big(v)]
print(fw.scans, fw.keyframes, big)
print(bytes(port.buf[:port.n]).hex())
"""


def expected(k: int) -> tuple[int, ...]:
    """What every channel reads at scan ``k``: each scan flips one channel's magnet."""
    out = []
    for c in range(CHANNELS):
        last = k - (k - c) % CHANNELS if k >= c else None
        on = last is not None and (last // CHANNELS) % 2
        out.append(rp2040_u16(0x8000 + 0x1000 * bool(on)))
    return tuple(out)


@pytest.mark.skipif(MICROPYTHON is None, reason="needs micropython")
@pytest.mark.parametrize(
    ("uptime", "bits", "mode"),
    [
        ((1 << 30) + 12_345, 30, p.MODE_CHANGES),  # RP2040 ticks, 18 minutes up
        ((1 << 32) + 777, 30, p.MODE_CHANGES),  # RP2040 ticks, 72 minutes up
        ((1 << 32) + 777, 62, p.MODE_CHANGES),  # ticks that never wrap, past 2**32
        ((1 << 32) + 777, 30, p.MODE_FULL),  # calibration: a keyframe every scan
    ],
)
def test_scan_loop_runs_heap_locked(uptime: int, bits: int, mode: int) -> None:
    script = SCRIPT.format(channels=CHANNELS, uptime=uptime, bits=bits, mode=mode, steps=STEPS)
    out = subprocess.run(
        [MICROPYTHON, "-c", script],
        env=dict(os.environ, MICROPYPATH=REPO),
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert out.returncode == 0, out.stdout[-2000:]  # MemoryError: the loop allocated
    head, stream = out.stdout.split("\n")[:2]
    scans, keyframes, big = head.split(" ", 2)
    if bits == 30:  # every int the firmware keeps fits an RP2040 small int
        assert big == "[]"
    else:  # only the clock's own ticks are large, as the clock hands them out
        assert set(eval(big)) <= {"_last_key", "_next_due"}  # noqa: S307 - our own repr
    assert int(scans) > 300  # the clock paced it at 200 scans/s
    data = bytes.fromhex(stream)
    sizes = [len(f) + 1 for f in data.split(b"\x00")[:-1]]
    assert max(sizes) <= p.MAX_FRAME
    decoder, assembler = p.Decoder(), ScanAssembler()
    frames = decoder.feed(data)
    assert decoder.bad == 0
    assert [f.seq for f in frames] == list(range(len(frames)))
    rebuilt = [s for f in frames if (s := assembler.feed(f)) is not None]
    assert len(rebuilt) == int(scans)
    for k, scan in enumerate(rebuilt):
        assert scan.readings == expected(k), f"scan {k}"
    raw = [f.timestamp_us for f in frames]
    assert all(0 <= t < 1 << 30 for t in raw)
    gaps = {b.timestamp_us - a.timestamp_us for a, b in zip(rebuilt, rebuilt[1:], strict=False)}
    assert gaps == {5000}  # 200 scans/s across the wraps, unwrapped by the host
    if mode == p.MODE_FULL:
        assert int(keyframes) == int(scans)
    else:  # a keyframe every 50 ms (10 scans), the rest one DELTA of one change
        assert int(keyframes) == pytest.approx(int(scans) / 10, abs=2)
        assert sum(isinstance(f, p.DeltaFrame) for f in frames) > int(scans) // 2
