"""The scan loop on the RP2040 itself: select lines and ADC through the chip's registers.

Imported only on a Pico (``firmware.main.build`` when ``machine`` has ``mem32``). A
``RegisterScan`` runs the scan plan ``MuxScanner`` builds as one ``@micropython.viper``
function: per step it writes the select-line changes to SIO ``GPIO_OUT_SET`` /
``GPIO_OUT_CLR`` (one store each, however many lines change), waits until the
multiplexer nodes have settled, starts one conversion (ADC ``CS``: ``EN | START_ONCE |
AINSEL``), polls ``READY`` and stores ``RESULT`` scaled to 16 bits as
``machine.ADC.read_u16`` scales it. Bytecode calls of ``Pin.value`` and
``ADC.read_u16`` cost about 25 µs a channel at 125 MHz (measured on the emulated
RP2040, ``firmware/README.md``); this loop costs the settling and the conversion and
little more.

Settling: the next step's select lines change as soon as a conversion's result is in,
and the loop stores the result while the multiplexer nodes settle; it starts the next
conversion once the core's SysTick counter has run ``settle_us`` at the clock the
firmware set (``config.CONFIG["settle_us"]``, at least the worst case
``hardware/electronics/budget.py`` computes for every standard board; ``tests/pico``
checks it). An interrupt during the wait only lengthens it.

The decorators are written literally: ``micropython.native`` and ``micropython.viper``
are read by the compiler and are no attributes of the ``micropython`` module on the
Pico. ``tests/pico`` checks on the emulated RP2040 that ``scan`` is viper machine code.
"""

import array

import micropython
from machine import mem32

# ARMv6-M SysTick (Cortex-M0+ technical reference; RP2040 datasheet 2.4.8).
_SYST_CSR = 0xE000E010
_SYST_RVR = 0xE000E014
_SYST_ENABLE = 0x1
_SYST_CLKSOURCE = 0x4  # the processor clock

# The registers are written as literals in the viper function (viper loads them as
# machine words): RP2040 datasheet, SIO GPIO_OUT_SET/CLR 0xd0000014/18 (2.3.1.7), ADC
# CS/RESULT 0x4004c000/04 (4.9.6: CS = EN 0x1 | START_ONCE 0x4 | AINSEL << 12, READY
# 0x100), SysTick CVR 0xe000e018 (2.4.8).
FIRST_ADC_GPIO = 26  # GP26..GP29 are ADC inputs 0..3


@micropython.viper
def scan(program, steps: int, buffer, settle: int) -> int:
    """Run ``steps`` steps of ``program`` (three words each: GPIO mask to set, mask to
    clear, ``channel << 8 | ADC input``) into ``buffer`` (array('H')), waiting ``settle``
    core cycles after each select change; returns ``steps``."""
    prog = ptr32(program)  # noqa: F821 - viper builtin
    out = ptr16(buffer)  # noqa: F821 - viper builtin
    gpio_set = ptr32(0xD0000014)  # noqa: F821 - SIO GPIO_OUT_SET
    gpio_clr = ptr32(0xD0000018)  # noqa: F821 - SIO GPIO_OUT_CLR
    adc_cs = ptr32(0x4004C000)  # noqa: F821 - ADC CS
    adc_result = ptr32(0x4004C004)  # noqa: F821 - ADC RESULT
    systick = ptr32(0xE000E018)  # noqa: F821 - SysTick CVR: counts clk_sys cycles down
    gpio_set[0] = prog[0]
    gpio_clr[0] = prog[1]
    start = systick[0]
    i = 0
    j = 0
    while i < steps:
        word = prog[j + 2]
        while ((start - systick[0]) & 0xFFFFFF) < settle:  # the nodes settle
            pass
        adc_cs[0] = 0x5 | ((word & 0x7) << 12)  # EN | START_ONCE | AINSEL
        i += 1
        j += 3
        up = 0
        down = 0
        if i < steps:  # the next step's select lines, fetched while the ADC converts
            up = prog[j]
            down = prog[j + 1]
        while not (adc_cs[0] & 0x100):  # READY
            pass
        value = adc_result[0] & 0xFFF
        if up or down:  # change them at once: the result is stored while they settle
            gpio_set[0] = up
            gpio_clr[0] = down
            start = systick[0]
        out[word >> 8] = (value << 4) | (value >> 8)
    return steps


class RegisterScan:
    """The scan engine for ``MuxScanner`` on a Pico: pin indexes become GPIO masks.

    ``gpios``: the GPIO number of each select pin the scanner knows by index (the
    first-level lines, then the bank lines); ``adc_gpios``: the GPIO of each ADC pin.
    """

    def __init__(self, gpios: list, adc_gpios: list, settle_us: float, cpu_hz: int) -> None:
        self.gpios = gpios
        self.adc_inputs = [g - FIRST_ADC_GPIO for g in adc_gpios]
        # Core cycles of settling, rounded up, at the clock the firmware runs at.
        self.settle_cycles = int(settle_us * cpu_hz / 1_000_000) + 1
        # SysTick counts clk_sys cycles down from 2**24 - 1, no interrupt (MicroPython
        # leaves it off): the settling wait reads it.
        mem32[_SYST_RVR] = 0xFFFFFF
        mem32[_SYST_CSR] = _SYST_ENABLE | _SYST_CLKSOURCE
        self.program = array.array("I")
        self.steps = 0

    def load(self, steps: list) -> None:
        """Compile the scanner's steps: each ``(changes, adc_index, channel)`` with
        ``changes`` a list of (pin index, level)."""
        words = []
        for changes, adc, channel in steps:
            up = 0
            down = 0
            for pin, level in changes:
                if level:
                    up |= 1 << self.gpios[pin]
                else:
                    down |= 1 << self.gpios[pin]
            words.append(up)
            words.append(down)
            words.append(channel << 8 | self.adc_inputs[adc])
        self.program = array.array("I", words)
        self.steps = len(steps)

    def scan_into(self, buffer: array.array) -> None:
        """One scan into ``buffer``."""
        scan(self.program, self.steps, buffer, self.settle_cycles)
