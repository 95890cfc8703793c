"""The panel on gpiozero's mock pins: buttons in, LED colour and buzzer out."""

from __future__ import annotations

import time
from itertools import pairwise

import pytest
from gpiozero.pins.mock import MockFactory

from lawmaster.host.config import PanelConfig
from lawmaster.host.panel import COLOURS, Panel, PanelPins, panel_pin_factory

PINS = PanelPins(confirm=6, undo=5, end_turn=13, red=17, green=27, blue=22, buzzer=18)


@pytest.fixture
def rig():
    factory = panel_pin_factory(simulated=True)
    pressed: list[str] = []
    with Panel(PINS, pressed.append, pin_factory=factory) as panel:
        yield panel, factory, pressed


def rises(pin) -> int:
    """How many times the pin went from off to on."""
    return sum(1 for a, b in pairwise(pin.states) if not a.state and b.state)


def wait_until(condition, timeout: float = 5.0) -> None:
    deadline = time.monotonic() + timeout
    while not condition():
        assert time.monotonic() < deadline, "condition never became true"
        time.sleep(0.01)


def test_panel_a_pressed_button_reaches_the_callback_by_name(rig):
    panel, factory, pressed = rig
    for pin in (6, 5, 13):
        factory.pin(pin).drive_low()
        factory.pin(pin).drive_high()
    assert pressed == ["confirm", "undo", "end_turn"]
    panel.press("confirm")
    assert pressed[-1] == "confirm"


@pytest.mark.parametrize("status", ["ok", "illegal", "waiting", "idle"])
def test_panel_status_sets_the_led_pins(rig, status):
    panel, factory, _ = rig
    panel.show(status)
    levels = tuple(float(factory.pin(p).state) for p in (17, 27, 22))
    assert levels == pytest.approx(COLOURS[status])
    assert panel.status == status and panel.colour == pytest.approx(COLOURS[status])


def test_panel_illegal_is_red_and_ok_is_green(rig):
    panel, factory, _ = rig
    panel.show("illegal")
    assert float(factory.pin(17).state) == 1.0 and float(factory.pin(27).state) == 0.0
    panel.show("ok")
    assert float(factory.pin(17).state) == 0.0 and float(factory.pin(27).state) == 1.0


@pytest.mark.parametrize(("status", "beeps"), [("ok", 1), ("illegal", 2)])
def test_panel_buzzer_beeps_once_for_ok_twice_for_illegal(rig, status, beeps):
    panel, factory, _ = rig
    buzzer = factory.pin(18)
    panel.show(status)
    wait_until(lambda: rises(buzzer) >= beeps and not buzzer.state)
    time.sleep(0.6)  # longer than a beep cycle: no further beep may follow
    assert rises(buzzer) == beeps and not buzzer.state


def test_panel_waiting_and_idle_are_silent(rig):
    panel, factory, _ = rig
    panel.show("waiting")
    panel.show("idle")
    assert rises(factory.pin(18)) == 0


def test_panel_common_anode_led_inverts_the_pins():
    factory = panel_pin_factory(simulated=True)
    pins = PanelPins(led_active_high=False)
    with Panel(pins, lambda name: None, pin_factory=factory) as panel:
        panel.show("illegal")
        assert float(factory.pin(pins.red).state) == 0.0
        assert float(factory.pin(pins.green).state) == 1.0


def test_panel_refuses_an_unknown_status(rig):
    panel, _, _ = rig
    with pytest.raises(ValueError):
        panel.show("maybe")
    assert panel.status == "idle"


def test_panel_pins_from_the_table_config():
    pins = PanelPins.from_config(PanelConfig(buttons={"confirm": 6, "end-turn": 13}, buzzer=None))
    assert pins.buttons() == {"confirm": 6, "end_turn": 13} and pins.buzzer is None
    with pytest.raises(ValueError):
        PanelPins.from_config({"buttons": {"pause": 4}})
    factory = panel_pin_factory(simulated=True)
    with Panel(pins, lambda name: None, pin_factory=factory) as panel:
        panel.show("illegal")  # no buzzer fitted: the LED alone
        with pytest.raises(KeyError):
            panel.press("undo")


def test_panel_pin_factory_choice():
    assert isinstance(panel_pin_factory(simulated=True), MockFactory)
    assert isinstance(panel_pin_factory(simulated=False, name="mock"), MockFactory)
    assert panel_pin_factory(simulated=False) is None  # gpiozero's default, on the Pi
    with pytest.raises(ValueError):
        panel_pin_factory(simulated=False, name="no-such-factory")


def test_panel_close_releases_the_pins():
    factory = panel_pin_factory(simulated=True)
    Panel(PINS, lambda name: None, pin_factory=factory).close()
    with Panel(PINS, lambda name: None, pin_factory=factory) as again:
        again.show("ok")


def test_panel_from_the_table_config_runs_on_mock_pins_when_simulated():
    pressed: list[str] = []
    config = PanelConfig(buttons={"confirm": 6, "undo": 5, "end_turn": 13})
    with Panel.from_config(config, pressed.append, simulated=True) as panel:
        panel.press("end_turn")
        panel.show("waiting")
        assert pressed == ["end_turn"] and panel.colour == pytest.approx(COLOURS["waiting"])
    with Panel.from_config({"pin_factory": "mock"}, pressed.append) as panel:
        panel.show("ok")  # the dict form, with the config asking for mock pins
