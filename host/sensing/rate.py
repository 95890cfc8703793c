"""The scan rate a board's scanner can keep: from its channel count and the firmware's budget.

``firmware/README.md`` ("Time budget") budgets the RP2040 scanner at 200 scans/s
for 256 channels: 5.0 ms per scan, 19.5 µs per channel, with the worst measured
per-channel cost (16 µs at 200 MHz) and the per-scan extras (frame encode, USB
write, command poll: ≤ 0.35 ms) inside it. A board with fewer channels is
scanned faster at the same per-channel cost, and every scan sooner means every
debounce and stillness window (counted in scans) ends sooner.
"""

from __future__ import annotations

import math

#: The firmware README's per-channel budget: 5.0 ms per scan / 256 channels.
CHANNEL_BUDGET_US = 1_000_000 / 200 / 256
#: Rates are rounded down to a multiple of this (scans/s), so a figure in a log reads plainly.
STEP = 50
#: Never slower than the README's reference; never faster than 400 scans/s, the rate the
#: stillness windows (counted in scans) were validated at on the simulated boards.
SLOWEST, FASTEST = 200, 400


def scan_rate(channels: int) -> int:
    """Scans per second for a board of ``channels`` channels (200 for 256; 400 for 122)."""
    if channels <= 0:
        raise ValueError(f"a board needs channels, not {channels}")
    rate = int(1_000_000 / (channels * CHANNEL_BUDGET_US)) // STEP * STEP
    return max(SLOWEST, min(FASTEST, rate))


# ----------------------------------------------------------------- the RP2040's floor
# What the scanner's hardware takes per scan, whatever the code: firmware/README.md
# ("Time budget") sets these against the interpreter's share measured by
# ``firmware/bench.py``. Each figure is a datasheet value or a stated assumption.

#: RP2040 datasheet, section 4.9 "ADC": the ADC runs from a 48 MHz clock and takes
#: 96 cycles a conversion: 2 µs, 500 kS/s.
ADC_CLOCK_HZ = 48_000_000
ADC_CYCLES = 96
#: 74HC4067 on-resistance: 70-180 Ω specified at VCC = 4.5 V (the datasheets give no
#: 3.3 V figure); assumed 250 Ω at 3.3 V, where it rises.
MUX_R_ON_OHM = 250.0
#: The DRV5055's output is an amplifier; assumed 100 Ω source resistance (worst case).
SENSOR_R_OHM = 100.0
#: Node capacitances: a 74HC4067's common output ≤ 50 pF and a switch input ≤ 10 pF
#: (datasheet "Dynamic characteristics"), plus an assumed 5 pF of trace: the node
#: between the two tiers, and the ADC node (second tier's output + the RP2040's
#: pin and sample capacitor, assumed 10 pF).
C_BETWEEN_TIERS_F = 50e-12 + 10e-12 + 5e-12
C_ADC_NODE_F = 50e-12 + 10e-12
#: Switch-on time, select change to output, allowed at 3.3 V: 0.5 µs (datasheets give
#: tens of ns at 4.5 V, rising at lower VCC).
MUX_T_ON_US = 0.5
#: USB 2.0 specification, section 5.8.4: a full-speed bulk endpoint moves at most
#: 19 packets of 64 bytes per 1 ms frame.
USB_FS_BULK_BYTES_PER_S = 19 * 64 * 1000


def adc_conversion_us() -> float:
    """One RP2040 conversion (2 µs)."""
    return ADC_CYCLES / ADC_CLOCK_HZ * 1e6


def mux_settle_us(bits: int = 12) -> float:
    """Switch-on plus settling of a full-scale step to ½ LSB through both tiers.

    One lumped pole: τ = (R_sensor + 2·R_on)·(C_between + C_adc); ½ LSB of ``bits``
    needs ln(2^(bits+1)) τ.
    """
    tau = (SENSOR_R_OHM + 2 * MUX_R_ON_OHM) * (C_BETWEEN_TIERS_F + C_ADC_NODE_F)
    return MUX_T_ON_US + tau * math.log(2 ** (bits + 1)) * 1e6


def hardware_scan_us(channels: int, frame_bytes: float) -> float:
    """The floor of one scan: every channel settled and converted, its frames on the bus."""
    analog = channels * (mux_settle_us() + adc_conversion_us())
    return analog + frame_bytes / USB_FS_BULK_BYTES_PER_S * 1e6
