"""The Pico's entry point: real pins, ADCs and USB serial into the firmware.

On the Pico the package lives in ``/firmware`` and ``/main.py`` (a copy of
``pico_boot.py``) calls :func:`run`. Under CPython this module imports without
``machine``: :func:`run` imports it when called, so the tests can hand it a
stand-in ``machine`` module and a port.
"""

import sys

from . import config as _config
from .app import Firmware
from .scanner import MuxScanner

try:  # type names for annotations only; MicroPython has no typing module
    from typing import TYPE_CHECKING
except ImportError:
    TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable


class UsbPort:
    """USB CDC serial through ``sys.stdin``/``sys.stdout``: polled reads, blocking writes.

    Neither allocates: ``read`` fills a buffer made here and hands back one of the views
    made here (slicing a memoryview allocates), so the scan loop may poll it with the
    heap locked (``Firmware(heap=...)``). A view is good until the next ``read``.
    """

    #: The most bytes one ``read`` takes: a command is at most a few dozen.
    CHUNK = 64

    def __init__(self, stdin: object, stdout: object, poll_target: object = None) -> None:
        import select

        self._in = stdin
        self._out = stdout
        self._poll = select.poll()
        # The text stream is the object MicroPython's USB stdio documents as pollable.
        self._poll.register(stdin if poll_target is None else poll_target, select.POLLIN)
        # ipoll makes the tuple it hands back (and reuses) on its first call: make it
        # now, so no poll the locked loop makes allocates.
        for _ in self._poll.ipoll(0):
            pass
        view = memoryview(bytearray(self.CHUNK))
        self._byte = [view[i : i + 1] for i in range(self.CHUNK)]  # where byte i goes
        self._first = [view[:n] for n in range(self.CHUNK + 1)]  # the first n bytes

    def write(self, data: bytes | bytearray | memoryview) -> None:
        self._out.write(data)

    def read(self) -> memoryview | None:
        # stdin.readinto(b) waits until b is full: take one byte per ready poll. ipoll
        # hands back the poll object itself, so no poll allocates (poll() makes a list).
        n = 0
        while n < self.CHUNK:
            ready = False
            for _ in self._poll.ipoll(0):
                ready = True
            if not ready:
                break
            self._in.readinto(self._byte[n])
            n += 1
        return self._first[n] if n else None


def build(machine: object, config: dict, clock: object) -> MuxScanner:
    """Pins, ADCs and the scanner for ``config``, from a ``machine`` module.

    On a Pico (its ``machine`` has ``mem32``) the scan runs on the registers
    (``firmware.rp2040.RegisterScan``); with a stand-in ``machine`` the pins' and ADCs'
    methods are called.
    """
    pin = machine.Pin
    select_pins = [pin(n, pin.OUT, value=0) for n in config["select_pins"]]
    bank_pins = [pin(n, pin.OUT, value=0) for n in config.get("bank_select_pins", [])]
    adcs = [machine.ADC(pin(n)) for n in config["adc_pins"]]
    settle_us = config.get("settle_us", 0)
    engine = None
    if hasattr(machine, "mem32"):
        from .rp2040 import RegisterScan

        gpios = list(config["select_pins"]) + list(config.get("bank_select_pins", []))
        engine = RegisterScan(gpios, list(config["adc_pins"]), settle_us, machine.freq())
    return MuxScanner(
        select_pins,
        adcs,
        bank_pins,
        config["muxes"],
        _config.channel_count(config),
        settle_us,
        clock,
        engine,
    )


def _busy_pin(machine: object, config: dict) -> object:
    number = config.get("busy_pin")
    if number is None:
        return None
    return machine.Pin(number, machine.Pin.OUT, value=0)


def run(
    config: dict | None = None,
    port: object = None,
    should_stop: "Callable[[], bool] | None" = None,
    clock: object = None,
) -> Firmware | None:
    """Start scanning (never returns on the Pico unless ``should_stop`` says so).

    A jumper from ``safe_mode_pin`` to GND at boot skips the scanner and leaves the
    REPL usable. Otherwise Ctrl-C is off from here on (``pico_boot.py`` turns it off
    even before the import): the host's commands may hold 0x03 bytes, and one arriving
    while the scanner starts would otherwise stop it for a REPL. ``port`` and ``clock``
    default to USB serial and the ``time`` module.
    """
    import time

    import machine
    import micropython

    config = config or _config.CONFIG
    safe = machine.Pin(config["safe_mode_pin"], machine.Pin.IN, machine.Pin.PULL_UP)
    if not safe.value():
        micropython.kbd_intr(3)
        print("lawmaster scanner: safe mode, not scanning")
        return None
    on_usb = port is None
    if on_usb:
        micropython.kbd_intr(-1)
    if config.get("cpu_hz"):
        machine.freq(config["cpu_hz"])
    clock = clock or time
    scanner = build(machine, config, clock)
    if on_usb:
        port = UsbPort(sys.stdin.buffer, sys.stdout.buffer, sys.stdin)
    firmware = Firmware(
        scanner,
        port,
        clock,
        config["rate"],
        config.get("stream_at_boot", False),
        config.get("deadband", 96),
        config.get("keyframe_ms", 2000),
        _config.selftest_limits(),
        config.get("selftest_at_boot", True),
        _busy_pin(machine, config),
        # On USB the loop runs with the heap locked (app.py says why); a
        # port handed in (a test's, a stand-in's) may allocate as it likes.
        micropython if on_usb else None,
    )
    try:
        firmware.run(should_stop)
    except Exception:
        if not on_usb:
            raise
        # Unattended: a traceback on the binary stream helps nobody. Reboot; the host
        # sees a boot HELLO (seq back to 0), counts a restart and starts us again.
        time.sleep_ms(100)
        machine.reset()
    return firmware
