"""The parts of the design, defined here with their pins (SKiDL templates, no KiCad library).

Each :class:`PartSpec` names a real, buyable part: what it is, its value, its
package and footprint, an example order number, and its pins (number, name,
electrical type for ERC). :func:`template` turns a spec into a SKiDL template
(``tool=SKIDL, dest=TEMPLATE``) that :mod:`.circuits` instantiates. Module
parts (the Pico, the buck converter, the PN532 breakout, the Pi's header) are
defined by their header pins as printed on the module.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from typing import Any

from .skidl_quiet import skidl

PASSIVE, INPUT, OUTPUT, BIDIR = "PASSIVE", "INPUT", "OUTPUT", "BIDIR"
PWRIN, PWROUT, NC, OPENCOLL = "PWRIN", "PWROUT", "NOCONNECT", "OPENCOLL"


@dataclass(frozen=True)
class PartSpec:
    """One kind of part: BOM fields plus pins ``(number, name, type)``."""

    key: str
    prefix: str
    description: str
    value: str
    package: str
    footprint: str
    mpn: str
    pins: tuple[tuple[str, str, str], ...]


def _two(kind: str = PASSIVE) -> tuple[tuple[str, str, str], ...]:
    return (("1", "1", kind), ("2", "2", kind))


PICO_PINS: tuple[tuple[str, str, str], ...] = tuple(
    (str(n), name, kind)
    for n, name, kind in [
        (1, "GP0", BIDIR), (2, "GP1", BIDIR), (3, "GND", PWRIN), (4, "GP2", BIDIR),
        (5, "GP3", BIDIR), (6, "GP4", BIDIR), (7, "GP5", BIDIR), (8, "GND", PWRIN),
        (9, "GP6", BIDIR), (10, "GP7", BIDIR), (11, "GP8", BIDIR), (12, "GP9", BIDIR),
        (13, "GND", PWRIN), (14, "GP10", BIDIR), (15, "GP11", BIDIR), (16, "GP12", BIDIR),
        (17, "GP13", BIDIR), (18, "GND", PWRIN), (19, "GP14", BIDIR), (20, "GP15", BIDIR),
        (21, "GP16", BIDIR), (22, "GP17", BIDIR), (23, "GND", PWRIN), (24, "GP18", BIDIR),
        (25, "GP19", BIDIR), (26, "GP20", BIDIR), (27, "GP21", BIDIR), (28, "GND", PWRIN),
        (29, "GP22", BIDIR), (30, "RUN", INPUT), (31, "GP26_ADC0", BIDIR),
        (32, "GP27_ADC1", BIDIR), (33, "AGND", PWRIN), (34, "GP28_ADC2", BIDIR),
        (35, "ADC_VREF", PASSIVE), (36, "3V3", PWRIN), (37, "3V3_EN", INPUT),
        (38, "GND", PWRIN), (39, "VSYS", PASSIVE), (40, "VBUS", PASSIVE),
    ]
)  # fmt: skip

#: 74HC4067 in SO-24 / DIP-24: pin number per name.
HC4067_PINS: tuple[tuple[str, str, str], ...] = (
    ("1", "Z", PASSIVE), ("2", "Y7", PASSIVE), ("3", "Y6", PASSIVE), ("4", "Y5", PASSIVE),
    ("5", "Y4", PASSIVE), ("6", "Y3", PASSIVE), ("7", "Y2", PASSIVE), ("8", "Y1", PASSIVE),
    ("9", "Y0", PASSIVE), ("10", "S0", INPUT), ("11", "S1", INPUT), ("12", "GND", PWRIN),
    ("13", "S3", INPUT), ("14", "S2", INPUT), ("15", "E", INPUT), ("16", "Y15", PASSIVE),
    ("17", "Y14", PASSIVE), ("18", "Y13", PASSIVE), ("19", "Y12", PASSIVE),
    ("20", "Y11", PASSIVE), ("21", "Y10", PASSIVE), ("22", "Y9", PASSIVE),
    ("23", "Y8", PASSIVE), ("24", "VCC", PWRIN),
)  # fmt: skip

#: The Raspberry Pi's 40-pin header: physical pin → name (BCM GPIO numbers).
PI_HEADER: dict[int, str] = {
    1: "3V3", 2: "5V", 3: "GPIO2", 4: "5V", 5: "GPIO3", 6: "GND", 7: "GPIO4", 8: "GPIO14",
    9: "GND", 10: "GPIO15", 11: "GPIO17", 12: "GPIO18", 13: "GPIO27", 14: "GND",
    15: "GPIO22", 16: "GPIO23", 17: "3V3", 18: "GPIO24", 19: "GPIO10", 20: "GND",
    21: "GPIO9", 22: "GPIO25", 23: "GPIO11", 24: "GPIO8", 25: "GND", 26: "GPIO7",
    27: "GPIO0", 28: "GPIO1", 29: "GPIO5", 30: "GND", 31: "GPIO6", 32: "GPIO12",
    33: "GPIO13", 34: "GND", 35: "GPIO19", 36: "GPIO16", 37: "GPIO26", 38: "GPIO20",
    39: "GND", 40: "GPIO21",
}  # fmt: skip


def _pi_pins() -> tuple[tuple[str, str, str], ...]:
    pins = []
    for number, name in PI_HEADER.items():
        kind = PWROUT if name in ("3V3", "5V") else PWRIN if name == "GND" else BIDIR
        pins.append((str(number), name, kind))
    return tuple(pins)


def pi_pin(gpio: int) -> int:
    """The physical header pin of a BCM GPIO number."""
    for number, name in PI_HEADER.items():
        if name == f"GPIO{gpio}":
            return number
    raise KeyError(f"GPIO{gpio} is not on the Pi's header")


SPECS: dict[str, PartSpec] = {
    spec.key: spec
    for spec in [
        PartSpec(
            "pico", "U", "Raspberry Pi Pico (RP2040), the scanner", "Pico", "module, 2 × 20 pins",
            "RPi_Pico_SMD_TH", "Raspberry Pi SC0915", PICO_PINS,
        ),
        PartSpec(
            "hc4067", "U", "16-channel analog multiplexer", "74HC4067", "SO-24",
            "SOIC-24W_7.5x15.4mm_P1.27mm", "Nexperia 74HC4067D,653", HC4067_PINS,
        ),
        PartSpec(
            "drv5055", "H", "ratiometric linear hall sensor, 3.3 V", "DRV5055A3",
            "SOT-23", "SOT-23", "TI DRV5055A3QDBZR",
            (("1", "VCC", PWRIN), ("2", "OUT", OUTPUT), ("3", "GND", PWRIN)),
        ),
        PartSpec(
            "c100n", "C", "ceramic capacitor, X7R, 50 V (decoupling)", "100nF", "0603",
            "C_0603_1608Metric", "Murata GRM188R71H104KA93D", _two(),
        ),
        PartSpec(
            "c10u", "C", "ceramic capacitor, X5R, 10 V (bulk)", "10uF", "0805",
            "C_0805_2012Metric", "Murata GRM21BR61A106KE19L", _two(),
        ),
        PartSpec(
            "buck", "PS", "3.3 V step-down regulator module, 5.5 A", "D36V50F3",
            "module, 5 pins", "Pololu_D36V50Fx", "Pololu D36V50F3",
            (("1", "VIN", PWRIN), ("2", "GND", PWRIN), ("3", "VOUT", PWROUT),
             ("4", "EN", INPUT), ("5", "PG", OPENCOLL)),
        ),
        PartSpec(
            "jack", "J", "DC barrel jack, 2.1 mm centre positive (for the 12 V supply)",
            "12V in", "THT", "BarrelJack_CUI_PJ-102AH_Horizontal", "CUI Devices PJ-102AH",
            (("1", "+", PWROUT), ("2", "-", PWROUT), ("3", "SW", PASSIVE)),
        ),
        PartSpec(
            "jumper", "J", "2-pin header and jumper (scanner safe mode)", "safe mode",
            "2.54 mm", "PinHeader_1x02_P2.54mm_Vertical", "Amphenol 68001-102HLF", _two(),
        ),
        PartSpec(
            "pi", "J", "Raspberry Pi 4 Model B / Pi 5 40-pin header (the host)", "Raspberry Pi",
            "2 × 20 header", "PinHeader_2x20_P2.54mm_Vertical", "Raspberry Pi SC0193 (Pi 4, 2 GB)",
            _pi_pins(),
        ),
        PartSpec(
            "pn532", "U", "PN532 NFC reader breakout (I2C/UART), RSTPD_N on its header", "PN532",
            "module", "Adafruit_PN532_Breakout", "Adafruit 364",
            (("1", "VCC", PWRIN), ("2", "GND", PWRIN), ("3", "SDA_TXD", BIDIR),
             ("4", "SCL_RXD", BIDIR), ("5", "IRQ", OUTPUT), ("6", "RSTPD_N", INPUT)),
        ),
        PartSpec(
            "button", "SW", "momentary push button, 6 × 6 mm tactile (THT)", "push",
            "THT 6 × 6 mm", "SW_PUSH_6mm", "Omron B3F-1000", _two(),
        ),
        PartSpec(
            "rgb", "D", "RGB LED, 5 mm diffused, common anode", "RGB CA", "THT 5 mm",
            "LED_D5.0mm-4_RGB", "Adafruit 159",
            (("1", "R", PASSIVE), ("2", "A", PASSIVE), ("3", "G", PASSIVE), ("4", "B", PASSIVE)),
        ),
        PartSpec(
            "npn", "Q", "NPN transistor, 45 V 800 mA (low-side switch)", "BC337-40", "TO-92",
            "TO-92_Inline", "onsemi BC33740TA",
            (("1", "C", PASSIVE), ("2", "B", INPUT), ("3", "E", PASSIVE)),
        ),
        PartSpec(
            "buzzer", "BZ", "active magnetic buzzer, 5 V, 12 mm (sounds when powered)",
            "5V active", "THT 12 mm", "Buzzer_12x9.5RM7.6", "PUI Audio AI-1223-TWT-5V-2-R",
            (("1", "+", PASSIVE), ("2", "-", PASSIVE)),
        ),
        PartSpec(
            "diode", "D", "small-signal diode (buzzer flyback)", "1N4148", "DO-35",
            "D_DO-35_SOD27_P7.62mm_Horizontal", "onsemi 1N4148",
            (("1", "K", PASSIVE), ("2", "A", PASSIVE)),
        ),
    ]
}  # fmt: skip

#: Resistor order numbers (Yageo CFR-25JB through-hole, 1/4 W, 5 %) by value.
RESISTOR = PartSpec(
    "resistor", "R", "carbon film resistor, 1/4 W, 5 %", "", "THT axial",
    "R_Axial_DIN0207_L6.3mm_D2.5mm_P10.16mm_Horizontal", "Yageo CFR-25JB-52-{code}", _two(),
)  # fmt: skip


def resistor_mpn(ohms: int) -> str:
    """Yageo's order code for a CFR-25JB resistor (``130`` → ``130R``, ``1000`` → ``1K``)."""
    if ohms >= 1000:
        kilo = ohms / 1000
        code = f"{int(kilo)}K" if kilo == int(kilo) else f"{kilo:g}".replace(".", "K")
    else:
        code = f"{ohms}R"
    return RESISTOR.mpn.format(code=code)


def resistor_value(ohms: int) -> str:
    """A resistor value as the BOM prints it: ``130R``, ``1k``, ``2k2``."""
    if ohms >= 1000:
        kilo = ohms / 1000
        return f"{int(kilo)}k" if kilo == int(kilo) else f"{kilo:g}".replace(".", "k")
    return f"{ohms}R"


_TYPES = {
    PASSIVE: "PASSIVE", INPUT: "INPUT", OUTPUT: "OUTPUT", BIDIR: "BIDIR",
    PWRIN: "PWRIN", PWROUT: "PWROUT", NC: "NOCONNECT", OPENCOLL: "OPENCOLL",
}  # fmt: skip


@cache
def template(key: str) -> Any:
    """The SKiDL template of a part (``"resistor"`` included)."""
    spec = RESISTOR if key == "resistor" else SPECS[key]
    pins = [
        skidl.Pin(num=num, name=name, func=getattr(skidl.Pin.types, _TYPES[kind]))
        for num, name, kind in spec.pins
    ]
    return skidl.Part(
        name=spec.key,
        tool=skidl.SKIDL,
        dest=skidl.TEMPLATE,
        ref_prefix=spec.prefix,
        footprint=spec.footprint,
        description=spec.description,
        pins=pins,
    )


def spec_of(key: str) -> PartSpec:
    """The spec behind a template key."""
    return RESISTOR if key == "resistor" else SPECS[key]
