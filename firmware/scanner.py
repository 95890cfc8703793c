"""Reads every hall sensor once: drives the multiplexer select lines, reads the ADCs.

Hardware comes in as arguments (anything with ``value(v)`` for pins and
``read_u16()`` for ADCs), so the same code runs on the Pico, under the unix
MicroPython port and under CPython in the simulator.

Scan order: the first-level select lines step through the 16 input indexes in
Gray-code order; for each index the second-level (bank) select lines walk all
banks, forwards on even indexes and backwards on odd ones. Every step therefore
changes exactly one select line: the first-level lines change once per input
index (16 times a scan), and all multiplexers' outputs for that index are read
before they change again.
"""

import array

try:
    import micropython

    _native = micropython.native
except (ImportError, AttributeError):  # CPython, or a port without the native emitter

    def _native(function: object) -> object:
        return function


def gray_order(bits: int) -> list[int]:
    """The ``2**bits`` values in Gray-code order (one bit changes per step)."""
    return [i ^ (i >> 1) for i in range(1 << bits)]


class MuxScanner:
    """Scans ``channels`` hall sensors through 74HC4067 multiplexers.

    ``select_pins``: S0..S3 of every first-level multiplexer (shared).
    ``adcs``: one ADC per ADC pin in use.
    ``bank_pins``: S0..S3 of the second-level multiplexer(s), or ``()`` if each
    first-level output goes straight into its own ADC pin.
    ``muxes``: first-level multiplexers fitted. Channel ``c`` is input
    ``c % inputs`` of first-level multiplexer ``c // inputs``; multiplexer ``m``
    sits on ADC ``m // banks``, bank ``m % banks``.
    ``clock`` and ``settle_us``: optional busy-wait after each first-level change.
    """

    def __init__(
        self,
        select_pins: list,
        adcs: list,
        bank_pins: list | tuple = (),
        muxes: int | None = None,
        channels: int | None = None,
        settle_us: int = 0,
        clock: object = None,
    ) -> None:
        self.inputs = 1 << len(select_pins)
        self.banks = 1 << len(bank_pins)
        self.settle_us = settle_us if clock is not None else 0
        self._clock = clock
        self._pins = (select_pins, bank_pins, adcs)
        self.configure(muxes, channels)

    @property
    def capacity(self) -> int:
        """The most channels this wiring can scan (every ADC/bank slot fitted)."""
        return len(self._pins[2]) * self.banks * self.inputs

    def configure(self, muxes: int | None = None, channels: int | None = None) -> None:
        """Scan ``channels`` on ``muxes`` first-level multiplexers (``ValueError`` if the
        wiring has fewer slots). Builds the scan plan: call between scans only."""
        select_pins, bank_pins, adcs = self._pins
        if muxes is None:
            muxes = len(adcs) * self.banks
        if muxes > len(adcs) * self.banks:
            raise ValueError(f"{muxes} muxes but only {len(adcs) * self.banks} ADC/bank slots")
        channels = muxes * self.inputs if channels is None else channels
        if channels > muxes * self.inputs or channels < 1:
            raise ValueError("more channels than the multiplexers have inputs")
        self.muxes = muxes
        self.channels = channels
        self._initial, self._plan = self._build_plan(select_pins, bank_pins, adcs)

    def new_buffer(self) -> array.array:
        """A zeroed ``array('H')`` of one reading per channel."""
        return array.array("H", [0] * self.channels)

    def _build_plan(self, select_pins: list, bank_pins: list, adcs: list) -> tuple:
        # Precompute the whole scan as a flat list of steps, each one pin change (or none)
        # and the reads that follow it: the hot loop then does no arithmetic.
        pins = [p.value for p in select_pins] + [p.value for p in bank_pins]
        n_select = len(select_pins)
        reads_for = {}
        for mux in range(self.muxes):
            adc, bank = divmod(mux, self.banks)
            for sel in range(self.inputs):
                channel = mux * self.inputs + sel
                if channel < self.channels:
                    reads_for.setdefault((sel, bank), []).append((adcs[adc].read_u16, channel))
        positions = []
        for index, sel in enumerate(gray_order(len(select_pins))):
            banks = gray_order(len(bank_pins))
            if index % 2:
                banks.reverse()
            for bank in banks:
                if (sel, bank) in reads_for:
                    positions.append((sel, bank))
        initial = []
        plan = []
        state = None
        for sel, bank in positions:
            bits = [(sel >> i) & 1 for i in range(n_select)]
            bits += [(bank >> i) & 1 for i in range(len(bank_pins))]
            if state is None:
                initial = [(pins[i], bits[i]) for i in range(len(bits))]
                changes = []
            else:
                changes = [i for i in range(len(bits)) if bits[i] != state[i]]
            state = bits
            settle = 1 if any(i < n_select for i in changes) else 0
            for i in changes[:-1]:
                plan.append((pins[i], bits[i], 0, ()))
            last = changes[-1] if changes else None
            setter = pins[last] if last is not None else None
            value = bits[last] if last is not None else 0
            plan.append((setter, value, settle, tuple(reads_for[(sel, bank)])))
        return initial, plan

    @_native
    def scan_into(self, buffer: array.array) -> array.array:
        """Read every channel once into ``buffer`` (indexed by channel)."""
        for setter, value in self._initial:
            setter(value)
        settle_us = self.settle_us
        clock = self._clock
        for setter, value, settle, reads in self._plan:
            if setter is not None:
                setter(value)
            if settle and settle_us:
                start = clock.ticks_us()
                while clock.ticks_diff(clock.ticks_us(), start) < settle_us:
                    pass
            for read, channel in reads:
                buffer[channel] = read()
        return buffer
