"""What the link tests share: a patient wait, for machines under load."""

from __future__ import annotations

import time
from collections.abc import Callable

WAIT = 30.0  # generous: the tests run on loaded 2-core machines


def wait_for(condition: Callable[[], object], timeout: float = WAIT) -> None:
    """Poll ``condition`` until it holds; fail the test after ``timeout`` seconds."""
    deadline = time.monotonic() + timeout
    while not condition():
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out waiting for {condition}")
        time.sleep(0.01)
