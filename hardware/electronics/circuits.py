"""The circuits, described with SKiDL: one scanner per board, and the host side.

:func:`scanner` is a board's sensor layer and scanner, built from the pieces the
board is cut into (:mod:`.pieces`): the scanner board (the 12 V input with its
fuse, reverse-polarity diode and TVS, the 3.3 V buck converter that feeds every
sensor, multiplexer and the Pico, the second-level multiplexer, the Pico, test
points) and every sensor piece (one DRV5055 with its own 100 nF per spot, the
first-level multiplexers, the bus and satellite connectors). Nothing sits
between a sensor's output and its multiplexer, nor between the last multiplexer
and the ADC: the settling budget (:func:`.budget.settling`) shows none is
needed, and the old 10 kΩ/100 nF filter (τ = 1 ms) would have smeared every
reading into the next.

:func:`host` is what hangs on the Raspberry Pi's header: the panel (buttons,
a common-anode RGB LED and an active buzzer, each switched by a BC337 from the
Pi's 5 V) on the GPIOs the table config uses by default
(:class:`lawmaster.host.config.PanelConfig`), and one PN532 reader on I2C or on
the Pi's UART with its RSTPD_N on a GPIO.

Reference designators: hall sensor ``H<channel>`` with its capacitor
``CH<channel>``; first-level multiplexer ``U<m+1>`` with ``C<m+1>`` and
``CB<m+2>``; second-level ``U21``; the Pico ``U30``; the scanner board's
connectors ``J1``-``J5`` and test points ``TP1``-``TP4``; connector ``i`` of
piece ``p`` ``J<100p+i>``, its 3.3 V test pad ``TP<100+p>`` (``TP5`` on the
piece at the far end of the supply); on the host side the Pi's header ``J10``
and the PN532 ``U40``.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from lawmaster.hardware.sensor_map import SensorMap
from lawmaster.host.config import PanelConfig

from .budget import base_resistor, led_resistors
from .parts import pi_pin, resistor_value, spec_of, template
from .pieces import (
    KindCircuit,
    Piece,
    Plan,
    global_net,
    global_ref,
    kind_circuit,
    plan,
    scanner_kind,
)
from .skidl_quiet import skidl
from .tree import MuxTree, tree_for

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


#: Nets that carry supply: SKiDL's ERC wants a power driver on them.
POWER_NETS = ("+3V3", "+3V3_BUCK", "GND", "+12V")


def _instantiate(
    b: _Builder, circuit: KindCircuit, made: Plan, piece: Piece | None, sensor: str
) -> None:
    """Add one piece (or the scanner board, ``piece`` None) to the board's circuit."""
    for local in circuit.parts:
        value = sensor if local.key == "drv5055" else None
        part = b.part(local.key, global_ref(made, piece, local.ref), value)
        for pin, net in local.pins:
            name = global_net(made, piece, net)
            b.join(name, [part.p[pin]], power=name in POWER_NETS)
        b.unused(part, [pin for pin, _ in local.pins])


def scanner(board: str) -> Design:
    """The sensor layer and scanner of a standard board (``"gw-brott"``…), from its pieces.

    One circuit for the whole table side: the scanner board
    (:func:`.pieces.scanner_kind`) and every piece of the board
    (:func:`.pieces.plan`), each piece's parts renamed to the board's references
    (sensor ``H<channel>``…) and its nets joined through the cables (a cable
    carries pin k to pin k, so both connectors' pins share the net).
    """
    made = plan(board)
    tree = tree_for(board)
    if tree.first_level != made.first_level:
        raise ValueError(
            f"{board}: the map needs {tree.first_level} multiplexers, the pieces"
            f" carry {made.first_level}"
        )
    sensor = SensorMap.load(board).sensor.part
    b = _Builder(f"scanner-{board}")
    _instantiate(b, scanner_kind(), made, None, sensor)
    for piece in made.pieces:
        _instantiate(b, kind_circuit(board, piece.kind), made, piece, sensor)
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

    # Adafruit's header pins (parts.PN532_PINS): power on JP4, reset on JP3.
    reader = b.part("pn532", PN532_REF)
    b.join("+3V3", [reader.p["JP4-1"]])
    b.join("GND", [reader.p["JP4-8"], reader.p["JP3-12"]], power=True)
    if interface == "i2c":
        gpio(2, "I2C_SDA", reader.p["JP4-4"])  # MOSI/SDA/TX
        gpio(3, "I2C_SCL", reader.p["JP4-5"])  # NSS/SCL/RX
    else:
        gpio(15, "PN532_TXD", reader.p["JP4-4"])  # the reader's TX into the Pi's RXD
        gpio(14, "PN532_RXD", reader.p["JP4-5"])
    # IRQ (JP4-7) stays open: the driver polls.
    gpio(PN532_RESET_GPIO, "PN532_RSTPD_N", reader.p["JP3-11"])
    b.unused(reader, ["JP4-1", "JP4-8", "JP3-12", "JP4-4", "JP4-5", "JP3-11"])
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
