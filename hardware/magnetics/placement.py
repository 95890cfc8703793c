"""How far off its spot's centre a player puts a piece, from the cell and piece sizes.

A player puts a piece so that its base lies wholly inside the space's outline:
any further out and the players themselves could not say which space it is on.
The centre of a base of diameter ``b`` in a square cell of pitch ``p`` can then
be ``(p − b)/2`` off centre towards a neighbour and ``√2`` times that towards a
corner; in a hexagon ``p`` across flats, ``p/2 − b/2`` towards a neighbour and
``(p/2 − b/2)/cos 30°`` towards a corner. GW:s brott's jail slots, and every
standing spot of a board with spot pockets (Judge Dredd, ``stack.SPOT_POCKETS``), are
pockets ``POCKET_CLEARANCE_MM`` wider than the piece's base (the template marks them
as cut-outs): the base drops in and stands within half that of the pocket's centre.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from lawmaster.hardware.magnetics.stack import SPOT_POCKETS
from lawmaster.hardware.sensor_map import SensorMap

POCKET_CLEARANCE_MM = 1.0
HEX_GAMES = frozenset({"unamerican-graffiti"})


@dataclass(frozen=True)
class Placement:
    """Worst offsets of a piece of base ``footprint_mm`` on a spot (mm)."""

    towards_neighbour: float
    worst: float


def placement(sensor_map: SensorMap, footprint_mm: float, *, pocket: bool = False) -> Placement:
    """The worst placement on a spot of ``sensor_map`` (or in a jail pocket)."""
    if pocket:
        e = POCKET_CLEARANCE_MM / 2
        return Placement(e, e)
    if sensor_map.game in SPOT_POCKETS:
        e = SPOT_POCKETS[sensor_map.game].clearance_mm / 2
        return Placement(e, e)
    e = max(0.0, (sensor_map.pitch_mm - footprint_mm) / 2)
    if sensor_map.game in HEX_GAMES:
        return Placement(e, e / math.cos(math.radians(30)))
    return Placement(e, e * math.sqrt(2))
