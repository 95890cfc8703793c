"""The "First power" section of ``hardware/BUILD.md``, generated from :mod:`.bringup`.

Every number a builder compares a meter against comes from the same computation the
tests check, so the guide cannot drift from the budgets.
"""

from __future__ import annotations

from lawmaster.firmware.app import SELFTEST_SCANS
from lawmaster.hardware.sensor_map import SensorMap

from .bom import TITLES
from .bringup import (
    LIMIT_MARGIN,
    current_limit,
    fuse,
    idle_window_counts,
    input_current,
    tp1,
    windows,
)
from .budget import COUNTS, VCC
from .circuits import BOARDS
from .datasheet import figure as f
from .tree import tree_of

BEGIN = "<!-- generated: first power (begin); `lawmaster hardware generate` rewrites it -->"
END = "<!-- generated: first power (end) -->"


def _v(volts: float) -> str:
    return f"{volts:.2f} V"


def _v3(counts: int) -> str:
    """A ``read_u16`` reading as volts at a nominal 3.3 V rail, to the millivolt."""
    return f"{counts / COUNTS * VCC:.3f} V"


def render() -> str:
    """The section's text, markers included."""
    trees = {b: tree_of(b, SensorMap.load(b)) for b in BOARDS}
    lines = [
        BEGIN,
        "",
        "### First power, test point by test point",
        "",
        "Power the scanner board from a bench supply the first time, not the adapter: set it",
        "to 12.0 V and its current limit to the board's figure below (the worst-case 12 V",
        f"current × {LIMIT_MARGIN:g}, rounded up to 50 mA), so a fault holds the supply at its",
        "limit instead of burning a trace. Measure every test point against TP3 (GND). Each window",
        "is computed from the datasheets and the supply budget (`hardware/electronics/",
        "bringup.py`); a reading outside it is a fault to find before going on.",
        "",
        "| board | current limit | typical 12 V current, all fitted | worst case |"
        " TP1 (+12V after the protection) | TP4 (GP26, safe mode, no magnet) |",
        "|---|---|---|---|---|---|",
    ]
    for board, tree in trees.items():
        one = windows(board)
        lines.append(
            f"| {TITLES[board]} | {current_limit(tree):.2f} A |"
            f" {input_current(tree, typical=True) * 1e3:.0f} mA |"
            f" {input_current(tree) * 1e3:.0f} mA |"
            f" {_v(one['TP1'].low)} to {_v(one['TP1'].high)} |"
            f" {_v(one['TP4'].low)} to {_v(one['TP4'].high)} |"
        )
    gw = windows(BOARDS[0])
    two, five = gw["TP2"], gw["TP5"]
    adapter = tp1(trees[BOARDS[0]], None)
    fuses = [fuse(tree) for tree in trees.values()]
    lines += [
        "",
        "1. **Nothing powered.** Meter on resistance: TP1 to TP3 and TP2 to TP3 must not read",
        "   a short (under 1 Ω). A dead short here is a solder bridge or a part the wrong",
        "   way round; find it before power.",
        "2. **Input protection, the buck and the rail filter only** (J1, the fuse F1, the",
        "   Schottky D3, the TVS D4, PS1, L1 with CF1-CF4; no Pico, no multiplexers, no",
        "   sensors). First plug the supply in **reversed** (swap its leads): the Schottky",
        "   blocks, the supply shows no current (under"
        f" {f('schottky.ir_max') * 1e3:.1f} mA, the diode's leakage) and TP1 reads 0 V.",
        "   That is the protection working. Then the right way round: TP1"
        f" {_v(gw['TP1'].low)} to {_v(gw['TP1'].high)}",
        "   (the bench supply at 12.0 V less the Schottky's forward drop, up to"
        f" {f('schottky.vf_max'):.2f} V), TP2",
        f"   {_v(two.low)} to {_v(two.high)}, and the supply shows only the buck's own few mA.",
        "3. **What a short looks like.** The supply's current sits at its limit and its",
        "   voltage falls below 12 V. A short on the 12 V side holds TP1 near 0 V; a short on",
        "   the 3.3 V rail holds TP2 near 0 V while TP1 stays up (the buck limits its own",
        "   output current). Switch off and find it; the bench limit and the fuse",
        f"   ({f('fuse.i_rated'):.0f} A, very fast acting: {f('fuse.i_open'):.0f} A opens it"
        f" within 5 s, below the adapter's {f('psu.i_out'):.2f} A) keep the copper safe"
        " meanwhile; a blown fuse",
        "   is a short to find before a new one goes in.",
        "4. **Multiplexers, sensors, and the Pico in its socket with the safe-mode jumper on**",
        "   (GP22 to GND). The supply's current rises to about the typical figure above",
        "   (never past the worst case): far more means a sensor in backwards or a short",
        f"   under a part. TP5, the far end of the sensor rail: {_v(five.low)} to",
        f"   {_v(five.high)}. TP4, the line into GP26: in safe mode the firmware does not",
        "   scan, the RP2040's pad pull-downs hold every select line low, so both",
        "   multiplexer levels sit on input 0 and TP4 shows channel 0's sensor at its",
        "   quiescent voltage (the window in the table: VCC/2 within the DRV5055's spread",
        "   and drift, over TP2's window, less GP26's own pull-down). Keep magnets away:",
        "   a magnet over channel 0 moves TP4 and shows the sensor alive.",
        "5. **Remove the jumper, power-cycle, and run the self-test** with every magnet off",
        "   the board: on the Pi, `lawmaster selftest --game GAME --port /dev/ttyACM0`. The",
        f"   firmware reads every channel {SELFTEST_SCANS} times and judges each sensor's",
        "   mean idle voltage against the window a good DRV5055 idles in, which the host computes",
        "   (`bringup.idle_window_counts`: VCC/2 within the quiescent spread, its drift",
        "   over temperature and the Earth's field, as a ratio to the rail, so the rail's",
        "   tolerance cancels) and sends:",
        "",
        *(
            f"   * {TITLES[b]} (`--game {b}`): {lo}-{hi} counts, {_v3(lo)} to {_v3(hi)}"
            " at a 3.3 V rail"
            for b, (lo, hi) in ((b, idle_window_counts(SensorMap.load(b))) for b in BOARDS)
        ),
        "",
        "   It prints one line per channel (its space, idle voltage, the window, OK or",
        "   OUT), says what each OUT channel usually means (a sensor missing or dead, a",
        "   short to a rail, a magnet left on the board, a wrong part) and exits 1 while",
        "   a sensor's channel is OUT. Channel numbers follow the pieces (16 × multiplexer",
        "   + input), so some inputs have no sensor: they are tied to ground, read 0 V and",
        "   are listed as such, not judged. The firmware runs the same test at every boot,",
        "   and `lawmaster calibrate` runs it before it starts.",
        f"6. **The adapter.** Swap the bench supply for the 12 V adapter: TP1 {_v(adapter.low)}",
        f"   to {_v(adapter.high)} (its tolerance, less the same drops).",
        "",
        "The fuse carries the worst case even warm ("
        + ("every board" if all(x.ok for x in fuses) else "NOT every board")
        + f": {fuses[0].i_carry_warm * 1e3:.0f} mA for good at 50 °C, its rating re-rated,"
        f" against at most {max(x.i_worst for x in fuses) * 1e3:.0f} mA × {LIMIT_MARGIN:g})"
        " and opens before the adapter is overloaded.",
        "",
        END,
    ]
    return "\n".join(lines)
