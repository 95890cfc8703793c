"""How far a support (a screw through the cover, its spacer, the PCB and a standoff) stays
from every sensor: the one rule the supports and the PCBs' mounting holes both keep.

A support's spacer pad or standoff (radius 4 mm) and a sensor with its capacitor
(within 4 mm of its centre) with 2 mm between: :data:`SENSOR_KEEPOUT_MM`. Where the
cover has a pocket at every spot (Judge Dredd), the screw's countersunk head must
also stay clear of the pocket: half the pocket, the head's radius and 3.85 mm of the
cover between them.
"""

from __future__ import annotations

from lawmaster.hardware.magnetics import stack
from lawmaster.hardware.sensor_map import SensorMap

#: How far a support stays from a sensor's centre (mm).
SENSOR_KEEPOUT_MM = 10.0
#: A DIN 965 M3 countersunk head (Ø6.3) and 3.85 mm of the cover between it and a pocket.
POCKET_MARGIN_MM = 6.3 / 2 + 3.85


def clearance_mm(board: str) -> float:
    """How far a support must stay from a sensor's centre on ``board`` (mm)."""
    pockets = stack.SPOT_POCKETS.get(board)
    if pockets is None:
        return SENSOR_KEEPOUT_MM
    sm = SensorMap.load(board)
    base = max(m.footprint_mm for k in sm.kinds.values() for m in k.magnets)
    return max(SENSOR_KEEPOUT_MM, (base + pockets.clearance_mm) / 2 + POCKET_MARGIN_MM)
