"""What the PCBs of a board cost at a hobby fab, from the fabs' published price models.

A board is a list of :class:`PcbSpec` (name, size, layers, how many one table
needs). Each fab in ``prices.json`` (``pcb_fabs``) has a model:

* ``per_area_copies``: ``usd_per_in2`` per square inch of the board, for ``copies``
  copies of it (OSH Park's 2-layer service: $5 per square inch for three).
* ``per_area_min``: ``usd_per_in2`` per square inch of everything ordered, each design
  in multiples of ``multiple``, at least ``min_in2`` square inches in all (OSH Park's
  medium run: $1 per square inch, multiples of 10, 100 square inches at least).
* ``flat_small``: ``usd`` for ``copies`` copies of any board no larger than
  ``max_w_mm`` × ``max_h_mm``; larger boards it does not price.

:func:`quote` prices the list at every fab that can make all of it and returns the
cheapest. The specs come from the boards' own generator (:func:`specs_for`:
``lawmaster.hardware.pcb.pcbs(board)``, the scanner board and every kind of sensor
piece with how many a table needs).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

from lawmaster.hardware.pcb import pcbs

from .prices import Fab, Prices

MM_PER_IN = 25.4


@dataclass(frozen=True)
class PcbSpec:
    """One PCB design and how many a table needs."""

    name: str
    width_mm: float
    height_mm: float
    layers: int
    quantity: int

    @property
    def area_in2(self) -> float:
        """Its area in square inches, as the fabs price it."""
        return self.width_mm * self.height_mm / MM_PER_IN**2

    @classmethod
    def of(cls, record: Any) -> PcbSpec:
        """A spec from any record with the same fields (the boards generator's)."""
        return cls(
            str(record.name),
            float(record.width_mm),
            float(record.height_mm),
            int(record.layers),
            int(record.quantity),
        )


@dataclass(frozen=True)
class PcbQuote:
    """The cheapest fab for a list of PCBs."""

    fab: Fab
    eur: float
    estimate: bool
    specs: tuple[PcbSpec, ...]
    others: dict[str, float | None]


def _fits(spec: PcbSpec, w: float, h: float) -> bool:
    return (spec.width_mm <= w and spec.height_mm <= h) or (
        spec.width_mm <= h and spec.height_mm <= w
    )


def fab_cost(fab: Fab, specs: list[PcbSpec]) -> float | None:
    """The fab's price for the list in its own currency (None: it cannot make one)."""
    p = fab.params
    if any(spec.layers > p.get("max_layers", 2) for spec in specs):
        return None
    if fab.model == "per_area_copies":
        return sum(
            spec.area_in2 * p["usd_per_in2"] * math.ceil(spec.quantity / p["copies"])
            for spec in specs
        )
    if fab.model == "per_area_min":
        area = sum(
            spec.area_in2 * math.ceil(spec.quantity / p["multiple"]) * p["multiple"]
            for spec in specs
        )
        return max(area, p["min_in2"]) * p["usd_per_in2"]
    if fab.model == "flat_small":
        if not all(_fits(spec, p["max_w_mm"], p["max_h_mm"]) for spec in specs):
            return None
        return sum(p["usd"] * math.ceil(spec.quantity / p["copies"]) for spec in specs)
    raise ValueError(f"fab {fab.key}: unknown price model {fab.model!r}")


def quote(prices: Prices, specs: list[PcbSpec]) -> PcbQuote:
    """The cheapest fab that makes every PCB of the list, in euros."""
    if not specs:
        raise ValueError("no PCBs to price")
    costs: dict[str, float | None] = {}
    for key, fab in prices.fabs.items():
        own = fab_cost(fab, specs)
        costs[key] = None if own is None else prices.eur(own, fab.currency)
    priced = {k: v for k, v in costs.items() if v is not None}
    if not priced:
        raise ValueError("no fab in prices.json makes every one of these PCBs")
    best = min(priced, key=lambda k: priced[k])
    fab = prices.fabs[best]
    estimate = fab.source.is_estimate or prices.fx_is_estimate(fab.currency)
    return PcbQuote(fab, priced[best], estimate, tuple(specs), costs)


def specs_for(board: str) -> list[PcbSpec]:
    """The PCBs one table of ``board`` needs: the one place the BOM and the check ask
    (the generated boards' own list, :func:`lawmaster.hardware.pcb.pcbs`)."""
    return [PcbSpec.of(record) for record in pcbs(board)]
