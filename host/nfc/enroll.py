"""Enrolment: tapping each card of a deck once so the registry learns its sticker.

The flow prompts card by card ("tap Perp 7 of 28: Judge Death"), binds the UID
of the next tapped sticker to that card, and optionally writes the card id into
the tag's memory so the deck also works on a table that never enrolled it.
Every binding is committed at once, so an interrupted enrolment resumes where
it stopped. Enrolling a card again (a replaced sticker) forgets its old UID.
"""

from __future__ import annotations

import queue
import threading
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field

from lawmaster.host.nfc.cards import Card, game_name
from lawmaster.host.nfc.events import ReaderEvent, ReaderStatus, TagTapped
from lawmaster.host.nfc.reader import TagReader
from lawmaster.host.nfc.registry import CardRegistry
from lawmaster.host.nfc.tagdata import TagCardId


class EnrollmentTimeout(TimeoutError):
    """No sticker was tapped in time."""


@dataclass(frozen=True)
class Prompt:
    """One step: which card to tap, and where it stands in its kind and in the deck."""

    card: Card
    number: int
    of: int
    position: int
    total: int

    @property
    def text(self) -> str:
        """What the person enrolling is asked, e.g. ``tap Perp 7 of 28: Judge Death``."""
        kind = self.card.kind.replace("_", " ").replace("-", " ").capitalize()
        return f"tap {kind} {self.number} of {self.of}: {self.card.name}"


def prompts_for(cards: Sequence[Card], only: Iterable[str] | None = None) -> list[Prompt]:
    """The prompts for ``cards`` (all of them, or those whose ids are in ``only``).

    Numbers count within each kind of the full deck, so a re-enrolment of one
    card still says which Perp it is.
    """
    wanted = None if only is None else set(only)
    if wanted is not None:
        missing = wanted - {c.id for c in cards}
        if missing:
            raise KeyError(f"no such card(s): {', '.join(sorted(missing))}")
    per_kind: dict[str, int] = {}
    for card in cards:
        per_kind[card.kind] = per_kind.get(card.kind, 0) + 1
    seen: dict[str, int] = {}
    numbered = []
    for card in cards:
        seen[card.kind] = seen.get(card.kind, 0) + 1
        if wanted is None or card.id in wanted:
            numbered.append((card, seen[card.kind]))
    return [
        Prompt(card, number, per_kind[card.kind], position, len(numbered))
        for position, (card, number) in enumerate(numbered, start=1)
    ]


@dataclass
class EnrollmentResult:
    """What an enrolment did: card id → UID bound, old UIDs forgotten, tag writes."""

    enrolled: dict[str, str] = field(default_factory=dict)
    replaced: dict[str, str] = field(default_factory=dict)
    written: list[str] = field(default_factory=list)
    write_failed: list[str] = field(default_factory=list)


class Enrollment:
    """Runs prompts against one reader whose raw events arrive on ``events``.

    ``say`` receives every line for the person enrolling; ``on_prompt`` is told
    each prompt (the simulator's "hand" taps a sticker there).
    ``tap_timeout`` bounds the wait for each tap (``None``: wait for ever).
    """

    def __init__(
        self,
        registry: CardRegistry,
        game: str,
        reader: TagReader,
        events: queue.Queue[ReaderEvent],
        *,
        say: Callable[[str], None] = print,
        on_prompt: Callable[[Prompt], None] | None = None,
        write_tags: bool = False,
        tap_timeout: float | None = None,
        write_timeout: float = 5.0,
    ) -> None:
        self.registry = registry
        self.game = game_name(game)
        self.reader = reader
        self.events = events
        self.say = say
        self.on_prompt = on_prompt
        self.write_tags = write_tags
        self.tap_timeout = tap_timeout
        self.write_timeout = write_timeout
        self._lock = threading.Lock()
        self._progress: dict[str, object] = {
            "step": "waiting",
            "done": 0,
            "total": 0,
            "message": "enrolment has not started",
        }

    def progress(self) -> dict[str, object]:
        """``{"step", "done", "total", "message"}``: where the enrolment stands (any thread)."""
        with self._lock:
            return dict(self._progress)

    def _show(self, step: str, done: int, total: int, message: str) -> None:
        with self._lock:
            self._progress = {"step": step, "done": done, "total": total, "message": message}

    def run(self, prompts: Sequence[Prompt]) -> EnrollmentResult:
        """Enrol each prompted card in turn."""
        result = EnrollmentResult()
        total = len(prompts)
        for done, prompt in enumerate(prompts):
            self._show("tap", done, total, prompt.text)
            self.say(f"[{prompt.position}/{prompt.total}] {prompt.text}")
            if self.on_prompt is not None:
                self.on_prompt(prompt)
            uid = self._next_sticker(prompt)
            previous = self.registry.enroll(self.game, prompt.card, uid)
            result.enrolled[prompt.card.id] = uid
            note = ""
            if previous is not None:
                result.replaced[prompt.card.id] = previous
                note = f" (replaces sticker {previous}, now forgotten)"
            if self.write_tags:
                if self._write(prompt.card, uid):
                    result.written.append(prompt.card.id)
                    note += "; card id written to the tag"
                else:
                    result.write_failed.append(prompt.card.id)
                    note += "; could not write the tag (the UID binding stands)"
            self.say(f"    {prompt.card.name} = sticker {uid}{note}")
        self._show("done", total, total, f"enrolled {len(result.enrolled)} card(s)")
        return result

    def _next_sticker(self, prompt: Prompt) -> str:
        """The UID of the next tapped sticker that may become ``prompt.card``."""
        while True:
            try:
                event = self.events.get(timeout=self.tap_timeout)
            except queue.Empty:
                raise EnrollmentTimeout(f"no sticker tapped for {prompt.card.name}") from None
            if isinstance(event, ReaderStatus):
                state = "online" if event.online else f"offline ({event.detail}); waiting"
                self.say(f"    reader {event.reader} {state}")
                continue
            if not isinstance(event, TagTapped):
                continue
            owner = self.registry.card_for(self.game, event.uid)
            if owner is not None and owner.id != prompt.card.id:
                self.say(
                    f"    that sticker ({event.uid}) is already {owner.name}; "
                    f"tap the sticker of {prompt.card.name}"
                )
                continue
            return event.uid

    def _write(self, card: Card, uid: str) -> bool:
        future = self.reader.write_tag_id(uid, TagCardId(self.game, card.id))
        try:
            return future.result(timeout=self.write_timeout)
        except Exception:  # offline, spoilt reply, timeout: reported as a failed write
            return False
