"""The parts of the design, defined here with their pins (SKiDL templates, no KiCad library).

Each :class:`PartSpec` names a real, buyable part: what it is, its value, its
package and footprint (``Lawmaster:<name>``, the project's own footprint
library, :mod:`.footprints`), an example order number, its pins (number, name,
electrical type for ERC), and how tall it stands on its board face, with the
source of that height (:class:`Height`): the sensor pieces' faces leave 4.55 mm
(GW:s brott) or 1.34 mm (the flat boards) and ``lawmaster hardware check``
fails a part that does not fit (``parts_fit``). :func:`template` turns a spec
into a SKiDL template (``tool=SKIDL, dest=TEMPLATE``) that :mod:`.circuits`
instantiates. Module parts (the Pico, the buck converter, the PN532 breakout,
the Pi's header) are defined by their header pins as printed on the module.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from typing import Any

from .footprints import ref as footprint
from .skidl_quiet import skidl

PASSIVE, INPUT, OUTPUT, BIDIR = "PASSIVE", "INPUT", "OUTPUT", "BIDIR"
PWRIN, PWROUT, NC, OPENCOLL = "PWRIN", "PWROUT", "NOCONNECT", "OPENCOLL"

SMD, THT, WIRED = "smd", "tht", "wired"
#: The order number of a part that is only copper of the board (a test pad).
NOTHING_TO_BUY = "none (copper on the board)"


@dataclass(frozen=True)
class Height:
    """How far a part stands above its board face (mm), and below the other face.

    ``above_mm`` is the part's highest point over the face it is mounted on;
    ``leads_mm`` how far its through-hole leads (or its socket's pins) stick out
    of the opposite face once trimmed (0 for a surface-mount part). ``source``
    is the datasheet figure or the stated assumption behind it.
    """

    above_mm: float
    leads_mm: float
    source: str


#: Trimmed through-hole leads stick out this far under the board (IPC-A-610 asks for the
#: lead to be visible beyond the solder, ≤ 2.5 mm; 1.5 mm is what flush cutters leave).
LEAD_TRIM_MM = 1.5


@dataclass(frozen=True)
class PartSpec:
    """One kind of part: BOM fields, pins ``(number, name, type)`` and its height."""

    key: str
    prefix: str
    description: str
    value: str
    package: str
    footprint: str
    mpn: str
    pins: tuple[tuple[str, str, str], ...]
    height: Height
    mount: str = SMD
    #: What else one of these needs to be bought with: (quantity, item, example).
    extras: tuple[tuple[int, str, str], ...] = ()

    @property
    def bought(self) -> bool:
        """False for what is only copper of the PCB (a test pad): nothing to order."""
        return self.mpn != NOTHING_TO_BUY


def _two(kind: str = PASSIVE) -> tuple[tuple[str, str, str], ...]:
    return (("1", "1", kind), ("2", "2", kind))


def _sh(count: int) -> tuple[tuple[str, str, str], ...]:
    return tuple((str(n), str(n), PASSIVE) for n in range(1, count + 1))


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

#: 74HC4067: pin number per name (the same in TSSOP-24, SO-24 and DIP-24).
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


#: The Adafruit PN532 breakout v1.6 (product 364): its header pins, numbered and named as on
#: Adafruit's board file (adafruit/Adafruit-PN532-RFID-NFC-Breakout,
#: "Adafruit PN532_Breakout_v1.6.brd", the signal on each header pad): JP4 the 8-pin header,
#: JP5 the lone 5.0V pin, JP3 the 12-pin header. RSTPD_N, the reader's reset/power-down
#: input, is JP3 pin 11; JP4 pin 6 is RSTOUT_N, the chip's reset *output*.
PN532_PINS: tuple[tuple[str, str, str], ...] = (
    ("JP4-1", "VDD", PWRIN), ("JP4-2", "SCK", BIDIR), ("JP4-3", "MISO", BIDIR),
    ("JP4-4", "MOSI/SDA/TX", BIDIR), ("JP4-5", "NSS/SCL/RX", BIDIR),
    ("JP4-6", "RSTOUT_N", OUTPUT), ("JP4-7", "IRQ", OUTPUT), ("JP4-8", "GND", PWRIN),
    ("JP5-1", "5.0V", PASSIVE),
    ("JP3-1", "AUX1", BIDIR), ("JP3-2", "AUX2", BIDIR), ("JP3-3", "P30/UART_RX", BIDIR),
    ("JP3-4", "P31", BIDIR), ("JP3-5", "P32", BIDIR), ("JP3-6", "P33", BIDIR),
    ("JP3-7", "P34/SIC_CLK", BIDIR), ("JP3-8", "P35", BIDIR), ("JP3-9", "SIGOUT", BIDIR),
    ("JP3-10", "SIGIN", BIDIR), ("JP3-11", "RSTPD_N", INPUT), ("JP3-12", "GND", PWRIN),
)  # fmt: skip

_SOCKET = "Samtec SSW series socket strip: 8.51 mm (0.335 in) insulator height"
_JST_SH = (
    "JST SH catalog (eSH): side-entry SMxxB-SRSS-TB, mounting height 2.95 mm; contact"
    " resistance 20 mΩ max initial; 1.0 A per contact (AWG 28)"
)

SPECS: dict[str, PartSpec] = {
    spec.key: spec
    for spec in [
        PartSpec(
            "pico", "U", "Raspberry Pi Pico H (RP2040, headers fitted), the scanner, in a socket",
            "Pico", "module, 2 × 20 pins", footprint("RPi_Pico_SMD_TH"),
            "Raspberry Pi SC0917 (Pico H)", PICO_PINS,
            Height(
                8.51 + 1.0 + 3.0, LEAD_TRIM_MM,
                f"{_SOCKET}, plus the Pico's 1.0 mm board and its tallest part (micro-USB"
                " receptacle and BOOTSEL button, about 3 mm: Raspberry Pi Pico datasheet,"
                " mechanical drawing); assumption for the last figure",
            ),
            THT,
            ((2, "1 × 20 female header, 2.54 mm (the Pico's socket)", "Samtec SSW-120-01-T-S"),),
        ),
        PartSpec(
            "hc4067", "U", "16-channel analog multiplexer", "74HC4067", "TSSOP-24",
            footprint("TSSOP-24_4.4x7.8mm_P0.65mm"), "Nexperia 74HC4067PW,118", HC4067_PINS,
            Height(
                1.1, 0.0,
                "Nexperia 74HC4067 datasheet, package outline SOT355-1 (TSSOP24): A max 1.1 mm",
            ),
        ),
        PartSpec(
            "drv5055", "H", "ratiometric linear hall sensor, 3.3 V", "DRV5055A3",
            "SOT-23", footprint("SOT-23"), "TI DRV5055A3QDBZR",
            (("1", "VCC", PWRIN), ("2", "OUT", OUTPUT), ("3", "GND", PWRIN)),
            Height(1.12, 0.0, "TI DRV5055 datasheet (SBAS640), DBZ (SOT-23) outline: 1.12 mm max"),
        ),
        PartSpec(
            "c100n", "C", "ceramic capacitor, X7R, 50 V (decoupling)", "100nF", "0603",
            footprint("C_0603_1608Metric"), "Murata GRM188R71H104KA93D", _two(),
            Height(0.9, 0.0, "Murata GRM188 series: thickness 0.8 ± 0.1 mm"),
        ),
        PartSpec(
            "c10u", "C", "ceramic capacitor, X5R, 10 V (bulk)", "10uF", "0805",
            footprint("C_0805_2012Metric"), "Murata GRM21BR61A106KE19L", _two(),
            Height(1.35, 0.0, "Murata GRM21B (thickness code B): 1.25 ± 0.1 mm"),
        ),
        PartSpec(
            "buck", "PS", "3.3 V step-down regulator module, 5.5 A", "D36V50F3",
            "module, 5 pins", footprint("Pololu_D36V50Fx"), "Pololu D36V50F3",
            (("1", "VIN", PWRIN), ("2", "GND", PWRIN), ("3", "VOUT", PWROUT),
             ("4", "EN", INPUT), ("5", "PG", OPENCOLL)),
            Height(
                10.0, LEAD_TRIM_MM,
                "Pololu D36V50Fx: a 1 × 1 inch board whose inductor stands about 7 mm; with"
                " 1 mm of foam tape under it 10 mm is taken (assumption); its five wires"
                " solder into through-hole pads",
            ),
            WIRED,
            ((1, "double-sided foam tape, 25 × 25 mm (holds the buck module)", "3M 4026"),),
        ),
        PartSpec(
            "inductor", "L", "shielded power inductor, 10 µH, 6.5 A (the sensor rail's filter)",
            "10uH", "12 × 12 mm SMD", footprint("L_Bourns_SRR1210A"), "Bourns SRR1210A-100M",
            _two(),
            Height(
                10.0, 0.0,
                "Bourns SRR1210A series datasheet, product dimensions: 12 × 12 × 10 mm",
            ),
        ),
        PartSpec(
            "jack", "J", "DC barrel jack, 2.1 mm centre positive (for the 12 V supply)",
            "12V in", "THT", footprint("BarrelJack_CUI_PJ-102AH_Horizontal"),
            "CUI Devices PJ-102AH",
            (("1", "+", PWROUT), ("2", "-", PWROUT), ("3", "SW", PASSIVE)),
            Height(11.0, LEAD_TRIM_MM, "CUI PJ-102AH datasheet: body 11.0 mm high"),
            THT,
        ),
        PartSpec(
            "fuse", "F", "chip fuse, very fast acting, 1 A (12 V input)", "1A",
            "1206", footprint("Fuse_1206_3216Metric"), "Littelfuse 0466001.NR", _two(),
            Height(
                1.0, 0.0,
                "Littelfuse 466 series (1206 chip fuse): under 1.0 mm; 1.0 mm taken (assumption)",
            ),
        ),
        PartSpec(
            "schottky", "D", "Schottky diode, 40 V 1 A (reverse-polarity protection, in series)",
            "SS14", "SMA", footprint("D_SMA"), "Vishay SS14-E3/61T",
            (("1", "K", PASSIVE), ("2", "A", PASSIVE)),
            Height(2.44, 0.0, "DO-214AC (SMA) package outline: 2.44 mm max"),
        ),
        PartSpec(
            "tvs", "D", "TVS diode, 15 V stand-off, 400 W (12 V input surge clamp)",
            "SMAJ15A", "SMA", footprint("D_SMA"), "Littelfuse SMAJ15A",
            (("1", "K", PASSIVE), ("2", "A", PASSIVE)),
            Height(2.44, 0.0, "DO-214AC (SMA) package outline: 2.44 mm max"),
        ),
        PartSpec(
            "testpoint", "TP", "test point: a bare 1.5 mm copper pad (nothing to buy)", "TP",
            "pad", footprint("TestPoint_Pad_D1.5mm"), NOTHING_TO_BUY,
            (("1", "1", PASSIVE),),
            Height(0.0, 0.0, "a bare copper pad: nothing stands on it"),
        ),
        PartSpec(
            "jst6", "J", "JST SH 1.0 mm header, 6 ways, side entry (satellite pod cable)",
            "SH 6", "SMD", footprint("JST_SH_SM06B-SRSS-TB_1x06-1MP_P1.00mm_Horizontal"),
            "JST SM06B-SRSS-TB", _sh(6), Height(2.95, 0.0, _JST_SH),
        ),
        PartSpec(
            "jst10", "J", "JST SH 1.0 mm header, 10 ways, side entry (satellite strip cable)",
            "SH 10", "SMD", footprint("JST_SH_SM10B-SRSS-TB_1x10-1MP_P1.00mm_Horizontal"),
            "JST SM10B-SRSS-TB", _sh(10), Height(2.95, 0.0, _JST_SH),
        ),
        PartSpec(
            "jst15", "J", "JST SH 1.0 mm header, 15 ways, side entry (sensor bus)",
            "SH 15", "SMD", footprint("JST_SH_SM15B-SRSS-TB_1x15-1MP_P1.00mm_Horizontal"),
            "JST SM15B-SRSS-TB", _sh(15), Height(2.95, 0.0, _JST_SH),
        ),
        PartSpec(
            "jumper", "J", "2-pin header and jumper (scanner safe mode)", "safe mode",
            "2.54 mm", footprint("PinHeader_1x02_P2.54mm_Vertical"), "Amphenol 68001-102HLF",
            _two(),
            Height(
                8.5, LEAD_TRIM_MM,
                "2.54 mm pin header: 2.5 mm plastic and 6 mm of pin (Amphenol 68001 drawing)"
                " = 8.5 mm; the shunt sits within it",
            ),
            THT,
            ((1, "2.54 mm jumper shunt", "Amphenol 68786-102LF"),),
        ),
        PartSpec(
            "pi", "J", "Raspberry Pi 4 Model B / Pi 5 40-pin header (the host)", "Raspberry Pi",
            "2 × 20 header", footprint("PinHeader_2x20_P2.54mm_Vertical"),
            "Raspberry Pi SC0193 (Pi 4, 2 GB)", _pi_pins(),
            Height(8.5, 0.0, "the Pi's own 2.54 mm header: 8.5 mm over its board (not on ours)"),
            THT,
        ),
        PartSpec(
            "pn532", "U", "PN532 NFC reader breakout (I2C/UART), Adafruit's header pins",
            "PN532", "module", footprint("Adafruit_PN532_Breakout"), "Adafruit 364",
            PN532_PINS,
            Height(
                4.0, LEAD_TRIM_MM,
                "Adafruit 364: a 1.6 mm board with SMD parts (about 2.5 mm); it hangs on"
                " jumper wires under the table's surface, not on our boards (assumption)",
            ),
            THT,
        ),
        PartSpec(
            "button", "SW", "momentary push button, 6 × 6 mm tactile (THT)", "push",
            "THT 6 × 6 mm", footprint("SW_PUSH_6mm"), "Omron B3F-1000", _two(),
            Height(4.3, LEAD_TRIM_MM, "Omron B3F datasheet: B3F-1000 is 4.3 mm high"), THT,
        ),
        PartSpec(
            "rgb", "D", "RGB LED, 5 mm diffused, common anode", "RGB CA", "THT 5 mm",
            footprint("LED_D5.0mm-4_RGB"), "Adafruit 159",
            (("1", "R", PASSIVE), ("2", "A", PASSIVE), ("3", "G", PASSIVE), ("4", "B", PASSIVE)),
            Height(8.7, LEAD_TRIM_MM, "5 mm LED: 8.7 mm body with flange (T-1 3/4 outline)"),
            THT,
        ),
        PartSpec(
            "npn", "Q", "NPN transistor, 45 V 800 mA (low-side switch)", "BC337-40", "TO-92",
            footprint("TO-92_Inline"), "onsemi BC33740TA",
            (("1", "C", PASSIVE), ("2", "B", INPUT), ("3", "E", PASSIVE)),
            Height(5.33, LEAD_TRIM_MM, "TO-92 (JEDEC TO-226AA) outline: body 5.33 mm max"), THT,
        ),
        PartSpec(
            "buzzer", "BZ", "active magnetic buzzer, 5 V, 12 mm (sounds when powered)",
            "5V active", "THT 12 mm", footprint("Buzzer_12x9.5RM7.6"),
            "PUI Audio AI-1223-TWT-5V-2-R",
            (("1", "+", PASSIVE), ("2", "-", PASSIVE)),
            Height(9.5, LEAD_TRIM_MM, "PUI AI-1223-TWT: Ø12 × 9.5 mm"), THT,
        ),
        PartSpec(
            "diode", "D", "small-signal diode (buzzer flyback)", "1N4148", "DO-35",
            footprint("D_DO-35_SOD27_P7.62mm_Horizontal"), "onsemi 1N4148",
            (("1", "K", PASSIVE), ("2", "A", PASSIVE)),
            Height(2.0, LEAD_TRIM_MM, "DO-35 outline: body Ø2.0 mm max, lying flat"), THT,
        ),
    ]
}  # fmt: skip

#: Resistor order numbers (Yageo CFR-25JB through-hole, 1/4 W, 5 %) by value.
RESISTOR = PartSpec(
    "resistor", "R", "carbon film resistor, 1/4 W, 5 %", "", "THT axial",
    footprint("R_Axial_DIN0207_L6.3mm_D2.5mm_P10.16mm_Horizontal"), "Yageo CFR-25JB-52-{code}",
    _two(),
    Height(2.5, LEAD_TRIM_MM, "DIN 0207 resistor: body Ø2.5 mm, lying flat"), THT,
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
