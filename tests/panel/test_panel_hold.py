"""The confirm button's two gestures on gpiozero's mock pins: a short press is the game's, a
long press is the grant gesture, and neither is ever taken as the other."""

from __future__ import annotations

from lawmaster.host.panel import Panel, PanelPins, panel_pin_factory

PINS = PanelPins(confirm=6, undo=5, end_turn=13, red=17, green=27, blue=22, buzzer=18)


def _panel(hold_seconds: float = 0.3):
    pressed: list[str] = []
    held: list[str] = []
    factory = panel_pin_factory(simulated=True)
    panel = Panel(PINS, pressed.append, pin_factory=factory, on_hold=held.append,
                  hold_seconds=hold_seconds)  # fmt: skip
    return panel, factory, pressed, held


def test_panel_hold_a_short_press_is_the_games_and_grants_nothing():
    panel, factory, pressed, held = _panel()
    with panel:
        pin = factory.pin(6)
        pin.drive_low()
        assert pressed == []  # taken at release: it may yet become a long press
        pin.drive_high()
        assert pressed == ["confirm"] and held == []


def test_panel_hold_a_long_press_grants_and_is_no_game_input():
    panel, _, pressed, held = _panel()
    with panel:
        assert panel.hold("confirm")
        assert held == ["confirm"] and pressed == []
        panel.press("confirm")  # the next short press is the game's again
        assert pressed == ["confirm"] and held == ["confirm"]


def test_panel_hold_the_other_buttons_act_when_pressed():
    panel, factory, pressed, held = _panel()
    with panel:
        factory.pin(5).drive_low()
        assert pressed == ["undo"]
        factory.pin(5).drive_high()
        factory.pin(13).drive_low()
        factory.pin(13).drive_high()
        assert pressed == ["undo", "end_turn"] and held == []
