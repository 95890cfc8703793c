"""The firmware is MicroPython code: the unix port runs it, the host's Link reads it.

``micropython -m firmware.unix_main`` runs the same ``Firmware``, ``MuxScanner`` and
``protocol`` modules as the Pico, with stand-in pins and ADCs, on one end of a
socat pty pair; ``host.link.Link`` reads the other end through pyserial. Killing
socat removes both pty paths (the USB cable pulled); starting it again at the same
paths and rebooting the firmware is the replug.
"""

from __future__ import annotations

import array
import binascii
import os
import shutil
import struct
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from link_checks import check_commands

import lawmaster.firmware
from lawmaster.firmware import protocol as p
from lawmaster.firmware.standin import IdleField, pattern_field, rp2040_u16
from lawmaster.hardware.electronics.bringup import idle_window_counts
from lawmaster.hardware.sensor_map import SensorMap
from lawmaster.host.link import Link, SelfTestReport

# pip puts the binary beside the interpreter; that folder is not always on PATH
# (a pyenv Python installed into by `python3 -m pip` has no shim until a rehash).
MICROPYTHON = shutil.which("micropython", path=str(Path(sys.executable).parent)) or shutil.which(
    "micropython"
)
SOCAT = shutil.which("socat")
REPO = str(Path(lawmaster.firmware.__file__).resolve().parent.parent)
WAIT = 30.0

pytestmark = pytest.mark.skipif(
    MICROPYTHON is None or SOCAT is None, reason="needs micropython and socat on PATH"
)


def wait_for(condition: Callable[[], object], timeout: float = WAIT) -> None:
    deadline = time.monotonic() + timeout
    while not condition():
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out waiting for {condition}")
        time.sleep(0.02)


def micropython(*args: str, **kwargs) -> subprocess.Popen:
    env = dict(os.environ, MICROPYPATH=REPO)
    return subprocess.Popen([MICROPYTHON, *args], env=env, **kwargs)


class Cable:
    """A socat pty pair: ``device`` for the firmware, ``host`` for the Link."""

    def __init__(self, directory: Path) -> None:
        self.device = str(directory / "pico")
        self.host = str(directory / "ttyACM")
        self.socat: subprocess.Popen | None = None
        self.firmware: subprocess.Popen | None = None

    def plug(self, *firmware_args: str) -> None:
        self.socat = subprocess.Popen(
            [
                SOCAT,
                f"pty,raw,echo=0,link={self.device}",
                f"pty,raw,echo=0,link={self.host}",
            ],
            stderr=subprocess.DEVNULL,
        )
        wait_for(lambda: os.path.exists(self.device) and os.path.exists(self.host))
        self.firmware = micropython(
            "-m", "firmware.unix_main", self.device, *firmware_args, stderr=subprocess.DEVNULL
        )

    def unplug(self) -> None:
        for proc in (self.socat, self.firmware):
            if proc is not None and proc.poll() is None:
                proc.terminate()
                try:
                    proc.wait(10)
                except subprocess.TimeoutExpired:
                    proc.kill()
                    proc.wait()
        self.socat = self.firmware = None


@pytest.fixture
def cable(tmp_path: Path) -> Iterator[Cable]:
    c = Cable(tmp_path)
    yield c
    c.unplug()


PATTERNS = [
    [0x8008] * 256,  # no zero bytes: COBS blocks of 254
    [0] * 256,  # nothing but zeros
    [1, 2, 0, 0x8000, 0xFFFF] * 51,
    list(range(300)),
]


def test_protocol_under_micropython_matches_cpython() -> None:
    data = bytes(range(256)) * 3
    script = (
        "import array\n"
        "from firmware import protocol as p\n"
        "print(p.crc16(DATA), p.crc16_table(DATA), p.crc16 is p.crc16_table)\n"
        "w = p.FrameWriter()\n"
        "print(w._fast)\n"
        "for values in PATTERNS:\n"
        "    a = array.array('H', values)\n"
        "    print(bytes(w.key(9, 123, 45, p.LAST, a, 3, 100)).hex())\n"
        "    c = bytearray(4 * 50)\n"
        "    for i in range(50):\n"
        "        c[4 * i] = i; c[4 * i + 2] = a[i] & 0xFF; c[4 * i + 3] = a[i] >> 8\n"
        "    print(bytes(w.delta(9, 123, 45, 0, c, 10, 40)).hex())\n"
        "idle = array.array('H', PATTERNS[3][:200])\n"
        "verdict = bytearray(c % 5 for c in range(200))\n"
        "part = p.encode_selftest_part(5, 6, 160, (30901, 34635), 76, 76, idle, verdict)\n"
        "print(bytes(part).hex())\n"
    )
    script = script.replace("DATA", repr(data)).replace("PATTERNS", repr(PATTERNS))
    out = subprocess.run(
        [MICROPYTHON, "-c", script],
        env=dict(os.environ, MICROPYPATH=REPO),
        capture_output=True,
        text=True,
        timeout=60,
        check=True,
    ).stdout.split("\n")
    crc_fast, crc_table, fell_back = out[0].split()
    assert int(crc_fast) == int(crc_table) == binascii.crc_hqx(data, 0xFFFF)
    assert fell_back == "False"  # the viper CRC is the one in use
    assert out[1] == "True"  # and the allocation-free frame writer
    writer = p.FrameWriter()  # CPython: the portable path
    for i, values in enumerate(PATTERNS):
        a = array.array("H", values)
        changes = bytearray()
        for c in range(50):
            changes += struct.pack("<HH", c, a[c])
        assert out[2 + 2 * i] == bytes(writer.key(9, 123, 45, p.LAST, a, 3, 100)).hex()
        assert out[3 + 2 * i] == bytes(writer.delta(9, 123, 45, 0, changes, 10, 40)).hex()
        frame = p.decode_frame(bytes.fromhex(out[3 + 2 * i])[:-1])
        assert frame.changes == tuple((c, a[c]) for c in range(10, 50))
    # A self-test report's part: the same bytes from MicroPython as from CPython.
    idle, verdict = PATTERNS[3][:200], [c % 5 for c in range(200)]
    part = p.encode_selftest_part(5, 6, 160, (30901, 34635), 76, 76, idle, verdict)
    assert out[2 + 2 * len(PATTERNS)] == bytes(part).hex()
    frame = p.decode_frame(bytes(part)[:-1])
    assert frame.first == 76 and frame.readings == tuple(idle[76:152])
    assert frame.codes == tuple(verdict[76:152])


def test_unix_micropython_firmware_streams_to_link(cable: Cable) -> None:
    frames: list[p.ScanFrame] = []
    lock = threading.Lock()

    def on_scan(frame: p.ScanFrame) -> None:
        with lock:
            frames.append(frame)

    cable.plug("channels=64", "rate=100")
    with Link(cable.host, on_scan) as link:
        assert link.wait_ready(WAIT)
        wait_for(lambda: len(frames) >= 5)
        assert frames[-1].readings == tuple(rp2040_u16(pattern_field(c)) for c in range(64))
        assert link.stats.channels == 64 and link.stats.frames_bad == 0

        def scans() -> list[p.ScanFrame]:
            with lock:
                return list(frames)

        # The same commands as on the emulated RP2040 (tests/pico/test_pico_link.py).
        check_commands(link, scans, wait_for, lambda: time.sleep(0.3), timeout=2.0)

        # Pull the cable: socat and its pty paths vanish, the firmware loses power.
        cable.unplug()
        wait_for(lambda: not link.ready)
        time.sleep(0.3)
        cable.plug("channels=64", "rate=100")
        wait_for(lambda: link.ready)
        count = len(frames)
        wait_for(lambda: len(frames) >= count + 5)
        stats = link.stats
        assert stats.reconnects >= 1 and stats.device_restarts >= 1
        assert link.hello.rate == 40  # the link re-applied its rate to the fresh boot


def test_unix_micropython_firmware_takes_the_maps_layout(cable: Cable) -> None:
    frames: list[p.ScanFrame] = []
    cable.plug("rate=100", "selftest=1")  # wired for 256 channels, self-test at boot
    with Link(cable.host, frames.append, expect_channels=122) as link:
        assert link.wait_ready(WAIT)
        wait_for(lambda: len(frames) >= 3)
        assert frames[-1].readings == tuple(rp2040_u16(pattern_field(c)) for c in range(122))
        assert (link.hello.channels, link.hello.muxes, link.hello.capacity) == (122, 8, 256)
        report = link.selftest(10)
        # The stand-in sensors hold one value each: frozen, so "no noise" on every channel.
        assert report is not None and set(report.failed.values()) == {"no noise"}
        assert len(report.failed) == 122


def test_unix_micropython_selftest_reports_each_channels_idle_against_the_boards_window(
    cable: Cable,
) -> None:
    """The firmware under MicroPython judges by the window the host sends (bringup's)."""
    sensor_map = SensorMap.load("gw-brott")
    window = idle_window_counts(sensor_map)
    field = IdleField({40: 6000})  # the stand-in board: live sensors, a magnet left on 40
    reports: list[SelfTestReport] = []
    cable.plug("rate=100", "selftest=1", "idle=1", "magnet=40")
    link = Link(
        cable.host,
        lambda frame: None,
        on_selftest=reports.append,
        expect_channels=sensor_map.channels,
        idle_window=window,
    )
    with link:
        assert link.wait_ready(WAIT)
        # The boot test ran on 256 channels (ignored); LAYOUT and IDLE made it run again.
        wait_for(lambda: any(r.window == window for r in reports))
        (boot,) = [r for r in reports if r.window == window]
        report = link.selftest(10)
    for got in (boot, report):
        assert got is not None and got.channels == 122 and got.window == window
        assert dict(got.failed) == {40: "idle reading outside its window"}
        assert [c for c, code in enumerate(got.codes) if code] == [40]
        inside = [r for c, r in enumerate(got.readings) if c != 40]
        assert all(window[0] <= r <= window[1] for r in inside)
        # Each mean is the sensor's own idle level: 32 scans average its wobble away.
        for c, reading in enumerate(got.readings):
            assert abs(reading - rp2040_u16(field.quiet(c))) <= 24, c


def test_scanner_maps_every_layout_under_micropython() -> None:
    script = """
from firmware import config
from firmware.scanner import MuxScanner
from firmware.standin import MuxBoard, pattern_field, rp2040_u16
layouts = [
    {},
    {"muxes": 3, "channels": 40},
    {"bank_select_pins": [], "adc_pins": [26, 27, 28], "muxes": 3, "channels": 48},
    {"adc_pins": [26, 27], "muxes": 20, "channels": 320},
]
for changes in layouts:
    c = dict(config.CONFIG)
    c.update(changes)
    board = MuxBoard(c, pattern_field)
    s = MuxScanner(board.select_pins, board.adcs, board.bank_pins, c["muxes"], c["channels"])
    got = list(s.scan_into(s.new_buffer()))
    want = [rp2040_u16(pattern_field(ch)) for ch in range(c["channels"])]
    print(c["channels"], got == want, board.reads)
"""
    out = subprocess.run(
        [MICROPYTHON, "-c", script],
        env=dict(os.environ, MICROPYPATH=REPO),
        capture_output=True,
        text=True,
        timeout=60,
        check=True,
    ).stdout.split()
    assert out == ["256", "True", "256", "40", "True", "40", "48", "True", "48"] + [
        "320",
        "True",
        "320",
    ]


def test_pico_entry_point_runs_under_micropython() -> None:
    """``firmware.main.run`` as on the Pico, with a stand-in ``machine`` in ``sys.modules``."""
    script = """
import sys
from firmware import config, protocol
from firmware.standin import MuxBoard, StandInMachine, pattern_field, rp2040_u16
cfg = dict(config.CONFIG)
cfg["stream_at_boot"] = True
cfg["rate"] = 0
board = MuxBoard(cfg, pattern_field)
machine = StandInMachine(board)
sys.modules["machine"] = machine
import firmware.main
import firmware.pico_boot

class Port:
    def __init__(self):
        self.decoder = protocol.Decoder()
        self.keys = []
        self.selftests = []
    def write(self, data):
        for frame in self.decoder.feed(bytes(data)):
            if frame.kind == protocol.KEY:
                self.keys.append(frame)
            elif frame.kind == protocol.SELFTEST_REPORT:
                self.selftests.append(frame)
    def read(self):
        return None

port = Port()
firmware.main.run(cfg, port, lambda: len(port.keys) >= 3)
got = port.keys[0].readings + port.keys[1].readings + port.keys[2].readings
want = tuple(rp2040_u16(pattern_field(c)) for c in range(256))
print(len(port.keys), got == want, machine.frequency, port.selftests[0].failed)
"""
    out = subprocess.run(
        [MICROPYTHON, "-c", script],
        env=dict(os.environ, MICROPYPATH=REPO),
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert out.returncode == 0, out.stderr
    # The stand-in sensors never wobble: the boot self-test flags all 256 as "no noise".
    assert out.stdout.split() == ["3", "True", "200000000", "256"]


def test_the_firmware_bench_says_which_scan_path_it_times() -> None:
    """``firmware.bench`` on the unix port times the scan the unix port's firmware runs
    (stand-in pins and ADCs) and says so; the register scan is ``bench pico``'s."""
    out = subprocess.run(
        [MICROPYTHON, "-m", "firmware.bench", "16"],
        env=dict(os.environ, MICROPYPATH=REPO),
        capture_output=True,
        text=True,
        timeout=120,
        check=True,
    ).stdout.split("\n")
    figures = dict(line.split(" ", 1) for line in out if line)
    assert figures.pop("scan_path") == "standin"
    assert set(figures) == {
        "scan_into_us",
        "per_channel_us",
        "find_changes_us",
        "key_part_us",
        "empty_delta_us",
        "scan_once_changes_us",
        "scan_once_full_us",
    }
    assert all(float(value) > 0 for value in figures.values())
