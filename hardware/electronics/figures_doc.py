"""The generated section of ``hardware/BUILD.md``: every cited figure and every budget.

The rest of BUILD.md is written by hand; this section, between its markers, is
rewritten by ``lawmaster hardware generate`` so the guide never quotes a figure
the code does not use.
"""

from __future__ import annotations

import dataclasses
import math

from lawmaster.firmware import protocol
from lawmaster.hardware.magnetics.margins import noise
from lawmaster.hardware.magnetics.tolerance import worst_corner_margin_counts
from lawmaster.hardware.sensor_map import SensorMap
from lawmaster.host.sensing import rate

from .bom import TITLES
from .budget import (
    base_resistor,
    heat,
    led_resistors,
    rails,
    ripple,
    scan_floor_us,
    settling,
)
from .circuits import BOARDS, Design
from .datasheet import FIGURES
from .datasheet import figure as f

BEGIN = "<!-- generated: figures (begin); `lawmaster hardware generate` rewrites this section -->"
END = "<!-- generated: figures (end) -->"
WARMUP_BEGIN = "<!-- generated: warm-up (begin) -->"
WARMUP_END = "<!-- generated: warm-up (end) -->"
#: Time constants a board is let warm before it is calibrated: after two, 1 − e⁻² = 86 %
#: of the board's rise is reached.
WARMUP_TAUS = 2


def _value(value: float, unit: str) -> str:
    scales = {"A": [(1, "A"), (1e-3, "mA"), (1e-6, "µA")], "F": [(1e-6, "µF"), (1e-9, "nF"),
              (1e-12, "pF")], "s": [(1e-6, "µs"), (1e-9, "ns")],
              "V/K": [(1e-3, "mV/K"), (1e-6, "µV/K")], "Hz": [(1e3, "kHz"), (1, "Hz")],
              "T": [(1e-3, "mT"), (1e-6, "µT")], "V": [(1, "V"), (1e-3, "mV")]}  # fmt: skip
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
    lines += ["", *ripple_lines(), "", END]
    return "\n".join(lines)


def ripple_lines() -> list[str]:
    """The ripple subsection: the buck's switching ripple, the rail filter, what reaches a
    reading, and what the check counts."""
    r = ripple()
    bare = dataclasses.replace(r, filter=None)
    lf = r.filter
    assert lf is not None, "the scanner board's circuit has no rail filter"
    noises = [noise(SensorMap.load(board)) for board in BOARDS]
    low, high = min(noises), max(noises)
    return [
        "### Supply ripple at the ADC",
        "",
        f"The ADC reads against ADC_VREF, which the Pico filters from the 3V3 rail (R7"
        f" {_value(f('pico.vref_r'), 'ohm')} into {_value(f('pico.vref_c'), 'F')}, with R9's"
        f" {_value(f('pico.vref_r_series'), 'ohm')} in series with the capacitor): corner"
        f" {r.corner_hz:.0f} Hz. Slower changes of the rail (load"
        " steps, drift) reach the reference and the ratiometric sensors alike and cancel;"
        f" the buck's switching ripple at {r.f_sw_hz / 1e3:.0f} kHz does not: the filter"
        f" passes {r.vref_gain * 100:.2f} % of it (R9's floor), while a sensor's output moves"
        " with its VCC as far as its output stage follows, which its datasheet does not say.",
        f"With the {r.ripple_pp_v * 1e3:.0f} mV peak-to-peak ripple taken for the buck straight"
        " on the rail, a reading at full swing would carry"
        f" {bare.worst_rms:.0f} counts RMS of it, {bare.worst_rms / high:.1f} × the noise of"
        " a reading: enough to take GW:s brott's and Unamerican Graffiti's worst-corner"
        " margins under 5 × the noise. So the rail has a filter: the buck's output goes"
        f" through L1 ({_value(f('filter.l'), 'H')} ± {f('filter.l_tol') * 100:.0f} %, Bourns"
        f" SRR1210A-100M, DCR {_value(f('filter.l_dcr'), 'ohm')}) into {lf.caps} × 10 µF"
        f" ceramics CF1-CF{lf.caps} on the scanner board (each taken at"
        f" {f('filter.c_bias') * 100:.0f} % of its value under its 3.3 V bias, with"
        f" {_value(f('filter.c_esr'), 'ohm')} ESR), a second-order low pass with its corner"
        f" at {lf.corner_hz / 1e3:.1f} kHz that passes {r.filter_gain * 100:.3f} % of the"
        f" ripple at {r.f_sw_hz / 1e3:.0f} kHz: {r.rail_pp_v * 1e6:.0f} µV left on the rail"
        " (`budget.ripple`, summed over the triangle's harmonics, each through both"
        " filters). As `read_u16` counts (RMS, since the ADC samples at a moment unrelated"
        " to the buck's phase):",
        "",
        "| output follows its VCC | without the filter, no field | without, full swing |"
        " with the filter, no field | with, full swing |",
        "|---|---|---|---|---|",
        f"| at every frequency (worst case) | {bare.idle_rms:.0f} | {bare.worst_rms:.0f} |"
        f" {r.idle_rms:.2f} | {r.worst_rms:.2f} |",
        f"| only within its {_value(f('drv5055.bandwidth'), 'Hz')} sensing bandwidth |"
        f" {bare.counts_rms(bare.k_idle, bandwidth=True):.1f} | {bare.sensor_bw_rms:.1f} |"
        f" {r.counts_rms(r.k_idle, bandwidth=True):.3f} | {r.sensor_bw_rms:.3f} |",
        "",
        f"The noise of one reading is {_span(low, high, '.0f')} counts (the ADC's ENOB and the"
        " sensor's own noise). `lawmaster hardware check` adds the ripple left with the"
        " filter, at full swing and following the supply at every frequency, to that noise"
        " (`noise_with_ripple_counts`, their root sum of squares) and asks each board's"
        " margins to be at least 5 × it. Without the filter the same check fails:",
        "",
        *_ripple_against_margins(r.worst_rms, bare.worst_rms),
    ]


def _ripple_against_margins(filtered_rms: float, bare_rms: float) -> list[str]:
    """Each board's worst-corner margin against 5 × the noise with the ripple added."""
    rows = []
    for board in BOARDS:
        sm = SensorMap.load(board)
        n = noise(sm)
        margin = worst_corner_margin_counts(sm)
        with_filter, without = math.hypot(n, filtered_rms), math.hypot(n, bare_rms)
        rows.append(
            f"| {TITLES[board]} | {margin:.0f} counts | {n:.0f} counts |"
            f" {with_filter:.1f} counts ({margin / with_filter:.1f} ×) | {without:.0f} counts"
            f" ({margin / without:.1f} ×{' — fails' if margin < 5 * without else ''}) |"
        )
    return [
        "| board | worst-corner margin | noise alone | noise with the filtered ripple"
        " (what the check counts) | noise with the unfiltered ripple |",
        "|---|---|---|---|---|",
        *rows,
    ]


def _span(low: float, high: float, form: str) -> str:
    """``low-high``, or one figure when both print the same."""
    a, b = format(low, form), format(high, form)
    return a if a == b else f"{a}-{b}"


def warmup(scanners: dict[str, Design]) -> str:
    """The calibration step's warm-up sentence, from the heat table's time constants."""
    taus = {}
    rise = 0.0
    for board, design in scanners.items():
        assert design.tree is not None
        h = heat(SensorMap.load(board), design.tree)
        taus[board] = h.tau_s / 60
        rise = max(rise, h.die_rise_k)
    low, high = min(taus.values()), max(taus.values())
    longest = max(taus, key=lambda b: taus[b])
    wait = WARMUP_TAUS * high
    return "\n".join(
        [
            WARMUP_BEGIN,
            f"Let the scanner run for about {WARMUP_TAUS} of the board's thermal time constants"
            f" (the heat table below gives one per board: {low:.0f}-{high:.0f} minutes, the"
            f" longest {TITLES[longest]}'s, so about {_round_up(wait, 10):.0f} minutes) so the"
            " sensors have warmed to where they will play; each die's own rise of about"
            f" {rise:.0f} K takes only seconds, the board's takes that long.",
            WARMUP_END,
        ]
    )


def _round_up(value: float, step: float) -> float:
    return -(-value // step) * step


def splice(existing: str, section: str, begin: str = BEGIN, end: str = END) -> str:
    """``existing`` with its generated section (``begin``…``end``, markers included)
    replaced; appended when it has none."""
    if begin in existing and end in existing:
        head, rest = existing.split(begin, 1)
        tail = rest.split(end, 1)[1]
        return head + section + tail
    return existing.rstrip("\n") + "\n\n" + section + "\n"
