"""A simulated scanner: the real firmware on a thread, talking through a pty.

``SimulatedPico`` builds stand-in multiplexers and ADCs
(:mod:`lawmaster.firmware.standin`) whose readings come from a caller's field
function, runs the unchanged firmware main loop (:class:`lawmaster.firmware.app.Firmware`)
on them, and connects it to the master side of a pty. The host opens ``.port``,
a stable symlink to the pty's slave side, exactly as it opens ``/dev/ttyACM0``
on a Pi. ``unplug()`` pulls the cable (the firmware stops, the pty goes away,
the path disappears); ``replug()`` powers it up again on a new pty behind the
same path, so a ``Link`` must reconnect by itself.
"""

from __future__ import annotations

import array
import contextlib
import errno
import logging
import os
import select
import shutil
import tempfile
import threading
import tty
from collections.abc import Callable, Sequence

from lawmaster.firmware import config as firmware_config
from lawmaster.firmware.app import Firmware
from lawmaster.firmware.scanner import MuxScanner
from lawmaster.firmware.standin import MuxBoard, SystemClock

log = logging.getLogger(__name__)

Field = Callable[[int], int]
"""``read(channel) -> u16`` sensor output; 0x8000 is no field (DRV5055 mid-scale)."""

FrameSource = Callable[[], Sequence[int]]
"""``frame() -> readings`` of every channel at once (index = channel)."""


def no_field(channel: int) -> int:
    """An empty board: every sensor at mid-scale."""
    return 0x8000


class PtyMasterPort:
    """The firmware's serial port on a pty master: non-blocking reads, bounded writes.

    A write that cannot go out within ``write_timeout`` (nobody reading the slave) is
    dropped, as the Pico's USB stack drops output with no host listening; a frame cut
    short that way reaches the host as one bad frame.
    """

    def __init__(
        self,
        fd: int,
        stop: threading.Event,
        write_timeout: float = 0.5,
        first_read: threading.Event | None = None,
    ) -> None:
        self.fd = fd
        self._stop = stop
        self.write_timeout = write_timeout
        self.bytes_dropped = 0
        #: Set when the firmware first reads: it has booted and looks for commands.
        self.first_read = first_read or threading.Event()

    def write(self, data: bytes | bytearray) -> None:
        view = memoryview(data)
        while len(view):
            try:
                view = view[os.write(self.fd, view) :]
                continue
            except BlockingIOError:
                pass
            except OSError:
                self.bytes_dropped += len(view)
                return
            _, writable, _ = select.select([], [self.fd], [], self.write_timeout)
            if not writable or self._stop.is_set():
                self.bytes_dropped += len(view)
                return

    def read(self) -> bytes | None:
        self.first_read.set()
        try:
            return os.read(self.fd, 4096)
        except (BlockingIOError, InterruptedError):
            return None
        except OSError as exc:
            if exc.errno == errno.EIO:  # slave side not open: nothing to read
                return None
            raise


class _SnapshotScanner(MuxScanner):
    """The firmware's scanner, taking one snapshot of a frame source before each scan.

    A model that computes the whole board at once (``PhysicalBoard.frame``) is then
    evaluated once per scan instead of once per channel.
    """

    def __init__(self, frame: FrameSource, *args: object) -> None:
        super().__init__(*args)
        self.frame = frame
        self.snapshot: Sequence[int] = ()

    def read(self, channel: int) -> int:
        snapshot = self.snapshot
        return snapshot[channel] if channel < len(snapshot) else 0x8000

    def scan_into(self, buffer: array.array) -> array.array:
        self.snapshot = self.frame()
        return super().scan_into(buffer)


class SimulatedPico:
    """The scanner firmware on simulated hardware, reachable at ``.port``.

    ``field(channel) -> u16`` supplies each sensor's output (default: no magnets);
    or ``frame() -> readings`` gives all channels at once and is called once per scan
    (faster for a model that computes the whole board, e.g. ``PhysicalBoard.frame``).
    ``config`` overrides keys of :data:`lawmaster.firmware.config.CONFIG`
    (``channels``, ``muxes``, layout pins, ``rate``); ``channels`` alone is a shortcut
    that also sets ``muxes``. ``realtime=False`` runs the firmware at rate 0: scans
    as fast as the host reads them (for benchmarks). ``directory`` holds the port
    symlink (default: a fresh temporary directory, removed by ``stop()``). The
    firmware boots at once unless ``autostart=False`` (then call ``start()``).
    """

    def __init__(
        self,
        field: Field | None = None,
        *,
        frame: FrameSource | None = None,
        channels: int | None = None,
        config: dict | None = None,
        realtime: bool = True,
        stream_at_boot: bool = False,
        directory: str | None = None,
        name: str = "scanner",
        autostart: bool = True,
    ) -> None:
        self.config = dict(firmware_config.CONFIG)
        if channels is not None:
            self.config["channels"] = channels
            self.config["muxes"] = (channels + 15) // 16
        self.config.update(config or {})
        if not realtime:
            self.config["rate"] = 0
        self.config["stream_at_boot"] = stream_at_boot
        self.channels = firmware_config.channel_count(self.config)
        if field is not None and frame is not None:
            raise ValueError("give field or frame, not both")
        self._field = field or no_field
        self._frame = frame
        self._own_dir = directory is None
        self._dir = directory or tempfile.mkdtemp(prefix="lawmaster-pico-")
        self.port = os.path.join(self._dir, name)
        self.board: MuxBoard | None = None
        self.firmware: Firmware | None = None
        #: Set once the current boot is over (its HELLO and self-test are written).
        self.booted = threading.Event()
        self.error: BaseException | None = None
        self.boots = 0
        self._fds: tuple[int, int] | None = None
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self._lock = threading.Lock()
        if autostart:
            self.start()

    # ------------------------------------------------------------ public API

    @property
    def field(self) -> Field:
        """The function the sensors read; assign to change the board's magnets."""
        return self._field

    @field.setter
    def field(self, field: Field) -> None:
        if self._frame is not None:
            raise ValueError("this SimulatedPico reads a frame source, not a field")
        self._field = field
        if self.board is not None:
            self.board.field = field

    @property
    def plugged(self) -> bool:
        """True while the simulated USB cable is in."""
        return self._fds is not None

    @property
    def device(self) -> str | None:
        """The pty slave behind ``.port`` right now (changes on every replug)."""
        return os.ttyname(self._fds[1]) if self._fds is not None else None

    @property
    def scans(self) -> int:
        """Scans sent by the current boot of the firmware."""
        return self.firmware.scans if self.firmware is not None else 0

    def start(self) -> SimulatedPico:
        """Plug in: create the pty, point ``.port`` at it, boot the firmware (idempotent)."""
        with self._lock:
            if self._fds is None:
                self._plug()
        return self

    def unplug(self) -> None:
        """Pull the cable: stop the firmware, close the pty, remove ``.port``."""
        with self._lock:
            self._unplug()

    def replug(self) -> None:
        """Plug back in: a fresh boot of the firmware on a new pty behind the same path."""
        self.start()

    def stop(self) -> None:
        """Unplug and clean up the temporary directory."""
        self.unplug()
        if self._own_dir:
            shutil.rmtree(self._dir, ignore_errors=True)

    def __enter__(self) -> SimulatedPico:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()

    # ------------------------------------------------------------ internals

    def _plug(self) -> None:
        master, slave = os.openpty()
        tty.setraw(slave)
        os.set_blocking(master, False)
        self._fds = (master, slave)
        # Atomic re-point: a reader never sees a half-made link.
        tmp = f"{self.port}.{os.getpid()}.tmp"
        with contextlib.suppress(FileNotFoundError):
            os.unlink(tmp)
        os.symlink(os.ttyname(slave), tmp)
        os.replace(tmp, self.port)
        config = self.config
        board = MuxBoard(config, self._field)
        scanner_args = (
            board.select_pins,
            board.adcs,
            board.bank_pins,
            config["muxes"],
            self.channels,
            0,  # stand-in multiplexers settle at once: no wait after a select change
            SystemClock(),
        )
        if self._frame is not None:
            scanner: MuxScanner = _SnapshotScanner(self._frame, *scanner_args)
            board.field = scanner.read
        else:
            scanner = MuxScanner(*scanner_args)
        self._stop = threading.Event()
        self.booted = threading.Event()
        port = PtyMasterPort(master, self._stop, first_read=self.booted)
        self.board = board
        self.firmware = Firmware(
            scanner,
            port,
            SystemClock(),
            config["rate"],
            config["stream_at_boot"],
            config["deadband"],
            config["keyframe_ms"],
            firmware_config.selftest_limits(),
            config["selftest_at_boot"],
        )
        self.boots += 1
        self._thread = threading.Thread(
            target=self._run, args=(self.firmware, self._stop), name="simulated pico", daemon=True
        )
        self._thread.start()

    def _run(self, firmware: Firmware, stop: threading.Event) -> None:
        try:
            firmware.run(stop.is_set)
        except BaseException as exc:  # surfaced to tests through .error
            self.error = exc
            log.exception("simulated firmware crashed")

    def _unplug(self) -> None:
        self._stop.set()
        if self._thread is not None:
            self._thread.join(5.0)
            self._thread = None
        with contextlib.suppress(FileNotFoundError):
            os.unlink(self.port)
        if self._fds is not None:
            for fd in self._fds:
                with contextlib.suppress(OSError):
                    os.close(fd)
            self._fds = None
