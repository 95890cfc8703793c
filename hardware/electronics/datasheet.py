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
        0.01 * 3.3 / 65,
        "V/K",
        "offset (quiescent voltage) drift per kelvin: the datasheet bounds VQΔT only over"
        " the whole range (±1 % of VCC, 33 mV at 3.3 V); spread over the shorter side of"
        " it, 25 °C down to −40 °C (65 K), that is at most 0.51 mV/K",
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
    "usb.fs_bulk_bytes_per_s": _ds(
        19 * 64 * 1000,
        "B/s",
        "USB 2.0 specification, section 5.8.4: a full-speed bulk endpoint moves at most 19"
        " packets of 64 bytes per 1 ms frame",
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
    # -- supply ripple at the ADC (budget.ripple) ----------------------------------------
    "buck.f_sw": _ds(
        500e3,
        "Hz",
        "Pololu D36V50Fx product page (the family's common data): switching frequency"
        " ~500 kHz under heavy loads; at light load a power-save mode lowers it, but keeps"
        " it above 20 kHz",
    ),
    "buck.ripple_pp": _as(
        0.033,
        "V",
        "Pololu publishes no output-ripple figure for the D36V50Fx; 1 % of the output peak"
        " to peak (33 mV) is taken: a small buck of this class measures about that (the"
        " Pico's own RT6150 3V3 rail: 30.7 mV peak to peak in PWM mode, 20 MHz bandwidth,"
        " pico-adc.markomo.me 'PSU Noise'), and the rail's own 100 nF per sensor and 10 µF"
        " per multiplexer only lower it",
    ),
    # The rail filter after the buck (pieces.RAIL_FILTER_*): Bourns SRR1210A-100M into four
    # 10 µF ceramics.
    "filter.l": _ds(
        10e-6,
        "H",
        "Bourns SRR1210A series datasheet, SRR1210A-100M: 10 µH ± 20 % at 1 kHz; SRF 12 MHz"
        " typ., far above the 500 kHz it filters",
    ),
    "filter.l_tol": _ds(0.20, "1", "Bourns SRR1210A-100M: inductance tolerance ± 20 %"),
    "filter.l_dcr": _ds(0.018, "ohm", "Bourns SRR1210A-100M: DCR 0.018 Ω max"),
    "filter.l_isat": _ds(
        6.5,
        "A",
        "Bourns SRR1210A-100M: Isat 6.5 A (inductance 20 % down), I rms 6.5 A (40 °C rise)",
    ),
    "filter.c_bias": _as(
        0.5,
        "1",
        "what a 10 µF X5R 10 V 0805 ceramic (Murata GRM21BR61A106KE19) keeps of its"
        " capacitance at 3.3 V DC bias: Murata's DC-bias curves for the class show 50-60 %;"
        " 50 % taken",
    ),
    "filter.c_esr": _as(
        0.010,
        "ohm",
        "ESR of one 10 µF X5R 0805 ceramic near 500 kHz: Murata's impedance curves for the"
        " class show a few mΩ at the bottom of the curve; 10 mΩ taken",
    ),
    "pico.vref_r": _ds(
        200.0,
        "ohm",
        f"{PICO}, section 4.3 'Using the ADC': ADC_VREF is the 3V3 rail through the 200 Ω"
        " filter resistor R7",
    ),
    "pico.vref_r_series": _ds(
        1.0,
        "ohm",
        f"{PICO}, section 4.3: the 1 Ω resistor R9 in series with the ADC_VREF capacitor"
        " (it keeps a little filtering even with 3V3 and ADC_VREF shorted): it sets the"
        " filter's floor at high frequency, 1/201",
    ),
    "pico.vref_c": _ds(2.2e-6, "F", f"{PICO}, section 4.3: the 2.2 µF capacitor on ADC_VREF"),
    "drv5055.bandwidth": _ds(20e3, "Hz", f"{DRV5055}: features list, 20-kHz sensing bandwidth"),
    # -- first power (bringup) ------------------------------------------------------------
    "drv5055.vq_spread": _ds(
        0.060,
        "V",
        f"{DRV5055}: electrical characteristics, quiescent voltage VQ at VCC = 3.3 V,"
        " B = 0 mT, 25 °C: 1.59 to 1.71 V (±60 mV about VCC/2)",
    ),
    "drv5055.vq_temp": _ds(
        0.01,
        "1",
        f"{DRV5055}: electrical characteristics, VQ drift over temperature VQΔT: ±1 % of"
        " VCC (−40…125 °C against 25 °C); the self-test's idle window takes it whole"
        " (bringup.idle_window_counts), the heat budget per kelvin (drv5055.vq_drift)",
    ),
    "earth.field": _as(
        65e-6,
        "T",
        "the Earth's field, at most about 65 µT anywhere (geomagnetic field models);"
        " taken whole along the sensor's axis",
    ),
    "rp2040.pull_down_min": _as(
        50e3,
        "ohm",
        f"{RP2040}, GPIO DC characteristics: pad pull-down 50-80 kΩ, enabled on every"
        " GPIO from reset; MicroPython leaves a pin it is not told to use as it is, so in"
        " safe mode the select lines sit low and GP26 carries the pull-down",
    ),
    "psu.v_tol": _as(
        0.05,
        "1",
        "Mean Well GST25E12-P1J: output voltage tolerance taken as ±5 % (the series'"
        " datasheet gives a tighter figure; 5 % covers it with the cable's drop)",
    ),
    # -- the 12 V input's protection (pieces.scanner_kind: F1, D3, D4) ------------------------
    "fuse.i_rated": _ds(
        1.0,
        "A",
        "Littelfuse 466 series (0466001.NR, 1206 very fast-acting chip fuse): ampere rating 1 A,"
        " 63 V",
    ),
    "fuse.rerate": _ds(
        0.75,
        "1",
        "Littelfuse 466 series datasheet, temperature re-rating note: the standard re-rating of"
        " 25 % for continuous operation (I ≤ 0.75 × rating at 25 °C)",
    ),
    "fuse.rerate_warm": _as(
        0.90,
        "1",
        "Littelfuse 466 series temperature re-rating curve: about 90 % at 50 °C (0.80 at"
        " 70 °C is the datasheet's example), read off the curve; applied on top of fuse.rerate",
    ),
    "fuse.i_open": _ds(
        2.0,
        "A",
        "Littelfuse 466 series, opening time at 25 °C: 200 % of the rating opens within 5 s"
        " (300 %: 0.2 s)",
    ),
    "fuse.r_cold": _ds(
        0.076,
        "ohm",
        "Littelfuse 466 series, 1 A item: nominal cold resistance 0.076 Ω",
    ),
    "fuse.r_hot": _as(
        0.114,
        "ohm",
        "the fuse warm at its load: the cold resistance (0.076 Ω) + 50 % (a thin-film element"
        " warms; the datasheet gives the cold figure only)",
    ),
    "schottky.vf_max": _ds(
        0.5, "V", "Vishay SS14 datasheet: maximum forward voltage 0.50 V at 1.0 A, 25 °C"
    ),
    "schottky.ir_max": _ds(
        0.5e-3,
        "A",
        "Vishay SS14 datasheet: maximum reverse current 0.5 mA at the rated 40 V, 25 °C: what"
        " a reversed adapter still pushes through it",
    ),
    "tvs.standoff": _ds(
        15.0, "V", "Littelfuse SMAJ15A datasheet: reverse stand-off voltage VR 15 V"
    ),
    "tvs.clamp": _ds(
        24.4, "V", "Littelfuse SMAJ15A datasheet: maximum clamping voltage VC 24.4 V at IPP"
    ),
    "buck.v_in_max": _ds(50.0, "V", "Pololu D36V50Fx product page: input voltage up to 50 V"),
}


def figure(key: str) -> float:
    """The value of a figure (SI units as listed)."""
    return FIGURES[key].value
