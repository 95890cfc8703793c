"""The footprint library the netlists and the boards use: ``hardware/footprints/Lawmaster.pretty``.

Every footprint field of the circuits reads ``Lawmaster:<name>``, so a netlist
from ``hardware/schematic/`` imports into KiCad's PCB editor with no manual
step once the library is in the project's ``fp-lib-table`` (one is written
beside the netlists and beside every board).

Two kinds of footprint live in the folder:

* copies of KiCad's own stock footprints (``kicad-footprints`` 6.0.11, CC-BY-SA
  4.0 with the KiCad library exception), committed unchanged: Debian's
  ``kicad`` installed with ``--no-install-recommends`` (what CI and
  ``scripts/dev-setup`` do) does not pull the footprint libraries, so the
  project ships the few it uses rather than depending on a 140 MB package;
* four written here (:data:`CUSTOM`): three KiCad does not have (the Pico on
  its sockets, the Pololu buck module's wire pads and the Adafruit PN532
  breakout's headers) and the rail filter's inductor, drawn from Bourns'
  recommended land pattern for the SRR1210A (KiCad has one, but the project's
  Debian install does not carry the stock libraries).
"""

from __future__ import annotations

from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
NICKNAME = "Lawmaster"
LIBRARY = ROOT / "hardware" / "footprints" / f"{NICKNAME}.pretty"

#: Stock KiCad footprints copied into the library (name → KiCad library it came from).
STOCK: dict[str, str] = {
    "SOT-23": "Package_TO_SOT_SMD",
    "C_0603_1608Metric": "Capacitor_SMD",
    "C_0805_2012Metric": "Capacitor_SMD",
    "TSSOP-24_4.4x7.8mm_P0.65mm": "Package_SO",
    "JST_SH_SM06B-SRSS-TB_1x06-1MP_P1.00mm_Horizontal": "Connector_JST",
    "JST_SH_SM10B-SRSS-TB_1x10-1MP_P1.00mm_Horizontal": "Connector_JST",
    "JST_SH_SM15B-SRSS-TB_1x15-1MP_P1.00mm_Horizontal": "Connector_JST",
    "BarrelJack_CUI_PJ-102AH_Horizontal": "Connector_BarrelJack",
    "PinHeader_1x02_P2.54mm_Vertical": "Connector_PinHeader_2.54mm",
    "PinHeader_2x20_P2.54mm_Vertical": "Connector_PinHeader_2.54mm",
    "SW_PUSH_6mm": "Button_Switch_THT",
    "LED_D5.0mm-4_RGB": "LED_THT",
    "TO-92_Inline": "Package_TO_SOT_THT",
    "Buzzer_12x9.5RM7.6": "Buzzer_Beeper",
    "D_DO-35_SOD27_P7.62mm_Horizontal": "Diode_THT",
    "R_Axial_DIN0207_L6.3mm_D2.5mm_P10.16mm_Horizontal": "Resistor_THT",
    "Fuse_1206_3216Metric": "Fuse",
    "D_SMA": "Diode_SMD",
    "TestPoint_Pad_D1.5mm": "TestPoint",
    "TestPoint_Keystone_5000-5004_Miniature": "TestPoint",
    "MountingHole_3.2mm_M3": "MountingHole",
}


def ref(name: str) -> str:
    """The footprint field of a part: ``Lawmaster:<name>``."""
    if name not in STOCK and name not in CUSTOM:
        raise KeyError(f"{name} is not in the {NICKNAME} footprint library")
    return f"{NICKNAME}:{name}"


def path(name: str) -> Path:
    """The ``.kicad_mod`` file of a footprint."""
    return LIBRARY / f"{name}.kicad_mod"


# -- the three footprints KiCad does not have ------------------------------------------------


def _num(value: float) -> str:
    text = f"{value:.4f}".rstrip("0").rstrip(".")
    return "0" if text in ("-0", "") else text


def _line(x1: float, y1: float, x2: float, y2: float, layer: str, width: float) -> str:
    return (
        f"  (fp_line (start {_num(x1)} {_num(y1)}) (end {_num(x2)} {_num(y2)})"
        f' (layer "{layer}") (width {_num(width)}))'
    )


def _rect(x1: float, y1: float, x2: float, y2: float, layer: str, width: float) -> list[str]:
    return [
        _line(x1, y1, x2, y1, layer, width),
        _line(x2, y1, x2, y2, layer, width),
        _line(x2, y2, x1, y2, layer, width),
        _line(x1, y2, x1, y1, layer, width),
    ]


def _text(kind: str, text: str, x: float, y: float, layer: str, size: float = 1.0) -> str:
    thick = _num(size * 0.15)
    return (
        f'  (fp_text {kind} "{text}" (at {_num(x)} {_num(y)}) (layer "{layer}")\n'
        f"    (effects (font (size {_num(size)} {_num(size)}) (thickness {thick})))\n  )"
    )


def _tht(number: str, x: float, y: float, size: float, drill: float, square: bool = False) -> str:
    shape = "rect" if square else "circle"
    return (
        f'  (pad "{number}" thru_hole {shape} (at {_num(x)} {_num(y)}) (size {_num(size)}'
        f" {_num(size)}) (drill {_num(drill)}) (layers *.Cu *.Mask))"
    )


def _npth(x: float, y: float, drill: float) -> str:
    return (
        f'  (pad "" np_thru_hole circle (at {_num(x)} {_num(y)}) (size {_num(drill)}'
        f" {_num(drill)}) (drill {_num(drill)}) (layers *.Cu *.Mask))"
    )


def _footprint(name: str, descr: str, tags: str, body: list[str], through_hole: bool) -> str:
    attr = "through_hole" if through_hole else "smd"
    head = [
        f'(footprint "{name}" (version 20211014) (generator pcbnew)',
        '  (layer "F.Cu")',
        f'  (descr "{descr}")',
        f'  (tags "{tags}")',
        f"  (attr {attr})",
    ]
    return "\n".join([*head, *body, ")"]) + "\n"


#: The Pico's pins: two rows of 20 at 2.54 mm, 17.78 mm apart (Raspberry Pi Pico datasheet,
#: "Mechanical specification": 51 × 21 mm, pin 1 at the USB end on the left).
PICO_ROW_MM, PICO_PITCH_MM, PICO_SIZE_MM = 17.78, 2.54, (21.0, 51.0)


def pico() -> str:
    """Raspberry Pi Pico H on two 1 × 20 female sockets (through-hole pads, 1.0 mm drill)."""
    w, h = PICO_SIZE_MM
    body = [
        _text("reference", "REF**", 0, -h / 2 - 1.5, "F.SilkS"),
        _text("value", "RPi_Pico_SMD_TH", 0, h / 2 + 1.5, "F.Fab"),
        *_rect(-w / 2, -h / 2, w / 2, h / 2, "F.SilkS", 0.12),
        *_rect(-w / 2 - 0.25, -h / 2 - 0.25, w / 2 + 0.25, h / 2 + 0.25, "F.CrtYd", 0.05),
        *_rect(-4.0, -h / 2 - 1.3, 4.0, -h / 2, "F.SilkS", 0.12),  # the micro-USB end
        _text("user", "USB", 0, -h / 2 + 2.0, "F.SilkS"),
    ]
    top = -19 * PICO_PITCH_MM / 2
    for i in range(20):
        y = top + i * PICO_PITCH_MM
        body.append(_tht(str(i + 1), -PICO_ROW_MM / 2, y, 1.7, 1.02, square=i == 0))
        body.append(_tht(str(40 - i), PICO_ROW_MM / 2, y, 1.7, 1.02))
    return _footprint(
        "RPi_Pico_SMD_TH",
        "Raspberry Pi Pico (H) plugged into two 1x20 2.54 mm female sockets; the pads also take"
        " the Pico's castellations soldered straight down",
        "Raspberry Pi Pico RP2040 socket",
        body,
        True,
    )


#: The buck module's pins in the order of its part (:mod:`lawmaster.hardware.electronics.parts`).
POLOLU_PINS = ("VIN", "GND", "VOUT", "EN", "PG")
POLOLU_SIZE_MM = 25.4  # Pololu D36V50Fx product page: the board is 1" × 1"


def pololu() -> str:
    """Five labelled wire pads for the Pololu D36V50Fx and the module's 1" × 1" outline.

    The module is wired to the pads by name (short wires into the module's own
    0.1" holes) and sits flat on the outline on double-sided foam tape: the
    footprint does not claim to reproduce the module's pin grid.
    """
    s = POLOLU_SIZE_MM
    body = [
        _text("reference", "REF**", 0, -3.0, "F.SilkS"),
        _text("value", "Pololu_D36V50Fx", 0, s + 4.5, "F.Fab"),
    ]
    for i, name in enumerate(POLOLU_PINS):
        x = (i - 2) * 2.54
        body.append(_tht(str(i + 1), x, 0, 1.9, 1.1, square=i == 0))
        body.append(_text("user", name, x, 2.0, "F.SilkS", 0.7))
    # The module's place on the board, beside its pads.
    body += _rect(-s / 2, 3.2, s / 2, 3.2 + s, "F.SilkS", 0.12)
    body.append(_text("user", "D36V50F3 (foam tape)", 0, 3.2 + s / 2, "F.SilkS", 1.0))
    body += _rect(-s / 2 - 0.5, -1.5, s / 2 + 0.5, 3.7 + s, "F.CrtYd", 0.05)
    return _footprint(
        "Pololu_D36V50Fx",
        "Pololu D36V50Fx step-down module, wired by name to five 0.1 inch pads"
        " (VIN GND VOUT EN PG); the 1 x 1 inch module sits on the outline beside them",
        "Pololu regulator module",
        body,
        True,
    )


#: Adafruit PN532 breakout v1.6 (product 364), its header pads in the board's own coordinates
#: (adafruit/Adafruit-PN532-RFID-NFC-Breakout, "Adafruit PN532_Breakout_v1.6.brd": JP4 the
#: 8-pin header, JP5 the single 5.0V pin, JP3 the 12-pin header; Eagle's y points up).
PN532_HEADERS: tuple[tuple[str, int, tuple[float, float], tuple[float, float]], ...] = (
    ("JP4", 8, (116.534, 33.56), (0.0, -2.54)),
    ("JP5", 1, (116.534, 13.208), (0.0, 0.0)),
    ("JP3", 12, (109.614, 46.866), (-2.54, 0.0)),
)
PN532_OUTLINE_MM = (119.944, 50.0)
PN532_HOLES = ((4.944, 5.0), (4.944, 45.0), (114.944, 5.0), (114.944, 45.0))


def pn532_pads() -> list[tuple[str, float, float]]:
    """(pad number, x, y) of every header pin, KiCad coordinates (y down, origin top-left)."""
    height = PN532_OUTLINE_MM[1]
    pads = []
    for header, count, (x0, y0), (dx, dy) in PN532_HEADERS:
        for i in range(count):
            pads.append((f"{header}-{i + 1}", x0 + i * dx, height - (y0 + i * dy)))
    return pads


def pn532() -> str:
    """The Adafruit PN532 breakout's three headers, numbered as on Adafruit's board file."""
    w, h = PN532_OUTLINE_MM
    body = [
        _text("reference", "REF**", w / 2, -1.5, "F.SilkS"),
        _text("value", "Adafruit_PN532_Breakout", w / 2, h + 1.5, "F.Fab"),
        *_rect(0, 0, w, h, "F.SilkS", 0.12),
        *_rect(-0.25, -0.25, w + 0.25, h + 0.25, "F.CrtYd", 0.05),
    ]
    for number, x, y in pn532_pads():
        body.append(_tht(number, x, y, 1.7, 1.0, square=number.endswith("-1")))
    for x, y in PN532_HOLES:
        body.append(_npth(x, h - y, 3.0))
    return _footprint(
        "Adafruit_PN532_Breakout",
        "Adafruit PN532 NFC/RFID breakout v1.6 (product 364): headers JP4 (8), JP5 (5.0V) and"
        " JP3 (12) at their places on Adafruit's board",
        "PN532 NFC breakout Adafruit 364",
        body,
        True,
    )


#: Bourns SRR1210A (SRR1210A series datasheet): a 12 × 12 mm body, its two terminals under
#: the body's opposite edges; recommended layout: 2.8 × 5.3 mm pads, 10.1 mm centre to centre.
SRR1210A_BODY_MM, SRR1210A_PAD_MM, SRR1210A_PITCH_MM = 12.0, (2.8, 5.3), 10.1


def srr1210a() -> str:
    """The rail filter's inductor, Bourns SRR1210A, on its two SMD pads."""
    half = SRR1210A_BODY_MM / 2
    w, h = SRR1210A_PAD_MM
    x = SRR1210A_PITCH_MM / 2
    body = [
        _text("reference", "REF**", 0, -half - 1.3, "F.SilkS"),
        _text("value", "L_Bourns_SRR1210A", 0, half + 1.3, "F.Fab"),
        *_rect(-half, -half, half, half, "F.Fab", 0.1),
        _line(-half - 0.15, -half - 0.15, half + 0.15, -half - 0.15, "F.SilkS", 0.12),
        _line(-half - 0.15, half + 0.15, half + 0.15, half + 0.15, "F.SilkS", 0.12),
        *_rect(-x - w / 2 - 0.25, -half - 0.25, x + w / 2 + 0.25, half + 0.25, "F.CrtYd", 0.05),
    ]
    for number, cx in (("1", -x), ("2", x)):
        body.append(
            f'  (pad "{number}" smd rect (at {_num(cx)} 0) (size {_num(w)} {_num(h)})'
            ' (layers "F.Cu" "F.Paste" "F.Mask"))'
        )
    return _footprint(
        "L_Bourns_SRR1210A",
        "Bourns SRR1210A series shielded power inductor, 12 x 12 mm, the datasheet's"
        " recommended layout",
        "inductor Bourns SRR1210A",
        body,
        False,
    )


CUSTOM = {
    "RPi_Pico_SMD_TH": pico,
    "Pololu_D36V50Fx": pololu,
    "Adafruit_PN532_Breakout": pn532,
    "L_Bourns_SRR1210A": srr1210a,
}


def fp_lib_table(relative: str) -> str:
    """A project ``fp-lib-table`` naming the library, ``relative`` to the project's folder."""
    uri = "${KIPRJMOD}/" + relative
    return (
        "(fp_lib_table\n"
        f'  (lib (name "{NICKNAME}")(type "KiCad")(uri "{uri}")(options "")'
        '(descr "Lawmaster: the footprints its boards and netlists use"))\n'
        ")\n"
    )


def outputs(root: Path = ROOT) -> dict[Path, str]:
    """The generated part of the library: the custom footprints and its fp-lib-tables."""
    lib = root / "hardware" / "footprints" / f"{NICKNAME}.pretty"
    files = {lib / f"{name}.kicad_mod": make() for name, make in CUSTOM.items()}
    files[root / "hardware" / "schematic" / "fp-lib-table"] = fp_lib_table(
        f"../footprints/{NICKNAME}.pretty"
    )
    return files


def missing_stock(root: Path = ROOT) -> list[str]:
    """Stock footprints the committed library lacks (none, unless a file was lost)."""
    lib = root / "hardware" / "footprints" / f"{NICKNAME}.pretty"
    return [name for name in STOCK if not (lib / f"{name}.kicad_mod").exists()]
