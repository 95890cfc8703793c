"""The mechanical parts of each board, read from ``hardware/mechanical/parts.json``.

The file lists, per board, every sheet, frame strip, washer, magnet and fixing a
table needs, each with its price key in ``hardware/prices.json`` and how it is
measured for pricing: ``area`` (m² of ``size_mm`` × quantity), ``count`` or
``length`` (``length_m`` × quantity).
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

PARTS = Path(__file__).resolve().parents[1] / "mechanical" / "parts.json"
MEASURES = ("area", "count", "length")


@dataclass(frozen=True)
class MechPart:
    """One mechanical part of a board and how much of its priced unit a table takes."""

    id: str
    what: str
    price: str
    measure: str
    quantity: int
    size_mm: tuple[float, float] | None
    thickness_mm: float | None
    length_m: float | None
    stack_layer: int | None
    raw: dict[str, Any]

    @property
    def amount(self) -> float:
        """Quantity in the price's unit: m² for sheets, metres for lengths, else pieces."""
        if self.measure == "area":
            assert self.size_mm is not None
            return self.size_mm[0] * self.size_mm[1] * 1e-6 * self.quantity
        if self.measure == "length":
            assert self.length_m is not None
            return self.length_m * self.quantity
        return float(self.quantity)


def _part(board: str, entry: dict[str, Any]) -> MechPart:
    measure = entry["measure"]
    if measure not in MEASURES:
        raise ValueError(f"{board} {entry['id']}: measure {measure!r} is not one of {MEASURES}")
    size = entry.get("size_mm")
    if measure == "area" and size is None:
        raise ValueError(f"{board} {entry['id']}: a part priced by area needs size_mm")
    return MechPart(
        id=entry["id"],
        what=entry["what"],
        price=entry["price"],
        measure=measure,
        quantity=int(entry["quantity"]),
        size_mm=(float(size[0]), float(size[1])) if size else None,
        thickness_mm=entry.get("thickness_mm"),
        length_m=entry.get("length_m"),
        stack_layer=entry.get("stack_layer"),
        raw=entry,
    )


@cache
def parts(board: str, path: Path = PARTS) -> tuple[MechPart, ...]:
    """Every mechanical part of one board."""
    data = json.loads(path.read_text("utf-8"))
    found = tuple(_part(board, entry) for entry in data["boards"][board])
    ids = [p.id for p in found]
    if len(set(ids)) != len(ids):
        raise ValueError(f"{board}: mechanical part ids repeat")
    return found
