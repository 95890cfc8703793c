"""What the long-running commands (``run``, ``hall``) share: they serve until told to stop."""

from __future__ import annotations

import signal
import threading


def serve_until_stopped() -> None:
    """Return on SIGTERM (systemd stopping the service) or Ctrl-C, whichever comes first;
    the caller then closes what it started."""
    stop = threading.Event()
    signal.signal(signal.SIGTERM, lambda *_: stop.set())
    try:
        while not stop.wait(0.5):
            pass
    except KeyboardInterrupt:
        pass
