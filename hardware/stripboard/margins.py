"""Whether the stripboard route keeps each board's margins, at every tolerance corner.

The stack of a board built on stripboard (:func:`build`) is the SMD route's
(:data:`lawmaster.hardware.magnetics.stack.STACKS`) with three changes:

* the sensor board is 1.6 mm stripboard (:data:`.parts.BOARD_MM`) and the Hall
  element sits :data:`.parts.ELEMENT_HEIGHT_MM` over its component face (the TO-92
  lying flat, branded face up) instead of 0.45 mm over the PCB's copper;
* the flat boards' front spacer must clear the lying TO-92 and its capacitor
  (1.6 mm FR-4 pads leave 1.34 mm; the capacitor stands up to 2.5 mm), so it is
  :data:`FLAT_SPACER_MM` brass spacers;
* GW:s brott's back face cannot be glued to a copper side that carries joints and
  clipped leads (:data:`.parts.COPPER_SIDE_MAX_MM`), so GW's acrylic stands
  :data:`GW_BACK_GAP_MM` off it on acrylic strips, which moves GW's playing face
  that much further from the sensors.

and the sensor's offset from its spot is the hand-mounting tolerance plus the
grid's worst snap on that board (:attr:`.plan.BoardPlan.worst_snap_mm`).
The figures are :mod:`lawmaster.hardware.magnetics.tolerance`'s, at the same
corners, with the same limits (``lawmaster hardware check``'s; none changed): the
route suits a board when ``worst_saturation_fraction ≤ 0.9`` and
``worst_corner_margin_counts ≥ 5 × noise``.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass, replace

from lawmaster.hardware.magnetics import margins as smd_margins
from lawmaster.hardware.magnetics import stack, tolerance
from lawmaster.hardware.magnetics.stack import Layer
from lawmaster.hardware.sensor_map import SensorMap

from . import parts
from .plan import board_plan

#: The limits ``lawmaster hardware check`` applies (``magnetics/check.py``): restated
#: here only to compare against, never changed.
NOISE_FACTOR = 5.0
SATURATION_LIMIT = tolerance.SATURATION_LIMIT

#: The flat boards' cover stands on M3 round brass spacers 3.0 mm long over the stripboard
#: instead of the 1.6 mm FR-4 pads: the capacitor lying flat is up to 2.5 mm, the TO-92
#: 1.92 mm (:mod:`.parts`), and 0.1 mm clearance is kept (``stack.PART_CLEARANCE_MM``).
FLAT_SPACER_MM = 3.0
FLAT_SPACER_TOL_MM = 0.1
SPACER_SOURCE = (
    "assumption: turned brass M3 round spacers, length ±0.10 mm (the usual catalogue"
    " tolerance of turned spacers, as the brass standoffs of ``stack.STANDOFF_SOURCE``)"
)
#: GW:s brott: GW's acrylic on 1.5 mm extruded acrylic strips glued across the copper
#: side between the rows of joints (room 1.5 − 0.15 − 0.1 = 1.25 mm ≥ the 1.0 mm joints).
GW_BACK_GAP_MM = 1.5
GW_BACK_GAP_TOL_MM = 0.15


def _stripboard_layer(old: Layer) -> Layer:
    return Layer(
        old.key,
        "stripboard, 1.6 mm, copper strips on its back",
        parts.BOARD_MM,
        parts.BOARD_TOL_MM,
        old.side,
        old.role,
        parts.BOARD_SOURCE,
    )


def layers(board: str) -> tuple[Layer, ...]:
    """The board's layers on the stripboard route (see the module doc)."""
    out: list[Layer] = []
    for la in stack.STACKS[board]:
        if la.role == "pcb":
            out.append(_stripboard_layer(la))
            if stack.two_sided(board):
                out.append(
                    Layer(
                        "back_gap",
                        "extruded acrylic strips, 1.5 mm, glued across the copper side between"
                        " the rows of joints: GW's face on them",
                        GW_BACK_GAP_MM,
                        GW_BACK_GAP_TOL_MM,
                        "back",
                        "gap",  # a spacer that moves the back playing face (not "spacer")
                        stack.EXTRUDED_ACRYLIC_SOURCE,
                    )
                )
        elif la.key == "front_spacer" and not stack.two_sided(board):
            out.append(
                replace(
                    la,
                    what="M3 round brass spacers, 3.0 mm, at the supports: the air over the"
                    " lying TO-92s and their capacitors",
                    thickness_mm=FLAT_SPACER_MM,
                    tol_mm=FLAT_SPACER_TOL_MM,
                    source=SPACER_SOURCE,
                )
            )
        else:
            out.append(la)
    return tuple(out)


@functools.cache
def build(board: str) -> tolerance.Build:
    """The stripboard build of ``board`` for :mod:`lawmaster.hardware.magnetics.tolerance`."""
    snap = board_plan(board).worst_snap_mm
    return tolerance.Build(
        layers(board),
        parts.ELEMENT_HEIGHT_MM,
        parts.ELEMENT_HEIGHT_TOL_MM,
        f"{parts.ELEMENT_SOURCE}; {parts.BODY_SOURCE}; {parts.LIFT_SOURCE}",
        round(parts.HAND_OFFSET_MM + snap, 3),
        f"{parts.HAND_OFFSET_SOURCE} ({snap:.2f} mm)",
    )


def room_mm(board: str, side: str) -> float:
    """Room for parts on the stripboard's ``side`` (as :func:`stack.part_space_mm`)."""
    return stack.face_room_mm(layers(board), side)


@dataclass(frozen=True)
class Verdict:
    """A board's figures on both routes and whether the stripboard route suits it."""

    board: str
    noise_counts: float
    smd_saturation: float
    smd_margin_counts: float
    saturation: float
    margin_counts: float
    front_depth_mm: float
    back_depth_mm: float | None
    smd_front_depth_mm: float
    smd_back_depth_mm: float | None
    sensor_offset_mm: float
    front_room_mm: float
    back_room_mm: float
    fits: bool  # the parts fit the room on both faces
    #: The figures (``tolerance.figures`` keys) that give the worst saturation and margin.
    saturation_figure: str = ""
    margin_figure: str = ""

    @property
    def limit_counts(self) -> float:
        return NOISE_FACTOR * self.noise_counts

    @property
    def saturation_ok(self) -> bool:
        return self.saturation <= SATURATION_LIMIT

    @property
    def margin_ok(self) -> bool:
        return self.margin_counts >= self.limit_counts

    @property
    def suitable(self) -> bool:
        return self.saturation_ok and self.margin_ok and self.fits

    def reasons(self) -> list[str]:
        """Why the route does not suit the board (empty when it does)."""
        out = []
        if not self.saturation_ok:
            out.append(
                f"worst saturation {self.saturation:.3f} of the sensor's range, over the"
                f" {SATURATION_LIMIT} limit"
            )
        if not self.margin_ok:
            out.append(
                f"worst-corner margin {self.margin_counts:.0f} counts, under 5 × noise ="
                f" {self.limit_counts:.0f}"
            )
        if not self.fits:
            out.append("the parts do not fit the room the stack leaves")
        return out


@functools.cache
def verdict(board: str) -> Verdict:
    """The stripboard route's figures for ``board`` beside the SMD route's."""
    sm = SensorMap.load(board)
    b = build(board)
    two = b.two_sided
    smd = tolerance.smd(board)
    front_room = room_mm(board, "front")
    back_room = room_mm(board, "back") if two else float("inf")
    tallest = max(parts.SENSOR_TOP_MAX_MM, parts.CAP_THICK_MAX_MM)
    corners = tolerance.worst_corners(sm, build=b)
    sat = max((c for k, c in corners.items() if k.startswith("saturation.")), key=_value)
    low = min((c for k, c in corners.items() if not k.startswith("saturation.")), key=_value)
    return Verdict(
        board,
        float(smd_margins.noise(sm)),
        tolerance.worst_saturation_fraction(sm),
        tolerance.worst_corner_margin_counts(sm),
        tolerance.worst_saturation_fraction(sm, b),
        tolerance.worst_corner_margin_counts(sm, b),
        stack.face_depth(b.layers, b.element_mm, "front"),
        stack.face_depth(b.layers, b.element_mm, "back") if two else None,
        stack.face_depth(smd.layers, smd.element_mm, "front"),
        stack.face_depth(smd.layers, smd.element_mm, "back") if two else None,
        b.sensor_offset_mm,
        front_room,
        back_room,
        tallest <= front_room and back_room >= parts.COPPER_SIDE_MAX_MM,
        sat.figure,
        low.figure,
    )


def _value(c: tolerance.Corner) -> float:
    return c.value
