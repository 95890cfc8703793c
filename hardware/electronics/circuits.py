"""The circuits, described with SKiDL: one scanner per board, and the host side.

:func:`scanner` is a board's sensor layer and scanner: the 5 V input, the 3.3 V
buck converter that feeds every sensor, multiplexer and the Pico, the
multiplexer tree (:mod:`.tree`, sized by the board's sensor map), one DRV5055
with its own 100 nF per spot, and the Pico. Nothing sits between a sensor's
output and its multiplexer, nor between the last multiplexer and the ADC: the
settling budget (:func:`.budget.settling`) shows none is needed, and the old
10 kΩ/100 nF filter (τ = 1 ms) would have smeared every reading into the next.

:func:`host` is what hangs on the Raspberry Pi's header: the panel (buttons,
a common-anode RGB LED and an active buzzer, each switched by a BC337 from the
Pi's 5 V) on the GPIOs the table config uses by default
(:class:`lawmaster.host.config.PanelConfig`), and one PN532 reader on I2C or on
the Pi's UART with its RSTPD_N on a GPIO.

Reference designators: hall sensor ``H<channel>`` with its capacitor
``CH<channel>``; first-level multiplexer ``U<m+1>``; second-level ``U2<j+1>``;
the Pico ``U30``; on the host side the Pi's header ``J10`` and the PN532 ``U40``.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from lawmaster.hardware.sensor_map import SensorMap
from lawmaster.host.config import PanelConfig

from .budget import base_resistor, led_resistors
from .parts import pi_pin, resistor_value, spec_of, template
from .skidl_quiet import skidl
from .tree import BANK_GPIO, INPUTS, SAFE_MODE_GPIO, SELECT_GPIO, MuxTree, tree_for

#: Pi GPIO wired to the PN532's RSTPD_N (the reader's ``reset_pin`` in the table config).
PN532_RESET_GPIO = 4
PICO_REF = "U30"
#: The host side's refs stay clear of the scanner's (one BOM lists both).
PI_REF, PN532_REF = "J10", "U40"


@dataclass
class Design:
    """A described circuit and what the BOM needs to know about each part."""

    name: str
    circuit: Any
    #: ref → (part key, value shown in the BOM)
    parts: dict[str, tuple[str, str]]
    tree: MuxTree | None = None


class _Builder:
    def __init__(self, name: str) -> None:
        self.circuit = skidl.Circuit()
        self.circuit.no_files = True
        self.parts: dict[str, tuple[str, str]] = {}
        self.nets: dict[str, Any] = {}
        self.name = name

    def part(self, key: str, ref: str, value: str | None = None) -> Any:
        made = template(key)(ref=ref, tag=ref, circuit=self.circuit)
        made.value = value if value is not None else spec_of(key).value
        self.parts[ref] = (key, made.value)
        return made

    def net(self, name: str, power: bool = False) -> Any:
        if name not in self.nets:
            net = skidl.Net(name, circuit=self.circuit)
            if power:
                net.drive = skidl.POWER
            self.nets[name] = net
        return self.nets[name]

    def join(self, name: str, pins: Iterable[Any], power: bool = False) -> None:
        net = self.net(name, power)
        for pin in pins:
            net += pin

    def unused(self, part: Any, used: Iterable[str]) -> None:
        taken = set(used)
        for pin in part.pins:
            if pin.num not in taken and pin.net is None:
                pin += self.circuit.NC

    def design(self, tree: MuxTree | None = None) -> Design:
        return Design(self.name, self.circuit, self.parts, tree)


def _cap(b: _Builder, key: str, ref: str, net: str) -> None:
    cap = b.part(key, ref)
    b.join(net, [cap.p[1]], power=True)
    b.join("GND", [cap.p[2]], power=True)


def scanner(board: str) -> Design:
    """The scanner board of a standard board (``"gw-brott"``…), sized by its sensor map."""
    tree = tree_for(board)
    sensor_part = SensorMap.load(board).sensor.part
    b = _Builder(f"scanner-{board}")
    gnd = lambda pins: b.join("GND", pins, power=True)  # noqa: E731 - local shorthand

    jack = b.part("jack", "J1")
    b.join("+12V", [jack.p[1]])
    gnd([jack.p[2]])
    jack.p[3] += b.circuit.NC

    buck = b.part("buck", "PS1")
    b.join("+12V", [buck.n["VIN"]])
    gnd([buck.n["GND"]])
    b.join("+3V3", [buck.n["VOUT"]])
    buck.n["EN"] += b.circuit.NC  # pulled up on the module: always on
    buck.n["PG"] += b.circuit.NC
    _cap(b, "c10u", "CB1", "+3V3")

    pico = b.part("pico", PICO_REF)
    b.join("+3V3", [pico.n["3V3"]])
    # The Pico's own regulator off: the buck's rail is the RP2040's supply and, through
    # the Pico's ADC_VREF filter, the ADC's reference, the same rail the sensors are
    # ratiometric to.
    gnd([pico.n["3V3_EN"]])
    gnd(pico.n["GND"])
    gnd([pico.n["AGND"]])
    used = {"36", "37", "33", "3", "8", "13", "18", "23", "28", "38"}
    for i, gpio in enumerate(SELECT_GPIO):
        b.join(f"SEL{i}", [pico.n[f"GP{gpio}"]])
        used.add(pico.n[f"GP{gpio}"].num)
    if tree.second_level:
        for i, gpio in enumerate(BANK_GPIO):
            b.join(f"BANK{i}", [pico.n[f"GP{gpio}"]])
            used.add(pico.n[f"GP{gpio}"].num)
    jumper = b.part("jumper", "J2")
    b.join("SAFE_MODE", [pico.n[f"GP{SAFE_MODE_GPIO}"], jumper.p[1]])
    gnd([jumper.p[2]])
    used.add(pico.n[f"GP{SAFE_MODE_GPIO}"].num)
    adc_names = {26: "GP26_ADC0", 27: "GP27_ADC1", 28: "GP28_ADC2"}
    for k, gpio in enumerate(tree.adc_pins):
        b.join(f"ADC{k}", [pico.n[adc_names[gpio]]])
        used.add(pico.n[adc_names[gpio]].num)
    b.unused(pico, used)

    def mux(ref: str, selects: str, number: int) -> Any:
        chip = b.part("hc4067", ref)
        b.join("+3V3", [chip.n["VCC"]])
        gnd([chip.n["GND"], chip.n["E"]])
        for i in range(4):
            b.join(f"{selects}{i}", [chip.n[f"S{i}"]])
        _cap(b, "c100n", f"C{number}", "+3V3")
        _cap(b, "c10u", f"CB{number + 1}", "+3V3")
        return chip

    seconds = [mux(f"U2{j + 1}", "BANK", 20 + j + 1) for j in range(tree.second_level)]
    for j, chip in enumerate(seconds):
        b.join(f"ADC{j}", [chip.n["Z"]])
    for m in range(tree.first_level):
        chip = mux(f"U{m + 1}", "SEL", m + 1)
        up = tree.upstream(m)
        if up is None:
            b.join(f"ADC{m}", [chip.n["Z"]])
        else:
            j, i = up
            b.join(f"MUX{m + 1}", [chip.n["Z"], seconds[j].n[f"Y{i}"]])
        for i in range(INPUTS):
            channel = m * INPUTS + i
            if channel not in tree.used:
                gnd([chip.n[f"Y{i}"]])  # a fitted but unmapped input reads 0, never floats
                continue
            # The variant (sensitivity) is the magnetics' choice, made in the map.
            sensor = b.part("drv5055", f"H{channel}", sensor_part)
            b.join("+3V3", [sensor.n["VCC"]])
            gnd([sensor.n["GND"]])
            b.join(f"CH{channel}_OUT", [sensor.n["OUT"], chip.n[f"Y{i}"]])
            _cap(b, "c100n", f"CH{channel}", "+3V3")
    for j, chip in enumerate(seconds):
        for i in range(INPUTS):
            if j * INPUTS + i >= tree.first_level:
                gnd([chip.n[f"Y{i}"]])
    return b.design(tree)


def host(interface: str = "i2c") -> Design:
    """The Pi's side: panel and one PN532 (``interface`` ``"i2c"`` or ``"uart"``)."""
    if interface not in ("i2c", "uart"):
        raise ValueError(f"interface is 'i2c' or 'uart', not {interface!r}")
    b = _Builder(f"host-{interface}")
    pins = PanelConfig()
    pi = b.part("pi", PI_REF)
    used: set[str] = set()

    def gpio(number: int, net: str, *others: Any) -> None:
        pin = pi.p[pi_pin(number)]
        b.join(net, [pin, *others])
        used.add(pin.num)

    b.join("+3V3", [pi.p[1]])
    b.join("+5V", [pi.p[2]])
    b.join("GND", [pi.p[n] for n in (6, 9, 14, 20, 25, 30, 34, 39)], power=True)
    used.update({"1", "2", "6", "9", "14", "20", "25", "30", "34", "39"})

    # Buttons to ground; the Pi's internal pull-ups hold the pins high.
    for number, (name, pin) in enumerate(sorted(pins.buttons.items(), key=lambda kv: kv[1]), 1):
        button = b.part("button", f"SW{number}")
        gpio(pin, f"BTN_{name.upper()}", button.p[1])
        b.join("GND", [button.p[2]], power=True)

    # RGB LED, common anode on 5 V; each die's cathode through its resistor to a BC337.
    led = b.part("rgb", "D1")
    b.join("+5V", [led.n["A"]])
    base = base_resistor()
    switches = [(colour, pins.led[colour]) for colour in ("red", "green", "blue")]
    resistors = led_resistors()
    for k, (colour, pin) in enumerate(switches, 1):
        res = b.part("resistor", f"R{k}", resistor_value(resistors[colour].ohms))
        b.join(f"LED_{colour.upper()}_K", [led.n[colour[0].upper()], res.p[1]])
        _switch(b, k, f"LED_{colour.upper()}_SW", res.p[2], pin, base.ohms, gpio)

    if pins.buzzer is not None:
        buzzer = b.part("buzzer", "BZ1")
        diode = b.part("diode", "D2")
        b.join("+5V", [buzzer.p[1], diode.n["K"]])
        b.join("BUZZER_SW", [buzzer.p[2], diode.n["A"]])
        _switch(b, 4, None, buzzer.p[2], pins.buzzer, base.ohms, gpio)

    reader = b.part("pn532", PN532_REF)
    b.join("+3V3", [reader.n["VCC"]])
    b.join("GND", [reader.n["GND"]], power=True)
    if interface == "i2c":
        gpio(2, "I2C_SDA", reader.n["SDA_TXD"])
        gpio(3, "I2C_SCL", reader.n["SCL_RXD"])
    else:
        gpio(15, "PN532_TXD", reader.n["SDA_TXD"])  # the reader's TXD into the Pi's RXD
        gpio(14, "PN532_RXD", reader.n["SCL_RXD"])
    reader.n["IRQ"] += b.circuit.NC  # the driver polls
    gpio(PN532_RESET_GPIO, "PN532_RSTPD_N", reader.n["RSTPD_N"])
    b.unused(pi, used)
    return b.design()


def _switch(
    b: _Builder, k: int, net: str | None, load: Any, gpio_pin: int, base_ohms: int, gpio: Any
) -> None:
    """A BC337 low-side switch Q<k> under ``load``, its base through R<k+3> from a GPIO."""
    q = b.part("npn", f"Q{k}")
    rb = b.part("resistor", f"R{k + 3}", resistor_value(base_ohms))
    if net is not None:
        b.join(net, [load, q.n["C"]])
    else:
        b.join("BUZZER_SW", [q.n["C"]])
    b.join(f"Q{k}_BASE", [rb.p[2], q.n["B"]])
    b.join("GND", [q.n["E"]], power=True)
    gpio(gpio_pin, f"GPIO{gpio_pin}_Q{k}", rb.p[1])


BOARDS = ("gw-brott", "judge-dredd", "unamerican-graffiti")
