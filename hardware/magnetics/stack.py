"""The layers of each board, from the front playing surface to the back.

Each board's sensor map gives the depth from the Hall element to each playing
surface; these layers are where those depths come from (a test checks that they
add up). Thicknesses are stock sizes: 2 mm cast acrylic, 1.6 mm FR-4, DIN 125
washers; the Hall element's place in its package is from the DRV5055 drawing.
"""

from __future__ import annotations

from dataclasses import dataclass

from lawmaster.hardware.magnetics.data import HALL_ELEMENT_BELOW_TOP_MM, SOT23_HEIGHT_MM


@dataclass(frozen=True)
class Layer:
    """One layer: what it is, its thickness (mm) and which side of the sensor it is on."""

    what: str
    thickness_mm: float
    side: str  # "front" or "back" of the Hall element


ELEMENT_TO_TOP = HALL_ELEMENT_BELOW_TOP_MM
ELEMENT_TO_BOTTOM = SOT23_HEIGHT_MM - HALL_ELEMENT_BELOW_TOP_MM

STACKS: dict[str, tuple[Layer, ...]] = {
    "gw-brott": (
        Layer(
            "clear cast acrylic, criminals' face; the board print behind it; M4 DIN 125"
            " steel washers (Ø9/Ø4.3 × 0.8 mm) glued into 1.0 mm pockets milled from"
            " behind, so 1.0 mm of acrylic lies over each",
            2.0,
            "front",
        ),
        Layer("spacer frame (air) down to the sensors' tops", 4.2, "front"),
        Layer("DRV5055 package above its Hall element", ELEMENT_TO_TOP, "front"),
        Layer("DRV5055 package below its Hall element", ELEMENT_TO_BOTTOM, "back"),
        Layer("sensor PCB, FR-4", 1.6, "back"),
        Layer("adhesive film and GW's board print", 0.2, "back"),
        Layer("clear cast acrylic, GW's face", 2.0, "back"),
    ),
    "judge-dredd": (
        Layer("board face: printed map on 3 mm MDF", 3.0, "front"),
        Layer("air gap to the sensors' tops", 0.3, "front"),
        Layer("DRV5055 package above its Hall element", ELEMENT_TO_TOP, "front"),
    ),
    "unamerican-graffiti": (
        Layer("board face: printed map on 3 mm MDF", 3.0, "front"),
        Layer("air gap to the sensors' tops", 0.3, "front"),
        Layer("DRV5055 package above its Hall element", ELEMENT_TO_TOP, "front"),
    ),
}


def depth(game: str, side: str = "front") -> float:
    """Hall element to the playing surface of ``side`` (mm), summed from the layers."""
    return round(sum(layer.thickness_mm for layer in STACKS[game] if layer.side == side), 3)


#: Room under the flat boards' sensor pieces (mm): they hang on standoffs under the map and
#: their back face looks down into the board's base. An assumption until the base frame's
#: drawing sets it: 8 mm of the frame's depth is kept free for the pieces' back-face parts
#: (multiplexer, connectors, cables) and nothing else.
FLAT_BOARD_BACK_ROOM_MM = 8.0


def _room_layer(layer: Layer) -> bool:
    """A layer that is empty room beside the sensor PCB (air, or the sensors' own height)."""
    return "air" in layer.what or layer.what.startswith("DRV5055 package")


def part_space_mm(board: str, side: str) -> float:
    """Room for parts on the sensor PCB's ``side`` face ("front" or "back"), mm; 0.0 for a face
    glued to the next layer.

    The front face has the sensors' own height plus the air above them up to
    the first solid layer (GW:s brott 1.1 + 4.2 = 5.3 mm; the flat boards 1.1 +
    0.3 = 1.4 mm under the map's MDF). The back face of GW:s brott's PCB is
    glued to GW's acrylic (no room at all); the flat boards' pieces have
    :data:`FLAT_BOARD_BACK_ROOM_MM` under them.
    """
    layers = STACKS[board]
    if side == "front":
        air = sum(la.thickness_mm for la in layers if la.side == "front" and "air" in la.what)
        return round(air + SOT23_HEIGHT_MM, 3)
    if side != "back":
        raise ValueError(f"a face is 'front' or 'back', not {side!r}")
    after_pcb = False
    for layer in layers:
        if "sensor PCB" in layer.what:
            after_pcb = True
            continue
        if after_pcb:
            if "adhesive" in layer.what or "glue" in layer.what:
                return 0.0
            if not _room_layer(layer):
                break
    return FLAT_BOARD_BACK_ROOM_MM if not after_pcb else 0.0
