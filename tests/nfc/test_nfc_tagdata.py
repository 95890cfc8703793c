"""The card id in a tag's memory: NDEF Text record encoding."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from lawmaster.host.nfc.tagdata import TagCardId, decode, encode, ndef_length

ids = st.text(
    alphabet=st.characters(blacklist_categories=("Cs",), blacklist_characters=":"),
    min_size=1,
    max_size=30,
)


printable = st.text(min_size=1, max_size=40).filter(str.isprintable)


@settings(max_examples=200, deadline=None)
@given(game=ids.filter(str.isprintable), card=printable)
def test_nfc_tag_id_round_trips(game, card):
    tag_id = TagCardId(game, card)
    try:
        data = encode(tag_id)
    except ValueError:
        assert len(tag_id.text.encode()) > 130
        return
    assert len(data) % 4 == 0
    assert decode(data + b"\x00" * 16) == tag_id


def test_nfc_tag_id_is_a_plain_ndef_text_record():
    data = encode(TagCardId("judge-dredd", "judge-death"))
    assert data[0] == 0x03 and data[2] == 0xD1 and data[5:6] == b"T"
    assert b"lawmaster:judge-dredd:judge-death" in data
    assert ndef_length(data) == 2 + data[1]


@pytest.mark.parametrize(
    "memory",
    [
        b"\x00" * 16,  # blank sticker
        b"\xff" * 16,
        encode(TagCardId("x", "y")).replace(b"lawmaster", b"otherapp!"),  # someone else's text
        b"\x03\x0b\xd1\x01\x07U\x04example" + b"\xfe" + b"\x00" * 4,  # a URI record
        b"\x03\x30\xd1",  # cut short
    ],
)
def test_nfc_foreign_or_blank_memory_is_no_card(memory):
    assert decode(memory) is None


def test_nfc_too_long_an_id_is_refused():
    with pytest.raises(ValueError):
        encode(TagCardId("judge-dredd", "x" * 200))


def test_nfc_a_half_written_tag_reads_as_blank_not_as_a_card():
    data = encode(TagCardId("gw-brott", "safecracker"))
    half = data[:8] + b"\x00" * (len(data) - 8)
    assert decode(half + b"\x00" * 16) is None
