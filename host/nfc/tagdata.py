"""The card id kept in a tag's own memory, so that a deck works on any table.

It is stored as a standard NDEF message in the NTAG's user memory (page 4 on):
one Text record reading ``lawmaster:<game>:<card id>``. A phone shows it as
plain text; the registry on another table can still tell which card it is.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

PREFIX = "lawmaster"
FIRST_USER_PAGE = 4
#: NTAG213 user memory: pages 4-39.
USER_BYTES = 144

_TLV_NULL, _TLV_LOCK, _TLV_MEMORY, _TLV_NDEF, _TLV_END = 0x00, 0x01, 0x02, 0x03, 0xFE


@dataclass(frozen=True)
class TagCardId:
    """What a tag's memory says it is: a game and a card id in that game."""

    game: str
    card_id: str

    @property
    def text(self) -> str:
        """The Text record's content."""
        return f"{PREFIX}:{self.game}:{self.card_id}"

    @classmethod
    def parse(cls, text: str) -> TagCardId | None:
        """The id in a Text record, or ``None`` if it is not one of ours."""
        parts = text.split(":", 2)
        if len(parts) != 3 or parts[0] != PREFIX or not parts[1] or not parts[2]:
            return None
        if not (parts[1].isprintable() and parts[2].isprintable()):
            return None  # a damaged or half-written tag
        return cls(parts[1], parts[2])


def encode(tag_id: TagCardId) -> bytes:
    """The bytes to write from page 4: NDEF TLV, one Text record, terminator; page-padded."""
    text = tag_id.text.encode("utf-8")
    payload = b"\x02en" + text  # status byte: UTF-8, 2-byte language code
    record = bytes([0xD1, 0x01, len(payload)]) + b"T" + payload  # MB ME SR, TNF well-known
    data = bytes([_TLV_NDEF, len(record)]) + record + bytes([_TLV_END])
    if len(data) > USER_BYTES:
        raise ValueError(f"card id too long for an NTAG213: {tag_id.text!r}")
    return data + b"\x00" * (-len(data) % 4)


def ndef_length(head: bytes) -> int | None:
    """How many bytes from page 4 hold the NDEF TLV, judged from its first bytes.

    ``None`` if the memory holds no NDEF message.
    """
    pos = 0
    while pos + 1 < len(head):
        kind = head[pos]
        if kind == _TLV_NULL:
            pos += 1
        elif kind in (_TLV_LOCK, _TLV_MEMORY):
            pos += 2 + head[pos + 1]
        elif kind == _TLV_NDEF:
            return pos + 2 + head[pos + 1]
        else:
            return None
    return None


def decode(memory: bytes) -> TagCardId | None:
    """The card id in user memory read from page 4, or ``None`` (blank, foreign, damaged)."""
    end = ndef_length(memory)
    if end is None or end > len(memory):
        return None
    pos = 0
    while memory[pos] != _TLV_NDEF:
        pos += 1 if memory[pos] == _TLV_NULL else 2 + memory[pos + 1]
    record = memory[pos + 2 : end]
    if len(record) < 4 or record[0] & 0x07 != 0x01 or not record[0] & 0x10:
        return None  # not a short well-known record
    type_length, payload_length = record[1], record[2]
    if record[3 : 3 + type_length] != b"T":
        return None
    payload = record[3 + type_length : 3 + type_length + payload_length]
    if len(payload) != payload_length or not payload:
        return None
    language_length = payload[0] & 0x3F
    try:
        text = payload[1 + language_length :].decode("utf-8")
    except UnicodeDecodeError:
        return None
    return TagCardId.parse(text)


def read_tag_id(pn532: Any) -> TagCardId | None:
    """Read the card id from the tag the PN532 has just selected (NTAG READ, 4 pages a time)."""
    memory = bytearray()
    block = pn532.mifare_classic_read_block(FIRST_USER_PAGE)
    if block is None:
        return None
    memory.extend(block)
    end = ndef_length(bytes(memory))
    if end is None or end > USER_BYTES:
        return None
    page = FIRST_USER_PAGE + 4
    while len(memory) < end:
        block = pn532.mifare_classic_read_block(page)
        if block is None:
            return None
        memory.extend(block)
        page += 4
    return decode(bytes(memory))


#: Page 4 holding an empty NDEF message: written first, so that a tag lifted
#: halfway through a write reads as blank rather than as a garbled card.
_EMPTY_FIRST_PAGE = bytes([_TLV_NDEF, 0x00, _TLV_END, 0x00])


def write_tag_id(pn532: Any, tag_id: TagCardId) -> bool:
    """Write the card id into the selected tag and read it back; ``True`` if it stuck.

    The first page (the NDEF header) goes last, after being emptied, so the
    id only becomes readable once all of it is on the tag.
    """
    data = encode(tag_id)
    pages = [data[i : i + 4] for i in range(0, len(data), 4)]
    order = [(0, _EMPTY_FIRST_PAGE), *list(enumerate(pages))[1:], (0, pages[0])]
    for index, page in order:
        if not pn532.ntag2xx_write_block(FIRST_USER_PAGE + index, page):
            return False
    return read_tag_id(pn532) == tag_id
