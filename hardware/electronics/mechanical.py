"""The mechanical parts of each board, read from ``hardware/mechanical/parts.json``.

That file is generated from the mechanical design (``python -m
lawmaster.hardware.mechanical``, :mod:`lawmaster.hardware.mechanical.parts`): every
sheet, standoff, screw, keeper washer, magnet, lift and panel a table needs, with its
size, its quantity in its ``unit`` (``"pcs"`` or ``"m²"``) and its ``price``, a key of
``hardware/prices.json``. :meth:`MechPart.amount` turns a quantity into the unit its
price is quoted in:

* a part counted in ``m²`` is already an area (a price per m²);
* pieces priced per m² are cut from sheet: each takes its length × width, a disc
  (``size_mm`` = [diameter, thickness]) the square it is cut from;
* pieces priced per metre (strip, felt tape) take their length, the first of
  ``size_mm``;
* anything else (``each``, ``pack``) is counted.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

from lawmaster.hardware.mechanical.parts import FORMAT, VERSION

PARTS = Path(__file__).resolve().parents[1] / "mechanical" / "parts.json"
UNITS = ("pcs", "m²")


class BadPriceUnit(ValueError):
    """A part whose quantity cannot be put in its price's unit."""


@dataclass(frozen=True)
class MechPart:
    """One mechanical part of a board, as ``parts.json`` lists it."""

    id: str
    what: str
    material: str
    size_mm: tuple[float, ...]
    spec: str
    qty: float
    unit: str
    price: str
    supplier_part: str | None
    for_: str

    def blank_m2(self) -> float:
        """The sheet one piece is cut from (m²): length × width, a disc's square."""
        if len(self.size_mm) == 3:
            return self.size_mm[0] * self.size_mm[1] * 1e-6
        if len(self.size_mm) == 2:
            return self.size_mm[0] ** 2 * 1e-6
        raise BadPriceUnit(f"{self.id}: size_mm {list(self.size_mm)} gives no sheet area")

    def amount(self, price_unit: str) -> float:
        """The quantity in ``price_unit`` (a unit of ``prices.json``: each, m2, m, pack)."""
        if self.unit == "m²":
            if price_unit != "m2":
                unit = f"{self.price} per {price_unit}"
                raise BadPriceUnit(f"{self.id} is counted in m², its price {unit}")
            return self.qty
        if price_unit == "m2":
            return self.qty * self.blank_m2()
        if price_unit == "m":
            if not self.size_mm:
                raise BadPriceUnit(f"{self.id}: a price per metre needs the part's length")
            return self.qty * self.size_mm[0] / 1000
        return self.qty


def _part(board: str, entry: dict[str, Any]) -> MechPart:
    unit = entry["unit"]
    if unit not in UNITS:
        raise ValueError(f"{board} {entry['id']}: unit {unit!r} is not one of {UNITS}")
    if not entry.get("price"):
        raise ValueError(f"{board} {entry['id']}: no price key")
    return MechPart(
        id=entry["id"],
        what=entry["what"],
        material=entry["material"],
        size_mm=tuple(float(v) for v in entry["size_mm"]),
        spec=entry["spec"],
        qty=float(entry["qty"]),
        unit=unit,
        price=entry["price"],
        supplier_part=entry.get("supplier_part"),
        for_=entry["for"],
    )


@cache
def parts(board: str, path: Path = PARTS) -> tuple[MechPart, ...]:
    """Every mechanical part of one board."""
    data = json.loads(path.read_text("utf-8"))
    if data.get("format") != FORMAT or data.get("version") != VERSION:
        raise ValueError(
            f"{path.name}: not a {FORMAT} file of version {VERSION} (regenerate it with"
            " python -m lawmaster.hardware.mechanical)"
        )
    found = tuple(_part(board, entry) for entry in data["boards"][board])
    ids = [p.id for p in found]
    if len(set(ids)) != len(ids):
        raise ValueError(f"{board}: mechanical part ids repeat")
    return found
