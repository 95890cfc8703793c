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
import threading
from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from lawmaster.rules.core import IllegalAction
from lawmaster.rules.gw_brott.cards import criminal_faces, gw_faces

from .referee import BOARD, DIGITAL, Completed, GameRules

if TYPE_CHECKING:
    from .referee import Referee
    from .table import Accepted, Status

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


@dataclass(frozen=True)
class Problem:
    """Something on the board that must be put right before play goes on."""

    piece: str | None
    kind: str
    text: str
    reason: str = ""

    def words(self) -> str:
        return f"{self.reason}: {self.text}" if self.reason else self.text


class GwBrottRules(GameRules):
    """GW:s brott: GW against one to four criminal pieces."""

    def __init__(self, table: Any) -> None:
        super().__init__(table)
        #: A criminal's die said on the tablet, waiting for the board to show the move.
        self.said: dict[str, Any] | None = None
        #: A trump card GW tapped or named, waiting for the rest of it.
        self.said_trump: str | None = None
        #: A criminal's move seen on the board (tracker ``Moved``), waiting for its die.
        self.seen: Any = None
        #: GW's slide seen on the board with steps to spare: applied after a pause.
        self.gw_pending: Any = None
        self._gw_timer: threading.Timer | None = None
        #: What must be put right on the board, by piece (``"?<space>"``: a stray magnet).
        self.problems: dict[str, Problem] = {}
        #: Pieces caught that must now be put into the jail.
        self.to_jail: set[str] = set()
        #: An observation with two readings, waiting for a seat to say which.
        self.asking: Any = None
        self.asking_seat: str | None = None
        #: GW's slide fits several ways (a missed corner): the ways and the observation.
        self.asking_path: tuple[list[list[str]], Any] | None = None
        self.gw_pause = float(table.settings.get("gw_pause", GW_PAUSE_S))

    # -- who may send what -------------------------------------------------------
    def owner(self, action: Mapping[str, Any], state: Any) -> str | None:
        if action.get("act") in GW_ACTS:
            return GW
        by = action.get("by")
        return by if isinstance(by, str) else None

    def sides(self, state: Any) -> dict[str, str]:
        return {
            seat: (GW if seat == GW else "criminals") for seat in self.table.engine.seats(state)
        }

    def detail_seats(self, action: Mapping[str, Any], state: Any) -> tuple[str, ...]:
        # A criminal's misplaced piece sits on the criminals' side: only they may read where.
        if action.get("act") in GW_ACTS:
            return tuple(self.table.engine.seats(state))
        return tuple(s for s in self.table.engine.seats(state) if s != GW)

    def physical_name(self, action: Mapping[str, Any]) -> str:
        act = action.get("act")
        if act == "trump":
            return "GW's trump"
        if act in GW_ACTS:
            return "GW's move"
        if act == "destroy_evidence":
            return f"{action.get('by', 'a criminal')}'s evidence card"
        return f"{action.get('by', 'a criminal')}'s move"

    # -- cards ---------------------------------------------------------------------
    def card(self, card: Any, seat: str | None, state: Any) -> dict[str, Any] | str | None:
        """Evidence tapped: the criminal to act hands it in. A trump tapped: GW plays it."""
        waiting = self.table.engine.to_act(state)
        if card.kind == "evidence":
            by = seat if seat not in (None, GW) else next((s for s in waiting if s != GW), None)
            if by is None:
                return "evidence is handed in at the start of a criminal's turn"
            return {"act": "destroy_evidence", "by": by, "card": card.id}
        if card.kind == "trump":
            if card.id == "infiltrator":
                return {"act": "trump", "card": card.id}
            # The rest of the trump (where to, which path, which informer) comes from
            # GW's tablet or the board; the tap only says which card.
            self.said_trump = card.id
            return f"GW plays {card.name}: GW completes it on the tablet"
        return None

    def end_turn(self, state: Any, referee: Referee) -> dict[str, Any] | None:
        """GW's magnet at rest: its move is over. A criminal with no legal move passes."""
        if self.gw_pending is not None:
            self.flush_gw(referee)
            return None
        for seat in self.table.engine.to_act(state):
            asked = self.table.engine.view(state, seat).get("asked") or {}
            if seat != GW and asked.get("may_pass"):
                return {"act": "pass", "by": seat}
        return None

    def undone(self, state: Any) -> None:
        self.said = None
        self.said_trump = None
        self.seen = None
        self.gw_pending = None
        self.problems.clear()
        self.asking = None
        self.asking_path = None

    def accepted(self, accepted: Accepted) -> None:
        # The tracker is told the new position; what it still finds wrong it reports again.
        self.problems.clear()
        self.seen = None
        for event in accepted.events:
            if event.get("type") == "caught" and self.board_on:
                self.to_jail.add(event["piece"])

    # -- completing inputs --------------------------------------------------------
    def complete(
        self, seat: str, action: dict[str, Any], state: Any, rng: random.Random | None
    ) -> dict[str, Any] | Completed | str:
        act = action.get("act")
        if rng is not None and act == "roll" and "faces" not in action:
            view = self.table.engine.view(state, seat)
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
            view = self.table.engine.view(state, seat)
            moves = ((view.get("asked") or {}).get("moves")) or {}
            if str(die) not in moves:
                raise IllegalAction(f"the die {die!r} is not one you can move with now")
            self.said = dict(action)
            seen = self.seen
            if seen is None or seen.piece != action.get("by"):
                return f"{seat} moves with the {die}: waiting for the piece on the board"
            # The die is the tablet's, the square the board's: as when the board comes second.
            return Completed(self._with_seen(action, seen), BOARD)
        if (
            act == "trump"
            and self.board_on
            and action.get("card") in BOARD_TRUMPS
            and not any(k in action for k in BOARD_FIELDS)
        ):
            self.said_trump = str(action["card"])
            return f"GW plays the {self.said_trump}: waiting for GW's magnet on the board"
        self.said = None
        if act == "trump":
            self.said_trump = None
        return action

    def _with_seen(self, said: dict[str, Any], seen: Any) -> dict[str, Any]:
        """A die said on the tablet with the move the board showed; illegal: put it back."""
        action = {**said, "to": seen.to}
        try:
            self.table.check(action)
        except IllegalAction as exc:
            self._put_back(seen, exc.reason)
            raise IllegalAction(f"{exc.reason}; put your piece back on {seen.from_}") from None
        return action

    @property
    def board_on(self) -> bool:
        return bool(self.table.settings.get("board", False))

    # -- the board --------------------------------------------------------------------
    def expectation(self, state: Any) -> Any:
        """Where every magnet belongs now, who may move it, who must go to jail."""
        if not self.board_on:
            return None
        from .tracker import Expectation

        summary = self.table.engine.summary(state)
        criminals = summary["criminals"]
        kinds = {GW: "gw", **{piece: "criminal" for piece in criminals}}
        positions: dict[str, str | None] = {GW: summary["gw_position"]}
        for piece, info in criminals.items():
            # A caught piece rides on GW's magnet until someone puts it in the jail.
            positions[piece] = None if piece in self.to_jail else info["position"]
        movers = frozenset(s for s in self.table.engine.to_act(state) if s in kinds)
        return Expectation(
            kinds,
            positions,
            movers=movers - self.to_jail,
            jail=JAIL,
            to_jail=frozenset(self.to_jail),
            captures=frozenset({("gw", "criminal")}),
            turn=summary["turn"],
        )

    def observe(self, observation: Any, referee: Referee) -> None:
        kind = getattr(observation, "TYPE", "")
        if kind == "moved":
            self._moved(observation, referee)
        elif kind == "jailed":
            self.to_jail.discard(observation.piece)
            self.problems.pop(observation.piece, None)
            referee.expect()
        elif kind == "anomaly":
            key = observation.piece or f"?{observation.found}"
            self.problems[key] = Problem(observation.piece, observation.kind, observation.text)
        elif kind == "restored":
            key = observation.piece or f"?{observation.at}"
            had_problem = self.problems.pop(key, None) is not None
            if self.seen is not None and self.seen.piece == observation.piece:
                self.seen = None
            elif not had_problem:
                self._back_where_it_was(observation, referee)
        elif kind == "ambiguous":
            self._ask(observation)
        # "captured" and "in_hand" change nothing: the engine decides catches from GW's path.

    def _moved(self, moved: Any, referee: Referee) -> None:
        state = self.table.state
        if moved.piece == GW:
            self._gw_moved(moved, referee, state)
            return
        self.seen = moved
        said = self.said
        if said is None or said.get("by") != moved.piece:
            return  # the die is still to be said on the tablet
        try:
            action = self._with_seen(said, moved)
        except IllegalAction:
            return
        reason = referee.apply_physical(action, moved.piece)
        if reason is not None:
            self.said = said  # the die stays said; the piece goes back and moves again
            self._put_back(moved, reason)

    def _back_where_it_was(self, restored: Any, referee: Referee) -> None:
        """A piece lifted and put down where it stood, with a die said that allows it.

        Walks may come back to their start ("back and forth as many times as you
        like"), and on the board such a move looks like a piece lifted and put
        back: with the die said, that is the move.
        """
        said = self.said
        if said is None or said.get("by") != restored.piece:
            return
        view = self.table.engine.view(self.table.state, restored.piece)
        ends = ((view.get("asked") or {}).get("moves") or {}).get(str(said.get("die")))
        if isinstance(ends, list) and restored.at in ends:
            reason = referee.apply_physical({**said, "to": restored.at}, restored.piece)
            if reason is not None:
                self.said = said

    def _ways(self, start: str | None, path: tuple[str, ...]) -> list[list[str]]:
        """GW's path with the cells a fast slide skipped put back: every way that fits.

        A magnet sliding quickly can cross a cell between two sensor readings. A
        straight gap has one way through; a diagonal gap has two unless a house
        blocks one corner, and then GW says on its tablet which way it went.
        Anything else is left as seen (and the engine refuses it).
        """
        board = self.rules_board
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

    @property
    def rules_board(self) -> Any:
        if not hasattr(self, "_board"):
            from lawmaster.rules.gw_brott.board import Board

            self._board = Board.load(self.table.header.get("board", "standard"))
        return self._board

    def _gw_moved(self, moved: Any, referee: Referee, state: Any) -> None:
        asked = self.table.engine.view(state, GW).get("asked") or {}
        if self.said_trump == "helicopter" and asked.get("act") == "gw_roll":
            self._apply_gw({"act": "trump", "card": "helicopter", "to": moved.to}, moved, referee)
            return
        if self.said_trump == "breakthrough" and asked.get("act") == "gw_roll":
            steps = 8
        elif asked.get("act") == "gw_move":
            steps = int(asked.get("steps") or 0)
        else:
            why = "GW rolls its die first" if asked else "it is not GW's turn"
            self._put_back(moved, why)
            return
        self.gw_pending = moved
        if min(len(way) for way in self._ways(moved.from_, moved.path)) >= steps:
            self.flush_gw(referee)
            return
        # Fewer steps than allowed: GW may still go on. Wait for a pause (or "done").
        if self._gw_timer is not None:
            self._gw_timer.cancel()
        self._gw_timer = threading.Timer(self.gw_pause, self._gw_pause_over, (referee, moved))
        self._gw_timer.daemon = True
        self._gw_timer.start()

    def _gw_pause_over(self, referee: Referee, moved: Any) -> None:
        with referee.lock:
            if self.gw_pending is moved:
                self.flush_gw(referee)
                referee.refresh()

    def flush_gw(self, referee: Referee) -> None:
        """GW's move as the board shows it now is GW's move."""
        moved, self.gw_pending = self.gw_pending, None
        if self._gw_timer is not None:
            self._gw_timer.cancel()
            self._gw_timer = None
        if moved is None:
            return
        ways = self._ways(moved.from_, moved.path)
        if len(ways) == 1:
            self._apply_gw(self._gw_action(ways[0]), moved, referee)
            return
        # The sensors missed a corner and either corner fits: GW knows which way it went.
        self.asking_path = (ways, moved)
        prompt = _prompt("which_path", {"act": "choose_path"}, options=ways)
        self.table.set_prompts({GW: [prompt]})

    def _gw_action(self, path: list[str]) -> dict[str, Any]:
        if self.said_trump == "breakthrough":
            return {"act": "trump", "card": "breakthrough", "path": path}
        return {"act": "gw_move", "path": path}

    def _apply_gw(self, action: dict[str, Any], moved: Any, referee: Referee) -> None:
        reason = referee.apply_physical(action, GW)
        if reason is not None:
            self._put_back(moved, reason)

    def _put_back(self, moved: Any, reason: str) -> None:
        kind = "gw" if moved.piece == GW else "criminal"
        self.problems[moved.piece] = Problem(
            moved.piece, kind, f"put {moved.piece} back on {moved.from_}", reason
        )

    def _ask(self, ambiguous: Any) -> None:
        """Two readings of one observation: the seat whose piece it is says which."""
        pieces = [getattr(r, "piece", None) for r in ambiguous.readings]
        waiting = self.table.to_act()
        # The seat to act knows what it did; else a criminal (who may see criminals' cells).
        seat = next((p for p in pieces if p in waiting), None)
        if seat is None:
            seat = next((p for p in pieces if p and p != GW), GW)
        self.asking = ambiguous
        options = [r.to_json() for r in ambiguous.readings]
        prompt = _prompt("which_reading", {"act": "choose_reading"}, options=options)
        self.table.set_prompts({seat: [prompt]})
        self.asking_seat = seat

    def referee_input(self, seat: str, action: Mapping[str, Any], referee: Referee) -> bool:
        act = action.get("act")
        if act == "choose_reading":
            if self.asking is None or seat != self.asking_seat:
                raise IllegalAction("there is no question for you to answer")
            index = action.get("index")
            readings = self.asking.readings
            if (
                not isinstance(index, int)
                or isinstance(index, bool)
                or not (0 <= index < len(readings))
            ):
                raise IllegalAction(f"'index' must be 0 to {len(readings) - 1}")
            self.asking = None
            self.table.set_prompts({})
            self.observe(readings[index], referee)
            referee.refresh()
            return True
        if act == "choose_path":
            if seat != GW or self.asking_path is None:
                raise IllegalAction("there is no question for you to answer")
            ways, moved = self.asking_path
            index = action.get("index")
            if not isinstance(index, int) or isinstance(index, bool) or not 0 <= index < len(ways):
                raise IllegalAction(f"'index' must be 0 to {len(ways) - 1}")
            self.asking_path = None
            self.table.set_prompts({})
            self._apply_gw(self._gw_action(ways[index]), moved, referee)
            referee.refresh()
            return True
        if act == "gw_done":
            if seat != GW or self.gw_pending is None:
                raise IllegalAction("GW's magnet has not moved")
            self.flush_gw(referee)
            referee.refresh()
            return True
        return False

    def board_status(self, state: Any) -> Status | None:
        from .table import Status

        criminals = tuple(s for s in self.table.engine.seats(state) if s != GW)
        if self.problems:
            public = [p.words() for p in self.problems.values() if p.kind == "gw"]
            hidden = [p for p in self.problems.values() if p.kind != "gw"]
            if hidden:
                public.append("a criminal piece must be put right (the criminals' tablets say how)")
            detail = "; ".join(p.words() for p in self.problems.values())
            return Status("illegal", "; ".join(public), detail, criminals)
        if self.to_jail:
            return Status("waiting", f"put {', '.join(sorted(self.to_jail))} in the jail")
        if self.asking is not None:
            return Status("waiting", f"waiting for {self.asking_seat} to say what happened")
        if self.asking_path is not None:
            return Status("waiting", "waiting for GW to say which way its magnet went")
        if self.gw_pending is not None:
            return Status("waiting", "GW is moving (GW's tablet can end the move)")
        if self.seen is not None:
            piece = self.seen.piece
            return Status(
                "waiting",
                f"waiting for {piece} to say which die it used",
                f"{piece} moved to {self.seen.to}: say the die on the tablet",
                criminals,
            )
        return None

    # -- prompts --------------------------------------------------------------------
    def prompts(self, seat: str, state: Any, view: Mapping[str, Any]) -> list[dict[str, Any]]:
        asked = view.get("asked")
        if not isinstance(asked, Mapping):
            return []
        if seat == GW:
            return self._gw_prompts(asked)
        return self._criminal_prompts(seat, asked)

    def _gw_prompts(self, asked: Mapping[str, Any]) -> list[dict[str, Any]]:
        if asked.get("act") == "gw_roll":
            prompts: list[dict[str, Any]] = [
                _prompt("enter_dice", {"act": "gw_roll"}, count=1, faces=list(gw_faces()))
            ]
            if asked.get("or_trump"):
                cards = list(asked["or_trump"])
                if self.said_trump in cards:
                    cards = [self.said_trump]
                prompts.append(_prompt("trump", {"act": "trump"}, cards=cards))
            return prompts
        if asked.get("act") == "gw_move":
            return [
                _prompt(
                    "gw_move",
                    {"act": "gw_move"},
                    steps=asked.get("steps"),
                    exactly=asked.get("exactly"),
                    move_kind=asked.get("kind"),
                    on_board=self.board_on,
                )
            ]
        return []

    def _criminal_prompts(self, seat: str, asked: Mapping[str, Any]) -> list[dict[str, Any]]:
        base = {"by": seat}
        act = asked.get("act")
        if act == "inform":
            return [_prompt("inform", {"act": "inform", **base}, targets=asked.get("targets"))]
        if act == "roll":
            prompts = []
            if asked.get("dice_to_roll"):
                prompts.append(
                    _prompt(
                        "enter_dice",
                        {"act": "roll", **base},
                        count=asked["dice_to_roll"],
                        faces=list(criminal_faces()),
                    )
                )
            if asked.get("may_reset"):
                prompts.append(
                    _prompt("reset", {"act": "reset", **base}, required=asked.get("must_reset"))
                )
            if asked.get("may_destroy"):
                prompts.append(
                    _prompt(
                        "destroy_evidence",
                        {"act": "destroy_evidence", **base},
                        cards=list(asked["may_destroy"]),
                    )
                )
            return prompts
        if act == "move":
            if self.said is not None and self.said.get("by") == seat:
                return [
                    _prompt(
                        "move_piece",
                        dict(self.said),
                        die=self.said.get("die"),
                        message=f"move your piece with the {self.said.get('die')} on the board",
                    )
                ]
            moves = asked.get("moves") or {}
            prompts = [
                _prompt(
                    "choose_die",
                    {"act": "move", **base},
                    options=sorted(moves),
                    moves=moves,
                    on_board=self.board_on,
                )
            ]
            if asked.get("may_reroll"):
                prompts.append(
                    _prompt(
                        "enter_dice",
                        {"act": "roll", **base},
                        count=asked["may_reroll"],
                        faces=list(criminal_faces()),
                        reroll=True,
                    )
                )
            if asked.get("may_pass"):
                prompts.append(_prompt("pass", {"act": "pass", **base}))
            return prompts
        return []


def _gaps(board: Any, a: int, b: int) -> list[list[int]]:
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


def _prompt(kind: str, action: dict[str, Any], **extra: Any) -> dict[str, Any]:
    """A prompt: its kind, the base action its answer completes, and what to show."""
    return {"kind": kind, **action, "action": dict(action), **extra}
