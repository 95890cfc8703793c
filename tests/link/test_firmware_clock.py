"""The firmware raises the RP2040's core voltage before it clocks the core past what the
reset voltage is certified for (200 MHz needs 1.15 V), and only on a Pico."""

from __future__ import annotations

from lawmaster.firmware import main


class Machine:
    """What ``set_clock`` touches of MicroPython's ``machine`` on a Pico."""

    def __init__(self) -> None:
        # VREG at reset: enabled (bit 0), VSEL 0b1011 = 1.10 V, regulation OK (bit 12).
        self.mem32 = {main.VREG: (1 << 12) | (0b1011 << 4) | 1}
        self.writes: list[tuple[str, int]] = []

    def freq(self, hz: int) -> None:
        self.writes.append(("freq", hz))


class Clock:
    """MicroPython's ``time`` as far as ``set_clock`` uses it."""

    def __init__(self) -> None:
        self.slept: list[int] = []

    def sleep_ms(self, ms: int) -> None:
        self.slept.append(ms)


def test_200_mhz_raises_the_core_to_1v15_first_and_keeps_the_other_bits(monkeypatch):
    monkeypatch.setattr(main.sys, "platform", "rp2")
    machine = Machine()
    order: list[str] = []
    vsel_at_freq: list[int] = []
    machine.freq = lambda hz: (order.append("freq"), vsel_at_freq.append(machine.mem32[main.VREG]))
    clock = Clock()
    main.set_clock(machine, 200_000_000, clock)
    assert clock.slept, "the regulator is given time to settle before the clock goes up"
    value = machine.mem32[main.VREG]
    assert (value >> 4) & 0xF == 0b1100  # 1.15 V
    assert value & 1 and value & (1 << 12)  # enabled, and the status bit left as it was
    assert order == ["freq"] and (vsel_at_freq[0] >> 4) & 0xF == 0b1100


def test_a_certified_clock_and_the_unix_port_leave_the_voltage_alone(monkeypatch):
    machine = Machine()
    before = dict(machine.mem32)
    monkeypatch.setattr(main.sys, "platform", "rp2")
    main.set_clock(machine, 125_000_000, Clock())
    monkeypatch.setattr(main.sys, "platform", "linux")
    main.set_clock(machine, 200_000_000, Clock())
    assert machine.mem32 == before
    assert machine.writes == [("freq", 125_000_000), ("freq", 200_000_000)]
