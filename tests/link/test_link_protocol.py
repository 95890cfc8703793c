"""The wire protocol: CRC, COBS, frame round trips and the streaming decoder's rejections."""

from __future__ import annotations

import array
import binascii

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from lawmaster.firmware import protocol as p

FAST = settings(max_examples=150, deadline=None)


def scan_bytes(seq: int = 1, readings: list[int] | None = None) -> bytes:
    readings = readings if readings is not None else [0x8008 + i for i in range(16)]
    return bytes(p.encode_scan(seq, 1000 * seq, 400, array.array("H", readings)))


def test_crc_check_value_is_ccitt_false() -> None:
    assert p.crc16_table(b"123456789") == 0x29B1
    assert p.crc16(b"123456789") == 0x29B1


@FAST
@given(st.binary(max_size=600), st.integers(0, 0xFFFF))
def test_table_crc_matches_binascii(data: bytes, init: int) -> None:
    assert p.crc16_table(data, init) == binascii.crc_hqx(data, init)


@FAST
@given(st.binary(max_size=1200))
def test_cobs_round_trip_removes_every_zero(data: bytes) -> None:
    encoded = bytes(p.cobs_encode(data))
    assert 0 not in encoded
    assert bytes(p.cobs_decode(encoded)) == data


@FAST
@given(
    st.integers(0, 0xFFFFFFFF),
    st.integers(0, 0xFFFFFFFF),
    st.lists(st.integers(0, 0xFFFF), max_size=p.MAX_CHANNELS),
)
def test_scan_round_trip(seq: int, timestamp: int, readings: list[int]) -> None:
    for encoded in (
        p.encode_scan(seq, timestamp, 70000, readings),
        p.encode_scan(seq, timestamp, 70000, array.array("H", readings)),
    ):
        assert encoded[-1] == 0 and 0 not in encoded[:-1]
        frame = p.decode_frame(encoded[:-1])
        assert frame == p.ScanFrame(seq, timestamp, 0xFFFF, tuple(readings))


def test_every_frame_type_round_trips() -> None:
    cases = [
        (p.encode_hello(3, 256, 200, True), p.HelloFrame(3, p.VERSION, 256, 200, True)),
        (p.encode_pong(4, 9, 123), p.PongFrame(4, 9, 123)),
        (p.encode_ack(5, p.RATE, 7), p.AckFrame(5, p.RATE, 7)),
        (p.encode_error(6, p.ERR_BAD_ARGUMENT, p.RATE, 8), p.ErrorFrame(6, 3, p.RATE, 8)),
        (p.encode_command(p.START, 1), p.CommandFrame(p.START, 1)),
        (p.encode_command(p.STOP, 2), p.CommandFrame(p.STOP, 2)),
        (p.encode_command(p.RATE, 3, 150), p.CommandFrame(p.RATE, 3, 150)),
        (p.encode_command(p.PING, 4), p.CommandFrame(p.PING, 4)),
    ]
    decoder = p.Decoder()
    stream = b"".join(bytes(encoded) for encoded, _ in cases)
    assert decoder.feed(stream) == [frame for _, frame in cases]
    assert decoder.bad == 0


def test_decoder_resyncs_after_garbage_between_frames() -> None:
    decoder = p.Decoder()
    first, second = scan_bytes(1), scan_bytes(2)
    # Garbage glued to the front of a frame spoils that frame only; a run of garbage that
    # ends in a 0x00 is one bad frame; the frames after each are clean.
    stream = first + b"\x13\x37junk" + first + b"\xff" * 40 + b"\x00" + second + first
    frames = decoder.feed(stream)
    assert [f.seq for f in frames] == [1, 2, 1]
    assert decoder.bad == 2


@FAST
@given(st.lists(st.binary(min_size=1, max_size=80), min_size=1, max_size=5), st.data())
def test_frames_after_any_garbage_and_a_delimiter_all_decode(
    garbage: list[bytes], data: st.DataObject
) -> None:
    decoder = p.Decoder()
    seqs = list(range(1, 6))
    frames = b"".join(scan_bytes(s) for s in seqs)
    chunk = data.draw(st.integers(1, 64))
    stream = b"\x00".join(garbage) + b"\x00" + frames
    got = []
    for i in range(0, len(stream), chunk):  # arbitrary read boundaries
        got += decoder.feed(stream[i : i + chunk])
    assert [f.seq for f in got if isinstance(f, p.ScanFrame)][-5:] == seqs
    garbage_chunks = b"\x00".join(garbage).count(0) + 1
    assert decoder.bad <= garbage_chunks


def test_every_single_bit_flip_is_rejected() -> None:
    good = bytes(p.encode_pong(7, 1234, 0xDEADBEEF))
    for position in range(len(good) - 1):
        for bit in range(8):
            damaged = bytearray(good)
            damaged[position] ^= 1 << bit
            decoder = p.Decoder()
            assert decoder.feed(bytes(damaged)) == [], (position, bit)
            assert decoder.bad >= 1 or damaged[position] == 0 and decoder.bad == 0


def test_crc_mismatch_is_counted_as_crc() -> None:
    body = bytearray(b"\x03" + (7).to_bytes(4, "little") + bytes(8))
    body += (p.crc16(body) ^ 1).to_bytes(2, "little")
    decoder = p.Decoder()
    assert decoder.feed(bytes(p.cobs_encode(body)) + b"\x00") == []
    assert decoder.bad_crc == 1


def test_truncated_frame_is_rejected_and_the_next_one_decodes() -> None:
    decoder = p.Decoder()
    frame = scan_bytes(1)
    frames = decoder.feed(frame[: len(frame) // 2] + b"\x00" + scan_bytes(2))
    assert [f.seq for f in frames] == [2]
    assert decoder.bad == 1


def test_oversized_run_is_counted_once_and_skipped() -> None:
    decoder = p.Decoder()
    assert decoder.feed(b"\x07" * (p.MAX_ENCODED + 10)) == []
    assert decoder.feed(b"\x07" * 5000) == []
    frames = decoder.feed(b"\x07\x00" + scan_bytes(3))
    assert [f.seq for f in frames] == [3]
    assert decoder.bad_length == 1


def test_scan_whose_count_disagrees_with_its_length_is_rejected() -> None:
    payload = (5).to_bytes(4, "little") + (1).to_bytes(2, "little") + (4).to_bytes(2, "little")
    payload += bytes(6)  # three readings, count says four
    decoder = p.Decoder()
    assert decoder.feed(bytes(p.encode_raw(p.SCAN, 1, payload))) == []
    assert decoder.bad_length == 1


def test_short_fixed_frames_and_unknown_types_are_rejected() -> None:
    decoder = p.Decoder()
    assert decoder.feed(bytes(p.encode_raw(p.PONG, 1, b"\x01\x02"))) == []
    assert decoder.feed(bytes(p.encode_raw(0x42, 2, b""))) == []
    assert decoder.feed(b"\x02\x01\x00") == []  # two bytes: shorter than any frame
    assert (decoder.bad_length, decoder.bad_type) == (2, 1)


def test_hello_from_a_future_version_still_reports_its_version() -> None:
    future = bytes(p.encode_raw(p.HELLO, 0, bytes([7]) + bytes(20)))
    (frame,) = p.Decoder().feed(future)
    assert isinstance(frame, p.HelloFrame) and frame.version == 7


def test_host_commands_reject_device_types() -> None:
    try:
        p.encode_command(p.SCAN, 1)
    except ValueError:
        return
    raise AssertionError("SCAN accepted as a host command")


def test_cobs_long_runs_and_malformed_blocks() -> None:
    for data in (b"\x01" * 600 + b"\x00" + b"\x02" * 254, b"\x03" * 254, b"\x00" * 300, b""):
        assert bytes(p.cobs_decode(p.cobs_encode(data))) == data
    for bad in (b"\x05ab", b"\x02a\x00", b"\xff" + b"a" * 10):
        with pytest.raises(ValueError):
            p.cobs_decode(bad)


@FAST
@given(st.binary(max_size=3000), st.integers(1, 500))
def test_decoder_never_raises_on_any_input(noise: bytes, chunk: int) -> None:
    decoder = p.Decoder()
    for i in range(0, len(noise), chunk):
        for frame in decoder.feed(noise[i : i + chunk]):
            assert isinstance(frame, p.Frame)
    # and it is still in step afterwards
    assert decoder.feed(b"\x00" + scan_bytes(9))[-1].seq == 9


# ---------------------------------------------------------------- protocol 2 frames


@FAST
@given(st.lists(st.integers(0, 0xFFFF), min_size=1, max_size=p.KEY_PART), st.data())
def test_key_and_delta_frames_round_trip_under_the_cdc_buffer(readings: list[int], data) -> None:
    writer = p.FrameWriter()
    a = array.array("H", readings)
    first = data.draw(st.integers(0, len(a) - 1))
    count = len(a) - first
    seq, t = data.draw(st.integers(0, p.SEQ_MASK)), data.draw(st.integers(0, p.SEQ_MASK))
    key = bytes(writer.key(seq, t, 77, p.LAST, a, first, count))
    assert len(key) <= p.MAX_FRAME and 0 not in key[:-1]
    assert p.decode_frame(key[:-1]) == p.KeyFrame(
        seq, t, 77, p.LAST, len(a), first, tuple(readings[first:])
    )
    changes = [(c, v) for c, v in enumerate(readings)][: p.DELTA_PART]
    packed = b"".join(c.to_bytes(2, "little") + v.to_bytes(2, "little") for c, v in changes)
    delta = bytes(writer.delta(seq, t, 5, 0, bytearray(packed), 0, len(changes)))
    assert len(delta) <= p.MAX_FRAME
    assert p.decode_frame(delta[:-1]) == p.DeltaFrame(seq, t, 5, 0, tuple(changes))


def test_selftest_reports_of_any_size_come_in_parts() -> None:
    readings = [0x8000 + 7 * c for c in range(200)]
    codes = [c % 5 for c in range(200)]
    encoded = p.encode_selftest(7, 3, (30000, 35000), readings, codes)
    frames = [p.decode_frame(f[:-1]) for f in encoded]
    assert [f.first for f in frames] == [0, p.SELFTEST_PART, 2 * p.SELFTEST_PART]
    assert [f.flags for f in frames] == [0, 0, p.LAST]
    assert [f.seq for f in frames] == [7, 8, 9]
    assert {(f.channels, f.failed, f.low, f.high, f.command_seq) for f in frames} == {
        (200, 160, 30000, 35000, 3)
    }
    assert [x for f in frames for x in f.readings] == readings
    assert [x for f in frames for x in f.codes] == codes
    encoded = p.encode_selftest(7, 3, (30000, 35000), [0xFFFF] * 1024, [255] * 1024)
    assert all(len(e) <= p.MAX_FRAME for e in encoded)  # the worst bytes for COBS
    (one,) = [p.decode_frame(f[:-1]) for f in p.encode_selftest(1, 0, (0, 1), [9], [0])]
    assert (one.failed, one.readings, one.codes, one.flags) == (0, (9,), (0,), p.LAST)


def test_commands_with_arguments_round_trip() -> None:
    for kind, args in (
        (p.MODE, (p.MODE_FULL, 96, 2000)),
        (p.LAYOUT, (122, 8)),
        (p.IDLE_WINDOW, (30901, 34635)),
        (p.THRESHOLDS, (0x7000, 0x9000)),
        (p.THRESHOLDS, ()),
    ):
        frame = p.decode_frame(p.encode_command(kind, 5, args=args)[:-1])
        assert (frame.kind, frame.seq, frame.args) == (kind, 5, args)
    with pytest.raises(ValueError):
        p.encode_command(p.THRESHOLDS, 1, args=(1, 2, 3, 4, 5))


def test_assembler_needs_a_whole_keyframe_and_unwraps_device_time() -> None:
    from lawmaster.host.link_scans import ScanAssembler

    assembler = ScanAssembler()
    first = p.KeyFrame(1, p.SEQ_MASK - 9, 0, 0, 4, 0, (1, 2))
    assert assembler.feed(p.DeltaFrame(0, 0, 0, p.LAST, ((0, 5),))) is None  # no key yet
    assert assembler.feed(first) is None
    # The second part is missing: the keyframe has a hole and gives nothing.
    assert assembler.feed(p.KeyFrame(3, p.SEQ_MASK - 9, 0, p.LAST, 4, 3, (4,))) is None
    assert not assembler.synced
    assert assembler.feed(first) is None
    scan = assembler.feed(p.KeyFrame(2, p.SEQ_MASK - 9, 0, p.LAST, 4, 2, (3, 4)))
    assert scan is not None and scan.readings == (1, 2, 3, 4) and scan.timestamp_us == 0
    scan = assembler.feed(p.DeltaFrame(4, 10, 0, p.LAST, ((3, 40),)))  # ticks wrapped
    assert scan.readings == (1, 2, 3, 40) and scan.timestamp_us == 20
    assembler.lose()
    assert assembler.feed(p.DeltaFrame(5, 20, 0, p.LAST, ())) is None
