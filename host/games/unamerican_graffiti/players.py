"""Simulated Unamerican Graffiti players for the demo: two scrawlers who also run the Judges.

Each simulated person plays from its own seat's view, as at the table:

* The scrawler to move prefers a move that scrawls (more prestige is better,
  the Statue best of all once it is open), weighs each end hex by the arrest
  chance its view's ``threat`` gives, and otherwise heads for the nearest
  clean location. It rarely stands still: that wastes a turn.
* The opponent rolls real (seeded) dice for the Judges, then moves them to
  chase the scrawler: an arrest when a rolled Judge can make one, else the
  move that ends nearest the scrawler. A cleaning Judge spends its die cleaning.
* After an arrest the player returns on the free landmark farthest from the
  Judges.

Same interface as :class:`lawmaster.host.sim.players.Players`: :meth:`decide`
returns the next :class:`~lawmaster.host.sim.players.Intent`, drawn from a
generator seeded with the seed and the journal's sequence number, so a resumed
game goes on as it would have. A decision's ``move`` is the physical gesture
for simulated hands: ``(piece, from, to, ())`` — a pawn (``"chopper"``) or a
Judge counter (``"judge-3"``) lifted and put down on ``to`` (``from`` is
``"hand"`` for a pawn coming back after an arrest). An arresting Judge's
decision has ``notes["take_off"]``: the pawn to lift off the board first.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

from lawmaster.host.plugin import Intent, SeatPort, next_turn
from lawmaster.rules.core import steps_from
from lawmaster.rules.unamerican_graffiti import Board

PLAYERS = ("chopper", "phantom")
#: How much an arrest costs, in prestige, on top of what the colour would still earn.
ARREST_COST = 8.0
#: An arrest chance above which a move is risky enough to consider standing still.
RISKY = 0.5


def _other(player: str) -> str:
    return PLAYERS[1] if player == PLAYERS[0] else PLAYERS[0]


class GraffitiPlayers:
    """Both seats of one Unamerican Graffiti table, played by the simulation."""

    def __init__(self, seats: SeatPort, seed: int = 0) -> None:
        self.seats = seats
        self.seed = seed
        self._board: Board | None = None
        self._steps: dict[str, dict[str, int]] = {}

    @property
    def board(self) -> Board:
        """The map, as every seat's view names it."""
        if self._board is None:
            self._board = Board.load(self.seats.snapshot(PLAYERS[0])["view"]["board"])
        return self._board

    # -- the one entry point -------------------------------------------------
    def decide(self) -> Intent | None:
        """The next input, or ``None`` when the game is over or waits for nobody."""
        turn = next_turn(self.seats, self.seed)
        if turn is None:
            return None
        seat, rng, snapshot = turn
        view = snapshot["view"]
        phase = view.get("phase")
        if phase == "move":
            return self._move(seat, view, rng)
        if phase == "reenter":
            return self._reenter(seat, view)
        if phase == "roll":
            # The dice prompt says how many: one per hex the scrawler moved.
            count = next(
                int(p["count"]) for p in snapshot["prompts"] if p.get("kind") == "enter_dice"
            )
            faces = [rng.randint(1, 6) for _ in range(count)]
            return Intent(seat, {"act": "roll", "by": seat, "faces": faces})
        if phase == "judges":
            return self._judges(seat, view, rng)
        return None

    # -- the scrawler ------------------------------------------------------------
    def _move(self, seat: str, view: Mapping[str, Any], rng: random.Random) -> Intent:
        here = view["scrawlers"][seat]["position"]
        threat = view.get("threat") or {}
        scrawls = view.get("scrawls") or {}
        defaced = set(view.get("defaced_landmarks") or [])
        statue_open = set(self.board.landmarks) <= defaced
        clean = [
            h.id
            for h in self.board.hexes.values()
            if h.is_location and h.id not in scrawls and (h.kind != "statue" or statue_open)
        ]
        prestige = view["colours"][view["scrawlers"][seat]["colour"]]["prestige"]
        scored: list[tuple[float, float, list[str]]] = []
        for action in view.get("legal_moves") or []:
            path = list(action.get("path") or [])
            if action.get("act") != "move" or not path:
                continue
            end = path[-1]
            spot = self.board.hexes[end]
            gain = spot.prestige if end in clean else 0
            if spot.kind == "statue" and gain:
                gain += 20  # reaching the Statue ends the game: worth the risk
            chance = float((threat.get(end) or {}).get("arrest_chance") or 0.0)
            near = min((self._distance(end, c) for c in clean if c != end), default=0)
            score = gain - chance * (ARREST_COST + prestige / 4) - 0.3 * near
            score += rng.random() * 0.05  # ties broken by the seeded dice, not by name
            scored.append((score, chance, path))
        scored.sort(key=lambda s: -s[0])
        # Standing still is safe but wastes the turn: only when every move is risky,
        # and not always (a real player loses patience too).
        if not scored or (min(c for _, c, _ in scored) > RISKY and rng.random() < 0.5):
            return Intent(seat, {"act": "move", "by": seat, "path": []})
        path = scored[0][2]
        end = path[-1]
        return Intent(seat, {"act": "move", "by": seat, "path": path}, move=(seat, here, end, ()))

    def _reenter(self, seat: str, view: Mapping[str, Any]) -> Intent:
        judges = list((view.get("judges") or {}).values())
        options = [a["at"] for a in view.get("legal_moves") or [] if a.get("act") == "reenter"]
        at = max(
            sorted(options), key=lambda h: min((self._distance(h, j) for j in judges), default=0)
        )
        action = {"act": "reenter", "by": seat, "at": at}
        return Intent(seat, action, move=(seat, "hand", at, ()))

    # -- the Judges ----------------------------------------------------------------
    def _judges(self, seat: str, view: Mapping[str, Any], rng: random.Random) -> Intent:
        target = view["scrawlers"][_other(seat)]["position"]
        own = view["scrawlers"][seat]["position"]
        judges = view.get("judges") or {}
        cleaning = set(view.get("cleaning") or [])
        best: tuple[float, dict[str, Any], int, str] | None = None
        for action in view.get("legal_moves") or []:
            if action.get("act") != "judge_move":
                continue
            number = int(action["judge"])
            start = judges[str(number)]
            path = list(action.get("path") or [])
            end = path[-1] if path else start
            if number in cleaning:
                score = 0.0  # the die must be spent cleaning, sooner or later
            elif path and end == own:
                score = -1000.0  # a Judge arrests any scrawler, its mover's own too
            elif target is None:
                score = -len(path) + rng.random() * 0.1  # nobody to chase: stand guard
            elif end == target:
                score = 1000.0
            else:
                gained = self._distance(start, target) - self._distance(end, target)
                score = gained - 0.01 * self._distance(end, target) + rng.random() * 0.1
            if best is None or score > best[0]:
                move = {"act": "judge_move", "by": seat, "judge": number}
                if number not in cleaning:
                    move["path"] = path
                best = (score, move, number, end)
        assert best is not None
        _, move, number, end = best
        start = judges[str(number)]
        physical = (f"judge-{number}", start, end, ()) if end != start else None
        # An arrest: the hands take the pawn off before the counter goes on its hex.
        caught = [p for p, pawn in view["scrawlers"].items() if pawn["position"] == end]
        notes = {"take_off": caught[0]} if caught and end != start else {}
        return Intent(seat, move, move=physical, notes=notes)

    # -- distances -------------------------------------------------------------------
    def _distance(self, a: str, b: str) -> int:
        """Hexes between ``a`` and ``b`` over the map (ignoring who stands where)."""
        if a not in self._steps:
            self._steps[a] = steps_from(a, self.board.neighbours.__getitem__)
        return self._steps[a].get(b, 99)
