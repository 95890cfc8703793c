"""Every electrical figure the design rests on, each with where it came from.

A :class:`Figure` is a value, its unit, its source and whether the source states
it (``"datasheet"``) or the design assumes it (``"assumption"``: no datasheet
gives it, or gives it only at another supply voltage; the note says why the
value chosen is on the safe side). The budgets (:mod:`.budget`) and the parts
(:mod:`.parts`) read these and nothing else, and ``hardware/BUILD.md`` prints
the same table (generated), so a figure and its citation never drift apart.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Figure:
    """One number the design uses: value, unit, kind (datasheet/assumption), source."""

    value: float
    unit: str
    kind: str
    source: str

    def __post_init__(self) -> None:
        if self.kind not in ("datasheet", "assumption"):
            raise ValueError(f"a figure is a datasheet value or an assumption, not {self.kind!r}")


def _ds(value: float, unit: str, source: str) -> Figure:
    return Figure(value, unit, "datasheet", source)


def _as(value: float, unit: str, source: str) -> Figure:
    return Figure(value, unit, "assumption", source)


DRV5055 = "TI DRV5055 datasheet (SBAS640)"
HC4067 = "Nexperia 74HC4067 datasheet (rev. 8) / TI CD74HC4067 (SCHS209)"
RP2040 = "Raspberry Pi RP2040 datasheet, section 4.9 (ADC)"
PICO = "Raspberry Pi Pico datasheet"

#: Name → figure. Keys are what the code refers to; keep them stable.
FIGURES: dict[str, Figure] = {
    # -- DRV5055A3 linear hall sensor -------------------------------------------------
    "drv5055.icc_typ": _ds(6.0e-3, "A", f"{DRV5055}: supply current ICC, typical"),
    "drv5055.icc_max": _ds(10.0e-3, "A", f"{DRV5055}: supply current ICC, maximum"),
    "drv5055.out_drive": _ds(
        1.0e-3, "A", f"{DRV5055}: features list, 'low-noise output with ±1-mA drive'"
    ),
    "drv5055.r_out": _as(
        100.0,
        "ohm",
        "the datasheet gives the output's drive current, not its resistance; 100 Ω is taken"
        " for the amplifier's small-signal output resistance (an op-amp class output is"
        " tens of ohms), and the ±1 mA limit is modelled separately as a slew limit",
    ),
    "drv5055.bypass_min": _ds(
        10e-9, "F", f"{DRV5055}: power supply recommendations, bypass capacitor 0.01 µF minimum"
    ),
    "drv5055.stc": _ds(
        0.0012,
        "1/K",
        f"{DRV5055}: sensitivity temperature coefficient of the A versions, +0.12 %/°C"
        " (compensates NdFeB's remanence loss)",
    ),
    "drv5055.vq_drift": _as(
        0.2e-3,
        "V/K",
        "offset (quiescent voltage) drift with temperature; the datasheet bounds VQ over"
        " −40…125 °C rather than per kelvin: 0.2 mV/K at 3.3 V is taken as the bound"
        " (20 mV over 100 K)",
    ),
    "drv5055.vout_min": _ds(0.2, "V", f"{DRV5055}: output swing, VL min ≈ 0.2 V from the rails"),
    "drv5055.theta_ja": _as(
        333.0,
        "K/W",
        f"{DRV5055}: thermal information lists RθJA of the SOT-23 (DBZ) package on a JEDEC"
        " test board; 333 K/W, the high end of SOT-23 packages, is taken for a sensor on a"
        " thin trace inside a closed board",
    ),
    # -- 74HC4067 analog multiplexer ------------------------------------------------------
    "hc4067.r_on": _as(
        300.0,
        "ohm",
        f"{HC4067}: RON is 80 Ω typical at VCC = 4.5 V and rises steeply towards 2 V; no row"
        " is given for 3.3 V, so 300 Ω (above the 4.5 V maximum over temperature) is taken",
    ),
    "hc4067.c_y": _as(
        10e-12,
        "F",
        f"{HC4067}: switch capacitance of one Y input is a few pF (typical, 5 V); 10 pF taken",
    ),
    "hc4067.c_z": _as(
        90e-12,
        "F",
        f"{HC4067}: common (Z) pin capacitance is a few tens of pF (typical, 5 V); 90 pF"
        " taken as the worst case",
    ),
    "hc4067.t_on": _as(
        0.5e-6,
        "s",
        f"{HC4067}: select-to-switch-on delay is tens of ns at 4.5 V and a few hundred ns at"
        " 2 V; 0.5 µs taken at 3.3 V",
    ),
    "hc4067.icc_max": _ds(
        160e-6, "A", f"{HC4067}: quiescent supply current, maximum over −40…125 °C (at 6 V)"
    ),
    # -- RP2040 ADC, Raspberry Pi Pico ---------------------------------------------------
    "rp2040.adc_conversion": _ds(
        2.0e-6, "s", f"{RP2040}: 96 cycles of the 48 MHz ADC clock per conversion (500 ksps)"
    ),
    "rp2040.adc_bits": _ds(12, "bit", f"{RP2040}: 12-bit SAR ADC"),
    "rp2040.c_adc": _as(
        10e-12,
        "F",
        f"{RP2040}: gives no sampling capacitance; a 12-bit SAR input plus its pad is a few"
        " pF, 10 pF taken",
    ),
    "pico.c_trace": _as(5e-12, "F", "pin, trace and header between the multiplexers and GP26"),
    "pico.i_max": _as(
        0.10,
        "A",
        f"{PICO}: its power table lists typical currents of tens of mA at 125 MHz; 100 mA"
        " taken for the 200 MHz clock the firmware sets (firmware/config.py cpu_hz)",
    ),
    # -- supplies -------------------------------------------------------------------------
    "buck.i_out": _ds(
        5.5,
        "A",
        "Pololu D36V50F3 product page: 3.3 V step-down, typical maximum continuous output"
        " current 5.5 A",
    ),
    "buck.efficiency": _as(
        0.85, "1", "Pololu D36V50F3 efficiency graph: about 85-90 % at 5 V in, 1-2 A; 85 % taken"
    ),
    "psu.i_out": _ds(2.08, "A", "Mean Well GST25E12-P1J datasheet: 12 V, 2.08 A rated output"),
    "psu.v_out": _ds(12.0, "V", "Mean Well GST25E12-P1J datasheet: 12 V output"),
    "buck.dropout": _as(
        1.5,
        "V",
        "Pololu D36V50F3 dropout graph: about 1 V at 1-2 A; with 12 V in (dropout 1.5 V"
        " taken) the 3.3 V output has 7 V of headroom, so dropout never matters",
    ),
    "pi.rail_3v3": _as(
        0.5,
        "A",
        "Raspberry Pi documentation gives no hard figure for the header's 3V3 pins on a"
        " Pi 4/5; 500 mA is the figure commonly quoted, taken as the capacity",
    ),
    "pi.rail_5v_spare": _as(
        0.6,
        "A",
        "Pi 4: official 5.1 V 3 A supply, minus 1.2 A for USB peripherals (Raspberry Pi"
        " documentation) and 1.2 A for the board itself under load: 0.6 A spare on the"
        " header's 5V pins",
    ),
    "pi.v5_min": _as(4.75, "V", "the Pi's 5 V rail at the header, USB tolerance −5 %"),
    "pi.v5_max": _as(5.25, "V", "the Pi's 5 V rail at the header, USB tolerance +5 %"),
    "pi.gpio_drive": _ds(
        8e-3,
        "A",
        "Raspberry Pi documentation (GPIO pads): default drive strength 8 mA, the current"
        " at which VOH/VOL stay in specification",
    ),
    "pi.gpio_voh": _as(3.0, "V", "Pi GPIO high level at a few mA load (3.3 V IO)"),
    "pi.gpio_v": _ds(3.3, "V", "Raspberry Pi GPIO: 3.3 V IO (its highest possible high level)"),
    # -- PN532 card reader ----------------------------------------------------------------
    "pn532.i_max": _as(
        0.15,
        "A",
        "Adafruit and Seeed PN532 boards draw about 35 mA reading, up to about 60 mA with a"
        " card in the field (as measured and reported on NXP's community forum, thread"
        " 528385); the PN532 datasheet lets the transmitter exceed 100 mA; 150 mA taken",
    ),
    # -- panel: BC337 low-side switches, RGB LED, buzzer ----------------------------------
    "bc337.vce_sat_max": _as(
        0.25,
        "V",
        "onsemi BC337 datasheet specifies VCE(sat) ≤ 0.7 V at 500 mA / 50 mA; at ≤ 50 mA"
        " driven with a forced gain ≤ 20, 0.25 V is taken from its saturation curves",
    ),
    "bc337.vce_sat_min": _as(0.05, "V", "BC337 saturated at a few mA, lowest VCE(sat)"),
    "bc337.vbe_max": _as(0.8, "V", "BC337 base-emitter voltage when saturated at ≤ 50 mA"),
    "bc337.vbe_min": _as(0.6, "V", "BC337 base-emitter voltage, low end"),
    "bc337.forced_gain": _as(
        20.0,
        "1",
        "collector/base current ratio that saturates the switch hard (its hFE is 250-630,"
        " onsemi BC337-40 datasheet)",
    ),
    "led.vf_red_min": _as(1.8, "V", "red die forward voltage, low end at a few mA"),
    "led.vf_red_max": _ds(2.5, "V", "5 mm RGB LED datasheets: red VF maximum at 20 mA"),
    "led.vf_blue_min": _as(
        2.6, "V", "InGaN (green, blue) die forward voltage, low end at a few mA"
    ),
    "led.vf_blue_max": _ds(3.6, "V", "5 mm RGB LED datasheets: green/blue VF maximum at 20 mA"),
    "led.i_max": _ds(20e-3, "A", "5 mm RGB LED datasheets: continuous forward current 20 mA"),
    "led.i_visible": _as(2e-3, "A", "a diffused 5 mm LED is plainly visible indoors at 2 mA"),
    "buzzer.i_max": _as(
        35e-3,
        "A",
        "PUI Audio AI-1223-TWT-5V-2-R (5 V internally driven magnetic buzzer): rated current"
        " ≤ 30 mA; 35 mA taken",
    ),
    # -- the supply's copper: tracks, cables, connectors ------------------------------------
    "copper.rho": _ds(1.72e-8, "ohm m", "IEC 60028: annealed copper, 1.7241e-8 Ω·m at 20 °C"),
    "copper.tempco": _ds(0.00393, "1/K", "IEC 60028: annealed copper, +0.393 %/K at 20 °C"),
    "copper.thickness": _as(
        35e-6,
        "m",
        "outer copper of a standard 2-layer hobby-fab board: 1 oz/ft² = 35 µm (JLCPCB, PCBWay"
        " default); thinner plating tolerance is left out, the pours' help is left out too",
    ),
    "copper.plating": _as(
        20e-6, "m", "via barrel plating: IPC-6012 class 2 asks 20 µm average; 20 µm taken"
    ),
    "wire.awg28_ohm_per_m": _ds(
        0.2129, "ohm/m", "ASTM B258 / AWG table: 28 AWG solid copper 212.9 Ω/km at 20 °C"
    ),
    "jst_sh.contact_ohm": _ds(
        40e-3,
        "ohm",
        "JST SH catalog (eSH): contact resistance 20 mΩ initial, 40 mΩ after environmental"
        " testing; 40 mΩ taken per contact",
    ),
    "cable.c_per_m": _as(
        100e-12,
        "F/m",
        "capacitance of one wire to its neighbours in a loose bundle of 28 AWG leads (JST SH"
        " pre-crimped leads): ribbon cables measure 40-60 pF/m conductor to conductor; a"
        " bundle's wires lie closer on more sides, 100 pF/m taken",
    ),
    "drv5055.vcc_min": _ds(
        3.0,
        "V",
        f"{DRV5055}: recommended operating conditions, VCC 3 to 3.63 V for 3.3-V operation",
    ),
    "buck.v_accuracy": _ds(
        0.04,
        "1",
        "Pololu D36V50Fx product pages: output voltage within 4 % (e.g. D36V50F12: '12 V"
        " with 4% accuracy')",
    ),
    "schottky.vf": _ds(0.5, "V", "Vishay SS14 datasheet: forward voltage 0.50 V max at 1 A, 25 °C"),
    # -- heat -------------------------------------------------------------------------------
    "heat.h_conv": _as(
        5.0,
        "W/(m2 K)",
        "natural convection from a still, vertical or horizontal panel in a room: 5-10"
        " W/(m² K) in heat-transfer textbooks; the low end is taken",
    ),
    "heat.k_cover": _as(
        0.15, "W/(m K)", "thermal conductivity of the acrylic/MDF cover layers (0.15-0.2)"
    ),
    "heat.rho_c": _as(
        1.75e6,
        "J/(m3 K)",
        "volumetric heat capacity of the acrylic/MDF covers (acrylic 1190 kg/m³ × 1470 J/(kg K))",
    ),
}


def figure(key: str) -> float:
    """The value of a figure (SI units as listed)."""
    return FIGURES[key].value
