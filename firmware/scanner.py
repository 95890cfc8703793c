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
    ``settle_us``: at least this long between a select change and the conversion
    that reads it (the multiplexer nodes settling, ``hardware/electronics/budget.py``).
    ``engine``: on a Pico, ``firmware.rp2040.RegisterScan``, which runs the scan as
    viper machine code on the chip's registers and times the settling itself; without
    it the pins' ``value`` and the ADCs' ``read_u16`` are called (the stand-in board of
    the simulator and the unix port), waiting on ``clock`` when one is given.
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
        engine: object = None,
    ) -> None:
        self.inputs = 1 << len(select_pins)
        self.banks = 1 << len(bank_pins)
        self.settle_us = settle_us if clock is not None else 0
        self._clock = clock
        self._pins = (select_pins, bank_pins, adcs)
        self.engine = engine
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
        steps = self.steps()
        if self.engine is not None:
            self._plan = ()
            self.engine.load(steps)
        else:
            pins = [p.value for p in select_pins] + [p.value for p in bank_pins]
            reads = [a.read_u16 for a in adcs]
            self._plan = [
                (tuple((pins[i], level) for i, level in changes), reads[adc], channel)
                for changes, adc, channel in steps
            ]

    def new_buffer(self) -> array.array:
        """A zeroed ``array('H')`` of one reading per channel."""
        return array.array("H", [0] * self.channels)

    def steps(self) -> list:
        """The scan as a list of steps, each ``(changes, adc, channel)``: set the select
        pins in ``changes`` ((pin index, level); first-level lines first, then the bank
        lines), then read ADC ``adc`` into ``channel``. The first step sets every line."""
        n_select = len(self._pins[0])
        n_bank = len(self._pins[1])
        reads_for = {}
        for mux in range(self.muxes):
            adc, bank = divmod(mux, self.banks)
            for sel in range(self.inputs):
                channel = mux * self.inputs + sel
                if channel < self.channels:
                    reads_for.setdefault((sel, bank), []).append((adc, channel))
        steps = []
        state = None
        for index, sel in enumerate(gray_order(n_select)):
            banks = gray_order(n_bank)
            if index % 2:
                banks.reverse()
            for bank in banks:
                reads = reads_for.get((sel, bank))
                if not reads:
                    continue
                bits = [(sel >> i) & 1 for i in range(n_select)]
                bits += [(bank >> i) & 1 for i in range(n_bank)]
                changes = [
                    (i, bits[i]) for i in range(len(bits)) if state is None or bits[i] != state[i]
                ]
                state = bits
                for adc, channel in reads:
                    steps.append((changes, adc, channel))
                    changes = []
        return steps

    def scan_into(self, buffer: array.array) -> array.array:
        """Read every channel once into ``buffer`` (indexed by channel)."""
        if self.engine is not None:
            self.engine.scan_into(buffer)
            return buffer
        settle_us = self.settle_us
        clock = self._clock
        for changes, read, channel in self._plan:
            if changes:
                for setter, level in changes:
                    setter(level)
                if settle_us:
                    start = clock.ticks_us()
                    while clock.ticks_diff(clock.ticks_us(), start) < settle_us:
                        pass
            buffer[channel] = read()
        return buffer
