"""Simulated Judges for the demo: people at a Judge Dredd table with real (seeded) decks.

Each simulated person plays what the game asks of its seat, as at the table:

* The decks are physical: a card drawn is one nobody has seen yet, picked by the
  seeded generator (a shuffled deck read one card at a time). Every card the
  simulation draws or places is tapped on a reader, so the engine knows every
  hand; :func:`dredd_header` deals the opening hands the same way. An Alert drawn
  in the refill is played at once, with a legal choice picked by the generator.
* A Judge moves towards the Perps: the reachable Sector with the weakest Perp
  (face-up Perps count with their Crimes; a face-down one is a gamble worth the
  average), else the Sector nearest a Perp.
* In a combat, a fighting Judge commits its best card for its own Judge; a
  player who is not fighting sometimes commits a card that helps the Perp. Once
  everyone has had a say, someone reveals; the dice are rolled with the seeded
  generator.
* Arrests by several Judges are joint or competing by a coin; Barneys and
  BOING!s are accepted; escaping Perps run to a random free Sector; a Judge on
  the Hospital recycles nothing. A KO'd Judge holding Robodoc plays it; the SJS
  uses Internal Affairs on a random player when it answers before anyone draws.

Same interface as :class:`lawmaster.host.sim.players.Players`: :meth:`decide`
returns the next :class:`~lawmaster.host.sim.players.Intent`, drawn from a
generator seeded with the seed and the journal's sequence number, so a resumed
game goes on as it would have. ``move`` is the standee gesture
``(piece, from, to, ())`` (piece ``"judge-<seat>"``, ``from`` ``"hand"`` when it
is first put on the board); ``notes["taps"]`` lists the cards tapped for the
input as ``(card id, seat of the reader or None for the table's)``.
"""

from __future__ import annotations

import random
from collections import deque
from collections.abc import Mapping
from typing import Any

from lawmaster.host.plugin import Intent, decision_rng
from lawmaster.rules.judge_dredd.board import Board
from lawmaster.rules.judge_dredd.cards import CardBook
from lawmaster.rules.judge_dredd.movement import perp_destinations, reachable
from lawmaster.rules.judge_dredd.state import known_location
from lawmaster.rules.judge_dredd.views import asking

#: Chance that a player who is not fighting helps the Perp with a card.
MEDDLE = 0.3
#: What a face-down Perp is guessed to be worth (the average Perp plus one Crime).
UNKNOWN_PERP = 7


class DreddPlayers:
    """Every seat of one Judge Dredd table, played by the simulation."""

    def __init__(self, table: Any, seed: int = 0) -> None:
        self.table = table
        self.seed = seed
        self.board = Board.load(table.header.get("board", "standard"))
        self._steps: dict[str, dict[str, int]] = {}

    # -- the one entry point -------------------------------------------------
    def decide(self) -> Intent | None:
        """The next input, or ``None`` when the game is over or waits for nobody."""
        table = self.table
        if table.is_over():
            return None
        state = table.state
        asked = asking(state)
        waiting = [(s, a["act"]) for s in state["players"] for a in asked[s]]
        if not waiting:
            return None
        rng = decision_rng(self.seed, table)
        acts = {act for _, act in waiting}
        if "commit" in acts or "reveal" in acts:
            return self._combat(state, waiting)
        for seat, act in waiting:
            handler = getattr(self, f"_{act}", None)
            if handler is None:
                return Intent(seat, {"act": act})
            decision = handler(seat, state, rng)
            if decision is not None:
                return decision  # None: an optional moment this person lets pass
        return None

    # -- setup and refill: the decks -------------------------------------------
    def _place_judge(self, seat: str, state: Any, rng: random.Random) -> Intent:
        taken = {j["sector"] for j in state["judges"].values()}
        free = [s for s in self.board.starting_sectors if s not in taken]
        sector = rng.choice(free)
        action = {"act": "place_judge", "by": seat, "sector": sector}
        return Intent(seat, action, move=(piece(seat), "hand", sector, ()))

    def _place_crime(self, seat: str, state: Any, rng: random.Random) -> Intent:
        sector_card = rng.choice(sorted(state["sector_deck"]))
        crime = self._unseen(state, rng, "crime")
        action: dict[str, Any] = {"act": "place_crime", "sector_card": sector_card, "crime": crime}
        taps = [(sector_card, None)]
        sector = state["cards"].sector_cards[sector_card]
        # A Perp is drawn only for an empty Sector (a Crime joins a Perp already there).
        if state["perps"].get(sector) is None:
            perp = self._unseen(state, rng, "perp")
            if perp is not None:
                action["perp"] = perp
                taps.append((perp, None))
        taps.append((crime, None))
        return Intent(seat, action, notes={"taps": taps})

    def _discard_sector(self, seat: str, state: Any, rng: random.Random) -> Intent:
        card = rng.choice(sorted(state["sector_deck"]))
        return Intent(
            seat, {"act": "discard_sector", "sector_card": card}, notes={"taps": [(card, None)]}
        )

    def _draw(self, seat: str, state: Any, rng: random.Random) -> Intent:
        owed = state["refill"]["owed"][seat]
        actions = state["cards"].actions
        # Held hands are known, so the unknown cards not in the discard are the deck.
        deck = sorted(c for c in actions if known_location(state, c) is None)
        if len(deck) < owed or state["action_deck"] < owed:
            return Intent(seat, {"act": "draw", "by": seat, "count": owed})
        drawn = rng.sample(deck, owed)
        if actions[drawn[0]].type == "alert":
            # An Alert is played the moment it is drawn (and replaces itself).
            alert = self._alert(seat, drawn[0], state, rng)
            if alert is not None:
                return Intent(seat, alert)
        cards = []
        for card in drawn:
            if actions[card].type == "alert":
                break  # drawn next time, and played then
            cards.append(card)
        if not cards:
            plain = [c for c in deck if actions[c].type != "alert"]
            if not plain:
                return Intent(seat, {"act": "draw", "by": seat, "count": owed})
            cards = [rng.choice(plain)]
        return Intent(
            seat,
            {"act": "draw", "by": seat, "cards": cards},
            notes={"taps": [(c, seat) for c in cards]},
        )

    def _alert(self, seat: str, card: str, state: Any, rng: random.Random) -> dict[str, Any] | None:
        """The Alert ``card`` played with a legal choice, or ``None`` if none is legal."""
        kind = state["cards"].actions[card].effect.get("alert")
        base = {"act": "play", "by": seat, "card": card}
        hospital = self.board.hospital
        candidates: list[dict[str, Any]] = []
        if kind == "alien-escape" and state["alien"] is None:
            zoo = "alien-zoo" if "alien-zoo" in self.board.sectors else None
            near = self.board.neighbours(zoo) if zoo else sorted(self.board.sectors)
            candidates = [{**base, "sector": s} for s in near if s != hospital]
        elif kind == "alien-escape":
            reach = self.board.within(state["alien"], 2, True, avoid={hospital})
            candidates = [{**base, "to": s} for s in sorted(reach)]
        elif kind == "quarantine":
            candidates = [{**base, "sector": s} for s in sorted(self.board.sectors)]
        elif kind == "bridges-closed":
            candidates = [base]
        elif kind == "crime-spree":
            crime = self._unseen(state, rng, "crime")
            perps = sorted(s for s, p in state["perps"].items() if p is not None)
            candidates = [{**base, "sector": s, "crime": crime} for s in perps]
        rng.shuffle(candidates)
        for action in candidates:
            if self.table.refusal(seat, action) is None:
                return action
        return None

    def _recycle(self, seat: str, state: Any, rng: random.Random) -> Intent:
        return Intent(seat, {"act": "recycle", "by": seat, "count": 0})

    # -- movement -----------------------------------------------------------------
    def _move(self, seat: str, state: Any, rng: random.Random) -> Intent:
        here = state["judges"][seat]["sector"]
        options = reachable(state, seat)
        scored = []
        for end, path in options.items():
            score = self._worth(state, end) + rng.random() * 0.5
            scored.append((score, end, path))
        scored.sort(key=lambda s: (-s[0], s[1]))
        _, end, path = scored[0]
        action = {"act": "move", "by": seat, "path": list(path)}
        if not path:
            return Intent(seat, action)
        return Intent(seat, action, move=(piece(seat), here, end, ()))

    def _worth(self, state: Any, sector: str) -> float:
        """How good a place to end a move ``sector`` is (higher: better)."""
        perp = state["perps"].get(sector)
        if perp is not None:
            if perp["face_up"]:
                strength = state["cards"].perps[perp["card"]]
                strength += sum(state["cards"].crimes[c] for c in state["crimes"].get(sector, []))
            else:
                strength = UNKNOWN_PERP
            return 20.0 - strength
        perps = [s for s, p in state["perps"].items() if p is not None]
        near = min((self._distance(sector, s) for s in perps), default=6)
        return -float(near)

    def _distance(self, a: str, b: str) -> int:
        if a not in self._steps:
            steps = {a: 0}
            queue = deque([a])
            while queue:
                here = queue.popleft()
                for nxt in self.board.neighbours(here):
                    if nxt not in steps:
                        steps[nxt] = steps[here] + 1
                        queue.append(nxt)
            self._steps[a] = steps
        return self._steps[a].get(b, 99)

    def _end_movement(self, seat: str, state: Any, rng: random.Random) -> Intent:
        return Intent(seat, {"act": "end_movement"})

    # -- arrests ----------------------------------------------------------------------
    def _next_arrest(self, seat: str, state: Any, rng: random.Random) -> Intent:
        return Intent(seat, {"act": "next_arrest"})

    def _arrest(self, seat: str, state: Any, rng: random.Random) -> Intent:
        seats = list(state["pending"]["seats"])
        groups = [seats] if rng.random() < 0.5 else [[s] for s in seats]
        return Intent(seat, {"act": "arrest", "groups": groups})

    def _reveal_perp(self, seat: str, state: Any, rng: random.Random) -> Intent:
        sector = state["pending"]["sector"]
        perp = state["perps"][sector]["card"] or self._unseen(state, rng, "perp")
        action = {"act": "reveal_perp", "sector": sector, "perp": perp}
        return Intent(seat, action, notes={"taps": [(perp, None)]})

    def _accept(self, seat: str, state: Any, rng: random.Random) -> Intent:
        action: dict[str, Any] = {"act": "accept", "by": seat}
        pending = state["pending"]
        if pending["kind"] == "barney":
            return self._landing(seat, state, rng, action, pending["to"])
        return Intent(seat, action)

    def _landing(
        self, seat: str, state: Any, rng: random.Random, action: dict[str, Any], to: str
    ) -> Intent:
        """``action`` moving ``seat``'s Judge to ``to``, tapping a face-down Perp it turns up."""
        perp = state["perps"].get(to)
        if perp is not None and not perp["face_up"] and perp["card"] is None:
            card = self._unseen(state, rng, "perp")
            if card is not None:
                return Intent(seat, {**action, "perp": card}, notes={"taps": [(card, None)]})
        return Intent(seat, action)

    def _play(self, seat: str, state: Any, rng: random.Random) -> Intent | None:
        """Robodoc when KO'd and holding one (the other asked plays are let pass)."""
        if not state["judges"][seat]["ko"]:
            return None
        cards = [c for c in state["judges"][seat]["known"] if c.startswith("robodoc-")]
        if not cards:
            return None
        here = state["judges"][seat]["sector"]
        for to in rng.sample(self.board.neighbours(here), len(self.board.neighbours(here))):
            action = {"act": "play", "by": seat, "card": cards[0], "to": to}
            decision = self._landing(seat, state, rng, action, to)
            if self.table.refusal(seat, decision.action) is None:
                return decision
        return None

    def _decline(self, seat: str, state: Any, rng: random.Random) -> Intent:
        return Intent(seat, {"act": "decline", "by": seat})

    def _internal_affairs(self, seat: str, state: Any, rng: random.Random) -> Intent:
        target = rng.choice([s for s in state["players"] if s != seat])
        return Intent(seat, {"act": "internal_affairs", "by": seat, "target": target})

    def _perp_escape(self, seat: str, state: Any, rng: random.Random) -> Intent:
        sector = state["pending"]["sector"]
        to = rng.choice(sorted(perp_destinations(state, sector)))
        return Intent(seat, {"act": "perp_escape", "by": seat, "to": to})

    def _roll(self, seat: str, state: Any, rng: random.Random) -> Intent:
        needed: Mapping[str, int] = state["combat"]["needed"]
        dice = {key: [rng.randint(1, 6) for _ in range(n)] for key, n in needed.items()}
        return Intent(seat, {"act": "roll", "dice": dice})

    def _combat(self, state: Any, waiting: list[tuple[str, str]]) -> Intent:
        """The next card committed face down, or the reveal once everyone had a say."""
        combat = state["combat"]
        fighters = [s for g in combat["groups"] for s in g]
        done = {c["by"] for c in combat["cards"]}
        for seat in [s for s, act in waiting if act == "commit"]:
            if seat in done:
                continue  # one card each keeps the simulated combats short
            choice = self._card_to_commit(state, seat, fighters)
            if choice is not None:
                card, for_ = choice
                action = {"act": "commit", "by": seat, "card": card, "for": for_}
                return Intent(seat, action, notes={"taps": [(card, seat)]})
        seat = next(s for s, act in waiting if act == "reveal")
        return Intent(seat, {"act": "reveal"})

    def _card_to_commit(self, state: Any, seat: str, fighters: list[str]) -> tuple[str, str] | None:
        cards = state["cards"]
        hand = list(state["judges"][seat]["known"])
        rng = random.Random(
            f"{self.seed}:{self.table.record.id}:{state['round']}:{state['combat']['sector']}:{seat}"
        )
        if seat in fighters:
            best = max(hand, key=lambda c: _effect(cards, c, "judge"), default=None)
            if best is not None and _effect(cards, best, "judge") > 0:
                return best, seat
            return None
        if rng.random() >= MEDDLE:
            return None
        best = max(hand, key=lambda c: _effect(cards, c, "perp"), default=None)
        if best is not None and _effect(cards, best, "perp") > 0:
            return best, fighters[0]
        return None

    # -- the decks' unseen cards ---------------------------------------------------------
    @staticmethod
    def _unseen(state: Any, rng: random.Random, kind: str) -> str | None:
        pool = state["cards"].perps if kind == "perp" else state["cards"].crimes
        seen = set(state["perps_seen" if kind == "perp" else "crimes_seen"])
        left = sorted(c for c in pool if c not in seen)
        return rng.choice(left) if left else None


def piece(seat: str) -> str:
    """The standee of ``seat`` as the tracker and the simulated hands name it."""
    return f"judge-{seat}"


def _effect(cards: CardBook, card: str, key: str) -> int:
    action = cards.actions.get(card)
    if action is None or action.type not in ("combat", "special"):
        return 0
    value = action.effect.get(key, 0)
    dice = action.effect.get(f"{key}_dice", 0)
    return int(value) + int(dice) * 3 if isinstance(value, int) else 0


def play_out(table: Any, seed: int = 0, limit: int = 5000) -> int:
    """Play the table to its end through its tablets; the number of inputs taken."""
    players = DreddPlayers(table, seed)
    taken = 0
    for _ in range(limit):
        decision = players.decide()
        if decision is None:
            break
        answer = table.submit(decision.seat, decision.action)
        if not answer.get("ok"):
            raise RuntimeError(f"{decision.action} refused: {answer.get('error')}")
        taken += 1
    return taken
