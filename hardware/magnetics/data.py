"""Datasheet and material values the magnetics use, each with where it comes from.

Every number here is quoted beside its source in ``hardware/MAGNETICS.md``
(the doc is generated from these, so the two cannot drift apart).
"""

from __future__ import annotations

from dataclasses import dataclass

#: Remanence range Br (tesla) of sintered NdFeB grades, min and max, as the
#: MMPA 0100-00 standard and magnet makers' grade tables give them. The
#: simulator uses the middle; margins use the weak end for a piece's own
#: reading and the strong end for what it does to its neighbours.
GRADE_BR_T: dict[str, tuple[float, float]] = {
    "N35": (1.17, 1.21),
    "N38": (1.21, 1.25),
    "N42": (1.28, 1.32),
    "N45": (1.32, 1.36),
    "N48": (1.37, 1.42),
    "N52": (1.42, 1.47),
}
GRADE_SOURCE = "MMPA 0100-00 / makers' NdFeB grade tables (e.g. N42 1.28-1.32 T, N35 1.17-1.21 T)"

NDFEB_DENSITY_G_MM3 = 7.5e-3
NDFEB_DENSITY_SOURCE = "sintered NdFeB 7.4-7.6 g/cm³ (makers' data sheets); 7.5 used"

#: Recoil permeability of sintered NdFeB is about 1.05, so magnets are treated as
#: rigid (fields add up); only the soft-steel keepers respond to the field.
NDFEB_RIGID_SOURCE = "NdFeB recoil permeability ≈ 1.05: treated as rigid, fields superpose"

#: Initial relative permeability of low-carbon steel washers is several hundred to
#: a few thousand; a 1 mm ring's response is set by its shape once χ ≫ 1, so the
#: value matters little (the doc reports the change from 200 to 2000).
STEEL_CHI = 500.0
STEEL_CHI_SOURCE = "low-carbon steel initial μr ≈ 200-2000 (handbook range); χ = 500 used, linear"
STEEL_SATURATION_T = 1.5
STEEL_SATURATION_SOURCE = "low-carbon steel saturates near 1.5-2.1 T: the linear model holds below"


@dataclass(frozen=True)
class Friction:
    """A static friction coefficient range for a base material on the acrylic surface."""

    low: float
    high: float
    source: str


#: Static friction, base material against the board's acrylic (PMMA) face. Ranges from
#: the "Static Coefficients of Friction for Various Engineering Materials" table
#: (designengineers.blogspot.com, 2008): PMMA 0.60-0.70, PTFE 0.10-0.25, dry wood
#: 0.30-0.50. Holding uses the low end; dragging (a piece that must follow a
#: magnet, or must not be dragged) uses whichever end is worse for that case.
FRICTION: dict[str, Friction] = {
    "acrylic": Friction(0.60, 0.70, "PMMA (acrylic) static 0.60-0.70, engineering materials table"),
    "ptfe": Friction(0.10, 0.25, "PTFE (Teflon) static 0.10-0.25, engineering materials table"),
    "wood": Friction(0.30, 0.50, "dry wood static 0.30-0.50, engineering materials table"),
    "rubber": Friction(1.0, 4.0, "natural rubber static 1.0-4.0, engineering materials table"),
}

G = 9.81


@dataclass(frozen=True)
class HallVariant:
    """One DRV5055 sensitivity option at VCC = 3.3 V."""

    part: str
    sensitivity_mv_per_mt: float
    linear_range_mt: float


#: TI DRV5055 (SBAS640), sensitivity and linear range at VCC = 3.3 V: the datasheet
#: gives 100/50/25/12.5 mV/mT at 5 V and scales ratiometrically (60/30/15/7.5 at 3.3 V),
#: linear range ±22/±44/±88/±176 mT at 3.3 V.
DRV5055 = {
    "DRV5055A1": HallVariant("DRV5055A1", 60.0, 22.0),
    "DRV5055A2": HallVariant("DRV5055A2", 30.0, 44.0),
    "DRV5055A3": HallVariant("DRV5055A3", 15.0, 88.0),
    "DRV5055A4": HallVariant("DRV5055A4", 7.5, 176.0),
}
DRV5055_SOURCE = "TI DRV5055 data sheet SBAS640, Electrical and Magnetic Characteristics (3.3 V)"

#: Input-referred noise density of the DRV5055 at 3.3 V and its 20 kHz bandwidth.
HALL_NOISE_NT_RTHZ = 215.0
HALL_BANDWIDTH_HZ = 20e3
HALL_NOISE_SOURCE = (
    "DRV5055 input-referred noise density, typical, taken as 215 nT/√Hz at 3.3 V"
    " (130 nT/√Hz at 5 V), over its 20 kHz sensing bandwidth (SBAS640; assumption to"
    " re-check against the current revision)"
)

#: RP2040 ADC effective number of bits, measured (datasheet §4.9.3, erratum RP2040-E11).
ADC_ENOB = 8.7
ADC_ENOB_SOURCE = "RP2040 data sheet §4.9.3: ENOB 8.7 bits measured (9 simulated), erratum E11"

#: Where the Hall element sits in the SOT-23 (DBZ) package, below its branded top face.
HALL_ELEMENT_BELOW_TOP_MM = 0.7
SOT23_HEIGHT_MM = 1.1
HALL_ELEMENT_SOURCE = (
    "DRV5055 SBAS640 'Hall Element Location' figure: element ≈0.7 mm under the top of"
    " the ≈1.1 mm SOT-23 body (read off the drawing, ±0.1 mm)"
)


def noise_counts(part: str, supply_v: float = 3.3) -> float:
    """RMS noise of one reading in u16 counts: the sensor's own noise and the ADC's.

    The ADC's share is that of an ideal converter of ``ADC_ENOB`` bits (quantisation
    of a full-scale step 2**-ENOB: q/√12); the sensor's is its noise density over its
    bandwidth, through its sensitivity. Both are referred to the u16 scale the
    scanner reports (65536 counts = the supply, ratiometric).
    """
    variant = DRV5055[part]
    adc = 65536 / (2**ADC_ENOB * 12**0.5)
    hall_mt = HALL_NOISE_NT_RTHZ * 1e-6 * HALL_BANDWIDTH_HZ**0.5
    hall = hall_mt * variant.sensitivity_mv_per_mt / (supply_v * 1000) * 65536
    return (adc * adc + hall * hall) ** 0.5
