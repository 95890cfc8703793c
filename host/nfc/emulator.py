"""A PN532 NFC reader emulated on a pseudo-terminal, for the tests and the simulator.

The emulator sits on the master side of a pty and speaks the PN532's real UART
frame protocol to whatever opens the slave side, normally the Adafruit driver
over pyserial::

    host → PN532   (55 55 00…00 wake-up)  00 00 FF LEN LCS D4 CMD params… DCS 00
    PN532 → host   00 00 FF 00 FF 00  (ACK)  then  00 00 FF LEN LCS D5 CMD+1 data… DCS 00

It answers GetFirmwareVersion, SAMConfiguration, InListPassiveTarget and
InDataExchange carrying NTAG READ (``0x30``, four pages) and WRITE (``0xA2``,
one page) against an NTAG213 memory model. Like the chip, an
InListPassiveTarget with no tag in the field is only acknowledged and answered
later, when a tag arrives, unless the host gives up and sends another command.

Tests drive the "physical" side: :meth:`PN532Emulator.present`,
:meth:`~PN532Emulator.remove`, :meth:`~PN532Emulator.swap`, going silent,
corrupting frames, and unplugging the reader (:meth:`~PN532Emulator.unplug`,
:meth:`~PN532Emulator.plug`); give it a ``link`` path so that the port keeps its
name across a re-plug the way ``/dev/serial/by-id/…`` does.
"""

from __future__ import annotations

import contextlib
import os
import random
import select
import threading
import time
import tty
from dataclasses import dataclass, field

ACK = b"\x00\x00\xff\x00\xff\x00"
NACK = b"\x00\x00\xff\xff\x00\x00"
#: The chip's answer to a frame it cannot parse as a command ("syntax error").
ERROR_FRAME = b"\x00\x00\xff\x01\xff\x7f\x81\x00"

CMD_GET_FIRMWARE_VERSION = 0x02
CMD_SAM_CONFIGURATION = 0x14
CMD_POWER_DOWN = 0x16
CMD_IN_DATA_EXCHANGE = 0x40
CMD_IN_LIST_PASSIVE_TARGET = 0x4A
CMD_IN_RELEASE = 0x52

NTAG_READ = 0x30
NTAG_WRITE = 0xA2

#: InDataExchange status bytes: no answer from the target; the target refused.
STATUS_TIMEOUT = 0x01
STATUS_REFUSED = 0x14

#: IC, version, revision, supported protocols: what a PN532 v1.6 reports.
FIRMWARE = bytes([0x32, 0x01, 0x06, 0x07])

NTAG213_PAGES = 45
#: Pages the host may write on an NTAG213: user memory (4-39).
NTAG213_USER_PAGES = range(4, 40)


def _frame(data: bytes) -> bytes:
    """``data`` (starting with TFI) wrapped in a normal information frame."""
    length = len(data)
    return (
        b"\x00\x00\xff"
        + bytes([length, (-length) & 0xFF])
        + data
        + bytes([(-sum(data)) & 0xFF, 0x00])
    )


@dataclass
class Ntag213:
    """An NTAG213 sticker: a 7-byte UID and 45 pages of 4 bytes.

    Pages 0-2 hold the UID and its check bytes, page 3 the capability container
    (NDEF, 144 bytes of data area), pages 4-39 user memory, 40-44 configuration.
    """

    uid: bytes
    pages: bytearray = field(default_factory=bytearray)

    def __post_init__(self) -> None:
        if len(self.uid) != 7:
            raise ValueError("an NTAG213 UID is 7 bytes")
        if not self.pages:
            self.pages = bytearray(NTAG213_PAGES * 4)
            u = self.uid
            bcc0 = 0x88 ^ u[0] ^ u[1] ^ u[2]
            bcc1 = u[3] ^ u[4] ^ u[5] ^ u[6]
            self.pages[0:12] = bytes([u[0], u[1], u[2], bcc0, *u[3:7], bcc1, 0x48, 0, 0])
            self.pages[12:16] = b"\xe1\x10\x12\x00"
            self.pages[164:180] = (
                b"\x04\x00\x00\xff\x00\x05\x00\x00\xff\xff\xff\xff\x00\x00\x00\x00"
            )

    @classmethod
    def random(cls, rng: random.Random | None = None) -> Ntag213:
        """A blank sticker with a random NXP UID (first byte 0x04, the NXP maker code)."""
        rng = rng or random.Random()
        return cls(bytes([0x04, *(rng.randrange(256) for _ in range(6))]))

    @property
    def uid_hex(self) -> str:
        """The UID as upper-case hex, the form the registry stores."""
        return self.uid.hex().upper()

    def read(self, page: int) -> bytes:
        """NTAG READ: 16 bytes from ``page`` on, rolling over past the last page."""
        return bytes(
            self.pages[((page + i) % NTAG213_PAGES) * 4 + j] for i in range(4) for j in range(4)
        )

    def write(self, page: int, data: bytes) -> bool:
        """NTAG WRITE of one page; only user memory is writable here."""
        if page not in NTAG213_USER_PAGES or len(data) != 4:
            return False
        self.pages[page * 4 : page * 4 + 4] = data
        return True


class PN532Emulator:
    """A PN532 on a pty; the driver opens :attr:`port`.

    Use as a context manager, or call :meth:`start` and :meth:`close`.
    """

    def __init__(self, link: str | None = None, baudrate: int | None = None) -> None:
        """``link``: a stable path to the pty; ``baudrate``: if given, each reply is
        held back for its time on a UART wire (10 bits a byte), as a real chip's is."""
        self._link = link
        self._byte_time = 0.0 if baudrate is None else 10 / baudrate
        self._lock = threading.Lock()
        self._tag: Ntag213 | None = None
        self._selected: Ntag213 | None = None
        self._pending_list = False
        self._silent = False
        self._corrupt: list[str] = []
        self._last_reply = b""
        self._master = -1
        self._slave = -1
        self._slave_path = ""
        self._thread: threading.Thread | None = None
        self._stop = threading.Event()
        self._wake_r, self._wake_w = os.pipe()
        #: Commands received, by command code; tests read it.
        self.commands: dict[int, int] = {}

    # -- lifecycle -------------------------------------------------------

    def __enter__(self) -> PN532Emulator:
        self.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    @property
    def port(self) -> str:
        """The path the driver opens: the link if one was given, else the pty slave."""
        return self._link or self._slave_path

    @property
    def plugged(self) -> bool:
        """Whether the reader is plugged in (its pty exists)."""
        return self._thread is not None

    def start(self) -> None:
        """Plug the reader in: open a fresh pty and begin answering."""
        if self._thread is not None:
            return
        self._master, self._slave = os.openpty()
        tty.setraw(self._master)
        tty.setraw(self._slave)
        self._slave_path = os.ttyname(self._slave)
        if self._link:
            with contextlib.suppress(FileNotFoundError):
                os.unlink(self._link)
            os.symlink(self._slave_path, self._link)
        with self._lock:
            self._pending_list = False
            self._selected = None
        self._stop.clear()
        self._thread = threading.Thread(target=self._serve, name="pn532-emulator", daemon=True)
        self._thread.start()

    def unplug(self) -> None:
        """Pull the reader out: the pty disappears, so the driver's port fails."""
        if self._thread is None:
            return
        self._stop.set()
        self._wake()
        self._thread.join()
        self._thread = None
        if self._link:
            with contextlib.suppress(FileNotFoundError):
                os.unlink(self._link)
        os.close(self._master)
        os.close(self._slave)

    plug = start

    def close(self) -> None:
        """Stop for good."""
        self.unplug()
        for fd in (self._wake_r, self._wake_w):
            with contextlib.suppress(OSError):
                os.close(fd)
        self._wake_r = self._wake_w = -1

    # -- the physical side ----------------------------------------------

    @property
    def tag(self) -> Ntag213 | None:
        """The tag in the field, if any."""
        return self._tag

    def present(self, tag: Ntag213) -> None:
        """Put ``tag`` on the reader (replacing any tag already there)."""
        with self._lock:
            self._tag = tag
        self._wake()

    def remove(self) -> None:
        """Take the tag off the reader."""
        with self._lock:
            self._tag = None

    swap = present

    @property
    def silent(self) -> bool:
        """Whether the chip has stopped answering (powered off, wedged)."""
        return self._silent

    @silent.setter
    def silent(self, value: bool) -> None:
        self._silent = value

    def corrupt_next(self, count: int = 1, how: str = "checksum") -> None:
        """Spoil the next ``count`` replies.

        ``how``: ``"checksum"`` (bad DCS), ``"length"`` (bad LCS), ``"ack"`` (a
        mangled ACK), ``"garbage"`` (noise instead of the reply) or
        ``"truncate"`` (the reply cut in half).
        """
        if how not in ("checksum", "length", "ack", "garbage", "truncate"):
            raise ValueError(f"unknown corruption {how!r}")
        with self._lock:
            self._corrupt.extend([how] * count)

    # -- serving ---------------------------------------------------------

    def _wake(self) -> None:
        with contextlib.suppress(OSError):
            os.write(self._wake_w, b"!")

    def _serve(self) -> None:
        buffer = bytearray()
        while not self._stop.is_set():
            ready, _, _ = select.select([self._master, self._wake_r], [], [], 0.2)
            if self._wake_r in ready:
                os.read(self._wake_r, 64)
            if self._master in ready:
                try:
                    chunk = os.read(self._master, 4096)
                except OSError:
                    chunk = b""
                if not self._silent:
                    buffer.extend(chunk)
            if self._silent:
                buffer.clear()
                continue
            for reply in self._handle_frames(buffer):
                self._send(reply)
            self._answer_pending()

    def _send(self, reply: bytes) -> None:
        if self._byte_time and reply:
            time.sleep(len(reply) * self._byte_time)
        with contextlib.suppress(OSError):
            os.write(self._master, reply)

    def _answer_pending(self) -> None:
        with self._lock:
            if not self._pending_list or self._tag is None:
                return
            self._pending_list = False
            reply = self._spoil(b"", self._list_reply())
        self._send(reply)

    def _handle_frames(self, buffer: bytearray) -> list[bytes]:
        """Consume complete frames from ``buffer``; return what to send back."""
        replies = []
        while True:
            start = buffer.find(b"\x00\xff")
            if start < 0:
                # Wake-up bytes and noise: keep a trailing 0x00, it may begin a start code.
                del buffer[: max(0, len(buffer) - 1)]
                if buffer and buffer[0] != 0:
                    buffer.clear()
                return replies
            if len(buffer) < start + 4:
                return replies
            length, lcs = buffer[start + 2], buffer[start + 3]
            if length == 0x00 and lcs == 0xFF:
                # An ACK from the host aborts the command in progress.
                del buffer[: start + 4]
                with self._lock:
                    self._pending_list = False
                continue
            if length == 0xFF and lcs == 0x00:
                del buffer[: start + 4]
                replies.append(self._last_reply)
                continue
            if (length + lcs) & 0xFF:
                del buffer[: start + 2]
                continue
            end = start + 4 + length + 1
            if len(buffer) < end:
                return replies
            data = bytes(buffer[start + 4 : start + 4 + length])
            dcs = buffer[end - 1]
            del buffer[:end]
            if (sum(data) + dcs) & 0xFF or length < 2 or data[0] != 0xD4:
                continue  # a spoilt frame is dropped, as the chip does
            reply = self._command(data[1], data[2:])
            if reply is not None:
                replies.append(reply)

    def _command(self, command: int, params: bytes) -> bytes | None:
        self.commands[command] = self.commands.get(command, 0) + 1
        with self._lock:
            # A new command cancels a wait for a tag that the host gave up on.
            self._pending_list = False
            if command == CMD_GET_FIRMWARE_VERSION:
                body = _frame(bytes([0xD5, command + 1]) + FIRMWARE)
            elif command in (CMD_SAM_CONFIGURATION, CMD_POWER_DOWN, CMD_IN_RELEASE):
                extra = b"" if command == CMD_SAM_CONFIGURATION else b"\x00"
                body = _frame(bytes([0xD5, command + 1]) + extra)
            elif command == CMD_IN_LIST_PASSIVE_TARGET:
                if self._tag is None:
                    self._pending_list = True
                    return self._spoil(ACK, b"")
                body = self._list_reply()
            elif command == CMD_IN_DATA_EXCHANGE:
                body = _frame(bytes([0xD5, command + 1]) + self._exchange(params))
            else:
                body = ERROR_FRAME
            return self._spoil(ACK, body)

    def _list_reply(self) -> bytes:
        """The InListPassiveTarget answer for the tag in the field (lock held)."""
        tag = self._tag
        assert tag is not None
        self._selected = tag
        target = bytes([0x01, 0x00, 0x44, 0x00, len(tag.uid)]) + tag.uid
        return _frame(bytes([0xD5, CMD_IN_LIST_PASSIVE_TARGET + 1, 0x01]) + target)

    def _exchange(self, params: bytes) -> bytes:
        """InDataExchange with the selected tag (lock held): status byte + data."""
        tag = self._selected
        if tag is None or tag is not self._tag or len(params) < 3:
            return bytes([STATUS_TIMEOUT])
        op, page = params[1], params[2]
        if op == NTAG_READ:
            return b"\x00" + tag.read(page)
        if op == NTAG_WRITE and tag.write(page, params[3:]):
            return b"\x00"
        return bytes([STATUS_REFUSED])

    def _spoil(self, ack: bytes, body: bytes) -> bytes:
        """Apply a pending corruption to a reply (lock held)."""
        self._last_reply = body
        if not self._corrupt:
            return ack + body
        how = self._corrupt.pop(0)
        if how == "ack" and ack:
            return b"\x00\x00\xff\x00\x0f\x00" + body
        if how == "ack" or not body:
            # Nothing of that kind goes out now: spoil the next reply that has one.
            self._corrupt.insert(0, how)
            return ack + body
        spoilt = bytearray(body)
        if how == "checksum":
            spoilt[-2] ^= 0x5A
        elif how == "length":
            spoilt[4] ^= 0x11
        elif how == "garbage":
            spoilt = bytearray(random.Random(len(body)).randbytes(len(body)))
        elif how == "truncate":
            spoilt = spoilt[: len(spoilt) // 2]
        return ack + bytes(spoilt)
