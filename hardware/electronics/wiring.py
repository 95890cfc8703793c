"""``wiring.md``, generated from the circuits: every table is read off the SKiDL nets.

The prose around the tables (what to set on a module, why a pin is tied) is
written here beside the code that makes the tables, so the file as a whole
comes from one place; ``lawmaster hardware generate`` rewrites it.
"""

from __future__ import annotations

import dataclasses
from typing import Any

from lawmaster.host.sensing import rate

from .bom import HEADER, TITLES
from .budget import base_resistor, copper, heat, led_resistors, rails, ripple, settling
from .circuits import PI_REF, PICO_REF, PN532_REF, PN532_RESET_GPIO, Design
from .parts import PI_HEADER
from .pieces import (
    BUS_PINS,
    TEST_POINTS,
    channels,
    far_piece,
    global_ref,
    kind_circuit,
    plan,
    satellite_pins,
)
from .tables import grouped, others, pin_label, ranges


def _part(design: Design, ref: str) -> Any:
    for part in design.circuit.parts:
        if part.ref == ref:
            return part
    raise KeyError(ref)


RAILS = {
    "GND": "the GND rail (every part's ground; one tree from the buck's GND, see *Ground*)",
    "+3V3": "the +3V3 rail (every sensor's and multiplexer's VCC, the Pico's 3V3)",
    "+5V": "the +5V net",
    "+12V": "the +12V net (after the fuse and the reverse-polarity diode, into the buck)",
}


def _num_key(pin: Any) -> tuple[str, int]:
    """Pin order: header prefix, then number (``JP4-2`` before ``JP4-10``; ``3`` before ``12``)."""
    head, _, tail = pin.num.rpartition("-")
    return (head, int(tail) if tail.isdigit() else 0)


def _merged(rows: list[tuple[str, str, str]]) -> list[str]:
    """Table rows; the pins of a part on one supply rail share a row."""
    out: list[tuple[str, str, str]] = []
    seen: dict[str, int] = {}
    for label, net, where in rows:
        if net in RAILS and net in seen:
            old = out[seen[net]]
            out[seen[net]] = (f"{old[0]}, {label}", net, old[2])
            continue
        if net in RAILS:
            seen[net] = len(out)
            where = RAILS[net]
        out.append((label, net, where))
    return [f"| {a} | {b} | {c} |" for a, b, c in out]


def _pin_table(design: Design, ref: str, head: str) -> list[str]:
    """One row per connected pin of ``ref``: pin, net, what else is on the net."""
    part = _part(design, ref)
    rows = []
    for pin in sorted(part.pins, key=_num_key):
        if pin.net is None or pin.net.name == "__NOCONNECT":
            continue
        rest = [p for p in others(pin) if p.part is not part]
        rows.append((f"{pin.name} ({pin.num})", pin.net.name, grouped(rest) if rest else "—"))
    return [f"| {head} | net | goes to |", "|---|---|---|", *_merged(rows)]


def _pi_label(pin: Any) -> str:
    return f"{pin.name} (pin {pin.num})"


def _header_table(design: Design) -> list[str]:
    pi = _part(design, PI_REF)
    rows = []
    for pin in sorted(pi.pins, key=lambda p: int(p.num)):
        if pin.net is None or pin.net.name == "__NOCONNECT":
            continue
        rest = [p for p in others(pin) if p.part is not pi]
        where = grouped(rest)
        if pin.name == "GND":
            grounds = ", ".join(str(n) for n, v in PI_HEADER.items() if v == "GND")
            where = f"{where} (any GND pin: {grounds})"
        rows.append((_pi_label(pin), pin.net.name, where))
    merged = []
    for label, net, where in rows:
        if net == "GND" and any(r[1] == "GND" for r in merged):
            continue
        merged.append((label, net, where))
    return [
        "| Pi (BCM GPIO, header pin) | net | goes to |",
        "|---|---|---|",
        *[f"| {a} | {b} | {c} |" for a, b, c in merged],
    ]


def render(scanners: dict[str, Design], host_i2c: Design, host_uart: Design) -> str:
    """The whole wiring.md text."""
    gw = scanners["gw-brott"]
    tree = gw.tree
    assert tree is not None
    leds = led_resistors()
    base = base_resistor()
    ripple_figures = ripple()
    unfiltered = dataclasses.replace(ripple_figures, filter=None)
    lines = [
        HEADER,
        "",
        "# Wiring",
        "",
        "Every wire of a table. Pi pins are BCM GPIO numbers (what the table config uses) with",
        "the physical header pin; Pico pins are GPIO numbers with the physical pin; 74HC4067",
        "pins are the same in every package (the boards carry TSSOP-24). Every table below",
        "is read off the circuits in `hardware/electronics/` (the KiCad netlists of the same",
        "circuits are in",
        "`hardware/schematic/`); the parts are in `hardware/BOM.md`.",
        "",
        "## Scanner: power",
        "",
        "The sensors, the multiplexers and the Pico share one 3.3 V rail from a buck module",
        "fed by its own 12 V adapter (through the fuse F1, the reverse-polarity Schottky D3",
        "and the TVS D4), then through the rail filter (L1 into CF1-CF4, on the scanner",
        "board): the Pico's regulator is switched off (3V3_EN to GND) and the rail goes into",
        "its 3V3 pin, so the Pico's ADC_VREF (filtered from 3V3 on the",
        f"Pico, corner {ripple_figures.corner_hz:.0f} Hz) follows the very rail the DRV5055s",
        "are ratiometric to. Only changes slower than that corner cancel (the rail's",
        "tolerance, drift, load steps); the buck's switching ripple at"
        f" {ripple_figures.f_sw_hz / 1e3:.0f} kHz",
        "reaches the reference only through R9's 1/201 floor while a sensor's output moves",
        f"with it: up to {unfiltered.worst_rms:.0f} counts RMS in a reading in the worst case",
        f"straight off the buck, {ripple_figures.worst_rms:.2f} counts after the rail filter",
        '(`hardware/BUILD.md`, "Supply ripple at the ADC"). USB from the Pi carries data',
        "only (VBUS and VSYS stay unconnected). Worst-case currents (`lawmaster hardware check`):",
        "",
        "| rail | worst case | capacity | margin |",
        "|---|---|---|---|",
    ]
    for board, design in scanners.items():
        assert design.tree is not None
        for rail in rails(design.tree)[:2]:
            lines.append(
                f"| {TITLES[board]}: {rail.name} | {rail.worst_a:.3f} A | {rail.capacity_a:.2f} A"
                f" | {rail.margin:.2f} |"
            )
    lines += [
        "",
        "The 12 V input on the scanner board: barrel jack J1, then the 1 A fast fuse F1, the",
        "series Schottky D3 (a reversed adapter is blocked; the buck module withstands it",
        "too) and the TVS D4 (SMAJ15A) across the protected rail, which test point TP1",
        "reads. The buck module is wired to its five pads by name (see `hardware/BUILD.md`).",
        "",
        *_pin_table(gw, "PS1", "PS1 Pololu D36V50F3"),
        "",
        *_pin_table(gw, "J1", "J1 barrel jack"),
        "",
        *_pin_table(gw, "F1", "F1 fuse, 1 A"),
        "",
        *_pin_table(gw, "D3", "D3 SS14 (reverse polarity)"),
        "",
        *_pin_table(gw, "D4", "D4 SMAJ15A (surge)"),
        "",
    ]
    lines += [
        "Decoupling: a 100 nF ceramic beside every DRV5055 (`CH<channel>`, VCC to GND; the",
        "DRV5055 datasheet asks for at least 10 nF) and, at every 74HC4067, 100 nF at VCC",
        "(24) plus 10 µF bulk (`C<n>`, `CB<n+1>`); 10 µF at the buck's output (CB1).",
        "",
        "## Scanner: Pico ↔ multiplexers",
        "",
        "Drawn for GW:s brott; the other boards differ only in how many multiplexers hang on",
        "the same lines (see *Per board* below).",
        "",
        *_pin_table(gw, PICO_REF, f"Pico {PICO_REF}"),
        "",
        "Every 74HC4067's Ē (15) is tied to GND (always enabled). The safe-mode jumper J2 on",
        "GP22: fitted at boot = no scanning, the REPL stays usable.",
        "",
    ]
    if tree.second_level:
        lines += [
            "| first-level multiplexer | its Z (1) goes to |",
            "|---|---|",
        ]
        for m in range(tree.first_level):
            mux = _part(gw, f"U{m + 1}")
            rest = [p for p in others(mux.n["Z"]) if p.part is not mux]
            lines.append(f"| U{m + 1} | {grouped(rest)} |")
        lines.append("")
    lines += [
        "## Scanner: multiplexers ↔ sensors",
        "",
        "Channel `c` (what the sensor maps and the SCAN frames number) is input `Y(c % 16)`",
        "of first-level multiplexer `U(c // 16 + 1)`: hall sensor `H<c>`'s OUT goes straight",
        "to that input, nothing in series and no filter on the way to the ADC (settling",
        "below). 74HC4067 inputs: Y0 = 9, Y1 = 8, Y2 = 7, Y3 = 6, Y4 = 5, Y5 = 4, Y6 = 3,",
        "Y7 = 2, Y8 = 23, Y9 = 22, Y10 = 21, Y11 = 20, Y12 = 19, Y13 = 18, Y14 = 17, Y15 = 16.",
        "",
        *_pin_table(gw, "H0", "DRV5055 H0 (SOT-23)"),
        "",
        "Every other sensor likewise: VCC (1) to +3V3, OUT (2) to its multiplexer input,",
        "GND (3) to GND, its own 100 nF `CH<c>` beside it.",
        "",
        *_pieces_section(scanners),
        "### Per board",
        "",
        "| board | sensors | first-level | second-level | inputs tied to GND | scan rate |"
        " dwell per channel | settling (worst step to ½ LSB) |",
        "|---|---|---|---|---|---|---|---|",
    ]
    for board, design in scanners.items():
        t = design.tree
        assert t is not None
        s = settling(t)
        tied = []
        for part in design.circuit.parts:
            if part.ref.startswith("U") and part.ref != PICO_REF:
                for i in range(16):
                    pin = part.n[f"Y{i}"]
                    if pin.net is not None and pin.net.name == "GND":
                        tied.append(f"{part.ref}.Y{i}")
        lines.append(
            f"| {TITLES[board]} | {t.sensors} (H0–H{t.channels - 1}) | {t.first_level}"
            f" ({ranges(f'U{m + 1}' for m in range(t.first_level))}) | {t.second_level}"
            f" (U21) | {_compress_inputs(tied)} | {s.rate}/s | {s.dwell_us:.1f} µs |"
            f" {s.settle_us:.2f} µs |"
        )
    warm = heat_rows(scanners)
    lines += [
        "",
        "Settling after a select change, worst case (a full 2.9 V step through both",
        "multiplexer levels): switch-on, then the DRV5055's ±1 mA output slewing the nodes,",
        "then the two-pole RC of the multiplexers' on-resistance into their own and the",
        "ADC's capacitance, down to half an LSB of 12 bits. The firmware waits `settle_us`",
        "(`firmware/config.py`, at least this) after every select change before it",
        "converts; the figures and the datasheet values behind them are in",
        "`hardware/BUILD.md`. The scan rate is what the host asks: the fastest whose",
        "period the scan, measured on an emulated RP2040, fills to at most"
        f" {rate.HEADROOM:.0%}",
        "(`lawmaster bench --json pico`; the clock the firmware sets in bold):",
        "",
        rate.markdown_table(TITLES),
        "",
        "Unused inputs of a fitted multiplexer are tied to GND so a stray read is 0, never a",
        "floating node.",
        "",
        "Heat (all sensors at ICC max, settled): " + warm,
        "",
        *_test_points(scanners),
        *_ground(scanners),
        "## Panel: buttons, LED, buzzer (on the Pi's header)",
        "",
        "The default pins of `[panel]` in the table config; any free GPIO may be used",
        "instead (change the config to match).",
        "",
        *_header_table(host_i2c),
        "",
        "The panel's own wires (LED, switches, buzzer):",
        "",
        *_inner_nets(host_i2c),
        "",
        "- Buttons (confirm, undo, end turn) need no resistors: the Pi's internal pull-ups",
        "  hold the pins high and a press pulls them to ground.",
        "- The RGB LED is **common anode on 5 V**, each die's cathode through its resistor to",
        "  a BC337 (Q1-Q3) that the GPIO switches on: a pin high lights its colour, so the",
        "  config keeps `led_active_high = true`. A 3.3 V pin cannot light a green or blue",
        "  die directly (their forward voltage reaches 3.6 V). Resistors, computed from the",
        "  LED's forward voltage, the 5 V rail's tolerance and the switch's saturation",
        "  voltage (`hardware/electronics/budget.py`): "
        + ", ".join(
            f"{c} {r.ohms} Ω ({r.i_min * 1e3:.1f}–{r.i_max * 1e3:.1f} mA)" for c, r in leds.items()
        )
        + ".",
        f"- Every BC337's base has {base.ohms} Ω from its GPIO: {base.ib_min * 1e3:.2f}-"
        f"{base.ib_max * 1e3:.2f} mA, enough to saturate it at the largest load and within",
        "  the GPIO's 8 mA drive.",
        "- The buzzer is an *active* 5 V magnetic buzzer (sounds when powered), switched by",
        "  Q4 from GPIO18, with a 1N4148 across it (cathode to 5V) for the coil's kick-back:",
        "  one short beep when a move is accepted, two long beeps when it is illegal.",
        "",
        "## PN532 card reader",
        "",
        "One PN532 breakout per reader: Adafruit's breakout (product 364, v1.6) with its pins",
        "as Adafruit's board numbers them: the 8-pin header JP4 (1 VDD/3.3V, 2 SCK, 3 MISO,",
        "4 MOSI/SDA/TX, 5 NSS/SCL/RX, 6 RSTOUT_N, 7 IRQ, 8 GND), the 5.0V pin JP5 and the",
        "12-pin header JP3, whose pin 11 is RSTPD_N (JP4's RSTOUT_N is the chip's reset",
        "*output*, not the input the host drives). IRQ stays open: the driver polls.",
        "A table has either one shared reader or one per seat, so a played card is",
        'attributed to the seat that tapped it (`seat = "..."` in the reader\'s config block).',
        "Cards carry an NTAG213 sticker (NTAG215/216 also work); enrol them with",
        "`lawmaster enroll GAME`. Set the breakout's interface jumpers (SEL0/SEL1) before",
        "powering it: both off = UART (HSU), SEL0 on = I2C.",
        "",
        f"RSTPD_N goes to GPIO{PN532_RESET_GPIO}: with `reset_pin = {PN532_RESET_GPIO}` in the",
        "reader's config block the host pulls it low and high again before it opens the",
        "reader, so a PN532 that hangs is brought back by the program, not by unplugging it.",
        "",
        "### I2C on the Pi (one reader)",
        "",
        *_reader_table(host_i2c),
        "",
        "Enable I2C (`raspi-config` → Interface Options → I2C); the PN532 answers at 0x24",
        "(`i2cdetect -y 1`). That address is fixed, so only one PN532 fits on a bus: the",
        "config refuses a second I2C reader on the same bus and address. The PN532",
        "stretches the I2C clock; if reads fail now and then, lower the bus speed",
        "(`dtparam=i2c_arm_baudrate=...` in the Pi's `/boot/firmware/config.txt`) or use UART.",
        "",
        "### UART on the Pi's header (one reader)",
        "",
        *_reader_table(host_uart),
        "",
        "115200 baud, 8N1. Enable the UART and turn off the serial console (`raspi-config`",
        "→ Interface Options → Serial Port: login shell *no*, hardware *yes*); the port is",
        "`/dev/serial0`.",
        "",
        "### UART through USB-serial adapters (a reader per seat)",
        "",
        "| USB-serial adapter (3.3 V logic) | PN532 breakout |",
        "|---|---|",
        "| GND | GND (JP4-8) |",
        "| 3V3 | VDD (JP4-1) |",
        "| TXD | NSS/SCL/RX (JP4-5) |",
        "| RXD | MOSI/SDA/TX (JP4-4) |",
        "",
        "Give every adapter a stable name with a udev rule keyed on its serial number",
        "(`deploy/99-lawmaster.rules`) and use that name as the reader's `port`; the config",
        "refuses two readers on one port. Each reader's RSTPD_N may go to a free Pi GPIO",
        "(GPIO23, GPIO24, GPIO25, …) named as that reader's `reset_pin`; two readers cannot",
        "share one, nor a reader a panel pin. Keep readers a few centimetres apart so a card",
        "laid on one is not seen by its neighbour (a tag reads within 2-3 cm).",
        "",
        "## Pico ↔ Pi",
        "",
        "| Pico | Pi |",
        "|---|---|",
        "| micro-USB | any USB-A port (USB CDC serial, `/dev/ttyACM0`; data only) |",
        "",
        "Give it a stable name with a udev rule on the Pico's serial number",
        "(`/dev/serial/by-id/usb-MicroPython_Board_in_FS_mode_…`), so a re-plugged scanner",
        "comes back under the same path; `host.link.Link` reopens that path by itself.",
        "",
    ]
    return "\n".join(lines)


def _pieces_section(scanners: dict[str, Design]) -> list[str]:
    """The pieces each board is cut into, the bus and satellite cables and their pins."""
    lines = [
        "## Sensor pieces, the bus and the cables",
        "",
        "Each board is cut into PCBs of at most 100 × 100 mm (`hardware/electronics/pieces.py`;",
        "the PCBs and their files: `hardware/pcb/`). Pieces that carry multiplexers hang on",
        "one of three *chains* from the scanner board's bus connectors J3-J5; a piece takes",
        "the bus's first analog line(s) for its own multiplexer(s) and passes the rest on,",
        "shifted, so multiplexer `m = 3 × chain + position` and the channels of its sensors",
        "are `16m…16m + 15`. Every cable is pin k to pin k (JST SH 1.0 mm pre-crimped leads,",
        "28 AWG).",
        "",
        "| bus pin | " + " | ".join(str(i + 1) for i in range(len(BUS_PINS))) + " |",
        "|---|" + "---|" * len(BUS_PINS),
        "| signal | " + " | ".join(BUS_PINS) + " |",
        "",
        'Z0 is the analog line of the piece the cable plugs into; a piece\'s "out"',
        "connector carries its Z1, Z2 on as Z0, Z1 and ties the freed line to GND.",
        "A satellite piece (no multiplexer) has one cable to the piece that reads it:",
        "`+3V3`, `GND`, then its sensors' outputs in its own reading order.",
        "",
    ]
    for board in scanners:
        made = plan(board)
        chans = channels(made)
        far = far_piece(made)
        lines += [
            f"### {TITLES[board]}",
            "",
            "| piece | kind (PCB) | multiplexers | chain, position | channels | connectors |",
            "|---|---|---|---|---|---|",
        ]
        for piece in made.pieces:
            muxes = ", ".join(f"U{m + 1}" for m in piece.muxes) or "—"
            where = (
                f"{piece.chain[0] + 1}, {piece.chain[1] + 1}"
                if piece.chain
                else (f"satellite of U{piece.feeds[0] + 1}" if piece.feeds else "—")
            )
            chs = sorted(chans[(s.spot.x, s.spot.y)] for s in piece.sensors)
            circuit = kind_circuit(board, piece.kind)
            conns = ", ".join(
                f"{global_ref(made, piece, ref)} ({role})" for role, ref in circuit.connectors
            )
            tp = global_ref(made, piece, "TP1")
            lines.append(
                f"| {piece.name}{' (far end, ' + tp + ')' if piece == far else ''} |"
                f" {piece.kind} | {muxes} | {where} | {_channel_ranges(chs)} | {conns} |"
            )
        lines.append("")
    lines += [
        "Satellite cables: "
        + ", ".join(f"{n} ways ({', '.join(satellite_pins(n - 2))})" for n in (6, 10))
        + ".",
        "",
    ]
    return lines


def _channel_ranges(chs: list[int]) -> str:
    runs: list[list[int]] = []
    for c in chs:
        if runs and c == runs[-1][-1] + 1:
            runs[-1].append(c)
        else:
            runs.append([c])
    return ", ".join(f"{r[0]}" if len(r) == 1 else f"{r[0]}–{r[-1]}" for r in runs)


def _test_points(scanners: dict[str, Design]) -> list[str]:
    lines = [
        "## Test points",
        "",
        "Bare copper pads, nothing to fit. On the scanner board:",
        "",
        "| ref | net | what it reads |",
        "|---|---|---|",
    ]
    for ref, (net, what) in TEST_POINTS.items():
        lines.append(f"| {ref} | {net} | {what} |")
    lines += [
        "",
        "On every sensor piece a 1.5 mm pad on +3V3 (`TP<100 + piece number>`); the one on",
        "the piece at the far end of the supply is **TP5**:",
        "",
        "| board | TP5 on | its rail at full load, below TP2 |",
        "|---|---|---|",
    ]
    for board in scanners:
        made = plan(board)
        far = far_piece(made)
        drop = copper(board).drop
        lines.append(
            f"| {TITLES[board]} | {far.name} ({far.kind}) | {drop.test_pads['TP5'] * 1000:.0f} mV |"
        )
    lines.append("")
    return lines


def _ground(scanners: dict[str, Design]) -> list[str]:
    lines = [
        "## Ground: one tree, not one point",
        "",
        'With pieces and cables, "one star point" becomes one *tree*: the star point is the',
        "scanner board's ground (its back-face plane and front pour, tied at the buck module's",
        "GND pad and the Pico's GND and AGND pins), and every piece's ground reaches it along",
        "exactly one way, its chain's bus cables (four GND wires each) or its satellite cable.",
        "Add no other ground wire between pieces, to the stand or to the frame (the pieces'",
        "mounting holes are unplated; hold them with nylon screws or standoffs), so no",
        "ground loop can form. Each chain piece carries its supply and ground on planes",
        "split across one face, so the chain's current crosses a piece in a few mΩ.",
        "",
        "What the copper costs at full load (every sensor at its data sheet's 10 mA; tracks,",
        "planes, cable wires and two JST contacts a wire; `budget.copper`):",
        "",
        "| board | supply + ground drop, worst sensor | lowest sensor supply (buck at −4 %) |"
        " ground rise, worst sensor | needs |",
        "|---|---|---|---|---|",
    ]
    for board in scanners:
        c = copper(board)
        lines.append(
            f"| {TITLES[board]} | {c.worst_mv:.0f} mV ({c.drop.worst_sensor} on"
            f" {c.drop.worst_piece}) | {c.sensor_min_v:.3f} V | {c.ground_offset_counts:.0f}"
            " counts | ≥ 3.0 V (DRV5055 VCC min) |"
        )
    lines += [
        "",
        "The ground rise is a fixed offset on that sensor's reading at a given load, which",
        "calibration measures and removes; the supply a sensor sees is what must hold.",
        "",
    ]
    return lines


def _inner_nets(design: Design) -> list[str]:
    """Nets of the host side that do not reach the Pi's header."""
    rows = ["| net | joins |", "|---|---|"]
    for net in sorted(design.circuit.nets, key=lambda n: n.name):
        pins = sorted(net.pins, key=lambda p: (p.part.ref, p.num))
        if net.name == "__NOCONNECT" or not pins or any(p.part.ref == PI_REF for p in pins):
            continue
        rows.append(f"| {net.name} | {grouped(pins)} |")
    return rows


def _reader_table(design: Design) -> list[str]:
    reader = _part(design, PN532_REF)
    rows = ["| PN532 breakout | net | Pi |", "|---|---|---|"]
    for pin in sorted(reader.pins, key=_num_key):
        if pin.net is None or pin.net.name == "__NOCONNECT":
            continue
        pi = [p for p in others(pin) if p.part.ref == PI_REF]
        where = ", ".join(_pi_label(p) for p in pi[:1]) or grouped(others(pin))
        rows.append(f"| {pin.name} ({pin.num}) | {pin.net.name} | {where} |")
    return rows


def _compress_inputs(tied: list[str]) -> str:
    by_mux: dict[str, list[int]] = {}
    for item in tied:
        ref, y = item.split(".Y")
        by_mux.setdefault(ref, []).append(int(y))
    out = []
    for ref, ys in sorted(by_mux.items(), key=lambda kv: int(kv[0][1:])):
        ys.sort()
        span = f"Y{ys[0]}" if len(ys) == 1 else f"Y{ys[0]}–Y{ys[-1]}"
        if ys != list(range(ys[0], ys[-1] + 1)):
            span = ", ".join(f"Y{y}" for y in ys)
        out.append(f"{ref} {span}")
    return "; ".join(out) or "none"


def heat_rows(scanners: dict[str, Design]) -> str:
    """One sentence per board on how warm it runs."""
    from lawmaster.hardware.sensor_map import SensorMap

    parts = []
    for board, design in scanners.items():
        assert design.tree is not None
        h = heat(SensorMap.load(board), design.tree)
        parts.append(
            f"{TITLES[board]} {h.power_w:.1f} W, board +{h.board_rise_k:.1f} K and each die"
            f" +{h.die_rise_k:.1f} K more"
        )
    return "; ".join(parts) + ". Calibrate a warm board (see `hardware/BUILD.md`)."


__all__ = ["render", "pin_label"]
