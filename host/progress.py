"""Progress of the table's set-up steps for the web's calibration and enrollment pages.

The pages ask ``host.calibration.progress()`` and ``host.enrollment.progress()``
for ``{"step", "done", "total", "message"}``. :class:`CalibrationProgress`
follows the guided calibration flow prompt by prompt (the demo's simulated
person calibrating its board at start-up), or says what the calibration file
holds (``lawmaster run`` loads one made by ``lawmaster calibrate``).
:class:`DeckProgress` counts the cards of a game whose stickers the card
registry knows, so a ``lawmaster enroll`` running beside the table shows live.
"""

from __future__ import annotations

import threading
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from lawmaster.hardware.sensor_map import SensorMap
from lawmaster.host.nfc.cards import Card, game_name
from lawmaster.host.nfc.registry import CardRegistry
from lawmaster.host.sensing import Calibration, Prompt


def _report(step: str, done: int, total: int, message: str) -> dict[str, Any]:
    return {"step": step, "done": done, "total": total, "message": message}


class CalibrationProgress:
    """Where a board's calibration stands: every spot of every kind of magnet is one step.

    Feed it each prompt of the flow (:meth:`on_prompt`, from any thread), or
    tell it the calibration was loaded (:meth:`loaded`) or is missing
    (:meth:`missing`).
    """

    def __init__(self, sensor_map: SensorMap) -> None:
        self.spots = len(sensor_map.spots)
        self.kinds = list(sensor_map.kinds)
        self.total = self.spots * len(self.kinds)
        self._lock = threading.Lock()
        self._report = _report("waiting", 0, self.total, "calibration has not started")

    def on_prompt(self, prompt: Prompt) -> None:
        """The flow asks the next thing of the person calibrating."""
        if prompt.step == "done":
            done = self.total
        elif prompt.step == "empty" or prompt.kind not in self.kinds:
            done = 0
        else:
            done = self.kinds.index(prompt.kind) * self.spots + prompt.done
        with self._lock:
            self._report = _report(prompt.step, done, self.total, prompt.text)

    def loaded(self, calibration: Calibration, path: str | Path) -> None:
        """The calibration was read from ``path`` (made earlier: nothing left to do)."""
        problems = calibration.check()
        note = f"; {len(problems)} problem(s): {problems[0]}" if problems else ""
        when = f" (measured {calibration.created})" if calibration.created else ""
        with self._lock:
            self._report = _report(
                "done", self.total, self.total, f"calibration loaded from {path}{when}{note}"
            )

    def missing(self, reason: str) -> None:
        """There is no usable calibration; ``reason`` says what to do about it."""
        with self._lock:
            self._report = _report("missing", 0, self.total, reason)

    def progress(self) -> dict[str, Any]:
        """``{"step", "done", "total", "message"}`` for the calibration page."""
        with self._lock:
            return dict(self._report)

    @classmethod
    def from_file(cls, sensor_map: SensorMap, path: str | Path) -> CalibrationProgress:
        """The progress of a table that loads its calibration from ``path``."""
        progress = cls(sensor_map)
        try:
            progress.loaded(Calibration.load(path), path)
        except FileNotFoundError:
            progress.missing(f"no calibration at {path}: run `lawmaster calibrate` first")
        except (OSError, ValueError, KeyError) as exc:
            progress.missing(f"the calibration at {path} cannot be used: {exc}")
        return progress


class DeckProgress:
    """How many of a game's cards the registry has a sticker for, and which comes next."""

    def __init__(self, registry: CardRegistry, game: str, cards: Iterable[Card]) -> None:
        self.registry = registry
        self.game = game_name(game)
        self.cards = list(cards)

    def progress(self) -> dict[str, Any]:
        """``{"step", "done", "total", "message"}`` for the enrollment page."""
        enrolled = self.registry.enrolled(self.game)
        left = [card for card in self.cards if card.id not in enrolled]
        done, total = len(self.cards) - len(left), len(self.cards)
        if not left:
            return _report("done", done, total, f"all {total} cards of {self.game} are enrolled")
        return _report(
            "enrolling",
            done,
            total,
            f"{len(left)} card(s) still to enrol with `lawmaster enroll {self.game}`;"
            f" next: {left[0].name}",
        )
