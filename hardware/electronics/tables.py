"""Small helpers the generated documents share: ref ranges and pin descriptions."""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import Any


def _split(ref: str) -> tuple[str, int]:
    match = re.fullmatch(r"([A-Z]+)(\d+)", ref)
    if not match:
        return ref, -1
    return match.group(1), int(match.group(2))


def ranges(refs: Iterable[str]) -> str:
    """``["U1", "U2", "U3", "U21"]`` → ``"U1–U3, U21"``."""
    by_prefix: dict[str, list[int]] = {}
    odd: list[str] = []
    for ref in refs:
        prefix, number = _split(ref)
        if number < 0:
            odd.append(ref)
        else:
            by_prefix.setdefault(prefix, []).append(number)
    parts: list[str] = []
    for prefix, numbers in sorted(by_prefix.items()):
        numbers = sorted(set(numbers))
        start = prev = numbers[0]
        for n in numbers[1:] + [None]:  # type: ignore[list-item]
            if n is not None and n == prev + 1:
                prev = n
                continue
            parts.append(f"{prefix}{start}" if start == prev else f"{prefix}{start}–{prefix}{prev}")
            if n is not None:
                start = prev = n
    return ", ".join(parts + sorted(odd))


def pin_label(pin: Any) -> str:
    """``U1 S0 (10)``: a part's ref, the pin's name and its number."""
    name = pin.name
    return f"{pin.part.ref} {name} ({pin.num})" if name != pin.num else f"{pin.part.ref}.{pin.num}"


def others(pin: Any) -> list[Any]:
    """The other pins on a pin's net (none when it is unconnected or a no-connect)."""
    net = pin.net
    if net is None or net.name == "__NOCONNECT":
        return []
    # A net's pins come out in no fixed order; sort so a generated table never churns.
    return sorted((p for p in net.pins if p is not pin), key=_pin_order)


def _pin_order(pin: Any) -> tuple[str, int, int, str]:
    prefix, number = _split(pin.part.ref)
    num = int(pin.num) if pin.num.isdigit() else -1
    return prefix, number, num, pin.num


def grouped(pins: Iterable[Any]) -> str:
    """Pins described in groups: ``U1–U8 S0 (10)``, ``H0 OUT (2)``."""
    groups: dict[tuple[str, str, str], list[str]] = {}
    for pin in pins:
        prefix, _ = _split(pin.part.ref)
        groups.setdefault((prefix, pin.name, pin.num), []).append(pin.part.ref)
    out = []
    for (_, name, num), refs in sorted(groups.items(), key=lambda kv: _order(kv[1][0])):
        label = f"{name} ({num})" if name != num else f"pin {num}"
        out.append(f"{ranges(refs)} {label}")
    return ", ".join(out)


def _order(ref: str) -> tuple[str, int]:
    return _split(ref)
