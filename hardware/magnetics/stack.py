"""The layers of each board, their tolerances, and the room they leave for parts.

A board is built outwards from its sensor PCB. The PCB's *front* face carries
the DRV5055s (branded face towards the front playing surface); everything in
front of it is held off it by a spacer of a stated thickness and tolerance
(brass standoffs on GW:s brott, an FR-4 spacer frame on the flat boards), so the
cover's height over the sensors is set by a part, not by how hard someone
pressed the cover down. GW:s brott's back acrylic is glued straight to the PCB's
back face. The flat boards' PCB tiles stand on nylon standoffs over a base
board, which leaves room under them for the tiles' connectors; their scanner
board sits in a box beside the board, GW:s brott's in its stand
(:mod:`lawmaster.hardware.mechanical`).

The sensor maps' depths (``depth_mm``, ``back_depth_mm``) follow from the layers
(a test checks that they agree):

* front depth = the front layers − the Hall element's height over the PCB;
* back depth = the Hall element's height over the PCB + the back layers.

Every layer states its thickness, tolerance and where both come from; the
corners of :mod:`lawmaster.hardware.magnetics.tolerance` take each layer at both
ends of its tolerance. :func:`part_space_mm` is the room for parts on each face
of the sensor PCB (the "boards" parts-fit check reads it).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from lawmaster.hardware.magnetics.data import HALL_ELEMENT_BELOW_TOP_MM, SOT23_HEIGHT_MM

# -- sources ---------------------------------------------------------------------------
EXTRUDED_ACRYLIC_SOURCE = (
    "extruded acrylic (PMMA) sheet to ISO 7823-2: thickness ±10 % under 3 mm (PLEXIGLAS XT"
    " tolerances FAQ, plexiglas.net); cast sheet (ISO 7823-1) is ±(0.4 + 0.1·t) mm, ±0.6 mm"
    " at 2 mm, far too loose for a cover the magnets read through, so the design asks for"
    " extruded"
)
FR4_SOURCE = (
    "JLCPCB capabilities page: finished board thickness ±10 % for boards of 1.0 mm and over"
    " (1.6 mm: 1.44-1.76 mm), as IPC class 2"
)
MDF_SOURCE = (
    "thin MDF/HDF 2.7-3.6 mm, EN 324-1 thickness tolerance ±0.2 mm (makers' data sheets to"
    " EN 622-5, e.g. Dongwha's fibreboard specification)"
)
PRINT_SOURCE = (
    "assumption: the map printed on 80-100 g/m² paper or vinyl, 0.10 ± 0.02 mm, glued"
    " flat with a spray adhesive"
)
FILM_SOURCE = (
    "assumption: GW's board print (0.10 ± 0.02 mm paper) on a transfer adhesive film"
    " (3M 467MP class, 0.06 mm) and its glue line: 0.20 ± 0.05 mm together"
)
STANDOFF_SOURCE = (
    "assumption: turned brass M3 hex standoffs, female-female, length ±0.10 mm (the usual"
    " catalogue tolerance of turned standoffs; measure one from the bag)"
)
NYLON_STANDOFF_SOURCE = (
    "assumption: nylon M3 hex standoffs; their length only sets the room under the tiles,"
    " not any reading (±0.3 mm taken)"
)
ELEMENT_SOURCE = (
    "DRV5055 SBAS640 'Hall Element Location': element ≈0.7 mm under the top of the ≈1.1 mm"
    " SOT-23 body (±0.1 mm read off the drawing), plus a reflowed solder joint of"
    " 0.00-0.10 mm (assumption): 0.45 ± 0.15 mm over the PCB's copper"
)


@dataclass(frozen=True)
class Layer:
    """One layer: what it is, thickness ± tolerance (mm), side of the PCB, source.

    ``side`` is ``"front"`` (in front of the PCB's sensor face) or ``"back"``;
    ``role`` says what the layer is for: ``"cover"`` (a playing surface's sheet),
    ``"print"``, ``"spacer"`` (a part that holds the next layer off the PCB: the
    air in it is where the PCB's parts live), ``"pcb"``, ``"film"``, or ``"liner"``
    (a film stuck inside a spacer's height: it takes room from the parts but moves
    no surface).
    """

    key: str
    what: str
    thickness_mm: float
    tol_mm: float
    side: str
    role: str
    source: str

    @property
    def low(self) -> float:
        return self.thickness_mm - self.tol_mm

    @property
    def high(self) -> float:
        return self.thickness_mm + self.tol_mm


#: The Hall element's height over the PCB's top copper (mm): package body under the
#: element plus the solder joint (``ELEMENT_SOURCE``).
SOLDER_MM = 0.05
ELEMENT_HEIGHT_MM = round(SOT23_HEIGHT_MM - HALL_ELEMENT_BELOW_TOP_MM + SOLDER_MM, 3)
ELEMENT_HEIGHT_TOL_MM = 0.15
#: The tallest the DRV5055's body stands over the PCB (mm): TI's DBZ (SOT-23) drawing
#: gives 1.12 mm at most, plus the solder joint at its thickest (0.10 mm).
SENSOR_TOP_MAX_MM = 1.12 + 0.10

def _flat(cover: Layer) -> tuple[Layer, ...]:
    """A flat board: its cover over an FR-4 spacer frame over the PCB tiles on standoffs."""
    return (
        cover,
        Layer(
            "front_spacer",
            "FR-4 spacer frame (a blank 1.6 mm board the fab routes with the tiles): the air"
            " over the sensors",
            1.6,
            0.16,
            "front",
            "spacer",
            FR4_SOURCE,
        ),
        Layer("pcb", "sensor PCB tile, FR-4", 1.6, 0.16, "back", "pcb", FR4_SOURCE),
        Layer(
            "back_spacer",
            "M3 nylon hex standoffs to the base board: room for the tiles' connectors",
            12.0,
            0.3,
            "back",
            "spacer",
            NYLON_STANDOFF_SOURCE,
        ),
    )


@dataclass(frozen=True)
class SpotPockets:
    """Every spot of a board is a pocket routed into its cover that a piece's base drops
    into: ``clearance_mm`` wider than the base, ``depth_mm`` deep in a ``sheet_mm`` cover."""

    clearance_mm: float
    depth_mm: float
    sheet_mm: float


#: Judge Dredd's standing spots are pockets: a Judge's Ø25 base sits in a Ø26 × 1.0 mm
#: pocket, so it stands within 0.5 mm of its sensor instead of anywhere in a 34 mm square
#: (the margins at every tolerance corner need that: ``hardware/MAGNETICS.md``).
SPOT_POCKETS: dict[str, SpotPockets] = {"judge-dredd": SpotPockets(1.0, 1.0, 3.0)}
POCKET_DEPTH_SOURCE = (
    "pocket floor: the 3 mm sheet (±0.2 mm, EN 324-1) less a 1.0 mm pocket cut with the"
    " depth stop set from the top face (±0.05 mm, assumption): 2.0 ± 0.25 mm"
)


STACKS: dict[str, tuple[Layer, ...]] = {
    "gw-brott": (
        Layer(
            "front_cover",
            "clear extruded acrylic, criminals' face, with the board print behind it; M4 DIN"
            " 125 steel keeper washers (Ø9/Ø4.3 × 0.8 mm) glued into pockets milled from"
            " behind with the face down on the machine bed, floor 1.0 mm over the face",
            2.0,
            0.2,
            "front",
            "cover",
            EXTRUDED_ACRYLIC_SOURCE,
        ),
        Layer(
            "front_spacer",
            "M3 brass hex standoffs, female-female, at the tile corners: the air over the"
            " sensors",
            5.0,
            0.1,
            "front",
            "spacer",
            STANDOFF_SOURCE,
        ),
        Layer(
            "front_film",
            "the criminals' board print on transfer film, on the back of their face: inside"
            " the standoffs' height",
            0.2,
            0.05,
            "front",
            "liner",
            FILM_SOURCE,
        ),
        Layer("pcb", "sensor PCB, FR-4", 1.6, 0.16, "back", "pcb", FR4_SOURCE),
        Layer(
            "back_film",
            "transfer adhesive film and GW's board print",
            0.2,
            0.05,
            "back",
            "film",
            FILM_SOURCE,
        ),
        Layer(
            "back_cover",
            "clear extruded acrylic, GW's face, glued to the PCB's back",
            2.0,
            0.2,
            "back",
            "cover",
            EXTRUDED_ACRYLIC_SOURCE,
        ),
    ),
}
STACKS["judge-dredd"] = _flat(
    Layer(
        "front_cover",
        "MDF cover, 3 mm, the map printed on it, a Ø26 × 1.0 mm pocket routed at every"
        " standing spot: under a Judge 2.0 mm of bare MDF",
        2.0,
        0.25,
        "front",
        "cover",
        f"{MDF_SOURCE}; {POCKET_DEPTH_SOURCE}",
    )
)
STACKS["unamerican-graffiti"] = (
    Layer("print", "printed map, glued on the cover", 0.1, 0.02, "front", "print", PRINT_SOURCE),
    *_flat(Layer("front_cover", "MDF cover, 3 mm", 3.0, 0.2, "front", "cover", MDF_SOURCE)),
)

#: Parts on a face must keep this clear of the layer over them (mm): the spacer's own
#: tolerance is taken off as well (see :func:`part_space_mm`).
PART_CLEARANCE_MM = 0.1


def layer(game: str, key: str) -> Layer:
    """One layer of a board by its key (``"front_cover"``, ``"pcb"``…)."""
    return next(la for la in STACKS[game] if la.key == key)


def depth(game: str, side: str = "front", thickness: dict[str, float] | None = None) -> float:
    """Hall element to the playing surface of ``side`` (mm), summed from the layers.

    ``thickness`` overrides layers by key (a tolerance corner); ``"element"`` sets the
    Hall element's height over the PCB.
    """
    if side != "front" and not two_sided(game):
        raise ValueError(f"{game} has no back playing surface")
    t = thickness or {}
    return face_depth(STACKS[game], t.get("element", ELEMENT_HEIGHT_MM), side, t)


def face_depth(
    layers: Sequence[Layer],
    element_mm: float,
    side: str = "front",
    thickness: Mapping[str, float] | None = None,
) -> float:
    """Hall element to the playing surface of ``side`` (mm) of any stack of ``layers``
    (a board's own in :data:`STACKS`, or another way of building it), the element
    ``element_mm`` over the sensor board's face; ``thickness`` overrides layers by key."""
    t = thickness or {}
    if side == "front":
        front = sum(
            t.get(la.key, la.thickness_mm)
            for la in layers
            if la.side == "front" and la.role != "liner"
        )
        return round(front - element_mm, 3)
    back = [la for la in layers if la.side == "back" and la.role != "spacer"]
    if not has_back_face(layers):
        raise ValueError("the stack has no back playing surface")
    return round(element_mm + sum(t.get(la.key, la.thickness_mm) for la in back), 3)


def two_sided(game: str) -> bool:
    """Whether the board is played on both faces (GW:s brott)."""
    return has_back_face(STACKS[game])


def has_back_face(layers: Sequence[Layer]) -> bool:
    """Whether a stack of ``layers`` is played on its back face too (a back cover)."""
    return any(la.side == "back" and la.role == "cover" for la in layers)


def part_space_mm(board: str, side: str) -> float:
    """Room for parts on the sensor PCB's ``"front"`` or ``"back"`` face (mm).

    The spacer on that face at the low end of its tolerance, less any liner inside it
    at its thickest and ``PART_CLEARANCE_MM``; 0.0 for a face glued to a cover (GW:s
    brott's back), where no part and no through-hole lead may stand.
    """
    return face_room_mm(STACKS[board], side)


def face_room_mm(layers: Sequence[Layer], side: str) -> float:
    """:func:`part_space_mm` for any stack of ``layers``: a ``"gap"`` layer (strips that
    hold a cover off the sensor board, and move its face) leaves room as a spacer does."""
    if side not in ("front", "back"):
        raise ValueError(f"side is 'front' or 'back', not {side!r}")
    on_side = [la for la in layers if la.side == side]
    spacers = [la for la in on_side if la.role in ("spacer", "gap")]
    if not spacers:
        return 0.0
    liners = sum(la.high for la in on_side if la.role == "liner")
    return round(min(la.low for la in spacers) - liners - PART_CLEARANCE_MM, 3)


def sensor_clearance_mm(board: str) -> float:
    """The smallest air gap over a sensor's body (mm): the front spacer at its low end,
    less any liner at its thickest and the tallest the DRV5055 stands
    (``SENSOR_TOP_MAX_MM``). Must stay above 0."""
    liners = sum(la.high for la in STACKS[board] if la.side == "front" and la.role == "liner")
    return round(layer(board, "front_spacer").low - liners - SENSOR_TOP_MAX_MM, 3)
