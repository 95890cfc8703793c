"""An SVG overview of a board's electronics (schemdraw), for the docs.

Not a full schematic (that is the KiCad netlist beside it): the blocks, the
counts that come from the board's sensor map, and the wires between them.
"""

from __future__ import annotations

import schemdraw
from schemdraw import flow

from lawmaster.hardware.sensor_map import SensorMap

from .bom import TITLES
from .budget import led_resistors
from .tree import MuxTree


def overview_svg(tree: MuxTree) -> str:
    """The block diagram of one table with this board, as SVG text."""
    schemdraw.use("svg")
    leds = led_resistors()
    sensor = SensorMap.load(tree.board).sensor.part  # the map's variant (A3 or A4)
    with schemdraw.Drawing(show=False) as d:
        d.config(fontsize=11, unit=1.5)
        psu = flow.Box(w=4, h=1.4).label("12 V 2 A adapter\nGST25E12-P1J")
        d += psu
        d += flow.Arrow().right(d.unit).at(psu.E)
        buck = flow.Box(w=4, h=1.4).anchor("W").label("3.3 V buck\nPololu D36V50F3\n(+3V3 rail)")
        d += buck
        d += flow.Arrow().down(d.unit).at(buck.S)
        sensors = (
            flow.Box(w=4.6, h=1.8)
            .anchor("N")
            .label(f"{tree.sensors} × {sensor}\neach with 100 nF\n(H0–H{tree.channels - 1})")
        )
        d += sensors
        d += flow.Arrow().right(d.unit).at(sensors.E)
        first = (
            flow.Box(w=4.2, h=1.8)
            .anchor("W")
            .label(f"{tree.first_level} × 74HC4067\nfirst level\nS0-S3 = GP2-GP5")
        )
        d += first
        d += flow.Arrow().right(d.unit).at(first.E)
        if tree.second_level:
            second = (
                flow.Box(w=4.2, h=1.8)
                .anchor("W")
                .label(f"{tree.second_level} × 74HC4067\nsecond level\nS0-S3 = GP6-GP9")
            )
            d += second
            d += flow.Arrow().right(d.unit).at(second.E).label("ADC0")
        else:
            d += flow.Arrow().right(d.unit).at(first.E).label("ADC0-2")
        pico = (
            flow.Box(w=4.4, h=1.8)
            .anchor("W")
            .label("Raspberry Pi Pico (U30)\n3V3_EN = GND\nUSB CDC to the Pi")
        )
        d += pico
        d += flow.Arrow().up(d.unit * 1.6).at(pico.N)
        pi = flow.Box(w=4.4, h=1.6).anchor("S").label("Raspberry Pi 4/5\n(host, dashboard)")
        d += pi
        d += flow.Arrow().left(d.unit).at(pi.W)
        panel = (
            flow.Box(w=5.6, h=1.9)
            .anchor("E")
            .label(
                "panel: 3 buttons (GPIO5/6/13)\nRGB LED via BC337 (17/27/22)\n"
                f"R {leds['red'].ohms} Ω, G/B {leds['green'].ohms} Ω; buzzer (18)"
            )
        )
        d += panel
        d += flow.Arrow().up(d.unit).at(pi.N)
        d += flow.Box(w=4.6, h=1.4).anchor("S").label("PN532 (I2C 0x24 or UART)\nRSTPD_N = GPIO4")
        d.add(flow.Start(w=0.01, h=0.01).at((2.5, 4.5)).label(TITLES[tree.board], fontsize=14))
        return d.get_imagedata("svg").decode("utf-8")
