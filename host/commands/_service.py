"""What the long-running commands (``run``, ``hall``) share: they serve until told to stop."""

from __future__ import annotations

import signal
import threading


def stop_on_sigterm() -> threading.Event:
    """An event SIGTERM (systemd stopping the service) sets. Call it before serving: a
    SIGTERM that came after the server was up but before the handler would otherwise
    kill the process without closing the journal and the devices."""
    stop = threading.Event()
    signal.signal(signal.SIGTERM, lambda *_: stop.set())
    return stop


def serve_until(stop: threading.Event) -> None:
    """Return once ``stop`` is set or on Ctrl-C, whichever comes first; the caller then
    closes what it started."""
    try:
        while not stop.wait(0.5):
            pass
    except KeyboardInterrupt:
        pass
