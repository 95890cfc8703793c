"""The scanner's wiring and defaults: which Pico pins drive which multiplexer.

The default is the board described in ``wiring.md`` ("Scanner"): sixteen
first-level 74HC4067 multiplexers share four select lines; their sixteen outputs
go into one second-level 74HC4067 whose output is the Pico's ADC0. That gives
16 × 16 = 256 channels on one ADC pin. Channel ``c`` is input ``c % 16`` of
first-level multiplexer ``c // 16``.

Other layouts are the same keys with other values, e.g. three multiplexers
straight into ADC0..ADC2 (48 channels, no second tier)::

    {"select_pins": [2, 3, 4, 5], "bank_select_pins": [], "adc_pins": [26, 27, 28],
     "muxes": 3, "channels": 48}

With ``bank_select_pins`` set, each ADC pin has its own second-level
multiplexer (all sharing the bank select lines), so up to 3 × 16 first-level
multiplexers fit; multiplexer ``m`` is input ``m % 16`` of the second-level
multiplexer on ADC pin ``m // 16``.
"""

CONFIG = {
    # GPIO numbers of S0..S3 on every first-level 74HC4067 (shared).
    "select_pins": [2, 3, 4, 5],
    # GPIO numbers of S0..S3 on the second-level 74HC4067(s); [] when the first-level
    # outputs go straight into ADC pins.
    "bank_select_pins": [6, 7, 8, 9],
    # ADC inputs in order: GP26 = ADC0, GP27 = ADC1, GP28 = ADC2.
    "adc_pins": [26],
    # What the wiring can scan: 16 first-level multiplexers, 256 channels. No board is
    # laid out like this: the host sends its sensor map's layout (LAYOUT: channels,
    # multiplexers) at every handshake, and the scanner scans that from then on.
    "muxes": 16,
    "channels": 256,
    # Scans per second until the host asks for its rate (RATE, at every handshake:
    # lawmaster.host.sensing.rate.scan_rate, 400/s on every standard board).
    "rate": 200,
    # At least this long (µs) between a select change and the conversion that reads it:
    # the worst step through both multiplexer levels and the longest bus cable on the
    # first level's Z line settles to ½ LSB in 2.69 µs (Judge Dredd's 95 pF of cable;
    # hardware/electronics/budget.py, every standard board; tests/pico checks that this
    # covers it). The register scan counts it in core cycles.
    "settle_us": 3.0,
    # Stream SCAN frames right after boot, or wait for the host's START.
    "stream_at_boot": False,
    # Pulled low at boot (jumper to GND) = do not start the scanner, keep the REPL.
    "safe_mode_pin": 22,
    # Clock the RP2040 at this frequency (Hz) for scan headroom; None = leave it.
    "cpu_hz": 200_000_000,
    # Change-only reporting (see app.py): dead-band in u16 counts, keyframe interval.
    "deadband": 96,
    "keyframe_ms": 2000,
    # Held high while a scan is read and sent: GP25 is the Pico's LED (it glows while
    # scanning; a scope on it shows each scan's cost). None = no busy pin.
    "busy_pin": 25,
    # Self-test every channel once at boot (the report follows the boot HELLO).
    "selftest_at_boot": True,
}

# Self-test limits. Each is a voltage turned into u16 counts (65536 counts = the 3.3 V
# ADC reference, which is also the sensors' supply: the readings are ratiometric).
SUPPLY_V = 3.3
#: The DRV5055's output stays 0.2 V inside either rail (hardware/SENSOR-MAPS.md,
#: ``rail_v``): a reading nearer than half that to a rail is the input itself tied
#: there (a short, a dead sensor pulled by the multiplexer's input), not a field.
RAIL_MARGIN_V = 0.1
#: Where a good sensor's no-field reading lies, in counts (low, high), until the host
#: sends its board's window (the IDLE command, at every handshake). One computation
#: makes every such window: ``lawmaster.hardware.electronics.bringup.idle_window_counts``
#: (VCC/2 within the DRV5055's quiescent spread, its drift over temperature and the
#: Earth's field). This is the widest of the standard boards' windows, so a boot test
#: before the host speaks flags no sensor the board's own window would pass;
#: tests/link/test_link_budget.py checks it is exactly that.
IDLE_WINDOW = (30901, 34635)


def _counts(volts: float) -> int:
    return int(volts / SUPPLY_V * 65536)


def selftest_limits() -> dict:
    """The self-test's limits in u16 counts: the rails and the idle window."""
    return {
        "rail_low": _counts(RAIL_MARGIN_V),
        "rail_high": 65535 - _counts(RAIL_MARGIN_V),
        "idle_low": IDLE_WINDOW[0],
        "idle_high": IDLE_WINDOW[1],
    }


def channel_count(config: dict) -> int:
    """Channels the layout in ``config`` scans."""
    channels = config.get("channels")
    capacity = config["muxes"] * (1 << len(config["select_pins"]))
    if channels is None:
        return capacity
    if channels > capacity:
        raise ValueError(f"{channels} channels but {config['muxes']} muxes give {capacity}")
    return channels
