"""A udev rule that names one USB serial device for good: by serial number, or by port.

A device with a serial number of its own (the Pico: MicroPython reports the
flash chip's unique id; FTDI and CP210x adapters) is matched on it, so it keeps
its name in any USB socket. CH340-style adapters have no serial number: two of
them differ only by where they are plugged in, so they are matched on the USB
port path (``ID_PATH``): the name then belongs to the socket, and the reader
must stay in it. ::

    python -m lawmaster.host.udev /dev/ttyUSB0 lawmaster-nfc-table

prints the rule for the device now at ``/dev/ttyUSB0`` (from ``udevadm info``),
ready for ``/etc/udev/rules.d/99-lawmaster.rules``.
"""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Mapping

__all__ = ["parse_properties", "rule"]

_TAIL = 'GROUP="dialout", MODE="0660"'


def parse_properties(text: str) -> dict[str, str]:
    """``udevadm info --query=property`` output as a dict."""
    props = {}
    for line in text.splitlines():
        key, sep, value = line.partition("=")
        if sep:
            props[key.strip()] = value.strip()
    return props


def rule(props: Mapping[str, str], name: str) -> str:
    """The rule giving the device described by ``props`` the stable name ``/dev/<name>``."""
    vendor, product = props.get("ID_VENDOR_ID", ""), props.get("ID_MODEL_ID", "")
    if not vendor or not product:
        raise ValueError("not a USB device (no ID_VENDOR_ID / ID_MODEL_ID)")
    head = f'SUBSYSTEM=="tty", ATTRS{{idVendor}}=="{vendor}", ATTRS{{idProduct}}=="{product}"'
    serial = props.get("ID_SERIAL_SHORT", "")
    if serial:
        return f'{head}, ATTRS{{serial}}=="{serial}", SYMLINK+="{name}", {_TAIL}'
    path = props.get("ID_PATH", "")
    if not path:
        raise ValueError("the device has neither a serial number nor a USB port path")
    return f'{head}, ENV{{ID_PATH}}=="{path}", SYMLINK+="{name}", {_TAIL}'


def main(argv: list[str]) -> int:
    if len(argv) != 2:
        print("usage: python -m lawmaster.host.udev DEVICE NAME", file=sys.stderr)
        return 2
    device, name = argv
    out = subprocess.run(
        ["udevadm", "info", "--query=property", f"--name={device}"],
        capture_output=True,
        text=True,
        check=False,
    )
    if out.returncode:
        print(out.stderr.strip() or f"udevadm cannot see {device}", file=sys.stderr)
        return 1
    try:
        print(rule(parse_properties(out.stdout), name))
    except ValueError as exc:
        print(f"{device}: {exc}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
