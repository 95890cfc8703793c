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
from lawmaster.host.link_scans import ScanAssembler


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


def scans_in(frames: list[p.Frame], assembler: ScanAssembler) -> list[p.ScanFrame]:
    """The full scans the host rebuilds from the KEY and DELTA frames among ``frames``."""
    out = []
    for frame in frames:
        if isinstance(frame, (p.KeyFrame, p.DeltaFrame)):
            scan = assembler.feed(frame)
            if scan is not None:
                out.append(scan)
    return out


def test_boot_says_hello_and_waits_for_start() -> None:
    firmware, port, decoder = firmware_with_port()
    firmware.boot()
    firmware.step()
    (hello,) = replies(port, decoder)
    assert hello == p.HelloFrame(
        0, p.VERSION, 16, 0, False, 1, 16, 256, p.MODE_CHANGES, 96, 2000
    )
    assert firmware.scans == 0


def test_commands_are_answered_and_obeyed() -> None:
    firmware, port, decoder = firmware_with_port(rate=0)
    firmware.boot()
    replies(port, decoder)
    port.incoming += p.encode_command(p.PING, 11) + p.encode_command(p.START, 12)
    firmware.step()  # handles both commands, then scans once (rate 0): a keyframe
    pong, ack, hello, key = replies(port, decoder)
    assert isinstance(pong, p.PongFrame) and pong.ping_seq == 11
    assert ack == p.AckFrame(2, p.START, 12)
    assert hello.streaming and hello.channels == 16
    assert isinstance(key, p.KeyFrame) and key.seq == 4 and key.flags == p.LAST
    assert key.readings == tuple(rp2040_u16(pattern_field(c)) for c in range(16))
    firmware.step()  # nothing changed: an empty DELTA
    (delta,) = replies(port, decoder)
    assert isinstance(delta, p.DeltaFrame) and delta.changes == () and delta.flags == p.LAST

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


def test_only_changes_past_the_deadband_or_a_threshold_are_sent() -> None:
    levels = [0x8000] * 16
    board, scanner = build(dict(fw_config.CONFIG, muxes=1, channels=16), lambda c: levels[c])
    port = BufferPort()
    firmware = Firmware(scanner, port, SystemClock(), rate=0, streaming=True, deadband=100)
    decoder, assembler = p.Decoder(), ScanAssembler()
    port.incoming += p.encode_command(p.THRESHOLDS, 1, args=(0x8100,))
    firmware.step()  # the first scan is a keyframe
    levels[3] = 0x8000 + 60  # inside the dead-band: not sent
    levels[5] = 0x8000 + 500  # past it: the smoothed reading moves by 125
    levels[7] = 0x8000 + 0x108  # under the dead-band but across the 0x8100 threshold
    firmware.step()
    frames = replies(port, decoder)
    (delta,) = [f for f in frames if isinstance(f, p.DeltaFrame)]
    assert [c for c, _ in delta.changes] == [5, 7]
    scans = scans_in(frames, assembler)
    assert scans[-1].readings[5] == rp2040_u16(0x8000 + 500)
    assert scans[-1].readings[3] == rp2040_u16(0x8000)  # the host's copy, within the band
    for c in range(16):  # everything moves: a keyframe is smaller than 16 changes
        levels[c] = 0x9000
    firmware.step()
    frames = replies(port, decoder)
    assert [f.kind for f in frames] == [p.KEY]
    assert scans_in(frames, assembler)[-1].readings == (rp2040_u16(0x9000),) * 16


def test_every_frame_fits_the_cdc_buffer_and_keyframes_come_in_parts() -> None:
    values = [0x8000 + 7 * c for c in range(256)]
    board, scanner = build(dict(fw_config.CONFIG), lambda c: values[c])
    port = BufferPort()
    firmware = Firmware(scanner, port, SystemClock(), rate=0, streaming=True, deadband=10)
    decoder, assembler = p.Decoder(), ScanAssembler()
    firmware.step()
    sizes = [len(f) + 1 for f in bytes(port.sent).split(b"\x00")[:-1]]
    frames = replies(port, decoder)
    assert [f.first for f in frames] == [0, 116, 232] and max(sizes) <= p.MAX_FRAME
    assert scans_in(frames, assembler)[0].readings == tuple(rp2040_u16(v) for v in values)
    for c in range(0, 256, 3):  # 86 changes: two DELTA frames, fewer bytes than a key
        values[c] += 500
    firmware.step()
    sizes = [len(f) + 1 for f in bytes(port.sent).split(b"\x00")[:-1]]
    frames = replies(port, decoder)
    assert [(f.kind, f.flags) for f in frames] == [(p.DELTA, 0), (p.DELTA, p.LAST)]
    assert max(sizes) <= p.MAX_FRAME
    assert scans_in(frames, assembler)[0].readings == tuple(rp2040_u16(v) for v in values)
    # Full-frame mode (calibration): every scan a keyframe.
    port.incoming += p.encode_command(p.MODE, 5, args=(p.MODE_FULL, 10, 2000))
    firmware.step()
    firmware.step()
    kinds = [f.kind for f in replies(port, decoder)]
    assert kinds == [p.ACK] + [p.KEY] * 6


def test_keyframes_come_on_request_and_on_schedule() -> None:
    _, scanner = build(dict(fw_config.CONFIG, muxes=1, channels=16))
    clock = SteppedClock()
    port = BufferPort()
    firmware = Firmware(scanner, port, clock, rate=100, streaming=True, keyframe_ms=100)
    decoder = p.Decoder()
    kinds = []
    for _ in range(40):  # 0.4 s at 100 scans/s: a keyframe at start and every 0.1 s
        clock.sleep_us(10_000)
        firmware.step()
        kinds += [f.kind for f in replies(port, decoder)]
    assert kinds.count(p.KEY) in (4, 5) and kinds[0] == p.KEY
    port.incoming += p.encode_command(p.KEYFRAME, 9)
    clock.sleep_us(10_000)
    firmware.step()
    assert [f.kind for f in replies(port, decoder)] == [p.ACK, p.KEY]


def test_layout_command_rescans_with_the_maps_channel_count() -> None:
    board, scanner = build(dict(fw_config.CONFIG))
    port = BufferPort()
    firmware = Firmware(scanner, port, SystemClock(), rate=0)
    decoder = p.Decoder()
    port.incoming += p.encode_command(p.LAYOUT, 1, args=(122, 8))
    port.incoming += p.encode_command(p.START, 2)
    firmware.step()
    ack, _, hello, *keys = replies(port, decoder)
    assert ack == p.AckFrame(0, p.LAYOUT, 1)
    assert (hello.channels, hello.muxes, hello.capacity) == (122, 8, 256)
    assert [k.channels for k in keys] == [122, 122]
    assert keys[0].readings + keys[1].readings == tuple(
        rp2040_u16(pattern_field(c)) for c in range(122)
    )
    port.incoming += p.encode_command(p.LAYOUT, 3, args=(300, 19))  # more than the wiring
    firmware.step()
    error = replies(port, decoder)[0]
    assert isinstance(error, p.ErrorFrame) and error.code == p.ERR_BAD_ARGUMENT
    assert firmware.scanner.channels == 122


def test_selftest_reports_every_channels_idle_reading_and_flags_the_bad_ones() -> None:
    rng = iter(range(10**9))
    low, high = fw_config.IDLE_WINDOW

    def field(c: int) -> int:
        noise = 16 * (next(rng) % 5)  # a live sensor: its reading wobbles
        if c == 2:
            return 0xFFFF  # shorted to 3V3
        if c == 4:
            return 0  # shorted to ground
        if c == 6:
            return 0x8000  # frozen: no noise at all
        if c == 9:
            return 0x8000 + 3000 + noise  # 150 mV off mid-scale: a magnet near
        if c == 11:
            return high + 60 + noise  # just past the window's top
        if c == 12:
            return low - 20 + noise  # inside: the window's bottom is within the wobble
        return 0x8000 + noise

    _, scanner = build(dict(fw_config.CONFIG, muxes=1, channels=16), field)
    port = BufferPort()
    firmware = Firmware(scanner, port, SystemClock(), rate=0, limits=fw_config.selftest_limits())
    decoder = p.Decoder()
    port.incoming += p.encode_command(p.SELFTEST, 7)
    firmware.step()
    ack, report = replies(port, decoder)
    assert ack == p.AckFrame(0, p.SELFTEST, 7)
    assert isinstance(report, p.SelfTestFrame) and report.command_seq == 7
    assert report.flags == p.LAST and report.channels == 16 and report.first == 0
    assert (report.low, report.high) == fw_config.IDLE_WINDOW
    assert {c: code for c, code in enumerate(report.codes) if code} == {
        2: p.FAULT_HIGH_RAIL,
        4: p.FAULT_LOW_RAIL,
        6: p.FAULT_NO_NOISE,
        9: p.FAULT_OFFSET,
        11: p.FAULT_OFFSET,
    }
    assert report.failed == 5
    # Every channel's mean idle reading travels, the good ones' too (the ADC keeps 12 bits).
    assert abs(report.readings[0] - (0x8000 + 32)) <= 16
    assert abs(report.readings[9] - (0x8000 + 3032)) <= 16
    assert report.readings[2] == 0xFFFF and report.readings[4] == 0

    # The host sends its board's window; the next test judges against that one.
    port.incoming += p.encode_command(p.IDLE_WINDOW, 8, args=(0x8000 - 100, 0x8000 + 100))
    port.incoming += p.encode_command(p.SELFTEST, 9)
    firmware.step()
    ack, second_ack, again = replies(port, decoder)
    assert ack == p.AckFrame(2, p.IDLE_WINDOW, 8) and second_ack.command == p.SELFTEST
    assert (again.low, again.high) == (0x8000 - 100, 0x8000 + 100)
    assert {c for c, code in enumerate(again.codes) if code} == {2, 4, 6, 9, 11, 12}
    port.incoming += p.encode_command(p.IDLE_WINDOW, 10, args=(500, 400))  # upside down
    firmware.step()
    (error,) = replies(port, decoder)
    assert isinstance(error, p.ErrorFrame) and error.code == p.ERR_BAD_ARGUMENT
    assert (firmware.idle_low, firmware.idle_high) == (0x8000 - 100, 0x8000 + 100)


def test_the_boot_test_runs_again_once_when_the_handshake_changes_layout_or_window() -> None:
    rng = iter(range(10**9))
    _, scanner = build(dict(fw_config.CONFIG), lambda c: 0x8000 + 16 * (next(rng) % 5))
    port = BufferPort()
    firmware = Firmware(
        scanner, port, SystemClock(), rate=0, limits=fw_config.selftest_limits(),
        selftest_at_boot=True,
    )  # fmt: skip
    decoder = p.Decoder()
    firmware.boot()
    boot = [f for f in replies(port, decoder) if isinstance(f, p.SelfTestFrame)]
    assert [(f.channels, (f.low, f.high)) for f in boot] == [(256, fw_config.IDLE_WINDOW)] * 4
    window = (30911, 34625)
    handshake = (
        p.encode_command(p.IDLE_WINDOW, 1, args=window)
        + p.encode_command(p.LAYOUT, 2, args=(122, 8))
        + p.encode_command(p.START, 3)
    )
    port.incoming += handshake
    firmware.step()
    frames = replies(port, decoder)
    kinds = [f.kind for f in frames]
    # The ACKs, the test on the map's channels by the board's window, then HELLO.
    assert kinds[:6] == [p.ACK, p.ACK, p.ACK, p.SELFTEST_REPORT, p.SELFTEST_REPORT, p.HELLO]
    again = [f for f in frames if isinstance(f, p.SelfTestFrame)]
    assert {(f.channels, f.low, f.high, f.command_seq) for f in again} == {(122, *window, 0)}
    port.incoming += handshake  # a reconnect: nothing changed, nothing to test again
    firmware.step()
    assert not [f for f in replies(port, decoder) if isinstance(f, p.SelfTestFrame)]


def test_a_report_of_many_channels_comes_in_parts_under_the_cdc_buffer() -> None:
    rng = iter(range(10**9))
    _, scanner = build(dict(fw_config.CONFIG), lambda c: 0x8000 + 16 * (next(rng) % 5))
    port = BufferPort()
    firmware = Firmware(scanner, port, SystemClock(), rate=0, limits=fw_config.selftest_limits())
    decoder = p.Decoder()
    port.incoming += p.encode_command(p.SELFTEST, 3)
    firmware.step()
    raw = bytes(port.sent)
    assert max(len(f) + 1 for f in raw.split(b"\x00")) <= p.MAX_FRAME
    parts = replies(port, decoder)[1:]
    assert [f.first for f in parts] == [0, 76, 152, 228] and p.SELFTEST_PART == 76
    assert [f.flags for f in parts] == [0, 0, 0, p.LAST]
    assert sum(len(f.readings) for f in parts) == 256
    assert all(code == 0 for f in parts for code in f.codes)


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
    decoder, assembler = p.Decoder(), ScanAssembler()
    frames: list[p.Frame] = []

    def three_scans() -> bool:
        frames.extend(replies(port, decoder))
        return len(scans_in(frames, ScanAssembler())) >= 3

    firmware = pico_main.run(config, port, three_scans, clock=SystemClock())
    assert firmware is not None and machine.frequency == config["cpu_hz"]
    assert frames[0].kind == p.HELLO and frames[1].kind == p.SELFTEST_REPORT  # boot test
    assert frames[1].failed == 256  # stand-in sensors never wobble: "no noise" everywhere
    scans = scans_in(frames, assembler)
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
    decoder, assembler = p.Decoder(), ScanAssembler()
    firmware.boot()
    scans: list[p.ScanFrame] = []
    while len(scans) < 5:  # the device's ticks wrap at 2**30 after the first scan
        firmware.step()
        scans += scans_in(replies(port, decoder), assembler)
    gaps = [b.timestamp_us - a.timestamp_us for a, b in zip(scans, scans[1:], strict=False)]
    assert gaps == [10_000] * 4  # 100 scans/s on the device clock, exactly, across the wrap


def test_noise_stays_quiet_but_a_slow_creep_and_a_spike_get_through() -> None:
    import array
    import random

    from lawmaster.firmware.changes import Changes

    rng = random.Random(4)
    changes = Changes(64, deadband=48)
    readings = array.array("H", [0x8000] * 64)
    changes.find(readings)
    changes.take_all(readings)
    sent = 0
    for _ in range(500):  # 2.5 s at 200 scans/s of 24-count noise on every channel
        for c in range(64):
            readings[c] = 0x8000 + round(rng.gauss(0, 24))
        sent += changes.find(readings)
    assert sent < 64 * 500 / 1000  # under one channel in a thousand per scan
    # A magnet creeping 4 counts a scan over channel 7: sent every ~12 scans, lag-free.
    host = changes.sent[7]
    seen = []
    for step in range(1, 121):
        readings[7] = 0x8000 + 4 * step
        if changes.find(readings):
            seen.append(changes.sent[7])
        assert abs(readings[7] - changes.sent[7]) <= 4 * 48
    assert len(seen) >= 6 and seen[-1] > host + 400
    readings[9] = 0x8000 + 1000  # one scan's spike is sent as read, and so is its end
    assert changes.find(readings) and changes.sent[9] == 0x8000 + 1000
    readings[9] = 0x8000
    changes.find(readings)
    assert abs(changes.sent[9] - 0x8000) <= 4 * 48


def test_the_simulators_lane_change_finder_follows_the_per_channel_rule() -> None:
    import array
    import random

    from lawmaster.firmware import changes

    rng = random.Random(1)
    for _ in range(200):
        n = rng.randrange(1, 130)
        band = rng.choice([0, 10, 48, 96])
        values = [rng.randrange(65536) for _ in range(n)]
        state = [
            array.array("H", [rng.randrange(65536) for _ in range(n)]),
            array.array("I", [v << 2 for v in values]),
            array.array("H", [rng.randrange(65536) for _ in range(n)]),
        ]
        twin = [array.array(a.typecode, a) for a in state]
        levels = array.array("H", [rng.randrange(65536) for _ in range(4)])
        nlevels = rng.randrange(3)
        scan = array.array("H", [min(65535, max(0, v + rng.randrange(-300, 300))) for v in values])
        out, out_twin = bytearray(4 * n), bytearray(4 * n)
        k = changes._python_find(scan, *state, n, out, band, levels, nlevels)
        assert k == changes._lane_find(scan, *twin, n, out_twin, band, levels, nlevels)
        assert out[: 4 * k] == out_twin[: 4 * k] and state == twin
