"""Electrical budgets of a board, computed from the figures in :mod:`.datasheet`.

Five questions, each answered by arithmetic on cited figures:

* **Supply** (:func:`rails`): the worst-case current on every rail of the table
  (the scanner's 3.3 V buck output and its 5 V input, the Pi's 3V3 and 5V header
  pins, one Pi GPIO) against what feeds it. :func:`supply` returns the tightest.
* **Analog settling** (:func:`settling`): after a select change, how long until
  the ADC's input is within half an LSB of the new sensor's voltage, through one
  or two multiplexer levels, against the dwell per channel at the scan rate
  :func:`lawmaster.host.sensing.rate.scan_rate` gives the board.
* **Heat** (:func:`heat`): what the sensors dissipate, how much that warms the
  board and each sensor's die, and what the warming does to a reading in counts
  (``read_u16`` counts: 65536 per supply volt span), which calibration absorbs.
* **Ripple** (:func:`ripple`): how much of the buck's switching ripple reaches a
  reading, since the Pico's ADC_VREF filter passes only slow changes.
* **Copper** (:func:`copper`): how far the 3.3 V rail sags and ground rises at
  each sensor at full load, through the real tracks of the generated boards,
  the bus and satellite cables and their connector contacts
  (:mod:`lawmaster.hardware.pcb.supply`), against the DRV5055's lowest
  supply at the buck module's low tolerance.

The panel's resistors are sized here too (:func:`led_resistors`,
:func:`base_resistor`) and the circuits use the values found.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from lawmaster.hardware.electronics.pieces import (
    CHAINS,
    PLANNERS,
    RAIL_FILTER_CAPS,
    KindCircuit,
    scanner_kind,
)
from lawmaster.hardware.electronics.pieces import plan as pieces_plan
from lawmaster.hardware.pcb.specs import cables as cable_specs
from lawmaster.hardware.pcb.supply import SupplyDrop, ground_counts, lead_ohm, solve
from lawmaster.hardware.sensor_map import SensorMap
from lawmaster.host.sensing.rate import scan_rate

from .datasheet import figure as f
from .tree import MuxTree, tree_for, tree_of

VCC = 3.3
COUNTS = 65536

E12 = (10, 12, 15, 18, 22, 27, 33, 39, 47, 56, 68, 82)
E24 = (10, 11, 12, 13, 15, 16, 18, 20, 22, 24, 27, 30, 33, 36, 39, 43, 47, 51, 56, 62, 68, 75,
       82, 91)  # fmt: skip


def _series(values: tuple[int, ...]) -> list[int]:
    return [v * 10**d for d in range(0, 6) for v in values]


def at_least(ohms: float, series: tuple[int, ...] = E24) -> int:
    """The smallest standard value not below ``ohms``."""
    return next(v for v in _series(series) if v >= ohms - 1e-9)


def at_most(ohms: float, series: tuple[int, ...] = E12) -> int:
    """The largest standard value not above ``ohms``."""
    return max(v for v in _series(series) if v <= ohms + 1e-9)


# -- the panel's resistors ------------------------------------------------------------------


@dataclass(frozen=True)
class LedResistor:
    """The series resistor of one LED die and the current range it gives."""

    colour: str
    ohms: int
    i_max: float
    i_min: float

    @property
    def ok(self) -> bool:
        """True when the dimmest case is still visible and the brightest within rating."""
        return self.i_min >= f("led.i_visible") and self.i_max <= f("led.i_max") + 1e-12


def led_resistors() -> dict[str, LedResistor]:
    """Series resistors of the common-anode RGB LED, anode on the Pi's 5 V, a BC337 per die.

    The smallest E24 value that keeps the brightest case (high supply, lowest
    VF and VCE(sat)) within the LED's rated current; the dimmest case (low supply,
    highest VF and VCE(sat)) is then checked to still light it visibly. A 3.3 V
    GPIO driving the die directly cannot: a green or blue die's VF reaches 3.6 V.
    """
    out = {}
    for colour, die in (("red", "red"), ("green", "blue"), ("blue", "blue")):
        vf_min, vf_max = f(f"led.vf_{die}_min"), f(f"led.vf_{die}_max")
        head_max = f("pi.v5_max") - f("bc337.vce_sat_min") - vf_min
        head_min = f("pi.v5_min") - f("bc337.vce_sat_max") - vf_max
        ohms = at_least(head_max / f("led.i_max"))
        out[colour] = LedResistor(colour, ohms, head_max / ohms, head_min / ohms)
    return out


@dataclass(frozen=True)
class BaseResistor:
    """The base resistor of the panel's BC337 switches and its base-current range."""

    ohms: int
    ib_min: float
    ib_max: float
    ib_needed: float

    @property
    def ok(self) -> bool:
        """Saturates the switch in the worst case and stays within the GPIO's drive."""
        return self.ib_min >= self.ib_needed and self.ib_max <= f("pi.gpio_drive")


def base_resistor() -> BaseResistor:
    """One base resistor for all four switches, sized for the largest collector current."""
    ic_max = max([r.i_max for r in led_resistors().values()] + [f("buzzer.i_max")])
    needed = ic_max / f("bc337.forced_gain")
    ohms = at_most((f("pi.gpio_voh") - f("bc337.vbe_max")) / needed)
    ib_min = (f("pi.gpio_voh") - f("bc337.vbe_max")) / ohms
    ib_max = (f("pi.gpio_v") - f("bc337.vbe_min")) / ohms
    return BaseResistor(ohms, ib_min, ib_max, needed)


# -- supply ---------------------------------------------------------------------------------


@dataclass(frozen=True)
class Load:
    """``count`` parts drawing ``amps`` each, worst case."""

    label: str
    count: int
    amps: float


@dataclass(frozen=True)
class Rail:
    """A supply rail: what feeds it, its capacity and its loads."""

    name: str
    capacity_a: float
    loads: tuple[Load, ...]

    @property
    def worst_a(self) -> float:
        """Sum of worst-case load currents."""
        return sum(load.count * load.amps for load in self.loads)

    @property
    def margin(self) -> float:
        """Capacity over worst-case load."""
        return self.capacity_a / self.worst_a


def rails(tree: MuxTree) -> list[Rail]:
    """Every rail of one table with this board, worst case."""
    scanner = Rail(
        "scanner 3.3 V (Pololu D36V50F3 output)",
        f("buck.i_out"),
        (
            Load("DRV5055 (ICC max)", tree.sensors, f("drv5055.icc_max")),
            Load("74HC4067 (ICC max)", tree.first_level + tree.second_level, f("hc4067.icc_max")),
            Load("Pico at 200 MHz", 1, f("pico.i_max")),
        ),
    )
    buck_in = VCC * scanner.worst_a / (f("buck.efficiency") * f("psu.v_out"))
    psu = Rail(
        "scanner 12 V in (Mean Well GST25E12-P1J)",
        f("psu.i_out"),
        (Load("D36V50F3 input at 85 % efficiency", 1, buck_in),),
    )
    base = base_resistor()
    pi3 = Rail(
        "Pi header 3V3",
        f("pi.rail_3v3"),
        (
            Load("PN532 breakout, RF on", 1, f("pn532.i_max")),
            Load("BC337 base current (GPIO)", 4, base.ib_max),
        ),
    )
    leds = led_resistors()
    pi5 = Rail(
        "Pi header 5V (spare)",
        f("pi.rail_5v_spare"),
        tuple(Load(f"LED {c} die", 1, r.i_max) for c, r in leds.items())
        + (Load("active buzzer", 1, f("buzzer.i_max")),),
    )
    gpio = Rail(
        "one Pi GPIO (8 mA drive)", f("pi.gpio_drive"), (Load("BC337 base", 1, base.ib_max),)
    )
    return [scanner, psu, pi3, pi5, gpio]


def supply(tree: MuxTree) -> Rail:
    """The rail with the least margin."""
    return min(rails(tree), key=lambda rail: rail.margin)


# -- analog settling ------------------------------------------------------------------------


@dataclass(frozen=True)
class Settling:
    """Settling of the multiplexer chain into the ADC after a select change (µs)."""

    levels: int
    switch_on_us: float
    slew_us: float
    linear_us: float
    channels: int
    conversion_us: float
    #: Bus cable on the first-level multiplexer's Z line (pF, :func:`analog_cables`), part
    #: of the node the sensor drives.
    cable_pf: float = 0.0

    @property
    def settle_us(self) -> float:
        """Select change to within ½ LSB at the ADC's sampling capacitor."""
        return self.switch_on_us + self.slew_us + self.linear_us

    @property
    def rate(self) -> int:
        """The board's scan rate (what the host asks, from the scan measured on the
        emulated RP2040: :func:`lawmaster.host.sensing.rate.scan_rate`)."""
        return scan_rate(self.channels)

    @property
    def dwell_us(self) -> float:
        """Time per channel at the board's scan rate."""
        return 1e6 / (self.rate * self.channels)


def _two_pole(r1: float, c1: float, r2: float, c2: float, x0: float, threshold: float) -> float:
    """Seconds until node 2 of the ladder source–r1–c1–r2–c2 stays within ``threshold``.

    Both nodes start ``x0`` away from the final value (the worst case: neither
    has moved yet). Solved exactly through the 2 × 2 system's eigenvalues.
    """
    a11, a12 = -(1 / r1 + 1 / r2) / c1, 1 / (r2 * c1)
    a21, a22 = 1 / (r2 * c2), -1 / (r2 * c2)
    tr, det = a11 + a22, a11 * a22 - a12 * a21
    root = math.sqrt(tr * tr / 4 - det)
    lam = (tr / 2 + root, tr / 2 - root)
    vecs = [(a12, eig - a11) for eig in lam]
    # Solve x0·(1, 1) = k0·v0 + k1·v1.
    (p, q), (r, s) = vecs
    d = p * s - q * r
    k0 = (x0 * s - x0 * r) / d
    k1 = (p * x0 - q * x0) / d

    def node2(t: float) -> float:
        return k0 * q * math.exp(lam[0] * t) + k1 * s * math.exp(lam[1] * t)

    slowest = -1 / max(lam)
    step, t, last = slowest / 200, 0.0, 0.0
    while t < 60 * slowest:
        if abs(node2(t)) > threshold:
            last = t + step
        t += step
    return last


def settling(tree: MuxTree, cable_f: float | None = None) -> Settling:
    """The worst full-scale step through the board's multiplexer tree.

    With two levels, the first-level multiplexer's Z runs through the bus cables to the
    second level's input: the sensor charges that cable too. ``cable_f`` is its
    capacitance; by default the longest run of the board's pieces
    (:func:`analog_cables`, ``z_line_cable_pf`` of ``hardware check``).
    """
    if cable_f is None:
        cable_f = analog_cables(tree.board).z_cable_f if tree.board in PLANNERS else 0.0
    r_src, r_on = f("drv5055.r_out"), f("hc4067.r_on")
    c_y, c_z = f("hc4067.c_y"), f("hc4067.c_z")
    c_adc = f("rp2040.c_adc") + f("pico.c_trace")
    step = VCC - 2 * f("drv5055.vout_min")
    lsb = VCC / 2 ** f("rp2040.adc_bits")
    i_max = f("drv5055.out_drive")
    if tree.second_level:
        # node A: first-level Z, the bus cable and second-level Y; node B: second-level Z
        # and the ADC input.
        r1, c1, r2, c2 = r_src + r_on, c_z + c_y + cable_f, r_on, c_z + c_adc
        total_c = c1 + c2
    else:
        r1, c1, r2, c2 = r_src, 1e-15, r_on, c_z + c_adc
        total_c = c2
    # The sensor's output delivers at most ±1 mA: while the step asks for more, the
    # nodes slew at that current; the linear phase starts once the drop is i_max·r1.
    linear_start = min(step, i_max * r1)
    slew = total_c * (step - linear_start) / i_max
    linear = _two_pole(r1, c1, r2, c2, linear_start, lsb / 2)
    return Settling(
        levels=2 if tree.second_level else 1,
        switch_on_us=f("hc4067.t_on") * 1e6 * (2 if tree.second_level else 1),
        slew_us=slew * 1e6,
        linear_us=linear * 1e6,
        channels=tree.channels,
        conversion_us=f("rp2040.adc_conversion") * 1e6,
        cable_pf=cable_f * 1e12 if tree.second_level else 0.0,
    )


def scan_floor_us(tree: MuxTree, frame_bytes: float) -> float:
    """The floor of one scan whatever the code: every channel settled (the worst step,
    :func:`settling`) and converted, and ``frame_bytes`` on the USB bus. The scan the
    firmware really takes is measured on the emulated RP2040
    (:mod:`lawmaster.host.sensing.rate`); this is what no code can beat."""
    s = settling(tree)
    analog = tree.channels * (s.settle_us + s.conversion_us)
    return analog + frame_bytes / f("usb.fs_bulk_bytes_per_s") * 1e6


# -- heat -----------------------------------------------------------------------------------


@dataclass(frozen=True)
class Heat:
    """Steady-state warming by the scanner's own parts and its effect on readings."""

    power_w: float
    area_m2: float
    faces: int
    board_rise_k: float
    die_rise_k: float
    tau_s: float
    offset_counts: float
    gain_counts: float

    @property
    def rise_k(self) -> float:
        """Sensor die above room temperature once the board has warmed."""
        return self.board_rise_k + self.die_rise_k


def heat(sensor_map: SensorMap, tree: MuxTree) -> Heat:
    """Warming of a board's sensor layer, convection through its cover layers.

    A two-sided board (one with magnets on its back, GW:s brott standing on
    edge) sheds heat from both faces; a flat board lying on a table from its top
    only (the table side is taken as insulated). Each face conducts through its
    cover (``depth_mm`` of the map) and then convects.
    """
    xs = [s.x for s in sensor_map.spots]
    ys = [s.y for s in sensor_map.spots]
    pitch = sensor_map.pitch_mm
    area = (max(xs) - min(xs) + pitch) * (max(ys) - min(ys) + pitch) * 1e-6
    two_sided = any(m.side == "back" for k in sensor_map.kinds.values() for m in k.magnets)
    faces = 2 if two_sided else 1
    cover = sensor_map.sensor.depth_mm * 1e-3
    per_face = 1 / (1 / f("heat.h_conv") + cover / f("heat.k_cover"))
    each = VCC * f("drv5055.icc_max")
    power = tree.sensors * each + (tree.first_level + tree.second_level) * VCC * f("hc4067.icc_max")
    conductance = per_face * area * faces
    board_rise = power / conductance
    die_rise = each * f("drv5055.theta_ja")
    tau = f("heat.rho_c") * area * cover * faces / conductance
    rise = board_rise + die_rise
    offset = f("drv5055.vq_drift") * rise / VCC * COUNTS
    swing = (VCC / 2 - f("drv5055.vout_min")) / VCC * COUNTS
    gain = f("drv5055.stc") * rise * swing
    return Heat(power, area, faces, board_rise, die_rise, tau, offset, gain)


# -- supply ripple at the ADC -------------------------------------------------------------


@dataclass(frozen=True)
class RailFilter:
    """The LC filter between the buck and the sensor rail (``pieces.RAIL_FILTER_*``): an
    inductor (its low-tolerance inductance and its DCR) into ``caps`` ceramic capacitors
    (each at its DC-bias capacitance, with its ESR). The load is left out: a resistive
    load across the capacitors only lowers the output further."""

    l_h: float
    dcr_ohm: float
    caps: int
    c_each_f: float
    esr_each_ohm: float

    def gain(self, freq: float) -> float:
        """|V_rail / V_buck| at ``freq``."""
        w = 2 * math.pi * freq
        z_l = complex(self.dcr_ohm, w * self.l_h)
        z_c = complex(self.esr_each_ohm, -1 / (w * self.c_each_f)) / self.caps
        return abs(z_c / (z_l + z_c))

    @property
    def corner_hz(self) -> float:
        """The filter's resonance, 1 / (2π √(LC))."""
        return 1 / (2 * math.pi * math.sqrt(self.l_h * self.caps * self.c_each_f))


def rail_filter(circuit: KindCircuit | None = None) -> RailFilter | None:
    """The rail filter the scanner board's circuit carries (None: it has none): an inductor
    from +3V3_BUCK to +3V3 and the ceramic capacitors of ``pieces.RAIL_FILTER_CAPS``."""
    circuit = circuit or scanner_kind()
    inductors = [
        p
        for p in circuit.parts
        if p.key == "inductor" and {n for _, n in p.pins} == {"+3V3_BUCK", "+3V3"}
    ]
    caps = [
        p
        for p in circuit.parts
        if p.ref in RAIL_FILTER_CAPS and p.key == "c10u" and ("1", "+3V3") in p.pins
    ]
    if not inductors or not caps:
        return None
    return RailFilter(
        f("filter.l") * (1 - f("filter.l_tol")),
        f("filter.l_dcr"),
        len(caps),
        10e-6 * f("filter.c_bias"),
        f("filter.c_esr"),
    )


#: Odd harmonics of the buck's triangular ripple summed (its amplitude falls as 1/n²).
HARMONICS = 199


@dataclass(frozen=True)
class Ripple:
    """The buck's switching ripple in a reading, through the rail filter and the Pico's
    ADC_VREF filter.

    The buck's output ripple (``ripple_pp_v`` peak to peak, triangular at ``f_sw_hz``)
    first passes the rail filter (:class:`RailFilter`; ``None``: the rail is the buck's
    output as it is). A DRV5055's output is a fraction ``k`` of its VCC (``k`` = ½ with
    no field). The ADC reads it against ADC_VREF, which is the same rail through the
    Pico's R7–C (200 Ω into 2.2 µF, with R9's 1 Ω in series with the capacitor).
    Changes slower than that filter's corner reach the reference too and cancel; the
    switching ripple does not: the reference holds still while the sensor's output
    moves. How much of the ripple the sensor's output carries is not published (the
    DRV5055 gives no supply rejection figure); two bounds are given: the output follows
    its VCC at every frequency (the worst case, what the check counts) or only within
    its 20 kHz sensing bandwidth. Counts are ``read_u16`` counts; the ADC samples at a
    moment unrelated to the buck's phase, so the ripple adds noise: its RMS, summed
    over the triangle's odd harmonics (amplitude 4·pp/(π²n²)), each through both
    filters (with no filter at all this is pp / (2√3), a triangle's RMS).
    """

    ripple_pp_v: float
    f_sw_hz: float
    corner_hz: float
    k_idle: float
    k_full: float
    filter: RailFilter | None

    def _vref(self, freq: float) -> float:
        r7, r9, c = f("pico.vref_r"), f("pico.vref_r_series"), f("pico.vref_c")
        w = 2 * math.pi * freq
        return abs(complex(r9, -1 / (w * c)) / complex(r7 + r9, -1 / (w * c)))

    @property
    def vref_gain(self) -> float:
        """What of the rail's ripple ADC_VREF carries at the switching frequency."""
        return self._vref(self.f_sw_hz)

    @property
    def filter_gain(self) -> float:
        """What of the buck's ripple the rail carries at the switching frequency."""
        return 1.0 if self.filter is None else self.filter.gain(self.f_sw_hz)

    @property
    def rail_pp_v(self) -> float:
        """The ripple left on the sensor rail, peak to peak (its fundamental's share)."""
        return self.ripple_pp_v * self.filter_gain

    def counts_rms(self, k: float, bandwidth: bool = False) -> float:
        """RMS counts at output fraction ``k`` (``bandwidth``: the sensor's output follows
        its supply only within its sensing bandwidth)."""
        total = 0.0
        for n in range(1, HARMONICS + 1, 2):
            freq = n * self.f_sw_hz
            amplitude = 4 * self.ripple_pp_v / (math.pi * n) ** 2
            rail = 1.0 if self.filter is None else self.filter.gain(freq)
            follow = _first_order(freq, f("drv5055.bandwidth")) if bandwidth else 1.0
            moving = abs(k * follow - k * self._vref(freq)) * amplitude * rail
            total += (moving / VCC * COUNTS) ** 2 / 2
        return math.sqrt(total)

    @property
    def worst_rms(self) -> float:
        """Full swing, the output following its supply at every frequency."""
        return self.counts_rms(self.k_full)

    @property
    def idle_rms(self) -> float:
        """No field (k = ½), the output following its supply at every frequency."""
        return self.counts_rms(self.k_idle)

    @property
    def sensor_bw_rms(self) -> float:
        """Full swing, the output following only within its sensing bandwidth."""
        return self.counts_rms(self.k_full, bandwidth=True)


def _first_order(f: float, corner: float) -> float:
    return 1 / math.sqrt(1 + (f / corner) ** 2)


def ripple(circuit: KindCircuit | None = None) -> Ripple:
    """The switching ripple's share of a reading with the scanner board's ``circuit``
    (default: the design's, :func:`.pieces.scanner_kind`; see :class:`Ripple`)."""
    r7, r9, c = f("pico.vref_r"), f("pico.vref_r_series"), f("pico.vref_c")
    return Ripple(
        ripple_pp_v=f("buck.ripple_pp"),
        f_sw_hz=f("buck.f_sw"),
        corner_hz=1 / (2 * math.pi * (r7 + r9) * c),
        k_idle=0.5,
        k_full=(VCC - f("drv5055.vout_min")) / VCC,
        filter=rail_filter(circuit),
    )


def combined_noise(noise_counts: float, ripple_counts: float) -> float:
    """The noise a margin is judged against: a reading's own noise and the supply ripple
    left in it, independent, so their root sum of squares."""
    return math.hypot(noise_counts, ripple_counts)


# -- the supply's copper --------------------------------------------------------------------


@dataclass(frozen=True)
class Copper:
    """The supply's copper at full load: the worst sensor's supply and its ground offset."""

    drop: SupplyDrop
    #: The buck module's lowest output (V): 3.3 V less its tolerance.
    buck_low_v: float
    #: What the rail filter costs before the copper starts (V): the whole rail's worst
    #: current through the lead from the module and the inductor's DCR.
    filter_drop_v: float = 0.0

    @property
    def worst_mv(self) -> float:
        """Rail drop plus ground rise at the worst sensor (mV), the filter's drop included."""
        return (self.drop.worst_v + self.filter_drop_v) * 1000

    @property
    def sensor_min_v(self) -> float:
        """The lowest supply any sensor sees (V)."""
        return self.buck_low_v - self.filter_drop_v - self.drop.worst_v

    @property
    def ground_offset_counts(self) -> float:
        """The largest ground rise at a sensor, in counts: a fixed offset calibration absorbs."""
        return ground_counts(max(gnd for _, gnd in self.drop.sensors.values()))

    @property
    def ok(self) -> bool:
        """Every sensor gets at least its lowest rated supply."""
        return self.sensor_min_v >= f("drv5055.vcc_min")


def copper(board: str) -> Copper:
    """The rail drop and ground rise of a standard board's generated PCBs and cables.

    Static at a given load and temperature, so calibration takes out the offset
    a sensor's ground rise puts on its reading; what must hold is that the
    farthest sensor still gets the supply its data sheet asks for when the
    buck module sits at the low end of its tolerance, after the rail filter
    (the lead to its inductor and the inductor's DCR carry the rail's worst current).
    """
    rail = rails(tree_for(board))[0]
    drop = rail.worst_a * (f("filter.l_dcr") + lead_ohm())
    return Copper(solve(board), VCC * (1 - f("buck.v_accuracy")), drop)


@dataclass(frozen=True)
class AnalogCables:
    """Cable on the analog lines of a board (for the settling budget to use)."""

    #: The longest way a first-level multiplexer's Z line runs through bus cables to the
    #: scanner (mm) and the capacitance that adds at the second level's input (F).
    z_cable_mm: float
    z_cable_f: float
    #: The longest satellite cable on a sensor's output (mm) and its capacitance (F): on the
    #: Y side the sensor keeps it charged, so it does not slow a select change.
    y_cable_mm: float
    y_cable_f: float


def analog_cables(board: str) -> AnalogCables:
    """The cable capacitance the pieces add on the analog lines (100 pF/m × the longest
    way): :func:`settling` counts the Z line's."""
    made = pieces_plan(board)
    lengths = {(c.a, c.b): c.length_mm for c in cable_specs(board)}
    z_mm = 0.0
    for c in range(CHAINS):
        chain = made.chain(c)
        run = 0.0
        prev = f"scanner:J{3 + c}"
        for piece in chain:
            run += lengths[(prev, f"{piece.name}:J1")]
            prev = f"{piece.name}:J2"
            z_mm = max(z_mm, run)
    satellites = {p.name for p in made.pieces if p.feeds is not None}
    y_mm = max(
        (length for (_, b), length in lengths.items() if b.split(":")[0] in satellites),
        default=0.0,
    )
    per_m = f("cable.c_per_m")
    return AnalogCables(z_mm, z_mm / 1000 * per_m, y_mm, y_mm / 1000 * per_m)


# -- one board ------------------------------------------------------------------------------


def figures(board: str) -> dict[str, float]:
    """The electronics figures of a standard board, as ``lawmaster hardware check`` reports."""
    sensor_map = SensorMap.load(board)
    tree = tree_of(board, sensor_map)
    all_rails = rails(tree)
    sensors_rail = all_rails[0]
    tight = min(all_rails, key=lambda rail: rail.margin)
    settle = settling(tree)
    warm = heat(sensor_map, tree)
    rail = copper(board)
    return {
        "sensors": float(tree.sensors),
        "first_level_muxes": float(tree.first_level),
        "second_level_muxes": float(tree.second_level),
        "supply_worst_a": sensors_rail.worst_a,
        "supply_capacity_a": sensors_rail.capacity_a,
        "supply_min_margin": tight.margin,
        # The reverse-polarity Schottky sits between the adapter and the buck module.
        "buck_headroom_v": f("psu.v_out") - f("schottky.vf_max") - f("buck.dropout") - VCC,
        "settle_us": settle.settle_us,
        "dwell_us": settle.dwell_us,
        "conversion_us": settle.conversion_us,
        "scan_rate": float(settle.rate),
        "heat_w": warm.power_w,
        "heat_rise_k": warm.rise_k,
        "heat_offset_counts": warm.offset_counts,
        "heat_gain_counts": warm.gain_counts,
        "heat_tau_min": warm.tau_s / 60,
        # The rail filter's remaining switching ripple at full swing, the sensor following
        # its supply at every frequency (the worst case): the check adds it to the noise.
        "ripple_counts_rms": ripple().worst_rms,
        "rail_drop_mv": rail.worst_mv,
        "rail_sensor_min_v": rail.sensor_min_v,
        "rail_sensor_vcc_min_v": f("drv5055.vcc_min"),
        "ground_offset_counts": rail.ground_offset_counts,
        "z_line_cable_pf": analog_cables(board).z_cable_f * 1e12,
    }
