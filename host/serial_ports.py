"""Which device node is the Raspberry Pi's UART on this Pi, and stable names for USB serial.

A PN532 on the Pi's own UART (GPIO 14/15) is on the *primary* UART, and Pi
models name it differently. The Raspberry Pi documentation ("Configuring
UARTs", raspberrypi.com/documentation/computers/configuration.html) says:

* ``/dev/serial0`` is a symlink Raspberry Pi OS keeps pointing at the primary
  UART whatever the model, so it comes first;
* on models with Bluetooth (Pi 3, Pi 4, Pi 400, Zero W, Zero 2 W) the PL011
  (``ttyAMA0``) drives Bluetooth and the primary UART is the mini UART, ``ttyS0``;
* on models without Bluetooth (Pi 1, Pi 2, Zero) the primary UART is the PL011,
  ``ttyAMA0``;
* on a Pi 5 the UART on GPIO 14/15 is UART0 of the RP1 chip, ``ttyAMA0`` (its
  separate debug connector is ``ttyAMA10``).

Without a model (not a Pi) ``ttyS0`` is the answer, the first serial port of a PC.
"""

from __future__ import annotations

import os
from collections.abc import Callable

__all__ = ["pi_model", "primary_uart"]

MODEL_FILE = "/proc/device-tree/model"
SERIAL0 = "/dev/serial0"


def pi_model(path: str = MODEL_FILE) -> str:
    """The board's model string (``"Raspberry Pi 4 Model B Rev 1.4"``), or "" off a Pi."""
    try:
        with open(path, "rb") as handle:
            return handle.read().rstrip(b"\x00\n").decode("ascii", "replace")
    except OSError:
        return ""


def _uart_of_model(model: str) -> str:
    if "Raspberry Pi 5" in model or "Compute Module 5" in model:
        return "/dev/ttyAMA0"
    with_bluetooth = (
        "Raspberry Pi 3" in model
        or "Raspberry Pi 4" in model
        or "Raspberry Pi 400" in model
        or "Zero W" in model
        or "Zero 2" in model
    )
    if with_bluetooth:
        return "/dev/ttyS0"
    if "Raspberry Pi" in model:  # Pi 1, Pi 2, Zero: no Bluetooth on the PL011
        return "/dev/ttyAMA0"
    return "/dev/ttyS0"


def primary_uart(
    model: str | None = None, exists: Callable[[str], bool] = os.path.exists
) -> str:
    """The primary UART's device: ``/dev/serial0`` if it exists, else the model's own name."""
    if exists(SERIAL0):
        return SERIAL0
    return _uart_of_model(pi_model() if model is None else model)
