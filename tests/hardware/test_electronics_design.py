"""The circuits follow the boards' sensor maps and the software's pins; the budgets are met
for the right reasons (and would catch the mistakes the issue found)."""

from __future__ import annotations

import math

import pytest

from lawmaster.hardware.electronics import budget
from lawmaster.hardware.electronics.circuits import PI_REF, PICO_REF, PN532_REF
from lawmaster.hardware.electronics.generate import host_design, scanner_design
from lawmaster.hardware.electronics.parts import pi_pin
from lawmaster.hardware.electronics.tree import tree_of
from lawmaster.hardware.sensor_map import SensorMap
from lawmaster.host.config import PanelConfig

BOARDS = ("gw-brott", "judge-dredd", "unamerican-graffiti")


def _part(design, ref):
    return next(p for p in design.circuit.parts if p.ref == ref)


@pytest.mark.parametrize("board", BOARDS)
def test_electronics_sensor_and_mux_counts_come_from_the_map(board):
    sensor_map = SensorMap.load(board)
    design = scanner_design(board)
    keys = [key for key, _ in design.parts.values()]
    assert keys.count("drv5055") == len(sensor_map.spots)
    first = math.ceil(sensor_map.channels / 16)
    assert keys.count("hc4067") == first + 1  # one second-level multiplexer into ADC0
    # every sensor has its own 100 nF, beside one per multiplexer
    assert keys.count("c100n") == len(sensor_map.spots) + first + 1
    for spot in sensor_map.spots[::17]:
        sensor = _part(design, f"H{spot.channel}")
        mux, index = divmod(spot.channel, 16)
        # A satellite's sensor reaches its multiplexer through two connector pins.
        peers = [p for p in sensor.n["OUT"].net.pins if p.part is not sensor]
        (peer,) = [p for p in peers if p.part.ref.startswith("U")]
        assert (peer.part.ref, peer.name) == (f"U{mux + 1}", f"Y{index}")
        assert all(p.part.ref.startswith("J") for p in peers if p is not peer)


def test_electronics_a_small_map_goes_straight_into_the_adc_pins():
    sensor_map = SensorMap.load("gw-brott")
    small = SensorMap.from_data(
        {
            "game": "gw-brott",
            "board": "small",
            "sensor": {"part": "DRV5055A3", "sensitivity_mv_per_mt": 15, "supply_v": 3.3,
                       "depth_mm": 6},
            "kinds": {},
            "spots": [{"channel": c, "space": f"S{c}", "x_mm": c, "y_mm": 0} for c in range(40)],
        }
    )  # fmt: skip
    tree = tree_of("small", small)
    assert (tree.first_level, tree.second_level, tree.adc_pins) == (3, 0, (26, 27, 28))
    assert tree_of("gw-brott", sensor_map).adc_pins == (26,)


@pytest.mark.parametrize("board", BOARDS)
def test_electronics_nothing_but_the_mux_sits_on_the_adc_input(board):
    design = scanner_design(board)
    pico = _part(design, PICO_REF)
    net = pico.n["GP26_ADC0"].net
    # TP4, the bring-up's test point on the ADC line, is a bare pad: no part, a fraction of
    # a pF next to the 100 pF the settling budget counts.
    assert sorted((p.part.ref, p.name) for p in net.pins) == [
        ("TP4", "1"),
        ("U21", "Z"),
        (PICO_REF, "GP26_ADC0"),
    ]


def test_electronics_a_one_millisecond_rc_filter_would_fail_the_settling_budget():
    # The old BOM's 10 kΩ / 100 nF on the ADC input, through the same two-pole model.
    lsb = 3.3 / 4096
    seconds = budget._two_pole(10e3, 100e-9, 300.0, 105e-12, 2.9, lsb / 2)
    dwell = budget.settling(scanner_design("gw-brott").tree).dwell_us * 1e-6
    assert seconds > 100 * dwell


@pytest.mark.parametrize("board", BOARDS)
def test_electronics_budgets_hold_on_every_rail(board):
    tree = scanner_design(board).tree
    for rail in budget.rails(tree):
        assert rail.margin >= 1.25, rail
    settle = budget.settling(tree)
    assert settle.settle_us <= settle.dwell_us / 2
    assert settle.settle_us + settle.conversion_us <= settle.dwell_us
    # the sensors' own supply is the bulk of the scanner rail: 10 mA each, worst case
    assert budget.rails(tree)[0].worst_a >= tree.sensors * 0.010


def test_electronics_the_pico_rail_alone_could_not_carry_the_sensors():
    # The old design: sensors on the Pico's own 3V3 (~300 mA). The budget says why not.
    tree = scanner_design("gw-brott").tree
    assert budget.rails(tree)[0].worst_a > 0.3 * 1.25


def test_electronics_led_and_base_resistors_are_computed_and_in_range():
    leds = budget.led_resistors()
    assert all(r.ok for r in leds.values())
    assert leds["green"].ohms < leds["red"].ohms  # the higher-VF die gets less resistance
    assert budget.base_resistor().ok
    design = host_design("i2c")
    assert design.parts["R1"] == ("resistor", f"{leds['red'].ohms}R")


def test_electronics_panel_uses_the_configs_pins_and_the_pn532_reset_is_wired():
    design = host_design("i2c")
    pi = _part(design, PI_REF)
    config = PanelConfig()
    for name, gpio in config.buttons.items():
        net = pi.p[pi_pin(gpio)].net
        assert net.name == f"BTN_{name.upper()}"
        assert any(p.part.ref.startswith("SW") for p in net.pins)
    assert len(config.buttons) == 3
    for colour, gpio in config.led.items():
        assert any(p.part.ref.startswith("R") for p in pi.p[pi_pin(gpio)].net.pins), colour
    reader = _part(design, PN532_REF)
    # Adafruit 364's header: RSTPD_N is pin 11 of the 12-pin JP3, not JP4's RSTOUT_N.
    reset = reader.p["JP3-11"]
    assert reset.name == "RSTPD_N"
    assert any(p.part is pi and p.name == "GPIO4" for p in reset.net.pins)
    rstout = reader.p["JP4-6"]
    assert rstout.name == "RSTOUT_N" and (rstout.net is None or rstout.net.name == "__NOCONNECT")


@pytest.mark.parametrize("board", BOARDS)
def test_electronics_heat_is_finite_and_grows_with_the_sensor_count(board):
    sensor_map = SensorMap.load(board)
    tree = tree_of(board, sensor_map)
    warm = budget.heat(sensor_map, tree)
    assert (
        0
        < warm.power_w
        == pytest.approx(
            tree.sensors * 3.3 * 0.010 + (tree.first_level + tree.second_level) * 3.3 * 160e-6
        )
    )
    assert 0 < warm.board_rise_k < 50 and warm.offset_counts > 0 and warm.gain_counts > 0
