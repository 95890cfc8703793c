"""The real Adafruit PN532 driver against the emulator on a pty."""

from __future__ import annotations

import pytest
import serial
from adafruit_pn532.uart import PN532_UART

from lawmaster.host.nfc import tagdata
from lawmaster.host.nfc.emulator import ACK, Ntag213, PN532Emulator
from lawmaster.host.nfc.tagdata import TagCardId
from lawmaster.host.nfc.transport import FramedSerial, abort_command


@pytest.fixture(params=["plain", "framed"])
def setup(request):
    port_class = serial.Serial if request.param == "plain" else FramedSerial
    with PN532Emulator() as emulator:
        port = port_class(emulator.port, 115200, timeout=0.05)
        try:
            yield emulator, PN532_UART(port)
        finally:
            port.close()


def test_nfc_driver_connects_and_reads_firmware(setup):
    emulator, pn532 = setup
    assert pn532.firmware_version == (0x32, 1, 6, 7)
    assert emulator.commands[0x14] >= 1  # the constructor's SAMConfiguration


def test_nfc_driver_reads_a_uid_and_none_without_a_card(setup):
    emulator, pn532 = setup
    assert pn532.read_passive_target(timeout=0.1) is None
    abort_command(pn532)  # else the chip answers the given-up wait when a tag comes
    tag = Ntag213(bytes.fromhex("04A1B2C3D4E5F6"))
    emulator.present(tag)
    assert bytes(pn532.read_passive_target(timeout=0.5)) == tag.uid
    emulator.remove()
    assert pn532.read_passive_target(timeout=0.1) is None
    abort_command(pn532)
    other = Ntag213(bytes.fromhex("04010203040506"))
    emulator.swap(other)
    assert bytes(pn532.read_passive_target(timeout=0.5)) == other.uid


def test_nfc_emulator_answers_a_given_up_wait_late_like_the_chip(setup):
    emulator, pn532 = setup
    assert pn532.read_passive_target(timeout=0.1) is None
    tag = Ntag213.random()
    emulator.present(tag)
    # No abort: the late answer to the old InListPassiveTarget is what comes next.
    assert bytes(pn532.get_passive_target(timeout=0.5)) == tag.uid


def test_nfc_driver_ntag_read_and_write_of_the_card_id(setup):
    emulator, pn532 = setup
    tag = Ntag213.random()
    emulator.present(tag)
    assert pn532.read_passive_target(timeout=0.5) is not None
    assert bytes(pn532.ntag2xx_read_block(0))[:3] == tag.uid[:3]
    assert bytes(pn532.ntag2xx_read_block(3)) == b"\xe1\x10\x12\x00"  # NDEF capability container
    assert pn532.ntag2xx_write_block(0, b"\x00\x00\x00\x00") is False  # UID page is read-only
    card = TagCardId("judge-dredd", "judge-death")
    assert tagdata.write_tag_id(pn532, card)
    assert tagdata.read_tag_id(pn532) == card
    assert tagdata.decode(bytes(tag.pages[16:160])) == card


def test_nfc_driver_exchange_fails_once_the_tag_left(setup):
    emulator, pn532 = setup
    emulator.present(Ntag213.random())
    assert pn532.read_passive_target(timeout=0.5) is not None
    emulator.remove()
    assert pn532.ntag2xx_read_block(4) is None
    assert pn532.ntag2xx_write_block(4, b"abcd") is False


@pytest.mark.parametrize("how", ["checksum", "length", "ack", "garbage", "truncate"])
def test_nfc_driver_raises_on_a_corrupt_frame_and_recovers(setup, how):
    emulator, pn532 = setup
    tag = Ntag213.random()
    emulator.present(tag)
    emulator.corrupt_next(1, how)
    with pytest.raises((RuntimeError, IndexError)):
        pn532.read_passive_target(timeout=0.3)
    assert bytes(pn532.read_passive_target(timeout=0.5)) == tag.uid


def test_nfc_driver_silent_chip_means_no_answer(setup):
    emulator, pn532 = setup
    emulator.silent = True
    assert pn532.listen_for_passive_target(timeout=0.1) is False
    emulator.silent = False
    assert pn532.firmware_version == (0x32, 1, 6, 7)


def test_nfc_framed_port_stops_at_the_end_of_a_frame():
    with PN532Emulator() as emulator, FramedSerial(emulator.port, 115200, timeout=0.5) as port:
        # GetFirmwareVersion: the reply is ACK + a 6-byte information frame.
        port.write(b"\x00\x00\xff\x02\xfe\xd4\x02\x2a\x00")
        assert port.read(100) == ACK
        reply = port.read(100)
        assert reply[:5] == b"\x00\x00\xff\x06\xfa" and reply[-1] == 0 and len(reply) == 13
        assert port.read(100) == b""  # nothing more: the timeout still bounds a read


def test_nfc_framed_port_refuses_no_timeout():
    with PN532Emulator() as emulator, pytest.raises(ValueError):
        FramedSerial(emulator.port, 115200, timeout=None)


def test_nfc_emulator_resends_its_last_reply_on_a_nack_and_models_wire_time():
    with PN532Emulator(baudrate=115200) as emulator:
        port = FramedSerial(emulator.port, 115200, timeout=0.5)
        try:
            pn532 = PN532_UART(port)
            assert pn532.firmware_version == (0x32, 1, 6, 7)
            port.write(b"\x00\x00\xff\xff\x00\x00")  # NACK: "say that again"
            reply = port.read(100)
            assert reply[5:7] == b"\xd5\x03" and reply[7:11] == b"\x32\x01\x06\x07"
        finally:
            port.close()
