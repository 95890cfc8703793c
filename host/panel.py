"""The table's panel: three buttons in, an RGB status LED and a buzzer out (gpiozero).

The referee hears a button as a name (``"confirm"``, ``"undo"``, ``"end_turn"``)
and answers with a status:

=========== ============ =================================
status      LED          buzzer
=========== ============ =================================
``ok``      green        one short beep
``illegal`` red          two long beeps
``waiting`` amber        silent (a piece must be put back)
``blind``   blue         three short beeps (the board cannot be read: paused)
``idle``    off          silent
=========== ============ =================================

The pins come from the table config (BCM numbers, see ``wiring.md``). Pins are
made by a gpiozero pin factory: on the Pi gpiozero's default (lgpio); when the
program runs simulated, :func:`panel_pin_factory` hands out gpiozero's
``MockFactory`` with PWM-capable mock pins, because on a PC without one
gpiozero raises ``BadPinFactory``.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from importlib.metadata import entry_points
from typing import Any

from gpiozero import RGBLED, Button, Buzzer
from gpiozero.pins.mock import MockFactory, MockPWMPin

BUTTONS = ("confirm", "undo", "end_turn")
#: The button whose long press is a gesture of its own (granting what waits, see
#: :mod:`lawmaster.host.web.access`): its short press is then taken at release.
HOLDABLE = "confirm"
STATUSES = ("ok", "illegal", "waiting", "blind", "idle")

#: LED colour (red, green, blue in 0..1) per status. Amber leans to red because
#: a typical RGB LED's green die is much brighter than its red one.
COLOURS: dict[str, tuple[float, float, float]] = {
    "ok": (0.0, 1.0, 0.0),
    "illegal": (1.0, 0.0, 0.0),
    "waiting": (1.0, 0.25, 0.0),
    # Blue: the one colour no verdict uses, so a glance tells "paused" from "wrong".
    "blind": (0.0, 0.0, 1.0),
    "idle": (0.0, 0.0, 0.0),
}

#: Buzzer pattern per status: (seconds on, seconds off, how many beeps).
BEEPS: dict[str, tuple[float, float, int]] = {
    "ok": (0.08, 0.05, 1),
    "illegal": (0.35, 0.15, 2),
    "blind": (0.08, 0.08, 3),
}


@dataclass(frozen=True)
class PanelPins:
    """BCM GPIO numbers of the panel. A button or the buzzer may be ``None`` (not fitted).

    Buttons are wired to ground (internal pull-ups). ``led_active_high`` is
    ``True`` for a common-cathode RGB LED, ``False`` for common-anode.
    """

    confirm: int | None = 6
    undo: int | None = 5
    end_turn: int | None = 13
    red: int = 17
    green: int = 27
    blue: int = 22
    buzzer: int | None = 18
    led_active_high: bool = True
    bounce_time: float | None = 0.03

    @classmethod
    def from_config(cls, config: Any) -> PanelPins:
        """Pins from the table config's panel section (object or dict).

        It has ``buttons`` (name → pin; ``end-turn`` or ``end_turn``), ``led``
        (``red``/``green``/``blue`` → pin) and ``buzzer`` (pin or absent).
        """

        def get(key: str, default: Any) -> Any:
            if isinstance(config, Mapping):
                return config.get(key, default)
            return getattr(config, key, default)

        buttons = {k.replace("-", "_"): v for k, v in dict(get("buttons", {}) or {}).items()}
        unknown = sorted(set(buttons) - set(BUTTONS))
        if unknown:
            raise ValueError(f"unknown panel button(s) {', '.join(unknown)}; known: {BUTTONS}")
        led = dict(get("led", {}) or {})
        defaults = cls()
        return cls(
            confirm=buttons.get("confirm"),
            undo=buttons.get("undo"),
            end_turn=buttons.get("end_turn"),
            red=led.get("red", defaults.red),
            green=led.get("green", defaults.green),
            blue=led.get("blue", defaults.blue),
            buzzer=get("buzzer", defaults.buzzer),
        )

    def buttons(self) -> dict[str, int]:
        """Button name → pin, for the buttons that are fitted."""
        pins = {"confirm": self.confirm, "undo": self.undo, "end_turn": self.end_turn}
        return {name: pin for name, pin in pins.items() if pin is not None}


def panel_pin_factory(simulated: bool, name: str = "") -> Any:
    """The pin factory for the panel: mock pins when simulated, else the named or default one.

    ``name`` is the config's ``pin_factory`` (``""``: gpiozero's default on the
    Pi; ``"mock"``: mock pins anyway; or ``lgpio``, ``rpigpio``, ``pigpio``,
    ``native``). ``None`` means gpiozero's default.
    """
    if simulated or name == "mock":
        return MockFactory(pin_class=MockPWMPin)
    if not name:
        return None
    for entry in entry_points(group="gpiozero_pin_factories"):
        if entry.name == name.lower():
            return entry.load()()
    raise ValueError(f"unknown gpiozero pin factory {name!r}")


class Panel:
    """The buttons, status LED and buzzer.

    ``on_button(name)`` is called from gpiozero's thread when a button is
    pressed; keep it quick (put it on the referee's queue).

    With ``on_hold``, the confirm button has two gestures that never mix: held
    down for ``hold_seconds`` it calls ``on_hold("confirm")`` (and nothing else);
    a shorter press calls ``on_button("confirm")`` when it is released. So a press
    meant for the game (confirming an undo) can never be taken as the long press,
    nor the long press as a confirmation. The other buttons act when pressed.
    """

    def __init__(
        self,
        pins: PanelPins,
        on_button: Callable[[str], None],
        pin_factory: Any = None,
        on_hold: Callable[[str], None] | None = None,
        hold_seconds: float = 3.0,
    ) -> None:
        self.pins = pins
        self._factory = pin_factory
        self._on_button = on_button
        self._on_hold = on_hold
        self._status = "idle"
        self._lock = threading.Lock()
        self._buttons: dict[str, Button] = {}
        self._led: RGBLED | None = None
        self._buzzer: Buzzer | None = None
        #: Set while the holdable button's current press has been a long press.
        self._was_held = threading.Event()
        #: Set each time a long press was taken (the simulator's finger waits for it).
        self._held_done = threading.Event()
        try:
            for name, pin in pins.buttons().items():
                holdable = on_hold is not None and name == HOLDABLE
                button = Button(
                    pin,
                    pull_up=True,
                    bounce_time=pins.bounce_time,
                    pin_factory=pin_factory,
                    hold_time=hold_seconds,
                )
                if holdable:
                    button.when_pressed = self._was_held.clear
                    button.when_held = self._held_handler(name)
                    button.when_released = self._released_handler(name)
                else:
                    button.when_pressed = self._pressed_handler(name)
                self._buttons[name] = button
            self._led = RGBLED(
                pins.red,
                pins.green,
                pins.blue,
                active_high=pins.led_active_high,
                pin_factory=pin_factory,
            )
            if pins.buzzer is not None:
                self._buzzer = Buzzer(pins.buzzer, pin_factory=pin_factory)
        except BaseException:
            self.close()
            raise

    @classmethod
    def from_config(
        cls, config: Any, on_button: Callable[[str], None], *, simulated: bool = False
    ) -> Panel:
        """A panel from the table config's ``[panel]`` (its pins and ``pin_factory``)."""
        name = config.get("pin_factory", "") if isinstance(config, Mapping) else ""
        name = getattr(config, "pin_factory", name) or ""
        return cls(PanelPins.from_config(config), on_button, panel_pin_factory(simulated, name))

    def __enter__(self) -> Panel:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def _pressed_handler(self, name: str) -> Callable[[], None]:
        def pressed() -> None:
            self._on_button(name)

        return pressed

    def _held_handler(self, name: str) -> Callable[[], None]:
        def held() -> None:
            self._was_held.set()
            if self._on_hold is not None:
                self._on_hold(name)
            self._held_done.set()

        return held

    def _released_handler(self, name: str) -> Callable[[], None]:
        def released() -> None:
            # A press that became a long press was that gesture, and only that.
            if not self._was_held.is_set():
                self._on_button(name)
            self._was_held.clear()

        return released

    @property
    def status(self) -> str:
        """The status shown now."""
        return self._status

    @property
    def colour(self) -> tuple[float, float, float]:
        """The LED's colour now (red, green, blue in 0..1), for a dashboard to mirror."""
        if self._led is None:
            return COLOURS["idle"]
        red, green, blue = self._led.value
        return (red, green, blue)

    def show(self, status: str) -> None:
        """Show a verdict: LED colour and beep. Unknown statuses are a programming error."""
        if status not in STATUSES:
            raise ValueError(f"status must be one of {STATUSES}, not {status!r}")
        with self._lock:
            self._status = status
            if self._led is not None:
                self._led.color = COLOURS[status]
            if self._buzzer is not None:
                pattern = BEEPS.get(status)
                if pattern is None:
                    self._buzzer.off()
                else:
                    on_time, off_time, count = pattern
                    self._buzzer.beep(on_time, off_time, n=count, background=True)

    def press(self, name: str) -> None:
        """Press and release a button on mock pins (the simulator's finger)."""
        if not isinstance(self._factory, MockFactory):
            raise RuntimeError("only mock pins can be pressed by the program")
        pin = self._factory.pin(self._pin_of(name))
        pin.drive_low()
        pin.drive_high()

    def hold(self, name: str, timeout: float = 30.0) -> bool:
        """Hold a button down on mock pins until its long press is taken, then let go.

        ``False`` if the long press was not taken within ``timeout`` seconds.
        """
        if not isinstance(self._factory, MockFactory):
            raise RuntimeError("only mock pins can be pressed by the program")
        pin = self._factory.pin(self._pin_of(name))
        self._held_done.clear()
        pin.drive_low()
        try:
            return self._held_done.wait(timeout)
        finally:
            pin.drive_high()

    def _pin_of(self, name: str) -> int:
        pin = self.pins.buttons().get(name)
        if pin is None:
            raise KeyError(f"no {name!r} button fitted; buttons: {sorted(self.pins.buttons())}")
        return pin

    def close(self) -> None:
        """Release the pins (LED and buzzer off)."""
        devices: list[Any] = [*self._buttons.values(), self._led, self._buzzer]
        for device in devices:
            if device is not None:
                device.close()
        self._buttons.clear()
        self._led = self._buzzer = None
