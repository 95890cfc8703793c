"""A background thread per PN532 that turns its polling into tap and removal events.

The thread owns the driver: nothing else talks to the chip. It waits for a tag
with InListPassiveTarget (the chip answers the moment a tag enters the field),
reports a tag once when it arrives and once when it leaves, and survives what
real readers do: a spoilt frame is counted and the next poll goes on; a reader
that stops answering or whose port disappears is reported offline and
reconnected until it answers again. Events go to ``on_event`` from the reader
thread, so the callback must be quick (``queue.Queue.put`` is ideal); the
referee is never blocked by the reader.
"""

from __future__ import annotations

import logging
import queue
import termios
import threading
import time
from collections.abc import Callable
from concurrent.futures import Future
from typing import Any, TypeVar

import serial
from adafruit_pn532.adafruit_pn532 import BusyError

from lawmaster.host.nfc import tagdata
from lawmaster.host.nfc.events import ReaderEvent, ReaderStatus, TagRemoved, TagTapped
from lawmaster.host.nfc.tagdata import TagCardId
from lawmaster.host.nfc.transport import OpenReader, ReaderConfig, abort_command, open_pn532

log = logging.getLogger(__name__)

T = TypeVar("T")

#: What a spoilt or cut-short reply (or a busy chip) makes the driver raise.
FRAME_ERRORS: tuple[type[BaseException], ...] = (RuntimeError, IndexError, TypeError, BusyError)
#: What a port that went away raises (SerialException is an OSError).
PORT_ERRORS: tuple[type[BaseException], ...] = (OSError, termios.error, serial.SerialException)
#: This many spoilt replies in a row and the reader is reconnected.
MAX_FRAME_ERRORS = 5
#: This many unacknowledged commands in a row and the reader counts as gone: one
#: can be a hiccup of a busy host, which must not flash "reader offline".
MAX_UNANSWERED = 2
#: What a poll returns when the chip did not acknowledge: no news either way.
_NO_ANSWER = b""


class ReaderOffline(RuntimeError):
    """The reader is not connected, so the job cannot run."""


class _Gone(Exception):
    """The chip stopped answering or its port failed."""


class TagReader:
    """Polls one PN532 in a background thread and reports :mod:`~lawmaster.host.nfc.events`.

    ``wants_tag_id(uid)`` says whether to read a freshly tapped tag's memory
    for its card id (asked only for tags the registry does not know, since the
    read costs time). ``opener`` connects to the chip (the tests and the
    simulator keep the default; it is a seam for other transports).
    """

    def __init__(
        self,
        config: ReaderConfig,
        on_event: Callable[[ReaderEvent], None],
        *,
        wants_tag_id: Callable[[str], bool] | None = None,
        opener: Callable[[ReaderConfig], OpenReader] = open_pn532,
        reconnect_interval: float = 0.2,
    ) -> None:
        self.config = config
        self._on_event = on_event
        self._wants_tag_id = wants_tag_id or (lambda uid: False)
        self._opener = opener
        self._reconnect_interval = reconnect_interval
        self._conn: OpenReader | None = None
        self._online: bool | None = None
        self._present: str | None = None
        self._misses = 0
        self._consecutive_errors = 0
        self._unanswered = 0
        self._jobs: queue.SimpleQueue[tuple[Callable[[Any], Any], Future[Any]]] = (
            queue.SimpleQueue()
        )
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        #: Spoilt replies survived, reconnections made, polls done: for the logs and tests.
        self.frame_errors = 0
        self.reconnects = 0
        self.polls = 0

    # -- lifecycle -------------------------------------------------------

    def __enter__(self) -> TagReader:
        self.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop()

    def start(self) -> None:
        """Start the reader thread."""
        if self._thread is not None:
            return
        self._stop.clear()
        self._thread = threading.Thread(
            target=self._run, name=f"nfc-{self.config.name}", daemon=True
        )
        self._thread.start()

    def stop(self) -> None:
        """Stop the thread and let go of the port."""
        self._stop.set()
        if self._thread is not None:
            self._thread.join(timeout=5 * self.config.poll_timeout + 2)
            self._thread = None

    @property
    def online(self) -> bool:
        """Whether the chip is connected and answering."""
        return bool(self._online)

    @property
    def present_uid(self) -> str | None:
        """The UID of the tag lying on the reader (once its tap has been delivered), if any."""
        return self._present

    # -- jobs on the reader thread --------------------------------------

    def submit(self, job: Callable[[Any], T]) -> Future[T]:
        """Run ``job(pn532)`` on the reader thread between two polls."""
        future: Future[T] = Future()
        self._jobs.put((job, future))
        return future

    def write_tag_id(self, uid: str, tag_id: TagCardId) -> Future[bool]:
        """Write ``tag_id`` into the memory of the tag ``uid``, which must still lie there.

        The future is ``True`` once written and read back; ``False`` if the tag
        refused or left.
        """

        def job(pn532: Any) -> bool:
            seen = pn532.read_passive_target(timeout=self.config.poll_timeout)
            if seen is None or bytes(seen).hex().upper() != uid:
                return False
            return tagdata.write_tag_id(pn532, tag_id)

        return self.submit(job)

    # -- the thread ------------------------------------------------------

    def _run(self) -> None:
        try:
            while not self._stop.is_set():
                if self._conn is None and not self._connect():
                    self._fail_jobs()
                    self._stop.wait(self._reconnect_interval)
                    continue
                self._poll_once()
        finally:
            self._disconnect(None)
            self._fail_jobs()

    def _poll_once(self) -> None:
        try:
            self._run_jobs()
            uid = self._poll()
        except _Gone as exc:
            self._disconnect(str(exc))
            return
        except FRAME_ERRORS as exc:
            self.frame_errors += 1
            self._consecutive_errors += 1
            log.info("reader %s: spoilt reply (%s)", self.config.name, exc)
            if self._consecutive_errors >= MAX_FRAME_ERRORS:
                self._disconnect(f"{MAX_FRAME_ERRORS} spoilt replies in a row")
            return
        except Exception as exc:  # whatever else: start afresh rather than end the thread
            log.exception("reader %s: unexpected failure", self.config.name)
            self._disconnect(f"unexpected failure: {exc!r}")
            return
        self._consecutive_errors = 0
        if uid is not _NO_ANSWER:
            self._track(uid)

    def _connect(self) -> bool:
        try:
            self._conn = self._opener(self.config)
        except Exception as exc:  # any failure to open is "offline"; we retry
            self._set_online(False, f"cannot connect: {exc}")
            return False
        self._consecutive_errors = 0
        self._unanswered = 0
        if self._online is False:
            self.reconnects += 1
        self._set_online(True, "connected")
        return True

    def _disconnect(self, reason: str | None) -> None:
        if self._conn is not None:
            try:
                self._conn.close()
            except Exception:  # the port may already be gone; closing is best effort
                log.debug("reader %s: close failed", self.config.name, exc_info=True)
            self._conn = None
        if reason is not None:
            self._set_online(False, reason)

    def _set_online(self, online: bool, detail: str) -> None:
        if self._online == online:
            return
        self._online = online
        level = logging.INFO if online else logging.WARNING
        log.log(
            level, "reader %s %s: %s", self.config.name, "online" if online else "offline", detail
        )
        self._emit(
            ReaderStatus(self.config.name, self.config.seat, online, detail, time.monotonic())
        )

    def _poll(self) -> bytes | None:
        """One wait for a tag: its UID, ``None`` when the field stayed empty, or
        ``_NO_ANSWER`` when the chip did not acknowledge (once; twice is ``_Gone``)."""
        assert self._conn is not None
        pn532 = self._conn.pn532
        self.polls += 1
        try:
            if not pn532.listen_for_passive_target(timeout=self.config.ack_timeout):
                self._unanswered += 1
                if self._unanswered >= MAX_UNANSWERED:
                    raise _Gone("the reader stopped answering")
                return _NO_ANSWER
            self._unanswered = 0
            uid = pn532.get_passive_target(timeout=self.config.poll_timeout)
            if uid is None:
                abort_command(pn532)
        except PORT_ERRORS as exc:
            raise _Gone(f"port failed: {exc}") from exc
        return None if uid is None else bytes(uid)

    def _track(self, uid: bytes | None) -> None:
        """Turn one poll's result into at most a removal and a tap."""
        now = time.monotonic()
        if uid is None:
            if self._present is not None:
                self._misses += 1
                if self._misses >= self.config.removal_misses:
                    gone, self._present = self._present, None
                    self._emit(TagRemoved(self.config.name, self.config.seat, gone, now))
            return
        self._misses = 0
        uid_hex = uid.hex().upper()
        if uid_hex == self._present:
            return  # still lying there: reported already
        if self._present is not None:
            self._emit(TagRemoved(self.config.name, self.config.seat, self._present, now))
        tag_id = self._read_tag_id() if self._wants_tag_id(uid_hex) else None
        self._emit(TagTapped(self.config.name, self.config.seat, uid_hex, now, tag_id))
        # Set only now, so whoever waits on present_uid knows the tap was delivered.
        self._present = uid_hex

    def _read_tag_id(self) -> TagCardId | None:
        assert self._conn is not None
        try:
            return tagdata.read_tag_id(self._conn.pn532)
        except (*FRAME_ERRORS, *PORT_ERRORS) as exc:
            # The tap still counts; the next poll finds out whether the port is gone.
            log.info("reader %s: could not read tag memory (%s)", self.config.name, exc)
            return None

    def _run_jobs(self) -> None:
        while True:
            try:
                job, future = self._jobs.get_nowait()
            except queue.Empty:
                return
            if not future.set_running_or_notify_cancel():
                continue
            assert self._conn is not None
            try:
                future.set_result(job(self._conn.pn532))
            except PORT_ERRORS as exc:
                future.set_exception(exc)
                raise _Gone(f"port failed: {exc}") from exc
            except Exception as exc:  # the job's failure belongs to its caller
                future.set_exception(exc)

    def _fail_jobs(self) -> None:
        while True:
            try:
                _, future = self._jobs.get_nowait()
            except queue.Empty:
                return
            if future.set_running_or_notify_cancel():
                future.set_exception(ReaderOffline(f"reader {self.config.name} is offline"))

    def _emit(self, event: ReaderEvent) -> None:
        try:
            self._on_event(event)
        except Exception:  # a broken consumer must not kill the reader
            log.exception("reader %s: event callback failed", self.config.name)
