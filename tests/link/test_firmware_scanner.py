"""The firmware under CPython: channel mapping, select-line order, and command handling."""

from __future__ import annotations

import sys
import types

import pytest

from lawmaster.firmware import config as fw_config
from lawmaster.firmware import main as pico_main
from lawmaster.firmware import protocol as p
from lawmaster.firmware.app import Firmware
from lawmaster.firmware.scanner import MuxScanner, gray_order
from lawmaster.firmware.standin import (
    MuxBoard,
    StandInMachine,
    SystemClock,
    pattern_field,
    rp2040_u16,
)


def build(config: dict, field=pattern_field) -> tuple[MuxBoard, MuxScanner]:
    board = MuxBoard(config, field)
    scanner = MuxScanner(
        board.select_pins, board.adcs, board.bank_pins, config["muxes"], config.get("channels")
    )
    return board, scanner


LAYOUTS = {
    "two-tier 256": dict(fw_config.CONFIG),
    "two-tier partial": dict(fw_config.CONFIG, muxes=3, channels=40),
    "direct 3 ADCs": dict(
        fw_config.CONFIG, bank_select_pins=[], adc_pins=[26, 27, 28], muxes=3, channels=48
    ),
    "two ADCs, two tiers": dict(fw_config.CONFIG, adc_pins=[26, 27], muxes=20, channels=320),
}


@pytest.mark.parametrize("name", sorted(LAYOUTS))
def test_every_channel_reads_its_own_sensor(name: str) -> None:
    config = LAYOUTS[name]
    board, scanner = build(config)
    buffer = scanner.scan_into(scanner.new_buffer())
    assert list(buffer) == [rp2040_u16(pattern_field(c)) for c in range(scanner.channels)]
    assert board.reads == scanner.channels  # no wasted conversions


def test_one_magnet_shows_on_exactly_its_channel() -> None:
    board, scanner = build(dict(fw_config.CONFIG), lambda ch: 0xF000 if ch == 173 else 0x8000)
    buffer = scanner.scan_into(scanner.new_buffer())
    assert [c for c, v in enumerate(buffer) if v != rp2040_u16(0x8000)] == [173]


def test_first_level_selects_change_once_per_input_index() -> None:
    board, scanner = build(dict(fw_config.CONFIG))
    scanner.scan_into(scanner.new_buffer())
    before_sel = sum(pin.writes for pin in board.select_pins)
    before_bank = sum(pin.writes for pin in board.bank_pins)
    scanner.scan_into(scanner.new_buffer())
    # Four writes to put the lines at the start, then one line change per new index.
    assert sum(pin.writes for pin in board.select_pins) - before_sel == 4 + 15
    # The second tier changes one line per step as well: 16 * 16 positions in all.
    assert sum(pin.writes for pin in board.bank_pins) - before_bank == 4 + 256 - 16


def test_gray_order_changes_one_bit_per_step() -> None:
    order = gray_order(4)
    assert sorted(order) == list(range(16))
    assert all(bin(a ^ b).count("1") == 1 for a, b in zip(order, order[1:], strict=False))


def test_adc_quantisation_matches_the_rp2040() -> None:
    assert rp2040_u16(0x8000) == 0x8008
    assert rp2040_u16(0) == 0 and rp2040_u16(0xFFFF) == 0xFFFF
    assert rp2040_u16(-5) == 0 and rp2040_u16(70000) == 0xFFFF


def test_too_many_channels_for_the_layout_is_refused() -> None:
    with pytest.raises(ValueError):
        fw_config.channel_count(dict(fw_config.CONFIG, channels=257))
    board = MuxBoard(dict(fw_config.CONFIG), pattern_field)
    with pytest.raises(ValueError):
        MuxScanner(board.select_pins, board.adcs, board.bank_pins, muxes=17)


class BufferPort:
    """The firmware's serial port as two byte buffers."""

    def __init__(self) -> None:
        self.incoming = bytearray()
        self.sent = bytearray()

    def write(self, data: bytes) -> None:
        self.sent += data

    def read(self) -> bytes | None:
        data, self.incoming = bytes(self.incoming), bytearray()
        return data or None


def firmware_with_port(rate: int = 0) -> tuple[Firmware, BufferPort, p.Decoder]:
    _, scanner = build(dict(fw_config.CONFIG, muxes=1, channels=16))
    port = BufferPort()
    return Firmware(scanner, port, SystemClock(), rate=rate), port, p.Decoder()


def replies(port: BufferPort, decoder: p.Decoder) -> list[p.Frame]:
    frames = decoder.feed(bytes(port.sent))
    port.sent.clear()
    return frames


def test_boot_says_hello_and_waits_for_start() -> None:
    firmware, port, decoder = firmware_with_port()
    firmware.boot()
    firmware.step()
    (hello,) = replies(port, decoder)
    assert hello == p.HelloFrame(0, p.VERSION, 16, 0, False)
    assert firmware.scans == 0


def test_commands_are_answered_and_obeyed() -> None:
    firmware, port, decoder = firmware_with_port(rate=0)
    firmware.boot()
    replies(port, decoder)
    port.incoming += p.encode_command(p.PING, 11) + p.encode_command(p.START, 12)
    firmware.step()  # handles both commands, then scans once (rate 0)
    pong, ack, hello, scan = replies(port, decoder)
    assert isinstance(pong, p.PongFrame) and pong.ping_seq == 11
    assert ack == p.AckFrame(2, p.START, 12)
    assert hello.streaming and hello.channels == 16
    assert isinstance(scan, p.ScanFrame) and scan.seq == 4
    assert scan.readings == tuple(rp2040_u16(pattern_field(c)) for c in range(16))

    port.incoming += p.encode_command(p.RATE, 13, 150)
    firmware.step()  # may also scan: the first scan at a new rate is due at once
    ack = replies(port, decoder)[0]
    assert (ack.kind, ack.command, ack.command_seq) == (p.ACK, p.RATE, 13)
    assert firmware.rate == 150

    port.incoming += p.encode_command(p.RATE, 14, p.MAX_RATE + 1)
    firmware.step()
    error = replies(port, decoder)[0]
    assert isinstance(error, p.ErrorFrame) and error.seq > ack.seq
    assert (error.code, error.command, error.command_seq) == (p.ERR_BAD_ARGUMENT, p.RATE, 14)
    assert firmware.rate == 150

    port.incoming += p.encode_command(p.STOP, 15)
    firmware.step()
    assert replies(port, decoder) == [p.AckFrame(firmware.seq - 1, p.STOP, 15)]
    scans = firmware.scans
    for _ in range(3):
        firmware.step()
    assert firmware.scans == scans and replies(port, decoder) == []


def test_garbage_and_device_frames_from_the_host_get_errors() -> None:
    firmware, port, decoder = firmware_with_port()
    firmware.boot()
    replies(port, decoder)
    port.incoming += b"\x05garbage\x00" + p.encode_hello(1, 1, 1, True)
    firmware.step()
    frames = replies(port, decoder)
    codes = sorted(f.code for f in frames if isinstance(f, p.ErrorFrame))
    assert codes == [p.ERR_BAD_FRAME, p.ERR_UNKNOWN_COMMAND]
    port.incoming += p.encode_command(p.PING, 3)  # still listening
    firmware.step()
    assert isinstance(replies(port, decoder)[0], p.PongFrame)


class MicroPythonModule(types.ModuleType):
    """The one ``micropython`` function ``firmware.main.run`` calls."""

    def __init__(self) -> None:
        super().__init__("micropython")
        self.kbd_intr_calls: list[int] = []

    def kbd_intr(self, char: int) -> None:
        self.kbd_intr_calls.append(char)


@pytest.fixture
def pico_modules(monkeypatch: pytest.MonkeyPatch):
    def install(board: MuxBoard, safe_level: int = 1) -> StandInMachine:
        machine = StandInMachine(board, safe_level)
        monkeypatch.setitem(sys.modules, "machine", machine)
        monkeypatch.setitem(sys.modules, "micropython", MicroPythonModule())
        return machine

    return install


def test_pico_entry_point_wires_config_pins_into_the_scanner(pico_modules) -> None:
    config = dict(fw_config.CONFIG, stream_at_boot=True, rate=0)
    board = MuxBoard(config, pattern_field)
    machine = pico_modules(board)
    port = BufferPort()
    decoder = p.Decoder()
    scans: list[p.ScanFrame] = []

    def three_scans() -> bool:
        scans.extend(f for f in replies(port, decoder) if isinstance(f, p.ScanFrame))
        return len(scans) >= 3

    firmware = pico_main.run(config, port, three_scans, clock=SystemClock())
    assert firmware is not None and machine.frequency == config["cpu_hz"]
    assert scans[0].readings == tuple(rp2040_u16(pattern_field(c)) for c in range(256))


def test_pico_safe_mode_jumper_keeps_the_repl(pico_modules) -> None:
    board = MuxBoard(dict(fw_config.CONFIG), pattern_field)
    pico_modules(board, safe_level=0)
    port = BufferPort()
    assert pico_main.run(dict(fw_config.CONFIG), port, clock=SystemClock()) is None
    assert port.sent == b"" and board.reads == 0


class SteppedClock:
    """MicroPython's ticks API on a clock the test moves (ticks wrap at 2**30)."""

    PERIOD = 1 << 30

    def __init__(self) -> None:
        self.ticks = self.PERIOD - 1000  # just before a wrap

    def ticks_us(self) -> int:
        return self.ticks

    def ticks_diff(self, a: int, b: int) -> int:
        half = self.PERIOD >> 1
        return ((a - b + half) & (self.PERIOD - 1)) - half

    def ticks_add(self, a: int, delta: int) -> int:
        return (a + delta) & (self.PERIOD - 1)

    def sleep_us(self, us: int) -> None:
        self.ticks = self.ticks_add(self.ticks, us)


def test_device_time_runs_on_across_ticks_wraps_and_paces_scans() -> None:
    _, scanner = build(dict(fw_config.CONFIG, muxes=1, channels=16))
    clock = SteppedClock()
    port = BufferPort()
    firmware = Firmware(scanner, port, clock, rate=100, streaming=True)
    decoder = p.Decoder()
    elapsed = 0
    for _ in range(40):  # 40 × 0.3 s of idle-free running: crosses the 2**30 µs wrap
        clock.sleep_us(300_000)
        elapsed += 300_000
        assert firmware.now_us() == elapsed
    firmware.boot()
    scans: list[p.ScanFrame] = []
    while len(scans) < 5:
        firmware.step()
        scans += [f for f in replies(port, decoder) if isinstance(f, p.ScanFrame)]
    gaps = [b.timestamp_us - a.timestamp_us for a, b in zip(scans, scans[1:], strict=False)]
    assert gaps == [10_000] * 4  # 100 scans/s on the device clock, exactly
