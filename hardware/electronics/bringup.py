"""First power: what each test point must read, computed from the budgets and datasheets.

The builder powers a scanner board up one step at a time, from a bench supply with
its current limit set, and checks each test point against a window computed here
(``hardware/BUILD.md``, "First power", is generated from :func:`steps`):

* **TP1**, +12 V after the input protection (PTC fuse, reverse-polarity P-MOSFET,
  TVS): the supply less the drop across the fuse and the MOSFET at the current drawn.
* **TP2**, +3V3 at the buck's output: 3.3 V within the module's stated accuracy.
* **TP3**, GND: the reference every other reading is taken against.
* **TP4**, the analog line into GP26 (ADC0), with no magnet near: with the
  safe-mode jumper fitted the firmware does not scan, the RP2040's pad pull-downs
  hold every select line low, so both multiplexer levels sit on input 0 and TP4
  shows the sensor on channel 0 at its quiescent voltage (VCC/2 within the
  DRV5055's spread), slightly loaded by GP26's own pull-down.
* **TP5**, +3V3 at the far end of the sensor rail: TP2 less the rail's drop.

The quiescent window in ``read_u16`` counts (:func:`idle_window_counts`) is the one
the firmware's self-test at boot needs: the ratio to the rail, so the rail's own
tolerance cancels. It is computed here, once, from the same figures.

The protection parts named here (Littelfuse 1812L075/33DR, Diodes DMP3099L-7,
Littelfuse SMBJ15A) are the ones the BOM prices; their figures are in
:mod:`.datasheet`.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from lawmaster.hardware.sensor_map import SensorMap

from .budget import COUNTS, VCC, rails
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
    """The PTC on the 12 V input against the current it must carry and the supply behind it."""

    i_hold_warm: float
    i_trip: float
    i_worst: float
    i_supply: float

    @property
    def ok(self) -> bool:
        """Carries the worst case even warm, and trips before the adapter is overloaded."""
        return self.i_hold_warm >= LIMIT_MARGIN * self.i_worst and self.i_trip < self.i_supply


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
    """The input PTC against this board's worst-case 12 V current and the adapter."""
    return Fuse(
        i_hold_warm=f("fuse.i_hold") * f("fuse.hold_derating"),
        i_trip=f("fuse.i_trip"),
        i_worst=input_current(tree),
        i_supply=f("psu.i_out"),
    )


def current_limit(tree: MuxTree) -> float:
    """The bench supply's current limit for first power (A)."""
    return math.ceil(LIMIT_MARGIN * input_current(tree) / 0.05) * 0.05


def tp1(tree: MuxTree, supply_v: float | None = None) -> Window:
    """+12 V after the protection, from a bench supply set to ``supply_v`` (default 12 V)
    or, with ``supply_v=None`` and the adapter, across its tolerance."""
    drop_max = input_current(tree) * (f("fuse.r_max") + f("pmos.rds_on_max"))
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
        v - input_current(tree, typical=True) * (f("fuse.r_min") + f("pmos.rds_on_max") / 2),
        low - drop_max,
        high,
        f"{why}, less at most {drop_max * 1e3:.0f} mV across the PTC (R1max) and the"
        " MOSFET (RDS(on) max) at the worst-case input current",
    )


def tp2() -> Window:
    """+3V3 at the buck's output."""
    acc = f("buck.v_accuracy")
    return Window(
        "TP2",
        "+3V3",
        VCC,
        VCC * (1 - acc),
        VCC * (1 + acc),
        f"3.3 V ± {acc * 100:g} % (the module's stated accuracy)",
    )


def tp3() -> Window:
    """GND: the reference; against the jack's sleeve it reads nothing."""
    return Window(
        "TP3", "GND", 0.0, -METER_V, METER_V, "the black probe's home: every reading is to it"
    )


def tp5(rail_drop_v: float = 0.0) -> Window:
    """+3V3 at the far end of the sensor rail: TP2 less the rail's copper drop.

    ``rail_drop_v`` is the worst-case drop along the rail, which the boards' copper
    budget computes (not yet in this tree: 0 until it is); the window widens by it.
    """
    two = tp2()
    return Window(
        "TP5",
        "+3V3 (far end)",
        two.nominal - rail_drop_v / 2,
        two.low - rail_drop_v,
        two.high,
        "TP2's window less the sensor rail's copper drop"
        + (f" (up to {rail_drop_v * 1e3:.0f} mV)" if rail_drop_v else ""),
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
    two = tp2()
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
        f"channel 0 ({sensor_map.spots[0].space if sensor_map.spots else '?'}): VCC/2 within"
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
    found = [tp3(), tp1(tree, 12.0), tp2(), tp5(), tp4(sensor_map, tree)]
    return {w.point: w for w in found}
