"""The TO-92 DRV5055 and the stripboard: dimensions, tolerances, mounting, sources.

**How the sensor is mounted, and why.** The DRV5055 senses the flux component
perpendicular to the top of its package: on the SOT-23 (DBZ) that is the face
that lies parallel to the PCB, in the TO-92 (LPG) the branded *flat face*, which
is vertical when the part stands on its leads (TI SBAS640, "Magnetic Flux
Direction": "the two package options provide different sensing directions").
Standing, it would read the field *along* the board, which is zero with a piece
centred over it and changes sign across the spot: useless for presence and
polarity. So every sensor lies **flat, branded face up** (towards the front
playing face, the way the SOT-23's branded face looks): its three leads are bent
90° down 1 mm from the body and go through three holes in one column of the
stripboard, across three strips. Face up keeps the sensor's polarity the SMD
route's (the firmware, the calibration and the maps' kinds are unchanged) and
puts the Hall element nearer the front face than face down would.

The leads are at 1.27 mm pitch in the LPG package; the outer two are spread to the
stripboard's 2.54 mm (pin 1 VCC and pin 3 OUT outwards, pin 2 GND straight).

Values read off TI's drawings here are marked as such; the Hall element's depth in
the LPG body is **reconstructed** (see :data:`ELEMENT_BELOW_FACE_MM`): measure a
part (or re-read the current data sheet's figure) before relying on the figures.
"""

from __future__ import annotations

# -- the TO-92 (LPG) DRV5055 ---------------------------------------------------------------
#: LPG body (TI package drawing LPG0003A, "TO-92 flat", in the DRV5055 data sheet SBAS640's
#: mechanical pages): width 4.00 mm (3.9-4.1), height 3.15 mm (3.05-3.25), thickness
#: 1.52 mm (1.42-1.62), leads 1.27 mm apart. Read off the drawing.
BODY_WIDTH_MM = 4.0
BODY_HEIGHT_MM = 3.15
BODY_THICK_MM = 1.52
BODY_THICK_TOL_MM = 0.10
LEAD_PITCH_MM = 1.27
BODY_SOURCE = (
    "TI LPG0003A package drawing (TO-92 flat, DRV5055 data sheet SBAS640): body 4.00 ×"
    " 3.15 mm, 1.52 mm thick (1.42-1.62), leads at 1.27 mm (read off the drawing)"
)

#: Hall element under the branded flat face (mm). TI's "Hall Element Location" figure
#: (SBAS640 §7.3.8) gives the element's place in both packages; for the LPG we take
#: 0.50 mm under the branded face, centred across the body's width. RECONSTRUCTED: the
#: figure could not be re-read for this change, so the value is from the figure as
#: recalled and its tolerance is widened to ±0.15 mm (the SOT-23's value in
#: ``magnetics/data.py`` is quoted ±0.1 mm). Re-check against the current revision.
ELEMENT_BELOW_FACE_MM = 0.50
ELEMENT_BELOW_FACE_TOL_MM = 0.15
#: Along the body (from its lead end), the element is taken at the middle of the face
#: (3.15 / 2 mm), ±0.3 mm: reconstructed as above; the ±0.3 mm is in the sensor's offset.
ELEMENT_ALONG_BODY_MM = BODY_HEIGHT_MM / 2
ELEMENT_ALONG_TOL_MM = 0.3
ELEMENT_SOURCE = (
    "DRV5055 SBAS640 'Hall Element Location' (LPG): element ≈0.50 mm under the branded"
    " flat face, centred across the body (RECONSTRUCTED from the figure as recalled, ±0.15"
    " mm taken; re-check against the current revision)"
)

#: Leads bent 90° this far from the body (mm): TI's TO-92 handling note asks for bends
#: away from the body; 1 mm is the usual minimum (assumption). The hole's centre is then
#: this plus half a lead's thickness (0.2 mm) from the body's lead end.
BEND_FROM_BODY_MM = 1.0
LEAD_HALF_MM = 0.2
#: How far the lying body may sit off the board's face (mm): lead bends by hand and a dot
#: of glue under it: 0.0-0.3 mm (assumption), taken as 0.15 ± 0.15.
BODY_LIFT_MM = 0.15
BODY_LIFT_TOL_MM = 0.15
LIFT_SOURCE = (
    "assumption: a TO-92 laid flat on its leads bent by hand, glued with a dot of"
    " cyanoacrylate: 0.0-0.3 mm off the board"
)

#: The Hall element over the stripboard's component face (mm) and its tolerance: body
#: thickness − element under the face + lift; tolerances added (worst case).
ELEMENT_HEIGHT_MM = round(BODY_THICK_MM - ELEMENT_BELOW_FACE_MM + BODY_LIFT_MM, 3)
ELEMENT_HEIGHT_TOL_MM = round(BODY_THICK_TOL_MM + ELEMENT_BELOW_FACE_TOL_MM + BODY_LIFT_TOL_MM, 3)
#: The tallest a lying sensor stands over the component face (mm).
SENSOR_TOP_MAX_MM = round(BODY_THICK_MM + BODY_THICK_TOL_MM + BODY_LIFT_MM + BODY_LIFT_TOL_MM, 3)
#: From the sensor's lead column to its Hall element, along the strips (mm).
ELEMENT_DX_MM = round(LEAD_HALF_MM + BEND_FROM_BODY_MM + ELEMENT_ALONG_BODY_MM, 3)

# -- the decoupling capacitor ---------------------------------------------------------------
#: 100 nF per sensor, as on the PCBs (TI asks for at least 0.01 µF at VCC): a radial
#: through-hole MLCC with 2.54 mm lead spacing (KEMET Goldmax C315 class, body about
#: 3.8 × 3.8 mm, 2.3 mm thick: assumption, check the part bought), laid flat like the
#: sensor, its leads in the VCC and GND strips one column before the sensor's.
CAP_THICK_MAX_MM = 2.3 + 0.2
CAP_SOURCE = (
    "assumption: a 100 nF radial MLCC, 2.54 mm lead spacing (KEMET Goldmax C315 class),"
    " ≤ 2.3 mm thick, laid flat (≤ 0.2 mm lift)"
)

# -- the stripboard ---------------------------------------------------------------------------
#: Hole pitch (mm): 0.1 in, the standard stripboard grid.
PITCH_MM = 2.54
#: Stripboard thickness (mm): 1.6 mm FR-4 or SRBP with 35 µm copper strips on one side;
#: makers give the nominal only, so the PCB fabs' ±10 % (IPC class 2) is taken.
BOARD_MM = 1.6
BOARD_TOL_MM = 0.16
BOARD_SOURCE = (
    "stripboard 1.6 mm (FR-4 or SRBP, 35 µm copper strips at 2.54 mm): makers give the"
    " nominal only; ±10 % taken (assumption, as IPC class 2 for 1.6 mm boards)"
)
#: How far a clipped lead and its joint stand out of the copper side (mm): leads clipped
#: to 1.0 mm at most (IPC-A-610 class 2 allows protrusion up to 2.5 mm; the builder clips
#: shorter, assumption).
COPPER_SIDE_MAX_MM = 1.0
COPPER_SIDE_SOURCE = (
    "assumption: every lead clipped to protrude at most 1.0 mm from the copper, its joint"
    " under that (IPC-A-610 class 2 allows up to 2.5 mm)"
)
#: How far a strip's copper reaches either side of its centre line (mm): 2.54 mm pitch,
#: about 0.5 mm gap between strips (assumption, typical stripboard).
STRIP_HALF_MM = 1.0
#: A mounting hole (M3 clearance) is drilled Ø3.2 mm.
MOUNT_HOLE_MM = 3.2

#: Where a sensor may sit off its spot besides the grid (mm): the board piece against the
#: print (0.4 mm, as the SMD route: M3 screws in Ø3.2 holes drilled from the same
#: template), a lead in its Ø1.0 mm hole and the body's lie after bending by hand (0.5
#: mm, assumption), and the element along the body (``ELEMENT_ALONG_TOL_MM``).
HAND_OFFSET_MM = round(0.4 + 0.5 + ELEMENT_ALONG_TOL_MM, 3)
HAND_OFFSET_SOURCE = (
    "assumption: the piece within 0.4 mm of the print (M3 screws in Ø3.2 mm holes), the"
    " bent TO-92 within 0.5 mm of where its holes put it, the element ±0.3 mm along the"
    " body (reconstructed), plus the 2.54 mm grid's worst snap on this board (the plan's)"
)
