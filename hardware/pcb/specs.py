"""The PCBs and cables each board is built from, as records a BOM or a price list can join.

:func:`pcbs` lists every kind of PCB a table with that board needs (the scanner
board and each kind of sensor piece) with its size, layers and how many of it
one board takes; :func:`cables` every cable between them with its length. Both
read the plan and the layouts only (no KiCad needed).
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

from lawmaster.hardware.electronics.pieces import (
    BUS_PINS,
    CABLE_SLACK_MM,
    Plan,
    plan,
    stock_length,
)
from lawmaster.hardware.electronics.pieces import cables as plan_cables

from .layout import Layout, layout

LAYERS = 2
THICKNESS_MM = 1.6
#: Lengths to buy and slack: :data:`lawmaster.hardware.electronics.pieces.STOCK_LENGTHS_MM`.


@dataclass(frozen=True)
class PcbSpec:
    """One kind of PCB a board needs."""

    name: str  # the files' name: "scanner", "gw-brott-tile"…
    board: str
    kind: str
    width_mm: float
    height_mm: float
    layers: int
    thickness_mm: float
    quantity: int  # per board
    parts: int  # parts to fit on one (mounting holes and bare test pads not counted)
    folder: str  # relative to the repository

    @property
    def area_cm2(self) -> float:
        """Bounding-box area of one (cm²)."""
        return self.width_mm * self.height_mm / 100.0


@dataclass(frozen=True)
class CableSpec:
    """One cable: ways, ends, its straight-line need and the stock length to buy (mm)."""

    ways: int
    a: str
    b: str
    need_mm: float
    length_mm: int


def name_of(board: str, kind: str) -> str:
    """The file name of a kind of PCB: ``scanner`` or ``<board>-<kind>``."""
    return "scanner" if kind == "scanner" else f"{board}-{kind}"


def folder_of(board: str, kind: str) -> str:
    """Where a kind's files live, relative to the repository."""
    return "hardware/pcb/scanner" if kind == "scanner" else f"hardware/pcb/{board}/{kind}"


def _fitted(lay: Layout) -> int:
    return sum(1 for p in lay.parts if p.key != "testpoint")


def pcbs(board: str) -> list[PcbSpec]:
    """Every kind of PCB one table with ``board`` needs, the scanner board first."""
    made = plan(board)
    counts = Counter(p.kind for p in made.pieces)
    out = []
    for kind, quantity in [("scanner", 1), *counts.items()]:
        lay = layout(board, kind)
        w, h = lay.size_mm
        out.append(
            PcbSpec(
                name_of(board, kind),
                board,
                kind,
                w,
                h,
                LAYERS,
                THICKNESS_MM,
                quantity,
                _fitted(lay),
                folder_of(board, kind),
            )  # fmt: skip
        )
    return out


def _connector_at(made: Plan, end: tuple[str | None, str]) -> tuple[float, float]:
    piece_name, ref = end
    if piece_name is None:
        return made.scanner_at
    piece = made.piece(piece_name)
    part = layout(made.board, piece.kind).part(ref)
    return piece.to_board(part.x, part.y)


def cables(board: str) -> list[CableSpec]:
    """Every cable of one table with ``board``: scanner to each chain, along the chains,
    satellites to their pieces; wired pin k to pin k (JST SH pre-crimped leads)."""
    made = plan(board)
    out = []
    for cable in plan_cables(made):
        a, b = _connector_at(made, cable.a), _connector_at(made, cable.b)
        need = abs(a[0] - b[0]) + abs(a[1] - b[1]) + CABLE_SLACK_MM
        length = stock_length(need)
        names = [f"{end[0] or 'scanner'}:{end[1]}" for end in (cable.a, cable.b)]
        out.append(CableSpec(cable.ways, names[0], names[1], round(need, 1), length))
    return out


def bus_cable_ways() -> int:
    """Ways of the sensor bus cable."""
    return len(BUS_PINS)
