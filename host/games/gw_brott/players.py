"""Simulated players: people who sit at the table, roll real dice and move pieces.

A :class:`Players` object decides the next input of whichever seat the game
waits for. Like people at a real table, a simulated player knows its own piece,
its own cards and what its tablet shows; it rolls its dice with a seeded random
generator (the physical dice of the simulation). A criminal picks among the
moves its own view lists; GW asks its tablet whether a path would be taken
before sliding, as a careful player counts squares (the answer is what trying
would tell GW: it says nothing secret). The physical
board stops GW's magnet at the first criminal it meets: the simulated hands
stop there too.

Every choice is drawn from a generator seeded with the seed and the journal's
sequence number, so a game resumed after a crash goes on exactly as it would
have without it.
"""

from __future__ import annotations

import random
from typing import Any

from lawmaster.host.plugin import Intent, SeatPort, next_turn
from lawmaster.rules.core import steps_from
from lawmaster.rules.gw_brott.board import Board

from .boards import view_board

GW = "gw"
CRIMINAL_FACES = ("1", "2", "3", "4", "arrow", "gw")


class Players:
    """Every seat of one GW:s brott table, played by the simulation from its seats' pages."""

    def __init__(self, seats: SeatPort, seed: int = 0) -> None:
        self.seats = seats
        self.seed = seed
        self._board: Board | None = None
        self._distance_cache: dict[int, list[int | None]] = {}

    @property
    def board(self) -> Board:
        """The printed board, as every seat's view shows it."""
        if self._board is None:
            self._board = view_board(self.seats.snapshot(GW)["view"]["board"])
        return self._board

    # -- the one entry point -------------------------------------------------
    def decide(self) -> Intent | None:
        """The next input, or ``None`` when the game is over or waits for nobody."""
        turn = next_turn(self.seats, self.seed)
        if turn is None:
            return None
        seat, rng, snapshot = turn
        view = snapshot["view"]
        asked = view.get("asked") or {}
        if seat == GW:
            return self._gw(rng, view, asked)
        if asked.get("act") == "inform":
            return Intent(seat, {"act": "inform", "by": seat, "target": asked["targets"][0]})
        return self._criminal(seat, rng, view, asked)

    # -- criminals ------------------------------------------------------------
    def _criminal(
        self, seat: str, rng: random.Random, view: dict[str, Any], asked: dict[str, Any]
    ) -> Intent:
        gw_dice = sum(1 for d in view.get("criminal_dice", []) if d == "gw")
        if asked.get("act") == "roll":
            reset = {"act": "reset", "by": seat}
            if asked.get("must_reset") or (
                asked.get("may_reset") and gw_dice >= 3 and rng.random() < 0.5
            ):
                return Intent(seat, reset)
            for card in asked.get("may_destroy") or []:
                return Intent(seat, {"act": "destroy_evidence", "by": seat, "card": card})
            faces = [rng.choice(CRIMINAL_FACES) for _ in range(asked["dice_to_roll"])]
            return Intent(seat, {"act": "roll", "by": seat, "faces": faces})
        # Rolled: move with one die, roll the rest again, or pass.
        moves = _moves(seat, asked.get("moves") or {})
        if not moves:
            return Intent(seat, {"act": "pass", "by": seat})
        distance, action, target = self._best_criminal_move(moves, view)
        rerolls = asked.get("may_reroll") or 0
        if rerolls and distance > 4 and rng.random() < 0.25:
            faces = [rng.choice(CRIMINAL_FACES) for _ in range(rerolls)]
            return Intent(seat, {"act": "roll", "by": seat, "faces": faces})
        said = {k: v for k, v in action.items() if k not in ("to", "direction", "exit")}
        start = view["criminals"][seat]["position"]
        return Intent(seat, action, said=said, move=(seat, start, target, ()))

    def _best_criminal_move(
        self, moves: list[tuple[dict[str, Any], str]], view: dict[str, Any]
    ) -> tuple[int, dict[str, Any], str]:
        """The move ending nearest an evidence space of a card still held."""
        goals = [self.board.evidence[c] for c in view.get("evidence_held", [])]
        scored = []
        for action, to in moves:
            cell = self.board.cell(to)
            distance = min((_or(self._distance(g)[cell], 99) for g in goals), default=0)
            scored.append((distance, action, to))
        scored.sort(key=lambda s: (s[0], s[2], str(s[1].get("die"))))
        return scored[0]

    # -- GW -----------------------------------------------------------------------
    def _gw(self, rng: random.Random, view: dict[str, Any], asked: dict[str, Any]) -> Intent:
        start = view["gw_position"]
        if asked.get("act") == "gw_roll":
            trump = self._trump(rng, view, asked.get("or_trump") or [])
            if trump is not None:
                return trump
            return Intent(GW, {"act": "gw_roll", "face": rng.randint(1, 6)})
        steps = int(asked.get("steps", 0))
        path = self._gw_path(rng, view, steps, bool(asked.get("exactly")))
        action = {"act": "gw_move", "path": path}
        if path and not self._legal(action):
            path = []
            action = {"act": "gw_move", "path": path}
        # Not moving at all is said on the tablet: the board shows nothing.
        move = (GW, start, path[-1], tuple(path)) if path else None
        return Intent(GW, action, move=move)

    def _gw_path(
        self, rng: random.Random, view: dict[str, Any], steps: int, exactly: bool
    ) -> list[str]:
        """Up to ``steps`` steps towards where a criminal may be (exactly ``steps`` if asked)."""
        start = view["gw_position"]
        route = self._route(start, self._gw_target(rng, view))[:steps]
        if exactly:
            # Revisits are allowed: step back and forth to use up the count.
            here = route[-1] if route else start
            back = route[-2] if len(route) >= 2 else start
            if not route:
                near = self.board.neighbours[self.board.cell(start)]
                if not near:
                    return []
                back, here = start, self.board.name_of(near[0])
                route = [here]
            while len(route) < steps:
                route.append(back)
                here, back = back, here
        return route

    def _trump(self, rng: random.Random, view: dict[str, Any], cards: list[str]) -> Intent | None:
        if not cards or rng.random() > 0.1:
            return None
        card = rng.choice(sorted(cards))
        start = view["gw_position"]
        if card == "breakthrough":
            path = self._route(start, self._gw_target(rng, view))[:8]
            if not path:
                return None
            action: dict[str, Any] = {"act": "trump", "card": card, "path": path}
            move = (GW, start, path[-1], tuple(path))
        elif card == "helicopter":
            to = self._gw_target(rng, view)
            action = {"act": "trump", "card": card, "to": to}
            move = (GW, start, to, (to,))
        elif card == "informer":
            free = [p for p, c in view["criminals"].items() if not c.get("out")]
            if len(free) < 2:
                return None
            action = {"act": "trump", "card": card, "informer": rng.choice(sorted(free))}
            move = None
        else:
            action = {"act": "trump", "card": card}
            move = None
        return Intent(GW, action, move=move) if self._legal(action) else None

    def _gw_target(self, rng: random.Random, view: dict[str, Any]) -> str:
        """Where GW heads: a cell its deduction map still allows, else anywhere open."""
        start = view["gw_position"]
        sets = [
            sorted(c for c in cells if c not in ("jail", start))
            for piece, cells in (view.get("deduction") or {}).items()
            if not view["criminals"][piece].get("out")
        ]
        sets = [s for s in sets if s]
        if sets:
            candidates = min(sets, key=len)
        else:
            candidates = [self.board.name_of(c) for c in self.board.open_cells]
        distances = self._distance(self.board.cell(start))
        candidates.sort(key=lambda name: (_or(distances[self.board.cell(name)], 99), name))
        return rng.choice(candidates[: max(1, len(candidates) // 4)])

    def _route(self, start: str, target: str) -> list[str]:
        """A shortest street route from ``start`` to ``target`` (start excluded)."""
        goal = self.board.cell(target)
        distances = self._distance(goal)
        cell = self.board.cell(start)
        route = []
        while distances[cell] not in (None, 0):
            options = [n for n in self.board.neighbours[cell] if distances[n] is not None]
            cell = min(options, key=lambda n: (distances[n], n))
            route.append(self.board.name_of(cell))
        return route

    def _distance(self, goal: int) -> list[int | None]:
        """Street distances from every cell to ``goal`` (``None``: unreachable)."""
        if goal not in self._distance_cache:
            steps = steps_from(goal, self.board.neighbours.__getitem__)
            self._distance_cache[goal] = [steps.get(cell) for cell in range(self.board.size)]
        return self._distance_cache[goal]

    # -- counting squares ----------------------------------------------------------
    def _legal(self, action: dict[str, Any]) -> bool:
        """Whether GW's tablet would take ``action`` (what trying it would tell GW)."""
        return self.seats.refusal(GW, action) is None


def _moves(seat: str, by_die: dict[str, Any]) -> list[tuple[dict[str, Any], str]]:
    """The view's legal moves per die as (action, destination)."""
    found: list[tuple[dict[str, Any], str]] = []
    for die, options in sorted(by_die.items()):
        if die != "arrow":
            found += [({"act": "move", "by": seat, "die": die, "to": to}, to) for to in options]
        elif isinstance(options, dict):
            for direction, to in sorted(options.items()):
                action = {"act": "move", "by": seat, "die": "arrow", "direction": direction}
                found.append((action, to))
        else:
            for slide in options:
                action = {
                    "act": "move",
                    "by": seat,
                    "die": "arrow",
                    "exit": slide["exit"],
                    "direction": slide["direction"],
                }
                found.append((action, slide["to"]))
    return found


def _or(value: int | None, default: int) -> int:
    return default if value is None else value
