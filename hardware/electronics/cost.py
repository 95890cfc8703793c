"""What one table of a board costs: every BOM line priced from ``hardware/prices.json``.

:func:`bill` gathers, for one board, the electronic parts counted from the circuits
(the scanner and the host side) with what each must be bought with (a part's
``extras``: the Pico's sockets, the buck module's foam pad, the jumper's shunt),
the things no schematic shows, the mechanical parts
(``hardware/mechanical/parts.json``), the cables between the PCBs
(:func:`lawmaster.hardware.pcb.cables`: a JST SH housing at each end and one
pre-crimped lead per way) and the PCBs (priced by the fabs' published models,
:mod:`.pcb_cost`), each with its quantity, its price in euros and whether that
price is an estimate. A line with no price raises :class:`Unpriced`:
the BOM cannot be generated with a hole in it.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

from lawmaster.hardware.pcb import CableSpec
from lawmaster.hardware.pcb import cables as board_cables
from lawmaster.host.nfc.cards import NoCardList, card_list

from .circuits import Design
from .mechanical import parts as mechanical_parts
from .parts import resistor_mpn, spec_of
from .pcb_cost import PcbSpec, quote
from .prices import Prices, load

SECTIONS = ("scanner", "host", "not on the schematic", "mechanical", "cables", "PCBs")


class Unpriced(LookupError):
    """A BOM line that ``prices.json`` has no price for."""


@dataclass(frozen=True)
class OffSchematic:
    """Something a table needs that no schematic shows, and its price key."""

    item: str
    example: str
    qty: str
    what_for: str
    price: str


#: Things a table needs that no schematic shows. ``qty`` "cards" is the game's card count.
OFF_SCHEMATIC: tuple[OffSchematic, ...] = (
    OffSchematic(
        "microSD card, 32 GB, A1", "SanDisk SDSQUA4-032G", "1",
        "the Pi's system and the journal", "microsd-32",
    ),
    OffSchematic(
        "USB-C power supply for the Pi, 5.1 V 3 A", "Raspberry Pi 15.3 W USB-C power supply", "1",
        "the Pi, the panel and the PN532 (through the Pi's header)", "pi-psu",
    ),
    OffSchematic(
        "12 V 2 A mains adapter, 2.1 mm barrel plug, centre positive", "Mean Well GST25E12-P1J",
        "1", "the scanner: into J1, then the 3.3 V buck PS1", "psu-12v",
    ),
    OffSchematic(
        "USB-A to micro-USB data cable, 0.5 m", "any (data lines needed)", "1",
        "Pico ↔ Pi (USB CDC serial; the Pico takes no power from it)", "usb-cable",
    ),
    OffSchematic(
        "NTAG213 NFC stickers, 25 mm round", "NXP NTAG213 stickers", "cards",
        "on every card the game reads (`lawmaster enroll`)", "ntag213",
    ),
    OffSchematic(
        "jumper wires, female-female, 20 cm", "any", "20",
        "Pi header ↔ panel and PN532", "jumper-wires",
    ),
    OffSchematic(
        "tablet or phone per seat", "any browser", "1", "seats join by QR code", "own-device",
    ),
)  # fmt: skip


@dataclass(frozen=True)
class CostLine:
    """One priced line of a board's bill."""

    section: str
    item: str
    order_number: str
    amount: float
    unit: str
    eur: float
    price_key: str
    estimate: bool
    source: str


@dataclass(frozen=True)
class Bill:
    """Every priced line of one table of a board."""

    board: str
    lines: tuple[CostLine, ...]
    pcb_fab: str

    @property
    def total_eur(self) -> float:
        """What the table costs."""
        return sum(line.eur for line in self.lines)

    @property
    def estimate_eur(self) -> float:
        """The part of the total that rests on an estimated price or exchange rate."""
        return sum(line.eur for line in self.lines if line.estimate)

    def by_section(self) -> dict[str, float]:
        """Euros per section, in :data:`SECTIONS` order."""
        out = {section: 0.0 for section in SECTIONS}
        for line in self.lines:
            out[line.section] += line.eur
        return out


def order_number(key: str, value: str) -> str:
    """The example order number the BOM lists for a part of the circuits."""
    spec = spec_of(key)
    if key == "drv5055":
        # One part, two sensitivities: each board's map picks the one its magnets need.
        return f"TI {value}QDBZR"
    if key == "resistor":
        ohms = value.replace("R", "").replace("k", ".")
        number = float(ohms) * (1000 if "k" in value else 1) if ohms else 0
        return resistor_mpn(int(round(number)))
    return spec.mpn


def card_count(board: str) -> int:
    """How many cards of the board's game carry a sticker (0 for a game without cards)."""
    try:
        return len(card_list(board))
    except NoCardList:
        return 0


def _line(
    prices: Prices, section: str, item: str, key: str, amount: float, number: str = ""
) -> CostLine:
    eur, price = prices.cost(key, amount)
    estimate = price.source.is_estimate or prices.fx_is_estimate(price.currency)
    source = price.source.describe()
    if prices.fx_is_estimate(price.currency):
        source += f"; {price.currency}→EUR rate estimated"
    return CostLine(
        section,
        item,
        number or price.mpn or price.supplier_pn,
        amount,
        price.unit,
        eur,
        key,
        estimate,
        source,
    )


def _by_mpn(prices: Prices, number: str, what: str) -> str:
    price = prices.for_mpn(number)
    if price is None:
        raise Unpriced(f"no price in prices.json for {number} ({what})")
    return price.key


def _designs_lines(prices: Prices, designs: list[Design]) -> list[CostLine]:
    lines = []
    for design in designs:
        section = "scanner" if design.name.startswith("scanner-") else "host"
        counts = Counter(design.parts.values())
        for (key, value), count in counts.items():
            spec = spec_of(key)
            if not spec.bought:
                continue  # copper of the PCB (a test pad): nothing to order
            number = order_number(key, value)
            key_price = _by_mpn(prices, number, f"{key} {value}")
            lines.append(
                _line(prices, section, f"{spec.description} {value}", key_price, count, number)
            )
            for each, item, example in spec.extras:
                extra = _by_mpn(prices, example, item)
                lines.append(_line(prices, section, item, extra, each * count, example))
    return lines


def cable_parts(cable: CableSpec) -> list[tuple[str, int]]:
    """What one cable is made of: (order number, count): a JST SH housing at each end and,
    per way, one pre-crimped 28 AWG lead (two spliced where it is longer than the longest
    lead sold, :data:`LONGEST_LEAD_MM`)."""
    leads = -(-cable.length_mm // LONGEST_LEAD_MM)
    length = min(cable.length_mm, LONGEST_LEAD_MM)
    code = next(c for c in LEAD_CODES if c >= min(length, LEAD_CODES[-1]))
    return [
        (f"JST SHR-{cable.ways:02d}V-S-B", 2),
        (f"JST ASSHSSH28K{code}", cable.ways * leads),
    ]


#: JST's pre-crimped SH leads by length (mm, in their order code): 2, 4, 6, 8 and 12 inches.
LEAD_CODES = (51, 102, 152, 203, 305)
LONGEST_LEAD_MM = LEAD_CODES[-1]


def _cable_lines(prices: Prices, board: str) -> list[CostLine]:
    amounts: Counter[str] = Counter()
    for cable in board_cables(board):
        for number, count in cable_parts(cable):
            amounts[number] += count
    return [
        _line(prices, "cables", _CABLE_ITEMS[number.split()[1][:4]], _by_mpn(prices, number,
              "cable part"), amount, number)
        for number, amount in sorted(amounts.items())
    ]  # fmt: skip


_CABLE_ITEMS = {
    "SHR-": "JST SH housing, one at each end of a cable",
    "ASSH": "JST SH pre-crimped 28 AWG lead, one per way (two spliced past 305 mm)",
}


def _off_schematic_lines(prices: Prices, board: str) -> list[CostLine]:
    lines = []
    for row in OFF_SCHEMATIC:
        if row.price not in prices.prices:
            raise Unpriced(f"no price in prices.json for {row.item} ({row.price})")
        amount = card_count(board) if row.qty == "cards" else float(row.qty)
        if amount:
            lines.append(_line(prices, "not on the schematic", row.item, row.price, amount))
    return lines


def _mechanical_lines(prices: Prices, board: str) -> list[CostLine]:
    """One line per price key: parts cut from the same sheet or taken from the same pack
    are bought together (one minimum order, whole packs over their sum)."""
    amounts: dict[str, float] = {}
    items: dict[str, list[str]] = {}
    for part in mechanical_parts(board):
        if part.price not in prices.prices:
            raise Unpriced(f"no price in prices.json for {board}'s {part.id} ({part.price})")
        amounts[part.price] = amounts.get(part.price, 0.0) + part.amount(
            prices.prices[part.price].unit
        )
        items.setdefault(part.price, []).append(part.what)
    return [
        _line(prices, "mechanical", "; ".join(items[key]), key, amount)
        for key, amount in amounts.items()
    ]


def bill(
    board: str, designs: list[Design], pcbs: list[PcbSpec], prices: Prices | None = None
) -> Bill:
    """The priced bill of one table: ``designs`` its scanner and host, ``pcbs`` its boards."""
    prices = prices or load()
    lines = _designs_lines(prices, designs)
    lines += _off_schematic_lines(prices, board)
    lines += _mechanical_lines(prices, board)
    lines += _cable_lines(prices, board)
    pcb = quote(prices, pcbs)
    lines.append(
        CostLine(
            "PCBs",
            ", ".join(f"{s.quantity} × {s.name} {s.width_mm:g} × {s.height_mm:g} mm" for s in pcbs),
            pcb.fab.name,
            float(sum(s.quantity for s in pcbs)),
            "each",
            pcb.eur,
            pcb.fab.key,
            pcb.estimate,
            pcb.fab.source.describe(),
        )
    )
    return Bill(board, tuple(lines), pcb.fab.name)
