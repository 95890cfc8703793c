"""Prices of every part, read from ``hardware/prices.json``: where, when, at what quantity.

Each price says where it comes from: ``read`` (the page it was read from, the day it
was read and, where the page gives one, the page's own date) or ``estimate`` (why no
price could be read and how the figure was reached). Exactly one of the two. A price
has quantity breaks (the unit price from that quantity up), a unit (``each``, ``m2``
for sheet material, ``m`` for cable, ``pack`` with its ``pack_size``) and a currency,
turned into euros by the file's exchange rates, which say the same of themselves.

:func:`cost` answers "what does buying ``quantity`` of this cost": it buys at least
the smallest break (a minimum order) and whole packs, and takes the unit price of the
largest break it reaches.

A price no board's bill uses must say why it is kept (``reserved_for``: the part a
branch of the design is adding), and loses that mark once a bill uses it; a test
holds both.
"""

from __future__ import annotations

import fnmatch
import json
import math
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

PRICES = Path(__file__).resolve().parents[1] / "prices.json"
UNITS = ("each", "m2", "m", "pack")


@dataclass(frozen=True)
class Source:
    """Where a figure came from: read from a page, or estimated (and why)."""

    read: dict[str, str] | None
    estimate: str | None

    @property
    def is_estimate(self) -> bool:
        """True when no price could be read for it."""
        return self.estimate is not None

    def describe(self) -> str:
        """One line for the BOM: the page and day, or the estimate's reason."""
        if self.read is not None:
            page = self.read.get("page_date")
            return f"read {self.read['read_on']} from {self.read['source']}" + (
                f" (page dated {page})" if page else ""
            )
        return f"ESTIMATE: {self.estimate}"


def _source(entry: dict[str, Any], what: str) -> Source:
    read, estimate = entry.get("read"), entry.get("estimate")
    if (read is None) == (estimate is None):
        raise ValueError(f"{what}: give exactly one of 'read' and 'estimate'")
    if read is not None and not {"source", "read_on"} <= set(read):
        raise ValueError(f"{what}: a read price names its source and the day it was read")
    return Source(read, estimate)


@dataclass(frozen=True)
class Price:
    """One orderable thing and what it costs."""

    key: str
    what: str
    mpn: str | None
    mpn_pattern: str | None
    supplier: str
    supplier_pn: str
    unit: str
    pack_size: int
    breaks: tuple[tuple[float, float], ...]
    currency: str
    source: Source
    #: Why a price no board's bill uses yet is kept (a part another branch of the design
    #: is adding); ``None`` for a price in use. A test fails on a price that is neither.
    reserved_for: str | None = None

    def unit_price(self, quantity: float) -> float:
        """The unit price (own currency) at the largest break ``quantity`` reaches."""
        reached = [price for qty, price in self.breaks if qty <= quantity + 1e-9]
        return reached[-1] if reached else self.breaks[0][1]

    def bought(self, quantity: float) -> float:
        """How many units are bought for ``quantity`` needed: the minimum order, whole packs."""
        if self.unit == "pack":
            return max(math.ceil(quantity / self.pack_size - 1e-9), self.breaks[0][0])
        return max(quantity, self.breaks[0][0])


@dataclass(frozen=True)
class Fab:
    """A PCB fab's published price model (see :mod:`.pcb_cost`)."""

    key: str
    name: str
    model: str
    params: dict[str, float]
    currency: str
    source: Source


@dataclass(frozen=True)
class Prices:
    """Everything ``prices.json`` holds."""

    prices: dict[str, Price]
    fabs: dict[str, Fab]
    fx: dict[str, tuple[float, Source]]

    def eur(self, amount: float, currency: str) -> float:
        """``amount`` of ``currency`` in euros at the file's rate."""
        if currency == "EUR":
            return amount
        return amount * self.fx[currency][0]

    def fx_is_estimate(self, currency: str) -> bool:
        """True when the rate for ``currency`` is an estimate (EUR needs none)."""
        return currency != "EUR" and self.fx[currency][1].is_estimate

    def for_mpn(self, mpn: str) -> Price | None:
        """The price of an order number: exact, else the first whose pattern matches."""
        for price in self.prices.values():
            if price.mpn == mpn:
                return price
        for price in self.prices.values():
            if price.mpn_pattern and fnmatch.fnmatchcase(mpn, price.mpn_pattern):
                return price
        return None

    def cost(self, key: str, quantity: float) -> tuple[float, Price]:
        """Euros for ``quantity`` (in the price's unit) of price ``key``, and the price."""
        price = self.prices[key]
        bought = price.bought(quantity)
        per = price.unit_price(bought * (price.pack_size if price.unit == "pack" else 1))
        return self.eur(bought * per, price.currency), price


def _price(key: str, entry: dict[str, Any]) -> Price:
    unit = entry.get("unit", "each")
    if unit not in UNITS:
        raise ValueError(f"price {key}: unit {unit!r} is not one of {UNITS}")
    breaks = tuple((float(q), float(p)) for q, p in entry["breaks"])
    if not breaks or list(breaks) != sorted(breaks):
        raise ValueError(f"price {key}: breaks must be given, smallest quantity first")
    return Price(
        key=key,
        what=entry["what"],
        mpn=entry.get("mpn"),
        mpn_pattern=entry.get("mpn_pattern"),
        supplier=entry["supplier"],
        supplier_pn=entry.get("supplier_pn", ""),
        unit=unit,
        pack_size=int(entry.get("pack_size", 1)),
        breaks=breaks,
        currency=entry["currency"],
        source=_source(entry, f"price {key}"),
        reserved_for=entry.get("reserved_for"),
    )


def parse(data: dict[str, Any]) -> Prices:
    """The prices in a ``prices.json`` document (checked as it is read)."""
    fx = {
        cur: (float(entry["eur"]), _source(entry, f"exchange rate {cur}"))
        for cur, entry in data["fx"].items()
    }
    prices = {key: _price(key, entry) for key, entry in data["prices"].items()}
    fabs = {
        key: Fab(
            key,
            entry["name"],
            entry["model"],
            {k: float(v) for k, v in entry["params"].items()},
            entry["currency"],
            _source(entry, f"fab {key}"),
        )
        for key, entry in data["pcb_fabs"].items()
    }
    for thing in [*prices.values(), *fabs.values()]:
        if thing.currency != "EUR" and thing.currency not in fx:
            raise ValueError(f"{thing.key}: no exchange rate for {thing.currency}")
    return Prices(prices, fabs, fx)


@cache
def load(path: Path = PRICES) -> Prices:
    """The project's prices file."""
    return parse(json.loads(path.read_text("utf-8")))
