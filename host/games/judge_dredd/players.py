"""Simulated Judges for the demo: people at a Judge Dredd table, deciding from their pages.

Each simulated person decides what its own seat is asked from that seat's snapshot
only (its view: what it is asked and why, its hand, the public board, combat and
pending wait as the view gives them; and its prompts, the tablet's own choices),
through the :class:`~lawmaster.host.plugin.SeatPort`, the same public interface a
tablet has; whose turn it is comes from the public ``to_act``. A careful player may
ask its tablet whether a play would be taken (``refusal``: nothing more than trying
tells). What a person finds on top of a deck is not its knowledge but the physical
table's: :class:`~.decks.Decks` says which card came up, and the person taps it.

* The decks are physical (:mod:`.decks`): every card the simulation draws or places
  is tapped on a reader, so the engine knows every hand; :func:`~.decks.deal_hands`
  deals the opening hands the same way. An Alert drawn in the refill is played at
  once, with a legal choice picked by the generator.
* A Judge moves towards the Perps: of the moves its tablet offers, the one ending on
  the weakest Perp (face-up Perps count with their Crimes; a face-down one is a
  gamble worth the average), else the one ending nearest a Perp.
* In a combat, a fighting Judge commits its best card for its own Judge; a player
  who is not fighting sometimes commits a card that helps the Perp. Once everyone
  has had a say, someone reveals; the dice are rolled with the seeded generator.
* Arrests by several Judges are joint or competing by a coin; Barneys and BOING!s
  are accepted; escaping Perps run to a random Sector the tablet offers; a Judge on
  the Hospital recycles nothing. A KO'd Judge holding Robodoc plays it; the SJS uses
  Internal Affairs on a random player when it answers before anyone draws.

:meth:`DreddPlayers.decide` returns the next :class:`~lawmaster.host.plugin.Intent`,
drawn from a generator seeded with the seed and the journal's sequence number, so a
resumed game goes on as it would have. ``move`` is the standee gesture
``(piece, from, to, ())`` (piece ``"judge-<seat>"``, ``from`` ``"hand"`` when it is
first put on the board); ``notes["taps"]`` lists the cards tapped for the input as
``(card id, seat of the reader or None for the table's)``.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping
from typing import Any, Literal

from lawmaster.host.plugin import Intent, SeatPort, waiting_seats
from lawmaster.rules.core import steps_from
from lawmaster.rules.judge_dredd.board import Board
from lawmaster.rules.judge_dredd.cards import CardBook

from .decks import CARD_SET, Decks

#: Chance that a player who is not fighting helps the Perp with a card.
MEDDLE = 0.3
#: What a face-down Perp is guessed to be worth (the average Perp plus one Crime).
UNKNOWN_PERP = 7

#: A seat's page: its snapshot (``view``, ``prompts``, ``log``...).
Page = Mapping[str, Any]
#: What one seat does when asked one act (``None``: it lets an optional moment pass).
Handler = Callable[[str, Page, random.Random], "Intent | None"]


class _Pages(dict[str, Page]):
    """Each seat's page, fetched when first needed during one decision."""

    def __init__(self, seats: SeatPort) -> None:
        super().__init__()
        self.seats = seats

    def __missing__(self, seat: str) -> Page:
        page = self[seat] = self.seats.snapshot(seat)
        return page


class DreddPlayers:
    """Every seat of one Judge Dredd table, played by the simulation from its seats' pages."""

    def __init__(self, seats: SeatPort, seed: int = 0) -> None:
        self.seats = seats
        self.seed = seed
        #: The printed cards (names, strengths, effects): public, as in the box.
        self.cards = CardBook.load(CARD_SET)
        #: The physical world: not a player's knowledge (see :mod:`.decks`).
        self.decks = Decks(seats, seed, self.cards)
        self._board: Board | None = None
        self._steps: dict[str, dict[str, int]] = {}

    @property
    def board(self) -> Board:
        """The printed board, as every seat's view names it."""
        if self._board is None:
            self._board = Board.load(self.seats.snapshot(self.seats.seats()[0])["view"]["board"])
        return self._board

    # -- the one entry point -------------------------------------------------
    def decide(self) -> Intent | None:
        """The next input, or ``None`` when the game is over or waits for nobody."""
        turn = waiting_seats(self.seats, self.seed)
        if turn is None:
            return None
        waiting, rng = turn
        pages = _Pages(self.seats)
        if _combat_open(pages[waiting[0]]["view"]):
            return self._combat(waiting, pages)
        for seat in waiting:
            page = pages[seat]
            for ask in page["view"]["asked"]:
                act = ask["act"]
                handler: Handler | None = getattr(self, f"_{act}", None)
                if handler is None:
                    return Intent(seat, {"act": act})
                decision = handler(seat, page, rng)
                if decision is not None:
                    return decision  # None: an optional moment this person lets pass
        return None

    # -- setup and refill: the decks -------------------------------------------
    def _place_judge(self, seat: str, page: Page, rng: random.Random) -> Intent:
        taken = {j["sector"] for j in page["view"]["judges"].values()}
        free = [s for s in self.board.starting_sectors if s not in taken]
        sector = rng.choice(free)
        action = {"act": "place_judge", "by": seat, "sector": sector}
        return Intent(seat, action, move=(piece(seat), "hand", sector, ()))

    def _place_crime(self, seat: str, page: Page, rng: random.Random) -> Intent:
        view = page["view"]
        sector_card = self.decks.top_sector_card()
        if sector_card is None:
            raise RuntimeError("the simulated Sector deck is empty, yet a crime is asked for")
        action: dict[str, Any] = {"act": "place_crime", "sector_card": sector_card}
        taps: list[tuple[str, str | None]] = [(sector_card, None)]
        occupied = self.cards.sector_cards[sector_card] in view["perps"]
        # A Perp is drawn only for an empty Sector (a Crime joins a Perp already there).
        perp = None if occupied else self.decks.top_perp()
        if perp is not None:
            action["perp"] = perp
            taps.append((perp, None))
        # The Crime goes with the new Perp or joins the one there; with no Perp to go
        # with (the Perp deck is out) or none left to draw, the card places what is left.
        crime = self.decks.top_crime() if occupied or perp is not None else None
        if crime is not None:
            action["crime"] = crime
            taps.append((crime, None))
        return Intent(seat, action, notes={"taps": taps})

    def _discard_sector(self, seat: str, page: Page, rng: random.Random) -> Intent:
        card = self.decks.top_sector_card()
        if card is None:
            raise RuntimeError("the simulated Sector deck is empty, yet a discard is asked for")
        return Intent(
            seat, {"act": "discard_sector", "sector_card": card}, notes={"taps": [(card, None)]}
        )

    def _draw(self, seat: str, page: Page, rng: random.Random) -> Intent:
        view = page["view"]
        you = view["you"]
        untapped = you["hand_size"] - len(you["known_cards"])
        if untapped > 0:
            # Cards this person drew as a count (when the deck ran out): it taps them now.
            cards = self.decks.untapped_in_hand(untapped, rng)
            show = {"act": "show", "by": seat, "cards": cards}
            if cards and self.seats.refusal(seat, show) is None:
                return Intent(seat, show)
        owed = view["refill"]["owed"][seat]
        left = view["decks"]["action"]
        if left == 0:
            # The discard pile is shuffled in as this card is drawn: the engine takes a tap
            # of a card it knows is on the discard pile for a mistake, so this one is a count.
            return Intent(seat, {"act": "draw", "by": seat, "count": 1})
        # What is left of the deck first; the rest after the reshuffle.
        count = min(owed, left)
        drawn = self.decks.draw_actions(count, rng)
        if drawn is None:
            return Intent(seat, {"act": "draw", "by": seat, "count": count})
        actions = self.cards.actions
        if actions[drawn[0]].type == "alert":
            # An Alert is played the moment it is drawn (and replaces itself).
            alert = self._alert(seat, view, drawn[0], rng)
            if alert is not None:
                return Intent(seat, alert)
        cards = []
        for card in drawn:
            if actions[card].type == "alert":
                break  # the deck is looked at afresh next time
            cards.append(card)
        if not cards:
            return Intent(seat, {"act": "draw", "by": seat, "count": count})
        return Intent(
            seat,
            {"act": "draw", "by": seat, "cards": cards},
            notes={"taps": [(c, seat) for c in cards]},
        )

    def _alert(
        self, seat: str, view: Mapping[str, Any], card: str, rng: random.Random
    ) -> dict[str, Any] | None:
        """The Alert ``card`` played with a legal choice, or ``None`` if none is legal."""
        kind = self.cards.actions[card].effect.get("alert")
        base = {"act": "play", "by": seat, "card": card}
        hospital = self.board.hospital
        alien = view["alien"]
        candidates: list[dict[str, Any]] = []
        if kind == "alien-escape" and alien is None:
            zoo = "alien-zoo" if "alien-zoo" in self.board.sectors else None
            near = self.board.neighbours(zoo) if zoo else sorted(self.board.sectors)
            candidates = [{**base, "sector": s} for s in near if s != hospital]
        elif kind == "alien-escape":
            reach = self.board.within(alien, 2, True, avoid={hospital})
            candidates = [{**base, "to": s} for s in sorted(reach)]
        elif kind == "quarantine":
            candidates = [{**base, "sector": s} for s in sorted(self.board.sectors)]
        elif kind == "bridges-closed":
            candidates = [base]
        elif kind == "crime-spree":
            crime = self.decks.top_crime()
            perps = sorted(view["perps"])
            candidates = [{**base, "sector": s, "crime": crime} for s in perps]
        rng.shuffle(candidates)
        for action in candidates:
            if self.seats.refusal(seat, action) is None:
                return action
        return None

    def _recycle(self, seat: str, page: Page, rng: random.Random) -> Intent:
        return Intent(seat, {"act": "recycle", "by": seat, "count": 0})

    # -- movement -----------------------------------------------------------------
    def _move(self, seat: str, page: Page, rng: random.Random) -> Intent:
        view = page["view"]
        here = view["judges"][seat]["sector"]
        # The moves the tablet offers: one legal path to each Sector the move may end on.
        paths = [
            list(option["action"]["path"])
            for p in page.get("prompts") or []
            if p.get("kind") == "dredd_move"
            for option in p.get("options") or []
        ]
        scored = []
        for path in paths or [[]]:
            end = path[-1] if path else here
            score = self._worth(view, end) + rng.random() * 0.5
            scored.append((score, end, path))
        scored.sort(key=lambda s: (-s[0], s[1]))
        _, end, path = scored[0]
        action = {"act": "move", "by": seat, "path": path}
        if not path:
            return Intent(seat, action)
        return Intent(seat, action, move=(piece(seat), here, end, ()))

    def _worth(self, view: Mapping[str, Any], sector: str) -> float:
        """How good a place to end a move ``sector`` is (higher: better)."""
        perps = view["perps"]
        perp = perps.get(sector)
        if perp is not None:
            if perp["face_up"]:
                strength = perp["strength"]
                strength += sum(self.cards.crimes[c] for c in view["crimes"].get(sector, []))
            else:
                strength = UNKNOWN_PERP
            return 20.0 - float(strength)
        near = min((self._distance(sector, s) for s in perps), default=6)
        return -float(near)

    def _distance(self, a: str, b: str) -> int:
        if a not in self._steps:
            self._steps[a] = steps_from(a, self.board.neighbours)
        return self._steps[a].get(b, 99)

    def _end_movement(self, seat: str, page: Page, rng: random.Random) -> Intent:
        return Intent(seat, {"act": "end_movement"})

    # -- arrests ----------------------------------------------------------------------
    def _next_arrest(self, seat: str, page: Page, rng: random.Random) -> Intent:
        return Intent(seat, {"act": "next_arrest"})

    def _arrest(self, seat: str, page: Page, rng: random.Random) -> Intent:
        seats = list(page["view"]["pending"]["seats"])
        groups = [seats] if rng.random() < 0.5 else [[s] for s in seats]
        return Intent(seat, {"act": "arrest", "groups": groups})

    def _reveal_perp(self, seat: str, page: Page, rng: random.Random) -> Intent:
        sector = page["view"]["pending"]["sector"]
        action: dict[str, Any] = {"act": "reveal_perp", "sector": sector}
        # The card the person turns up: the one the simulated table put there.
        perp = self.decks.face_down(sector)
        if perp is None:
            return Intent(seat, action)
        return Intent(seat, {**action, "perp": perp}, notes={"taps": [(perp, None)]})

    def _accept(self, seat: str, page: Page, rng: random.Random) -> Intent:
        action: dict[str, Any] = {"act": "accept", "by": seat}
        pending = page["view"]["pending"]
        if pending["kind"] == "barney":
            return self._landing(seat, page["view"], action, pending["to"])
        return Intent(seat, action)

    def _landing(
        self, seat: str, view: Mapping[str, Any], action: dict[str, Any], to: str
    ) -> Intent:
        """``action`` moving ``seat``'s Judge to ``to``, tapping a face-down Perp it turns up."""
        perp = view["perps"].get(to)
        if perp is not None and not perp["face_up"]:
            card = self.decks.face_down(to)
            if card is not None:
                return Intent(seat, {**action, "perp": card}, notes={"taps": [(card, None)]})
        return Intent(seat, action)

    def _play(self, seat: str, page: Page, rng: random.Random) -> Intent | None:
        """Robodoc when KO'd and holding one (the other asked plays are let pass)."""
        view = page["view"]
        if not view["judges"][seat]["ko"]:
            return None
        hand = view["you"]["known_cards"]
        cards = [c for c in hand if self.cards.actions[c].kind == "robodoc"]
        if not cards:
            return None
        here = view["judges"][seat]["sector"]
        near = self.board.neighbours(here)
        for to in rng.sample(near, len(near)):
            action = {"act": "play", "by": seat, "card": cards[0], "to": to}
            decision = self._landing(seat, view, action, to)
            if self.seats.refusal(seat, decision.action) is None:
                return decision
        return None

    def _decline(self, seat: str, page: Page, rng: random.Random) -> Intent:
        return Intent(seat, {"act": "decline", "by": seat})

    def _internal_affairs(self, seat: str, page: Page, rng: random.Random) -> Intent:
        target = rng.choice([s for s in page["view"]["judges"] if s != seat])
        return Intent(seat, {"act": "internal_affairs", "by": seat, "target": target})

    def _perp_escape(self, seat: str, page: Page, rng: random.Random) -> Intent:
        # Where the Perp may run: the Sectors the tablet offers.
        ends = sorted(
            option["action"]["to"]
            for p in page.get("prompts") or []
            if p.get("kind") == "dredd_perp_escape"
            for option in p.get("options") or []
        )
        to = rng.choice(ends) if ends else page["view"]["pending"]["sector"]
        return Intent(seat, {"act": "perp_escape", "by": seat, "to": to})

    def _roll(self, seat: str, page: Page, rng: random.Random) -> Intent:
        needed: Mapping[str, int] = page["view"]["combat"]["dice_needed"]
        dice = {key: [rng.randint(1, 6) for _ in range(n)] for key, n in needed.items()}
        return Intent(seat, {"act": "roll", "dice": dice})

    def _combat(self, waiting: list[str], pages: _Pages) -> Intent:
        """The next card committed face down, or the reveal once everyone had a say."""
        for seat in waiting:
            view = pages[seat]["view"]
            if not _asked(view, "commit"):
                continue
            if any(c["by"] == seat for c in view["combat"]["cards"]):
                continue  # one card each keeps the simulated combats short
            choice = self._card_to_commit(seat, view)
            if choice is not None:
                card, for_ = choice
                action = {"act": "commit", "by": seat, "card": card, "for": for_}
                return Intent(seat, action, notes={"taps": [(card, seat)]})
        seat = next(s for s in waiting if _asked(pages[s]["view"], "reveal"))
        return Intent(seat, {"act": "reveal"})

    def _card_to_commit(self, seat: str, view: Mapping[str, Any]) -> tuple[str, str] | None:
        combat = view["combat"]
        fighters = [s for g in combat["groups"] for s in g]
        hand = list(view["you"]["known_cards"])
        # One generator per person and combat: whether it meddles stays decided for
        # the whole combat, however many inputs the others make meanwhile.
        rng = random.Random(
            f"{self.seed}:{view['round']}:{combat['kind']}:{combat['sector']}:{seat}"
        )
        if seat in fighters:
            best = max(hand, key=lambda c: _effect(self.cards, c, "judge"), default=None)
            if best is not None and _effect(self.cards, best, "judge") > 0:
                return best, seat
            return None
        if rng.random() >= MEDDLE:
            return None
        best = max(hand, key=lambda c: _effect(self.cards, c, "perp"), default=None)
        if best is not None and _effect(self.cards, best, "perp") > 0:
            return best, fighters[0]
        return None


def _combat_open(view: Mapping[str, Any]) -> bool:
    """Whether the game waits for cards to be committed and revealed (public on every page)."""
    combat = view.get("combat")
    return view.get("pending") is None and combat is not None and not combat["revealed"]


def _asked(view: Mapping[str, Any], act: str) -> bool:
    return any(a["act"] == act for a in view["asked"])


def piece(seat: str) -> str:
    """The standee of ``seat`` as the tracker and the simulated hands name it."""
    return f"judge-{seat}"


def _effect(cards: CardBook, card: str, side: Literal["judge", "perp"]) -> int:
    """What ``card`` adds to ``side`` of a combat, a die counted as 3."""
    action = cards.actions.get(card)
    if action is None or action.type not in ("combat", "special"):
        return 0
    effect = action.effect
    if side == "judge":
        return effect.get("judge", 0) + effect.get("judge_dice", 0) * 3
    return effect.get("perp", 0) + effect.get("perp_dice", 0) * 3


def play_out(seats: SeatPort, seed: int = 0, limit: int = 5000) -> int:
    """Play the table to its end through its tablets; the number of inputs taken."""
    players = DreddPlayers(seats, seed)
    taken = 0
    for _ in range(limit):
        decision = players.decide()
        if decision is None:
            break
        answer = seats.submit(decision.seat, decision.action)
        if not answer.get("ok"):
            raise RuntimeError(f"{decision.action} refused: {answer.get('error')}")
        taken += 1
    return taken
