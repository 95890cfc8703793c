"""The referee's knowledge of GW:s brott: who sends what, prompts, dice, board readings.

Where inputs come from at a GW:s brott table:

* A criminal says its die aloud: the die comes from its tablet. The
  destination comes from the board (the piece lifted and put down), or from
  the tablet when the table plays without a board. Either may come first; the
  referee holds the half it has until the other arrives.
* GW's path is the list of cells the sliding magnet passed through.
* Dice faces are typed on the tablet, or rolled by the referee when the table
  chose digital dice (the faces are journalled like typed ones).
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from lawmaster.host.nfc.cards import Card
from lawmaster.host.plugin import (
    BOARD,
    BUTTON,
    DIGITAL,
    NFC,
    Accepted,
    Action,
    Ask,
    Completed,
    Decision,
    Expect,
    GameRules,
    Play,
    Problem,
    Prompt,
    Question,
    RulesContext,
    Status,
    Wait,
    prompt,
)
from lawmaster.host.tracker import Expectation
from lawmaster.host.ui.text import joined, told
from lawmaster.rules.core import IllegalAction
from lawmaster.rules.gw_brott.board import Board
from lawmaster.rules.gw_brott.cards import criminal_faces, gw_faces

from .prompts import criminal_prompts, gw_prompts, piece_name

GW = "gw"
GW_ACTS = frozenset({"gw_roll", "gw_move", "trump"})
#: Parts of a move the board supplies (the tablet says only the die, or the trump).
BOARD_FIELDS = ("to", "direction", "exit", "path")
#: Trumps whose destination or path the board shows.
BOARD_TRUMPS = ("helicopter", "breakthrough")
#: The sensor map's name of the jail space.
JAIL = "jail"
#: GW's magnet resting this long, fewer steps than allowed from its start, ends the move.
GW_PAUSE_S = 1.5
#: At most this many ways are offered when a fast slide skipped corners.
MAX_WAYS = 8


class GwBrottRules(GameRules):
    """GW:s brott: GW against one to four criminal pieces."""

    def __init__(self, context: RulesContext) -> None:
        super().__init__(context)
        #: A criminal's die said on the tablet, waiting for the board to show the move.
        self.said: dict[str, Any] | None = None
        #: A trump card GW tapped or named, waiting for the rest of it.
        self.said_trump: str | None = None
        #: A criminal's move seen on the board (tracker ``Moved``), waiting for its die.
        self.seen: Any = None
        #: GW's slide seen on the board with steps to spare: applied after a pause.
        self.gw_pending: Any = None
        #: When that pause ends (the table's clock).
        self._due: float | None = None
        #: What must be put right on the board, by piece (``"?<space>"``: a stray magnet).
        self.problems: dict[str, Problem] = {}
        #: Pieces caught that must now be put into the jail.
        self.to_jail: set[str] = set()
        self.gw_pause = float(context.settings.get("gw_pause", GW_PAUSE_S))
        self.board = Board.load(context.header.get("board", "standard"))

    # -- who may send what -------------------------------------------------------
    def owner(self, action: Mapping[str, Any], state: Any) -> str | None:
        if action.get("act") in GW_ACTS:
            return GW
        by = action.get("by")
        return by if isinstance(by, str) else None

    def sides(self, state: Any) -> dict[str, str]:
        return {seat: (GW if seat == GW else "criminals") for seat in self.engine.seats(state)}

    def detail_seats(self, action: Mapping[str, Any], state: Any) -> tuple[str, ...]:
        # A criminal's misplaced piece sits on the criminals' side: only they may read where.
        if action.get("act") in GW_ACTS:
            return tuple(self.engine.seats(state))
        return tuple(s for s in self.engine.seats(state) if s != GW)

    def physical_name(self, action: Mapping[str, Any]) -> str:
        act = action.get("act")
        if act == "trump":
            return told("GW's trump")
        if act in GW_ACTS:
            return told("GW's move")
        by = action.get("by")
        if act == "destroy_evidence":
            if by is None:
                return told("a criminal's evidence card")
            return told("%(who)s's evidence card", who=piece_name(by))
        if by is None:
            return told("a criminal's move")
        return told("%(who)s's move", who=piece_name(by))

    # -- cards ---------------------------------------------------------------------
    def card(self, card: Card, seat: str | None, state: Any) -> Decision:
        """Evidence tapped: the criminal to act hands it in. A trump tapped: GW plays it."""
        waiting = self.engine.to_act(state)
        if card.kind == "evidence":
            by = seat if seat not in (None, GW) else next((s for s in waiting if s != GW), None)
            if by is None:
                return Wait(told("evidence is handed in at the start of a criminal's turn"))
            return Play.one({"act": "destroy_evidence", "by": by, "card": card.id}, by, NFC)
        if card.kind == "trump":
            if card.id == "infiltrator":
                return Play.one({"act": "trump", "card": card.id}, GW, NFC)
            # The rest of the trump (where to, which path, which informer) comes from
            # GW's tablet or the board; the tap only says which card.
            self.said_trump = card.id
            return Wait(told("GW plays %(card)s: GW completes it on the tablet", card=card.name))
        return None

    def button(self, name: str, state: Any) -> Decision:
        """End turn: GW's magnet at rest ends its move; a criminal with no legal move passes."""
        if name != "end_turn":
            return None
        if self.gw_pending is not None:
            return self.flush_gw()
        for seat in self.engine.to_act(state):
            asked = self.engine.view(state, seat).get("asked") or {}
            if seat != GW and asked.get("may_pass"):
                return Play.one({"act": "pass", "by": seat}, seat, BUTTON)
        return None

    def undone(self, state: Any) -> None:
        self.said = None
        self.said_trump = None
        self.seen = None
        self.gw_pending = None
        self._due = None
        self.problems.clear()

    def accepted(self, accepted: Accepted, state: Any) -> None:
        # The tracker is told the new position; what it still finds wrong it reports again.
        self.problems.clear()
        self.seen = None
        for event in accepted.events:
            if event.get("type") == "caught" and self.board_on:
                self.to_jail.add(event["piece"])

    # -- completing inputs --------------------------------------------------------
    def complete(
        self, seat: str, action: Action, state: Any, rng: random.Random | None
    ) -> Action | Completed | Wait:
        act = action.get("act")
        if rng is not None and act == "roll" and "faces" not in action:
            view = self.engine.view(state, seat)
            count = int((view.get("asked") or {}).get("dice_to_roll") or 0)
            if not count:
                count = int((view.get("asked") or {}).get("may_reroll") or 0)
            faces = criminal_faces()
            return Completed(
                {**action, "faces": [rng.choice(faces) for _ in range(count)]}, DIGITAL
            )
        if rng is not None and act == "gw_roll" and "face" not in action:
            return Completed({**action, "face": rng.choice(gw_faces())}, DIGITAL)
        if act == "move" and self.board_on and not any(k in action for k in BOARD_FIELDS):
            die = action.get("die")
            view = self.engine.view(state, seat)
            moves = ((view.get("asked") or {}).get("moves")) or {}
            if str(die) not in moves:
                raise IllegalAction(
                    told("the die %(die)s is not one you can move with now", die=die)
                )
            self.said = dict(action)
            seen = self.seen
            if seen is None or seen.piece != action.get("by"):
                return Wait(
                    told(
                        "%(who)s moves with the %(die)s: waiting for the piece on the board",
                        who=piece_name(seat),
                        die=die,
                    )
                )
            # The die is the tablet's, the square the board's: as when the board comes second.
            return Completed(self._with_seen(action, seen, state), BOARD)
        if (
            act == "trump"
            and self.board_on
            and action.get("card") in BOARD_TRUMPS
            and not any(k in action for k in BOARD_FIELDS)
        ):
            self.said_trump = str(action["card"])
            return Wait(
                told(
                    "GW plays the %(card)s: waiting for GW's magnet on the board",
                    card=self.said_trump,
                )
            )
        self.said = None
        if act == "trump":
            self.said_trump = None
        return action

    def _with_seen(self, said: Action, seen: Any, state: Any) -> Action:
        """A die said on the tablet with the move the board showed; illegal: put it back."""
        action = {**said, "to": seen.to}
        try:
            self.engine.apply(state, action)
        except IllegalAction as exc:
            self._put_back(seen, exc.reason)
            raise IllegalAction(
                told(
                    "%(reason)s; put your piece back on %(cell)s",
                    reason=exc.reason,
                    cell=seen.from_,
                )
            ) from None
        return action

    # -- the board --------------------------------------------------------------------
    def expectation(self, state: Any) -> Expectation | None:
        """Where every magnet belongs now, who may move it, who must go to jail."""
        if not self.board_on:
            return None
        summary = self.engine.summary(state)
        criminals = summary["criminals"]
        kinds = {GW: "gw", **{piece: "criminal" for piece in criminals}}
        positions: dict[str, str | None] = {GW: summary["gw_position"]}
        for piece, info in criminals.items():
            # A caught piece rides on GW's magnet until someone puts it in the jail.
            positions[piece] = None if piece in self.to_jail else info["position"]
        movers = frozenset(s for s in self.engine.to_act(state) if s in kinds)
        return Expectation(
            kinds,
            positions,
            movers=movers - self.to_jail,
            jail=JAIL,
            to_jail=frozenset(self.to_jail),
            captures=frozenset({("gw", "criminal")}),
            turn=summary["turn"],
        )

    def observe(self, observation: Any, state: Any, now: float) -> Decision:
        kind = getattr(observation, "TYPE", "")
        if kind == "moved":
            return self._moved(observation, state, now)
        if kind == "jailed":
            self.to_jail.discard(observation.piece)
            self.problems.pop(observation.piece, None)
            return Expect()  # the piece is no longer expected on GW's magnet
        if kind == "anomaly":
            key = observation.piece or f"?{observation.found}"
            self.problems[key] = Problem(observation.piece, observation.text, kind=observation.kind)
        elif kind == "restored":
            key = observation.piece or f"?{observation.at}"
            had_problem = self.problems.pop(key, None) is not None
            if self.seen is not None and self.seen.piece == observation.piece:
                self.seen = None
            elif not had_problem:
                return self._back_where_it_was(observation, state)
        elif kind == "ambiguous":
            return self._ask(observation, state, now)
        # "captured" and "in_hand" change nothing: the engine decides catches from GW's path.
        return None

    def _moved(self, moved: Any, state: Any, now: float) -> Decision:
        if moved.piece == GW:
            return self._gw_moved(moved, state, now)
        self.seen = moved
        said = self.said
        if said is None or said.get("by") != moved.piece:
            return None  # the die is still to be said on the tablet
        try:
            action = self._with_seen(said, moved, state)
        except IllegalAction:
            return None
        return Play.one(action, moved.piece, BOARD, about=_CriminalMove(moved, said))

    def refused(self, play: Play, action: Action, reason: str, state: Any) -> Status | None:
        about = play.about
        if isinstance(about, _CriminalMove):
            self.said = about.said  # the die stays said; the piece goes back and moves again
            if about.moved is not None:
                self._put_back(about.moved, reason)
            return None
        if about is not None:  # GW's move as the board showed it
            self._put_back(about, reason)
            return None
        return super().refused(play, action, reason, state)

    def _back_where_it_was(self, restored: Any, state: Any) -> Decision:
        """A piece lifted and put down where it stood, with a die said that allows it.

        Walks may come back to their start ("back and forth as many times as you
        like"), and on the board such a move looks like a piece lifted and put
        back: with the die said, that is the move.
        """
        said = self.said
        if said is None or said.get("by") != restored.piece:
            return None
        view = self.engine.view(state, restored.piece)
        ends = ((view.get("asked") or {}).get("moves") or {}).get(str(said.get("die")))
        if isinstance(ends, list) and restored.at in ends:
            action = {**said, "to": restored.at}
            return Play.one(action, restored.piece, BOARD, about=_CriminalMove(None, said))
        return None

    def _ways(self, start: str | None, path: tuple[str, ...]) -> list[list[str]]:
        """GW's path with the cells a fast slide skipped put back: every way that fits.

        A magnet sliding quickly can cross a cell between two sensor readings. A
        straight gap has one way through; a diagonal gap has two unless a house
        blocks one corner, and then GW says on its tablet which way it went.
        Anything else is left as seen (and the engine refuses it).
        """
        board = self.board
        if start is None:
            return [list(path)]
        ways: list[list[str]] = [[]]
        here = board.cell(start)
        for name in path:
            cell = board.cell(name)
            options = _gaps(board, here, cell)
            ways = [
                way + [board.name_of(c) for c in gap] + [name] for way in ways for gap in options
            ]
            ways = ways[:MAX_WAYS]
            here = cell
        return ways

    def _gw_moved(self, moved: Any, state: Any, now: float) -> Decision:
        asked = self.engine.view(state, GW).get("asked") or {}
        if self.said_trump == "helicopter" and asked.get("act") == "gw_roll":
            action = {"act": "trump", "card": "helicopter", "to": moved.to}
            return Play.one(action, GW, BOARD, about=moved)
        if self.said_trump == "breakthrough" and asked.get("act") == "gw_roll":
            steps = 8
        elif asked.get("act") == "gw_move":
            steps = int(asked.get("steps") or 0)
        else:
            why = told("GW rolls its die first") if asked else told("it is not GW's turn")
            self._put_back(moved, why)
            return None
        self.gw_pending = moved
        if min(len(way) for way in self._ways(moved.from_, moved.path)) >= steps:
            return self.flush_gw()
        # Fewer steps than allowed: GW may still go on. Wait for a pause (or "done").
        self._due = now + self.gw_pause
        return None

    def due_at(self) -> float | None:
        return self._due if self.gw_pending is not None else None

    def due(self, state: Any, now: float) -> Decision:
        """GW's magnet has rested for the pause: its move is over."""
        return self.flush_gw()

    def flush_gw(self) -> Decision:
        """GW's move as the board shows it now is GW's move."""
        moved, self.gw_pending = self.gw_pending, None
        self._due = None
        if moved is None:
            return None
        ways = self._ways(moved.from_, moved.path)
        if len(ways) == 1:
            return Play.one(self._gw_action(ways[0]), GW, BOARD, about=moved)
        # The sensors missed a corner and either corner fits: GW knows which way it went.
        question = prompt("which_path", {"act": "choose_path"}, options=ways)
        answers = tuple(Play.one(self._gw_action(way), GW, BOARD, about=moved) for way in ways)
        waiting = told("waiting for GW to say which way its magnet went")
        return Ask(Question((GW,), "choose_path", question, answers, waiting))

    def _gw_action(self, path: list[str]) -> Action:
        if self.said_trump == "breakthrough":
            return {"act": "trump", "card": "breakthrough", "path": path}
        return {"act": "gw_move", "path": path}

    def _put_back(self, moved: Any, reason: str) -> None:
        kind = "gw" if moved.piece == GW else "criminal"
        name = piece_name(moved.piece)
        if moved.from_ == JAIL:
            words = told("put %(piece)s back in the jail", piece=name)
        else:
            words = told("put %(piece)s back on %(cell)s", piece=name, cell=moved.from_)
        self.problems[moved.piece] = Problem(moved.piece, words, reason, kind)

    def _ask(self, ambiguous: Any, state: Any, now: float) -> Decision:
        """Two readings of one observation: the seat whose piece it is says which."""
        pieces = [getattr(r, "piece", None) for r in ambiguous.readings]
        waiting = self.engine.to_act(state)
        # The seat to act knows what it did; else a criminal (who may see criminals' cells).
        seat = next((p for p in pieces if p in waiting), None)
        if seat is None:
            seat = next((p for p in pieces if p and p != GW), GW)
        options = [r.to_json() for r in ambiguous.readings]
        question = prompt("which_reading", {"act": "choose_reading"}, options=options)
        answers = tuple(
            (lambda state, reading=reading: self.observe(reading, state, now))
            for reading in ambiguous.readings
        )
        return Ask(
            Question(
                (seat,),
                "choose_reading",
                question,
                answers,
                told("waiting for %(who)s to say what happened", who=piece_name(seat)),
            )
        )

    tablet_acts = frozenset({"gw_done"})
    dice_fields = {"roll": frozenset({"faces"}), "gw_roll": frozenset({"face"})}

    def tablet(self, seat: str, action: Mapping[str, Any], state: Any) -> Decision:
        """GW ends its move on the tablet (its magnet is where it stops)."""
        if seat != GW or self.gw_pending is None:
            raise IllegalAction(told("GW's magnet has not moved"))
        return self.flush_gw()

    def board_status(self, state: Any) -> Status | None:
        criminals = tuple(s for s in self.engine.seats(state) if s != GW)
        if self.problems:
            public = [p.words() for p in self.problems.values() if p.kind == "gw"]
            hidden = [p for p in self.problems.values() if p.kind != "gw"]
            if hidden:
                public.append(
                    told("a criminal piece must be put right (the criminals' tablets say how)")
                )
            detail = joined("; ", (p.words() for p in self.problems.values()))
            return Status("illegal", joined("; ", public), detail, criminals)
        if self.to_jail:
            pieces = joined(", ", (piece_name(p) for p in sorted(self.to_jail)))
            return Status("waiting", told("put %(pieces)s in the jail", pieces=pieces))
        if self.gw_pending is not None:
            return Status("waiting", told("GW is moving (GW's tablet can end the move)"))
        if self.seen is not None:
            piece = self.seen.piece
            return Status(
                "waiting",
                told("waiting for %(piece)s to say which die it used", piece=piece_name(piece)),
                told(
                    "%(piece)s moved to %(cell)s: say the die on the tablet",
                    piece=piece_name(piece),
                    cell=self.seen.to,
                ),
                criminals,
            )
        return None

    # -- prompts --------------------------------------------------------------------
    def prompts(self, seat: str, state: Any, view: Mapping[str, Any]) -> list[Prompt]:
        asked = view.get("asked")
        if not isinstance(asked, Mapping):
            return []
        if seat == GW:
            return gw_prompts(asked, self.said_trump, self.board_on)
        return criminal_prompts(seat, asked, self.said, self.board_on)


@dataclass(frozen=True)
class _CriminalMove:
    """A criminal's move as the board showed it (``None``: put back where it stood),
    with the die said for it: kept with a :class:`Play` in case it is refused."""

    moved: Any
    said: Action


def _gaps(board: Board, a: int, b: int) -> list[list[int]]:
    """The ways to fill the cells between ``a`` and ``b`` along a shortest street way.

    Next to each other: one way, nothing between. A straight gap: the cells
    between, if all are streets. A diagonal step: each open corner. Anything
    else: nothing to fill (the path stays as seen).
    """
    (ax, ay), (bx, by) = board.xy(a), board.xy(b)
    dx, dy = bx - ax, by - ay
    if abs(dx) + abs(dy) <= 1:
        return [[]]
    if dx == 0 or dy == 0:
        n = abs(dx) + abs(dy)
        sx, sy = (dx > 0) - (dx < 0), (dy > 0) - (dy < 0)
        between = [(ay + sy * k) * board.width + (ax + sx * k) for k in range(1, n)]
        return [[]] if any(board.is_blocked(c) for c in between) else [between]
    if abs(dx) == 1 and abs(dy) == 1:
        corners = [ay * board.width + bx, by * board.width + ax]
        open_corners = [[c] for c in corners if not board.is_blocked(c)]
        return open_corners or [[]]
    return [[]]
