"""Do the parts fit the room on their PCB's faces? (``parts_fit`` of ``lawmaster hardware check``)

Every part has a height over the face it sits on and, if through-hole, leads
that stick out of the other face (:class:`lawmaster.hardware.electronics.parts.Height`,
each from its datasheet or a stated assumption). The room on a sensor piece's
faces comes from the board's layer stack
(:func:`lawmaster.hardware.magnetics.stack.part_space_mm`: 4.55 mm on GW:s
brott's front and nothing on its glued back; 1.34 mm under the flat boards' cover
and 11.6 mm under them). The scanner board sits off the sensor layers, in GW:s
brott's stand or the flat boards' scanner box
(:func:`lawmaster.hardware.mechanical.stand.scanner_room`: the compartment's
height over its standoffs, the standoffs under it), and with its plugs' room round
it must fit that compartment across too (:func:`scanner_spare_mm`). A part fails
when it stands taller than its face's room or its leads poke into a face with less
room than they need (a glued face has none).
"""

from __future__ import annotations

from dataclasses import dataclass

from lawmaster.hardware.electronics.parts import spec_of
from lawmaster.hardware.electronics.pieces import plan
from lawmaster.hardware.magnetics.stack import part_space_mm
from lawmaster.hardware.mechanical.stand import scanner_room, scanner_spare_mm

from .layout import BACK, FRONT, layout


@dataclass(frozen=True)
class Fit:
    """One part on one kind of PCB against the room on its faces."""

    pcb: str
    ref: str
    key: str
    side: str
    height_mm: float
    room_mm: float
    leads_mm: float
    other_room_mm: float

    @property
    def ok(self) -> bool:
        """Stands within its face's room, and its leads (if any) within the other face's."""
        stands = self.height_mm <= self.room_mm + 1e-9
        leads = self.leads_mm == 0 or self.leads_mm <= self.other_room_mm + 1e-9
        return stands and leads

    @property
    def margin_mm(self) -> float:
        """The smaller of the two spare heights (negative: it does not fit)."""
        spare = self.room_mm - self.height_mm
        if self.leads_mm:
            spare = min(spare, self.other_room_mm - self.leads_mm)
        return spare


def _room(board: str, kind: str, side: str) -> float:
    if kind == "scanner":
        return scanner_room(board)[side]
    return part_space_mm(board, side)


def fits(board: str) -> list[Fit]:
    """Every part of every kind of PCB one table with ``board`` needs, against its room."""
    out = []
    for kind in ["scanner", *dict.fromkeys(p.kind for p in plan(board).pieces)]:
        lay = layout(board, kind)
        for part in lay.parts:
            height = spec_of(part.key).height
            other = BACK if part.side == FRONT else FRONT
            out.append(
                Fit(
                    f"{board}/{kind}" if kind != "scanner" else "scanner",
                    part.ref,
                    part.key,
                    part.side,
                    height.above_mm,
                    _room(board, kind, part.side),
                    height.leads_mm,
                    _room(board, kind, other),
                )  # fmt: skip
            )
    return out


def figures(board: str) -> dict[str, float]:
    """``parts_fit`` (every part fits) and the tightest margin, for ``hardware check``."""
    all_fits = fits(board)
    sensor = [f for f in all_fits if f.pcb != "scanner"]
    spare = scanner_spare_mm(board)
    return {
        "parts_fit": all(f.ok for f in all_fits) and spare >= 0,
        "parts_worst_margin_mm": min(f.margin_mm for f in all_fits),
        "scanner_compartment_spare_mm": spare,
        "sensor_piece_tallest_front_mm": max(
            (f.height_mm for f in sensor if f.side == FRONT), default=0.0
        ),
        "sensor_piece_room_front_mm": part_space_mm(board, FRONT),
    }


def misfits(board: str) -> list[str]:
    """Every part that does not fit, in words."""
    out = []
    spare = scanner_spare_mm(board)
    if spare < 0:
        out.append(
            f"the scanner board with its plugs' room is {-spare:g} mm too big for {board}'s"
            " compartment"
        )
    for f in fits(board):
        if f.ok:
            continue
        if f.height_mm > f.room_mm:
            out.append(
                f"{f.pcb} {f.ref} ({f.key}) stands {f.height_mm:g} mm on its {f.side} face,"
                f" which has {f.room_mm:g} mm"
            )
        else:
            out.append(
                f"{f.pcb} {f.ref} ({f.key}) has leads {f.leads_mm:g} mm out of the other face,"
                f" which has {f.other_room_mm:g} mm"
            )
    return out
