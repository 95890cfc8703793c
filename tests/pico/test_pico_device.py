"""On the emulated RP2040 itself: the scan loop is machine code, allocates nothing, and
costs the same however the heap lies.

The checks run the firmware of this repository compiled by ``mpy-cross`` for the
Cortex-M0+, on the real MicroPython v1.28.0 ``RPI_PICO`` build, with the real
``machine`` module: the scanner ``firmware.main.build`` makes there is the one a Pico
runs (registers, not the stand-in pins).
"""

from __future__ import annotations

from statistics import median

import pytest
from pico_support import needs_emulator

from lawmaster.firmware import protocol as p
from lawmaster.host.link_scans import ScanAssembler
from lawmaster.host.sim.rp2040.emulator import Board, EmulatedPico

pytestmark = needs_emulator

CHANNELS = 122


def pattern(channel: int) -> int:
    """A different reading per channel, 400 counts apart (read_u16 counts)."""
    return 0x2000 + channel * 400


@pytest.fixture(scope="module")
def pico():
    board = Board(channels=CHANNELS, muxes=8, values=tuple(pattern(c) for c in range(CHANNELS)))
    with EmulatedPico(board) as emulated:
        emulated.boot()
        emulated.load_firmware()
        yield emulated


NATIVE = """
import machine, micropython, time
from firmware import changes, config, protocol, rp2040
from firmware.main import build

@micropython.viper
def viper_kind(n: int) -> int:
    return n

def bytecode_kind(n):
    return n

kind = machine.mem32  # a function object's first word is its type
scanner = build(machine, dict(config.CONFIG, channels=122, muxes=8), time)
print('engine', type(scanner.engine).__name__)
print('scan', kind[id(rp2040.scan)] == kind[id(viper_kind)])
print('bytecode', kind[id(rp2040.scan)] == kind[id(bytecode_kind)])
print('find', kind[id(changes._viper_find)] == kind[id(viper_kind)])
print('frames', kind[id(protocol._frame_viper)] == kind[id(viper_kind)])
buffer = scanner.new_buffer()
scanner.scan_into(buffer)
print('readings', ' '.join(str(v) for v in buffer))
"""


def test_the_scan_loop_is_viper_machine_code_on_the_device(pico: EmulatedPico) -> None:
    """A function's type word tells viper machine code from bytecode on MicroPython: the
    scan loop, the change finder and the frame encoder must all be machine code."""
    lines = dict(line.split(" ", 1) for line in pico.exec(NATIVE).splitlines() if " " in line)
    assert lines["engine"] == "RegisterScan"  # the Pico's build scans on the registers
    assert lines["scan"] == "True" and lines["bytecode"] == "False"
    assert lines["find"] == "True" and lines["frames"] == "True"
    readings = [int(v) for v in lines["readings"].split()]
    # Every channel in its slot, as machine.ADC.read_u16 scales the 12-bit result.
    assert readings == [((v >> 4) << 4) | (v >> 12) for v in map(pattern, range(CHANNELS))]


HEAP_LOCK = """
import gc, machine, micropython, sys, time
gc.collect()
from firmware import config, protocol
from firmware.app import Firmware
from firmware.main import UsbPort, build

class Port(UsbPort):
    # Commands are polled on the real USB stdin; frames go to a buffer made here, so the
    # raw REPL's own output stays text.
    def __init__(self, size):
        UsbPort.__init__(self, sys.stdin.buffer, None, sys.stdin)
        self.buf = bytearray(size)
        self.n = 0
    def write(self, data):
        k = len(data)
        protocol._copy_viper(self.buf, self.n, data, k)
        self.n += k

cfg = dict(config.CONFIG, channels=122, muxes=8)
machine.freq(cfg["cpu_hz"])
scanner = build(machine, cfg, time)
busy = machine.Pin(cfg["busy_pin"], machine.Pin.OUT, value=0)
fw = Firmware(scanner, Port(30000), time, rate=400, streaming=True, keyframe_ms=10, busy=busy)
fw.mode = MODE
fw.step()

def play(fw, steps):
    for i in range(steps):
        fw.step()

micropython.heap_lock()
try:
    play(fw, 100)
finally:
    micropython.heap_unlock()
print('scans', fw.scans, 'keyframes', fw.keyframes)
view = memoryview(fw.port.buf)
for i in range(0, fw.port.n, 512):
    print('stream', bytes(view[i:min(i + 512, fw.port.n)]).hex())
del fw, scanner, busy, view
gc.collect()
"""


@pytest.mark.parametrize("mode", [p.MODE_CHANGES, p.MODE_FULL])
def test_the_scan_loop_allocates_nothing_on_the_device(pico: EmulatedPico, mode: int) -> None:
    """``Firmware.step`` (command poll on USB, pacing, register scan, change finding,
    frame encoding) under ``micropython.heap_lock()``: any allocation raises MemoryError."""
    out = pico.exec(HEAP_LOCK.replace("MODE", str(mode)), timeout=600)
    lines = dict(line.split(" ", 1) for line in out.splitlines() if " " in line)
    lines["stream"] = "".join(
        line.split(" ", 1)[1] for line in out.splitlines() if line.startswith("stream ")
    )
    scans = int(lines["scans"].split()[0])
    assert scans >= 3
    decoder, assembler = p.Decoder(), ScanAssembler()
    frames = decoder.feed(bytes.fromhex(lines["stream"]))
    assert decoder.bad == 0
    rebuilt = [s for f in frames if (s := assembler.feed(f)) is not None]
    assert len(rebuilt) >= scans - 1
    want = [((v >> 4) << 4) | (v >> 12) for v in map(pattern, range(CHANNELS))]
    for scan in rebuilt:
        assert list(scan.readings) == want
    if mode == p.MODE_FULL:
        assert all(isinstance(f, p.KeyFrame) for f in frames)


LAYOUT_SETUP = """
import gc, machine, micropython, time
from firmware import config, protocol
from firmware.app import Firmware
from firmware.main import build

class Port:
    # Frames are counted, never kept: the heap stays as each case leaves it.
    def __init__(self):
        self.n = 0
    def write(self, data):
        self.n += len(data)
    def read(self):
        return None

cfg = dict(config.CONFIG, channels=122, muxes=8)
machine.freq(cfg["cpu_hz"])
scanner = build(machine, cfg, time)
busy = machine.Pin(cfg["busy_pin"], machine.Pin.OUT, value=0)
firmware = {
    heap: Firmware(scanner, Port(), time, rate=0, streaming=True, busy=busy, heap=heap)
    for heap in (micropython, None)
}
for fw in firmware.values():
    fw.mode = MODE
    fw.scan_once()
keep = None
gc.collect()
"""

# Twelve scans with the heap as it is after a collection.
CALM = """
fw = firmware[HEAP]
gc.collect()
for i in range(12):
    fw.scan_once()
"""

# Twelve scans with the heap cut into one-block holes between one-block live objects
# (two-tuples, 16 bytes each), as a long run of small allocations and frees leaves it:
# a call frame too large for one hole is found only past all of them.
FRAGMENTED = """
fw = firmware[HEAP]
keep, junk = [], []
for i in range(1200):
    keep.append((i, i))
    junk.append((i, i))
junk = None
gc.collect()
for i in range(12):
    fw.scan_once()
keep = None
gc.collect()
"""


def busy_windows(pico: EmulatedPico, script: str) -> list[float]:
    """Run ``script``; the length (ms, from the core's cycles) of each busy window it made."""
    first = len(pico.busy)
    pico.exec(script, timeout=600)
    return [b.cycle_ms for b in pico.busy[first:]]


@pytest.mark.parametrize("mode", [p.MODE_CHANGES, p.MODE_FULL])
def test_a_scan_costs_the_same_however_the_heap_is_laid_out(pico: EmulatedPico, mode: int) -> None:
    """MicroPython places a bytecode call's frame with a heap search when the heap is
    unlocked; the firmware locks it while it scans and sends (``Firmware(heap=...)``, as
    ``firmware.main.run`` builds it on a Pico), so a heap cut up by earlier allocations
    costs a scan nothing. The same firmware with the heap left unlocked is the control:
    there the cut-up heap must cost, or this layout proves nothing."""
    pico.exec(LAYOUT_SETUP.replace("MODE", str(mode)), timeout=600)
    locked = "micropython"
    calm = busy_windows(pico, CALM.replace("HEAP", locked))
    cut = busy_windows(pico, FRAGMENTED.replace("HEAP", locked))
    assert len(calm) == len(cut) == 12
    # Medians: in change-only mode one of the twelve may be a keyframe, in either case.
    assert median(cut) <= median(calm) * 1.01, (calm, cut)
    unlocked_calm = busy_windows(pico, CALM.replace("HEAP", "None"))
    unlocked_cut = busy_windows(pico, FRAGMENTED.replace("HEAP", "None"))
    assert median(unlocked_cut) > median(unlocked_calm) * 1.1, (unlocked_calm, unlocked_cut)
    # Locked is also the cheaper: no heap search even on a calm heap.
    assert median(calm) <= median(unlocked_calm)
