"""The simulated table's physical decks: the cards the simulated people's hands find.

Which card lies on top of a shuffled deck, or which Perp is under a face-down card,
is no player's knowledge: it is the physical world of the simulated table, and it
lives here, apart from the players' decisions (:mod:`.players`). A simulated player
says "I draw two cards"; :class:`Decks` says which two came up, and the player then
taps them, as a person at a real table would.

The decks are seeded, so the same seed deals the same game, and they keep no memory
of their own: everything is worked out again from what the table shows, so a table
resumed after a crash (new players on the same journal) draws on exactly as before.

What the decks read, all through the :class:`~lawmaster.host.plugin.SeatPort`:

* **The Perp, Crime and Sector piles** are seeded shuffles, read from the top. Cards
  only ever leave them from the top (a Night Shift reshuffles the whole Sector
  discard pile back in), so how far down each pile has been drawn is the public
  count the table screen shows (``decks``), and the Night Shift's reshuffles are its
  public ``sector_deck_reshuffled`` events.
* **Face-down Perps.** The simulated table placed every Perp itself, the ``k``-th
  face-down Perp placed being the ``k``-th card of the Perp pile; the table screen's
  public log says where each went (``crime_placed``), where one moved (a Tip-Off, an
  escape) and when it left (turned up, arrested).
* **The Action deck** is not a pile read from the top: cards come back to it (the
  discard pile is shuffled in when it runs out) and the engine takes the draw that
  reshuffles only as a count. So it is the set of Action cards that are nowhere
  else, and a draw picks among them with the decision's seeded generator (a
  shuffled deck read one card at a time, in effect); a card drawn as a count is
  said when its holder first taps it, picked the same way. *Nowhere else* means:
  not on the public discard pile, not committed to a combat, and not in anyone's
  hand. What each person holds is read from that person's own page
  (``you.known_cards``, and the cards it committed): those are the cards the
  simulation dealt and drew itself, read back rather than remembered so that
  nothing is lost on a resume. This is the one place the simulation reads a
  seat's own page for anything but that seat's decision, and it does so to know
  where physical cards are, never to decide.

The decks are those of a table the simulation set up (:func:`deal_hands`, the
demo's header): a game whose header already places Perps and Crimes took them from
no pile these decks know, and its Perp and Crime piles would be out of step.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any

from lawmaster.host.plugin import SeatPort
from lawmaster.rules.core.replay import TABLE_SEAT
from lawmaster.rules.judge_dredd.board import Board
from lawmaster.rules.judge_dredd.cards import CardBook
from lawmaster.rules.judge_dredd.state import HAND_LIMIT

#: The cards in the box: the views do not name a card set, and only one is shipped.
CARD_SET = "standard"


def deal_hands(
    players: Sequence[str],
    seed: int,
    specialists: Mapping[str, str | None] | None = None,
    cards: CardBook | None = None,
) -> dict[str, list[str]]:
    """The opening hands, dealt clockwise from a seeded Action deck.

    Alert cards are never dealt: drawn at setup they go back into the deck, so they
    are left out of the deal.
    """
    book = cards or CardBook.load(CARD_SET)
    deck = sorted(c for c, a in book.actions.items() if a.type != "alert")
    random.Random(f"deal:{seed}").shuffle(deck)
    hands: dict[str, list[str]] = {}
    for seat in players:
        # The Cadet's Academy Support: one card more in hand.
        size = HAND_LIMIT + 1 if (specialists or {}).get(seat) == "cadet" else HAND_LIMIT
        hands[seat], deck = deck[:size], deck[size:]
    return hands


class Decks:
    """The physical Sector, Perp, Crime and Action decks of one simulated table."""

    def __init__(self, seats: SeatPort, seed: int, cards: CardBook | None = None) -> None:
        self.seats = seats
        self.seed = seed
        self.cards = cards or CardBook.load(CARD_SET)
        self._board: Board | None = None
        self._page: tuple[str, dict[str, Any]] | None = None

    # -- the piles read from the top ------------------------------------------------
    def top_sector_card(self) -> str | None:
        """The Sector card on top of the Sector deck (``None``: the deck is empty)."""
        view, log = self._public()
        named = sorted(c for c, s in self.cards.sector_cards.items() if s in self.board.sectors)
        # Each reshuffle is a fresh shuffle of every Sector card: all are in the discard then.
        epoch = sum(1 for e in log if e.get("type") == "sector_deck_reshuffled")
        return _top(self._shuffled("sector", named, epoch), view["decks"]["sector"])

    def top_crime(self) -> str | None:
        """The Crime card on top of the Crime deck (``None``: the deck is empty)."""
        view, _ = self._public()
        return _top(self._shuffled("crime", self.cards.crimes), view["decks"]["crime"])

    def top_perp(self) -> str | None:
        """The Perp card on top of the Perp deck (``None``: the deck is empty)."""
        view, _ = self._public()
        return _top(self._shuffled("perp", self.cards.perps), view["decks"]["perp"])

    def face_down(self, sector: str) -> str | None:
        """The Perp card lying face down in ``sector`` (``None``: none the decks placed)."""
        return self._face_down().get(sector)

    # -- the Action deck ---------------------------------------------------------------
    def draw_actions(self, count: int, rng: random.Random) -> list[str] | None:
        """``count`` cards drawn from the Action deck, in the order they came up.

        ``None`` when the deck holds fewer: the rest comes after the reshuffle.
        """
        view, _ = self._public()
        deck = self._action_deck(view)
        if len(deck) < count or view["decks"]["action"] < count:
            return None
        return rng.sample(deck, count)

    def untapped_in_hand(self, count: int, rng: random.Random) -> list[str]:
        """Which cards ``count`` cards drawn without a tap are (none if it cannot say).

        The engine takes the draw that reshuffles the discard pile as a count only, so
        nobody's page says which card it was; the simulated table says it when the card
        is first looked at: one of the cards nowhere else, as the top of a shuffled deck
        would have been. Never an Alert: one drawn would have been played at once.
        """
        view, _ = self._public()
        actions = self.cards.actions
        deck = [c for c in self._action_deck(view) if actions[c].type != "alert"]
        return rng.sample(deck, count) if len(deck) >= count else []

    def _action_deck(self, table: Mapping[str, Any]) -> list[str]:
        """Every Action card that is nowhere else (see the module docstring)."""
        elsewhere = set(table["action_discard"])
        for seat in self.seats.seats():
            # What this person holds: the cards the simulation dealt and drew to it.
            view = self.seats.snapshot(seat)["view"]
            elsewhere.update(view["you"]["known_cards"])
            combat = view.get("combat") or {}
            elsewhere.update(c["card"] for c in combat.get("cards") or [] if "card" in c)
        return sorted(c for c in self.cards.actions if c not in elsewhere)

    # -- what the table screen shows ------------------------------------------------------
    @property
    def board(self) -> Board:
        if self._board is None:
            self._board = Board.load(self._public()[0]["board"])
        return self._board

    def _public(self) -> tuple[dict[str, Any], list[dict[str, Any]]]:
        """The table screen's view and log (public: what every seat may see)."""
        key = self.seats.game_key
        if self._page is None or self._page[0] != key:
            # One page per input: the key changes with every input taken or undone.
            self._page = (key, self.seats.snapshot(TABLE_SEAT))
        page = self._page[1]
        return page["view"], page["log"]

    def _shuffled(self, pile: str, cards: Any, epoch: int = 0) -> list[str]:
        order = sorted(cards)
        random.Random(f"{self.seed}:{pile}:{epoch}").shuffle(order)
        return order

    def _face_down(self) -> dict[str, str]:
        """Sector → the Perp the decks put face down there, following the public log."""
        perps = self._shuffled("perp", self.cards.perps)
        placed = 0
        under: dict[str, str] = {}
        for event in self._public()[1]:
            kind = event.get("type")
            if kind == "crime_placed" and event.get("perp") == "face-down":
                if placed < len(perps):
                    under[event["sector"]] = perps[placed]
                placed += 1
            elif kind in ("perp_revealed", "arrest"):
                under.pop(event["sector"], None)
            elif kind in ("perp_escaped", "card_played") and "sector" in event and "to" in event:
                # A Perp moved (an escape, a Tip-Off): its card goes with it.
                card = under.pop(event["sector"], None)
                if card is not None:
                    under[event["to"]] = card
        return under


def _top(pile: list[str], left: int) -> str | None:
    """The top card of ``pile`` when ``left`` cards are still in it."""
    drawn = len(pile) - left
    return pile[drawn] if 0 <= drawn < len(pile) else None
