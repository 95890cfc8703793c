"""First power: what each test point must read, computed from the budgets and datasheets.

The builder powers a scanner board up one step at a time, from a bench supply with
its current limit set, and checks each test point against a window computed here
(``hardware/BUILD.md``, "First power", is generated from :func:`steps`):

* **TP1**, +12 V after the input protection (the 1 A chip fuse F1, the series
  Schottky D3 against a reversed adapter, the TVS D4): the supply less the fuse's
  drop and the diode's forward voltage at the current drawn.
* **TP2**, +3V3 after the rail filter: 3.3 V within the module's stated accuracy,
  less the filter's drop (the lead to L1 and its DCR) at the rail's current.
* **TP3**, GND: the reference every other reading is taken against.
* **TP4**, the analog line into GP26 (ADC0), with no magnet near: with the
  safe-mode jumper fitted the firmware does not scan, the RP2040's pad pull-downs
  hold every select line low, so both multiplexer levels sit on input 0 and TP4
  shows the sensor on channel 0 at its quiescent voltage (VCC/2 within the
  DRV5055's spread), slightly loaded by GP26's own pull-down.
* **TP5**, +3V3 at the far end of the sensor rail: TP2 less the rail's copper drop
  there (:func:`lawmaster.hardware.electronics.budget.copper`, the routed boards and
  the cables).

The quiescent window in ``read_u16`` counts (:func:`idle_window_counts`) is the one
the firmware's self-test at boot needs: the ratio to the rail, so the rail's own
tolerance cancels. It is computed here, once, from the same figures.

The protection parts named here (Littelfuse 0466001.NR, Vishay SS14, Littelfuse
SMAJ15A) are the ones the circuit carries and the BOM prices; their figures are in
:mod:`.datasheet`.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from lawmaster.hardware.sensor_map import SensorMap

from .budget import COUNTS, VCC, copper, rails
from .datasheet import figure as f
from .tree import MuxTree, tree_of

#: The bench supply's current limit is the worst case of the 12 V input times this,
#: rounded up to 50 mA: enough that a good board never reaches it, low enough that a
#: short holds the supply at its limit instead of burning a trace.
LIMIT_MARGIN = 1.25
#: A hand-held meter's last digit on its 20 V range: what "0 V" reads as.
METER_V = 0.01
#: Test points, in the order a builder measures them.
TEST_POINTS = ("TP3", "TP1", "TP2", "TP5", "TP4")


@dataclass(frozen=True)
class Window:
    """What a test point must read: ``low``…``high`` volts, ``nominal`` in between."""

    point: str
    net: str
    nominal: float
    low: float
    high: float
    why: str

    def holds(self, volts: float) -> bool:
        """True when a reading is inside the window."""
        return self.low <= volts <= self.high


@dataclass(frozen=True)
class Fuse:
    """The 1 A chip fuse on the 12 V input against the current it must carry and the
    supply behind it."""

    i_carry_warm: float
    i_open: float
    i_worst: float
    i_supply: float

    @property
    def ok(self) -> bool:
        """Carries the worst case even warm, and opens before the adapter is overloaded."""
        return self.i_carry_warm >= LIMIT_MARGIN * self.i_worst and self.i_open < self.i_supply


def input_current(tree: MuxTree, typical: bool = False) -> float:
    """Current into the buck from 12 V: worst case, or with typical sensor currents."""
    if not typical:
        return rails(tree)[1].worst_a
    load = (
        tree.sensors * f("drv5055.icc_typ")
        + (tree.first_level + tree.second_level) * f("hc4067.icc_max")
        + f("pico.i_max")
    )
    return VCC * load / (f("buck.efficiency") * f("psu.v_out"))


def fuse(tree: MuxTree) -> Fuse:
    """The input fuse against this board's worst-case 12 V current and the adapter: what
    it carries for good is its rating × the datasheet's continuous re-rating × the warm
    re-rating; what opens it within 5 s is 200 % of its rating."""
    return Fuse(
        i_carry_warm=f("fuse.i_rated") * f("fuse.rerate") * f("fuse.rerate_warm"),
        i_open=f("fuse.i_open"),
        i_worst=input_current(tree),
        i_supply=f("psu.i_out"),
    )


def current_limit(tree: MuxTree) -> float:
    """The bench supply's current limit for first power (A)."""
    return math.ceil(LIMIT_MARGIN * input_current(tree) / 0.05) * 0.05


def tp1(tree: MuxTree, supply_v: float | None = None) -> Window:
    """+12 V after the protection, from a bench supply set to ``supply_v`` (default 12 V)
    or, with ``supply_v=None`` and the adapter, across its tolerance.

    The Schottky drops at most its datasheet VF (0.50 V at 1 A; less at the fraction of
    an ampere here, so the window's top is the supply itself), the warm fuse its
    resistance × the worst-case current."""
    drop_max = input_current(tree) * f("fuse.r_hot") + f("schottky.vf_max")
    if supply_v is None:
        v = f("psu.v_out")
        low, high = v * (1 - f("psu.v_tol")), v * (1 + f("psu.v_tol"))
        why = "the adapter's ±5 %"
    else:
        v = low = high = supply_v
        why = f"the bench supply at {supply_v:g} V"
    return Window(
        "TP1",
        "+12V",
        v - input_current(tree, typical=True) * f("fuse.r_cold") - f("schottky.vf_max"),
        low - drop_max,
        high,
        f"{why}, less at most {drop_max * 1e3:.0f} mV across the fuse (warm) and the"
        " Schottky (VF max) at the worst-case input current",
    )


def filter_drop(tree: MuxTree) -> float:
    """The rail filter's drop at the rail's worst current (V): the scanner board's lead from
    the buck module to L1 and L1's DCR (``budget.copper``)."""
    return copper(tree.board).filter_drop_v


def tp2(drop_v: float = 0.0) -> Window:
    """+3V3 after the rail filter: the module's accuracy, less the filter's drop ``drop_v``
    at the worst current (the top of the window is the module's high end, unloaded)."""
    acc = f("buck.v_accuracy")
    return Window(
        "TP2",
        "+3V3",
        VCC - drop_v / 2,
        VCC * (1 - acc) - drop_v,
        VCC * (1 + acc),
        f"3.3 V ± {acc * 100:g} % (the module's stated accuracy)"
        + (f", less up to {drop_v * 1e3:.0f} mV across the rail filter" if drop_v else ""),
    )


def tp3() -> Window:
    """GND: the reference; against the jack's sleeve it reads nothing."""
    return Window(
        "TP3", "GND", 0.0, -METER_V, METER_V, "the black probe's home: every reading is to it"
    )


def tp5(two: Window, rail_drop_v: float) -> Window:
    """+3V3 at the far end of the sensor rail (the piece whose pad is TP5): TP2's window
    less the rail's copper drop to it at full load (``budget.copper``)."""
    return Window(
        "TP5",
        "+3V3 (far end)",
        two.nominal - rail_drop_v / 2,
        two.low - rail_drop_v,
        two.high,
        f"TP2's window less the sensor rail's copper drop to it (up to {rail_drop_v * 1e3:.0f}"
        " mV, the routed boards and the cables at full load)",
    )


def _quiescent_half_width(vcc: float) -> float:
    """Largest distance of a good sensor's no-field output from VCC/2 (V) at ``vcc``."""
    spread = f("drv5055.vq_spread") * vcc / VCC  # the datasheet's figure is at 3.3 V
    drift = f("drv5055.vq_temp") * vcc
    return spread + drift


def _earth_v(sensor_map: SensorMap, vcc: float) -> float:
    mv_per_mt = sensor_map.sensor.sensitivity_mv_per_mt * vcc / sensor_map.sensor.supply_v
    return f("earth.field") * 1e3 * mv_per_mt * 1e-3


def tp4(sensor_map: SensorMap, tree: MuxTree) -> Window:
    """GP26 in safe mode, no magnet near: channel 0's quiescent output (or 0 V unmapped)."""
    two = tp2(filter_drop(tree))
    if 0 not in tree.used:
        return Window(
            "TP4", "ADC0", 0.0, -METER_V, METER_V, "channel 0 is unmapped: its input is grounded"
        )
    levels = 2 if tree.second_level else 1
    source = f("drv5055.r_out") + levels * f("hc4067.r_on")
    loading = f("rp2040.pull_down_min") / (f("rp2040.pull_down_min") + source)
    low = (two.low / 2 - _quiescent_half_width(two.low) - _earth_v(sensor_map, two.low)) * loading
    high = two.high / 2 + _quiescent_half_width(two.high) + _earth_v(sensor_map, two.high)
    return Window(
        "TP4",
        "ADC0 (GP26)",
        VCC / 2,
        low,
        high,
        f"channel 0 ({sensor_map.space_of_channel()[0]}): VCC/2 within"
        " the DRV5055's quiescent spread and its drift over temperature, plus the Earth's"
        f" field, over TP2's window; GP26's pull-down takes up to {(1 - loading) * 100:.1f} %",
    )


def idle_window_counts(sensor_map: SensorMap) -> tuple[int, int]:
    """A good sensor's no-field reading in ``read_u16`` counts: (low, high).

    Ratiometric: the reading is VQ / VCC, so the rail's tolerance cancels; what is
    left is the quiescent spread, its drift over temperature and the Earth's field.
    The firmware's self-test at boot checks each channel against this.
    """
    half = (_quiescent_half_width(VCC) + _earth_v(sensor_map, VCC)) / VCC * COUNTS
    return math.floor(COUNTS / 2 - half), math.ceil(COUNTS / 2 + half)


def windows(board: str) -> dict[str, Window]:
    """Every test point's window for one standard board."""
    sensor_map = SensorMap.load(board)
    tree = tree_of(board, sensor_map)
    two = tp2(filter_drop(tree))
    far = copper(board).drop.test_pads.get("TP5", 0.0)
    found = [tp3(), tp1(tree, 12.0), two, tp5(two, far), tp4(sensor_map, tree)]
    return {w.point: w for w in found}
