"""The generated section of ``hardware/BUILD.md``: every cited figure and every budget.

The rest of BUILD.md is written by hand; this section, between its markers, is
rewritten by ``lawmaster hardware generate`` so the guide never quotes a figure
the code does not use.
"""

from __future__ import annotations

from lawmaster.firmware import protocol
from lawmaster.hardware.sensor_map import SensorMap
from lawmaster.host.sensing import rate

from .bom import TITLES
from .budget import base_resistor, heat, led_resistors, rails, scan_floor_us, settling
from .circuits import Design
from .datasheet import FIGURES

BEGIN = "<!-- generated: figures (begin); `lawmaster hardware generate` rewrites this section -->"
END = "<!-- generated: figures (end) -->"


def _value(value: float, unit: str) -> str:
    scales = {"A": [(1, "A"), (1e-3, "mA"), (1e-6, "µA")], "F": [(1e-6, "µF"), (1e-9, "nF"),
              (1e-12, "pF")], "s": [(1e-6, "µs"), (1e-9, "ns")],
              "V/K": [(1e-3, "mV/K"), (1e-6, "µV/K")]}  # fmt: skip
    for scale, name in scales.get(unit, []):
        if abs(value) >= scale * 0.999:
            return f"{value / scale:g} {name}"
    if unit == "1/K":
        return f"{value * 100:g} %/K"
    if unit == "1":
        return f"{value:g}"
    if unit == "ohm":
        return f"{value:g} Ω"
    return f"{value:g} {unit}"


def _floor_ms(design: Design) -> float:
    assert design.tree is not None
    parts = -(-design.tree.channels // protocol.KEY_PART)
    return scan_floor_us(design.tree, parts * protocol.MAX_FRAME) / 1000


def render(scanners: dict[str, Design]) -> str:
    """The section's text, markers included."""
    lines = [
        BEGIN,
        "",
        "### Every figure the budgets use",
        "",
        "*datasheet*: the part's datasheet states it; *assumption*: no datasheet gives it (or",
        "gives it only at another supply voltage) and the value taken is on the safe side, for",
        "the reason given. Source: `hardware/electronics/datasheet.py`.",
        "",
        "| figure | value | kind | source |",
        "|---|---|---|---|",
    ]
    for key, fig in FIGURES.items():
        lines.append(f"| `{key}` | {_value(fig.value, fig.unit)} | {fig.kind} | {fig.source} |")
    leds = led_resistors()
    base = base_resistor()
    lines += [
        "",
        "### Supply",
        "",
        "| board | rail | loads (worst case) | worst | capacity | margin |",
        "|---|---|---|---|---|---|",
    ]
    for board, design in scanners.items():
        assert design.tree is not None
        for rail in rails(design.tree):
            loads = "; ".join(
                f"{load.count} × {load.label} {load.amps * 1e3:.2f} mA" for load in rail.loads
            )
            lines.append(
                f"| {TITLES[board]} | {rail.name} | {loads} | {rail.worst_a:.3f} A |"
                f" {rail.capacity_a:.3f} A | {rail.margin:.2f} |"
            )
    lines += [
        "",
        "Panel resistors (`budget.led_resistors`, `budget.base_resistor`): the smallest E24",
        "value that keeps each LED die within 20 mA at the high end (5.25 V, lowest VF and",
        "VCE(sat)), checked to still give ≥ 2 mA at the low end: "
        + ", ".join(
            f"{c} {r.ohms} Ω ({r.i_min * 1e3:.1f}-{r.i_max * 1e3:.1f} mA)" for c, r in leds.items()
        )
        + f"; BC337 base {base.ohms} Ω ({base.ib_min * 1e3:.2f}-{base.ib_max * 1e3:.2f} mA,"
        f" {base.ib_needed * 1e3:.2f} mA needed to saturate at the largest load).",
        "",
        "### Analog settling",
        "",
        "Worst step: a 2.9 V swing (one sensor at one output rail, the next at the other)",
        "through both multiplexer levels at once (the first channel after a first-level",
        "select change). Switch-on of each level, then slewing at the DRV5055's ±1 mA into",
        "the nodes' capacitance, then the two-pole RC ladder (sensor output and first",
        "multiplexer's RON into node A: its Z pin and the second level's Y pin; the second",
        "level's RON into node B: its Z pin, the Pico's pin and the ADC's sampling",
        "capacitance), solved exactly, until node B is within ½ LSB (0.40 mV).",
        "",
        "| board | levels | switch-on | slew | RC to ½ LSB | settle | scan rate | dwell |"
        " dwell / 2 | conversion |",
        "|---|---|---|---|---|---|---|---|---|---|",
    ]
    for board, design in scanners.items():
        assert design.tree is not None
        s = settling(design.tree)
        lines.append(
            f"| {TITLES[board]} | {s.levels} | {s.switch_on_us:.2f} µs | {s.slew_us:.2f} µs |"
            f" {s.linear_us:.2f} µs | **{s.settle_us:.2f} µs** | {s.rate}/s |"
            f" {s.dwell_us:.2f} µs | {s.dwell_us / 2:.2f} µs | {s.conversion_us:.1f} µs |"
        )
    lines += [
        "",
        "The firmware waits `settle_us` (`firmware/config.py`, at least the worst settle",
        "above) after every select change before it starts a conversion.",
        "",
        "### Scan time, measured",
        "",
        "What the host asks of each board follows from the scan the firmware takes on an",
        "emulated RP2040 (`lawmaster bench --json pico`; `host/sensing/pico_scan.json`):",
        "the longest window of its busy pin (the scan, the change finding, the frames and",
        "their USB writes), in change-only mode (a keyframe among the scans) and in the",
        "full-frame mode calibration uses, at the clock the firmware sets (bold) and at the",
        "RP2040's default. The host asks for the fastest rate, up to 400/s, whose period",
        f"leaves a quarter to spare ({rate.HEADROOM:.0%} at most; the emulator does not",
        "model flash cache misses, so a Pico is somewhat slower). The floor no code can",
        "beat, every channel settled and converted and a full frame on the bus",
        "(`budget.scan_floor_us`):",
        "",
        ", ".join(
            f"{TITLES[board]} {_floor_ms(design):.2f} ms" for board, design in scanners.items()
        )
        + ".",
        "",
        rate.markdown_table(TITLES),
        "",
        "### Heat",
        "",
        "All sensors at ICC max. The board sheds heat through its cover (`depth_mm` of the",
        "map) and then by natural convection, from both faces when it stands on edge",
        "(GW:s brott) or from the top face only when it lies on a table (the table side taken",
        "as insulated). Each sensor's die runs RθJA × its own dissipation above the board",
        "around it. In counts (`read_u16`, 65536 per 3.3 V): the offset drift over the whole",
        "rise, and the gain drift (+0.12 %/K) at the largest reading (1.45 V from mid-scale).",
        "The magnets in the pieces stay at room temperature, so the DRV5055's compensation",
        "for NdFeB's own drift is not cancelled by anything: calibrate a warm board.",
        "",
        "| board | dissipation | area | faces | board rise | die rise | time constant |"
        " offset drift | gain drift |",
        "|---|---|---|---|---|---|---|---|---|",
    ]
    for board, design in scanners.items():
        assert design.tree is not None
        h = heat(SensorMap.load(board), design.tree)
        lines.append(
            f"| {TITLES[board]} | {h.power_w:.2f} W | {h.area_m2:.3f} m² | {h.faces} |"
            f" {h.board_rise_k:.1f} K | {h.die_rise_k:.1f} K | {h.tau_s / 60:.0f} min |"
            f" {h.offset_counts:.0f} counts | {h.gain_counts:.0f} counts |"
        )
    lines += ["", END]
    return "\n".join(lines)


def splice(existing: str, section: str) -> str:
    """``existing`` with its generated section replaced (appended when it has none)."""
    if BEGIN in existing and END in existing:
        head, rest = existing.split(BEGIN, 1)
        tail = rest.split(END, 1)[1]
        return head + section + tail
    return existing.rstrip("\n") + "\n\n" + section + "\n"
