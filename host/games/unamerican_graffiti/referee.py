"""The referee's knowledge of Unamerican Graffiti: who sends what, prompts, dice, board readings.

Where inputs come from at an Unamerican Graffiti table:

* The scrawler to move lifts its pawn and puts it down on the hex it ends on
  (the engine takes the shortest way there), or names the hex on its tablet.
  After an arrest, the returning scrawler puts a pawn on a free landmark.
* The opponent rolls as many dice as hexes were moved and types the faces on
  its tablet, or the referee rolls them when the table chose digital dice.
* The opponent then moves the rolled Judges: a Judge counter lifted from hex A
  and put down on hex B is the Judge the game has on A (counters look alike;
  the state knows their numbers). A Judge cleaning a scrawl spends its die
  cleaning: the tablet says so, nothing moves on the board.

Scrawler pawns and Judge counters carry magnets of opposite polarity (see
``hardware/maps/unamerican-graffiti-standard.json``), so the sensors tell a
pawn from a counter. The game hides nothing, so every seat may read every
detail of what went wrong.

To arrest, take the pawn off and put the Judge counter on its hex (one sensor
per hex cannot see a pawn and a counter on top of each other).
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from lawmaster.host.plugin import (
    DIGITAL,
    Accepted,
    Action,
    Ask,
    Completed,
    Decision,
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
from lawmaster.host.ui.text import Text, joined, told, told_n
from lawmaster.rules.core import IllegalAction
from lawmaster.rules.unamerican_graffiti import movement
from lawmaster.rules.unamerican_graffiti.state import PLAYERS, State, opponent

#: Kinds of magnet in the sensor map.
SCRAWLER = "scrawler"
JUDGE = "judge"
#: Die faces of an ordinary six-sided die.
FACES = (1, 2, 3, 4, 5, 6)
#: Acts the opponent of the scrawler whose turn it is sends.
OPPONENT_ACTS = frozenset({"roll", "judge_move"})
#: The problem key of a board reading that fitted no legal move at all.
AMBIGUOUS = "?ambiguous"


def judge_piece(number: int) -> str:
    """The tracker's name of a Judge counter."""
    return f"judge-{number}"


def judge_number(piece: object) -> int | None:
    """The Judge a tracker piece name stands for, if it is one."""
    if isinstance(piece, str) and piece.startswith("judge-") and piece[6:].isdigit():
        return int(piece[6:])
    return None


@dataclass(frozen=True)
class Reading:
    """What one board observation means for the game.

    ``actions``: the inputs it stands for, applied in order (one, or a Judge
    rolled twice moving twice); ``ask``: a question for ``seat`` when the
    observation fits several stories; ``wrong``: why the move on the board is
    not allowed (the piece must go back); ``problem``: something on the board
    to put right (a counter knocked, a stray magnet); ``restored``: a piece is
    back where the game has it; ``ignore``: nothing to do.
    """

    actions: tuple[dict[str, Any], ...] = ()
    seat: str | None = None
    ask: Prompt | None = None
    wrong: str | None = None
    problem: str | None = None
    piece: str | None = None
    put_back: str | None = None
    restored: bool = False
    ignore: bool = False
    #: A waiting message (unused here; kept so any referee reading ``Reading.hold`` works).
    hold: str | None = None
    #: For an ``ask``: the candidate action lists, by option index.
    options: tuple[tuple[dict[str, Any], ...], ...] = field(default=(), compare=False)

    @property
    def action(self) -> dict[str, Any] | None:
        """The single action this reading stands for, if it is one."""
        return self.actions[0] if len(self.actions) == 1 else None


class GraffitiRules(GameRules):
    """Unamerican Graffiti: Chopper against the Phantom, the Judges moved by the opponent."""

    dice_fields = {"roll": frozenset({"faces"})}

    def __init__(self, context: RulesContext) -> None:
        super().__init__(context)
        #: What must be put right on the board, by piece (``"?<hex>"``: a stray magnet).
        self.problems: dict[str, Problem] = {}

    # -- who may send what -------------------------------------------------------
    def owner(self, action: Mapping[str, Any], state: Any) -> str | None:
        if action.get("act") in OPPONENT_ACTS:
            return opponent(state.turn)
        by = action.get("by")
        return by if isinstance(by, str) else None

    def physical_name(self, action: Mapping[str, Any]) -> str:
        if action.get("act") == "judge_move":
            return told("Judge %(number)s's move", number=action.get("judge"))
        if action.get("by") is None:
            return told("the scrawler's move")
        return told("%(who)s's move", who=action.get("by"))

    # -- completing inputs --------------------------------------------------------
    def complete(
        self, seat: str, action: Action, state: Any, rng: random.Random | None
    ) -> Action | Completed | Wait:
        if action.get("act") != "roll":
            return action
        faces = action.get("faces")
        if faces is None and rng is not None and state.phase == "roll":
            return Completed(
                {**action, "faces": [rng.choice(FACES) for _ in range(state.moved)]}, DIGITAL
            )
        if faces is not None:
            # Faces typed on a form arrive as text: read them as numbers; still typed.
            action["faces"] = _faces(faces)
        return action

    # -- prompts --------------------------------------------------------------------
    def prompts(self, seat: str, state: Any, view: Mapping[str, Any]) -> list[Prompt]:
        if seat not in PLAYERS or view.get("to_act") != [seat]:
            return []
        phase = view.get("phase")
        legal = [a for a in view.get("legal_moves") or [] if isinstance(a, Mapping)]
        on_board = self.board_on
        if phase == "move":
            return [self._move_prompt(seat, view, legal, on_board)]
        if phase == "reenter":
            landmarks = [str(a["at"]) for a in legal if a.get("act") == "reenter"]
            return [
                prompt(
                    "choose_landmark",
                    {"act": "reenter", "by": seat},
                    options=[{"at": h, "label": h} for h in landmarks],
                    on_board=on_board,
                    message=told("You were arrested: start a new colour on a free landmark"),
                )
            ]
        if phase == "roll":
            # Nothing is hidden in this game: the number of hexes moved is public.
            count = int(getattr(state, "moved", 0))
            digital = self.context.digital_dice
            if digital:
                label = told_n(
                    "Roll %(num)d die for the Judges on the tablet",
                    "Roll %(num)d dice for the Judges on the tablet",
                    count,
                )
            else:
                label = told_n(
                    "Roll %(num)d die for the Judges and enter the faces",
                    "Roll %(num)d dice for the Judges and enter the faces",
                    count,
                )
            return [
                prompt(
                    "enter_dice",
                    {"act": "roll", "by": seat},
                    count=count,
                    faces=list(FACES),
                    digital=digital,
                    label=label,
                )
            ]
        if phase == "judges":
            return [self._judges_prompt(seat, view, legal, on_board)]
        return []

    def _move_prompt(
        self, seat: str, view: Mapping[str, Any], legal: list[Mapping[str, Any]], on_board: bool
    ) -> Prompt:
        threat = view.get("threat") if isinstance(view.get("threat"), Mapping) else {}
        here = (view.get("scrawlers") or {}).get(seat, {}).get("position")
        options = []
        for action in legal:
            path = list(action.get("path") or [])
            to = path[-1] if path else here
            info = threat.get(to) if isinstance(threat.get(to), Mapping) else {}
            chance = info.get("arrest_chance")
            label: str = told("stay")
            if path and isinstance(chance, int | float):
                label = told_n(
                    "%(to)s (%(num)d hex), arrest %(pct)s%%",
                    "%(to)s (%(num)d hexes), arrest %(pct)s%%",
                    len(path),
                    to=to,
                    pct=round(100 * chance),
                )
            elif path:
                label = told_n("%(to)s (%(num)d hex)", "%(to)s (%(num)d hexes)", len(path), to=to)
            options.append(
                {
                    "to": to,
                    "path": path,
                    "hexes": len(path),
                    "arrest_chance": chance,
                    "label": label,
                }
            )
        options.sort(key=lambda o: (o["hexes"] != 0, o["arrest_chance"] or 0, o["to"] or ""))
        return prompt(
            "choose_destination",
            {"act": "move", "by": seat},
            options=options,
            on_board=on_board,
            message=(
                told("Move up to three hexes: put your pawn down on the board, or choose here")
                if on_board
                else told("Move up to three hexes")
            ),
        )

    def _judges_prompt(
        self, seat: str, view: Mapping[str, Any], legal: list[Mapping[str, Any]], on_board: bool
    ) -> Prompt:
        judges = view.get("judges") or {}
        cleaning = set(view.get("cleaning") or [])
        options = []
        for action in legal:
            if action.get("act") != "judge_move":
                continue
            number = action.get("judge")
            path = list(action.get("path") or [])
            start = judges.get(str(number))
            if number in cleaning:
                options.append(
                    {
                        "judge": number,
                        "clean": True,
                        "label": told("Judge %(number)s cleans %(hex)s", number=number, hex=start),
                    }
                )
                continue
            to = path[-1] if path else start
            if path:
                label = told("Judge %(number)s: %(hex)s", number=number, hex=to)
            else:
                label = told("Judge %(number)s stays on %(hex)s", number=number, hex=start)
            options.append({"judge": number, "to": to, "path": path, "label": label})
        return prompt(
            "move_judge",
            {"act": "judge_move", "by": seat},
            options=options,
            dice=list(view.get("dice") or []),
            allowance=view.get("allowance"),
            on_board=on_board,
            message=(
                told_n(
                    "Move the Judges rolled (%(dice)s), up to %(num)d hex each: on the board,"
                    " or choose here",
                    "Move the Judges rolled (%(dice)s), up to %(num)d hexes each: on the board,"
                    " or choose here",
                    int(view.get("allowance") or 0),
                    dice=", ".join(map(str, view.get("dice") or [])),
                )
                if on_board
                else told_n(
                    "Move the Judges rolled (%(dice)s), up to %(num)d hex each",
                    "Move the Judges rolled (%(dice)s), up to %(num)d hexes each",
                    int(view.get("allowance") or 0),
                    dice=", ".join(map(str, view.get("dice") or [])),
                )
            ),
        )

    # -- the board ------------------------------------------------------------------
    def expectation(self, state: Any) -> Expectation | None:
        """Where every pawn and counter belongs now and which of them may move."""
        if not self.board_on:
            return None
        kinds: dict[str, str] = {}
        positions: dict[str, str | None] = {}
        for player, pawn in state.scrawlers.items():
            returning = state.phase == "reenter" and player == state.turn
            # An arrested pawn is off the board until its player returns with a new colour.
            if pawn.position is not None or returning:
                kinds[player] = SCRAWLER
                positions[player] = pawn.position
        for number, where in state.judges.items():
            kinds[judge_piece(number)] = JUDGE
            positions[judge_piece(number)] = where
        movers: set[str] = set()
        if state.phase in ("move", "reenter"):
            movers.add(state.turn)
        elif state.phase == "judges":
            rolled = {n for n in state.dice if n not in state.cleaning}
            movers |= {judge_piece(n) for n in rolled}
            # A pawn a rolled Judge can reach may be lifted for the arrest.
            movers |= {p for p in kinds if p in PLAYERS and _in_reach(state, p, rolled)}
        # No "captures": the pawn in reach of a rolled Judge is a mover, so taking it off
        # for an arrest is only a piece in hand, and the Judge's move says the rest. (A
        # capture mark would outlive a refused arrest and make the returned pawn an anomaly.)
        return Expectation(kinds, positions, movers=frozenset(movers), turn=state.turn)

    def observation(self, observation: Any, state: Any) -> Reading:
        """How one tracker observation reads as input (see :class:`Reading`)."""
        kind = getattr(observation, "TYPE", "")
        if kind == "moved":
            return self._read_moved(observation, state)
        if kind == "ambiguous":
            return self._read_ambiguous(observation, state)
        if kind == "anomaly":
            # ``wrong`` too, for a referee that knows only the wrong/put-back kind of reading.
            return Reading(
                problem=observation.text,
                wrong=observation.text,
                piece=observation.piece or f"?{observation.found}",
                put_back=observation.put_back,
            )
        if kind == "restored":
            return Reading(restored=True, piece=observation.piece or f"?{observation.at}")
        if kind == "captured":
            # The arrest itself comes from the Judge's move; the lifted pawn is no problem.
            return Reading(restored=True, piece=observation.piece)
        return Reading(ignore=True)  # in_hand, jailed: nothing to do

    def _read_moved(self, moved: Any, state: State) -> Reading:
        candidates, why = self._candidates(moved, state)
        seat = self._seat_for(moved.piece, state)
        if not candidates:
            return Reading(seat=seat, wrong=why, piece=moved.piece, put_back=moved.from_)
        if len(candidates) == 1:
            return Reading(actions=candidates[0], seat=seat, piece=moved.piece)
        return self._question(seat, [(moved, c) for c in candidates])

    def _read_ambiguous(self, ambiguous: Any, state: State) -> Reading:
        stories: list[tuple[Any, tuple[dict[str, Any], ...]]] = []
        reasons = []
        for reading in ambiguous.readings:
            if getattr(reading, "TYPE", "") != "moved":
                continue
            candidates, why = self._candidates(reading, state)
            stories += [(reading, c) for c in candidates]
            reasons.append(why)
        seat = state.acting or state.turn
        if not stories:
            reason = next((r for r in reasons if r), "none of the readings is a legal move")
            return Reading(seat=seat, wrong=reason)
        # Even a single legal story is asked for: the other reading may be what happened.
        return self._question(seat, stories)

    def _question(
        self, seat: str | None, stories: Sequence[tuple[Any, tuple[dict[str, Any], ...]]]
    ) -> Reading:
        options = [
            {"index": i, "label": _story(moved, actions), "action": {"index": i}}
            for i, (moved, actions) in enumerate(stories)
        ]
        ask = prompt(
            "which_reading",
            {"act": "choose_reading"},
            options=options,
            message=told("The board fits more than one move: which one happened?"),
        )
        return Reading(seat=seat, ask=ask, options=tuple(actions for _, actions in stories))

    def _seat_for(self, piece: str, state: State) -> str | None:
        if piece in PLAYERS:
            return piece
        return opponent(state.turn)

    def _candidates(self, moved: Any, state: State) -> tuple[list[tuple[dict[str, Any], ...]], str]:
        """The legal input sequences a ``Moved`` may stand for, or the reason there is none."""
        piece, to = moved.piece, moved.to
        if piece in PLAYERS:
            if state.phase == "move" and piece == state.turn:
                action = {"act": "move", "by": piece, "to": to}
            elif state.phase == "reenter" and piece == state.turn:
                action = {"act": "reenter", "by": piece, "at": to}
            else:
                return [], told(
                    "%(piece)s's pawn may not move now (%(why)s)",
                    piece=piece,
                    why=_waiting_for(state),
                )
            why = self._illegal(state, [action])
            return ([(action,)], "") if why is None else ([], why)
        number = state.judge_at(moved.from_) if moved.from_ else None
        if number is None:
            number = judge_number(piece)
        if number is None:
            return [], told("%(piece)s is not a piece of this game", piece=piece)
        if state.phase != "judges" or number not in state.dice:
            return [], told(
                "Judge %(number)s may not move now (%(why)s)",
                number=number,
                why=_waiting_for(state),
            )
        if number in state.cleaning:
            return [], told(
                "Judge %(number)s is cleaning %(hex)s: say it on the tablet",
                number=number,
                hex=state.judges[number],
            )
        found = self._judge_sequences(state, number, to, list(moved.path), moved.how)
        if found:
            return found, ""
        single = {"act": "judge_move", "by": opponent(state.turn), "judge": number, "to": to}
        return [], self._illegal(state, [single]) or told(
            "Judge %(number)s cannot reach %(hex)s now", number=number, hex=to
        )

    def _judge_sequences(
        self, state: State, number: int, to: str, seen: list[str], how: str
    ) -> list[tuple[dict[str, Any], ...]]:
        """Ways Judge ``number`` reaches ``to`` using one or more of its dice (each legal).

        A Judge rolled twice may have moved twice in one gesture; every way to
        split the gesture into legal moves is a candidate. A slide's seen path
        keeps only the splits that pass where the counter was seen.
        """
        by = opponent(state.turn)
        single = {"act": "judge_move", "by": by, "judge": number, "to": to}
        if self._illegal(state, [single]) is None:
            # One die is the plain reading; a second die of the same Judge can still
            # be resolved (standing still ends in the same place).
            return [(single,)]
        found: list[tuple[dict[str, Any], ...]] = []

        def walk(now: State, done: tuple[dict[str, Any], ...], left: int) -> None:
            if left == 0 or now.phase != "judges" or number not in now.dice:
                return
            if number in now.cleaning:
                return
            for end, path in movement.judge_moves(now, number, now.allowance).items():
                if not path:
                    continue
                action = {"act": "judge_move", "by": by, "judge": number, "to": end}
                try:
                    after = self.engine.apply(now, action).state
                except IllegalAction:
                    continue
                if end == to:
                    if done:
                        found.append((*done, action))
                    continue
                walk(after, (*done, action), left - 1)

        walk(state, (), state.dice.count(number))
        if how == "slid" and len(found) > 1:
            on_path = [s for s in found if all(a["to"] in seen for a in s)]
            found = on_path or found
        found.sort(key=len)
        return found

    def _illegal(self, state: State, actions: Sequence[Mapping[str, Any]]) -> str | None:
        """Why the inputs are not legal one after the other, or ``None``."""
        try:
            for action in actions:
                state = self.engine.apply(state, dict(action)).state
        except IllegalAction as exc:
            return exc.reason
        return None

    def observe(self, observation: Any, state: Any, now: float) -> Decision:
        """A tracker observation: what it stands for, or a question, or a piece to put back."""
        return self.decide(self.observation(observation, state))

    def decide(self, reading: Reading) -> Decision:
        """What the referee is to do about a :class:`Reading` (problems are noted here)."""
        if reading.ignore:
            return None
        if reading.restored:
            self.problems.pop(reading.piece or "", None)
            self.problems.pop(AMBIGUOUS, None)
            return None
        if reading.problem is not None:
            key = reading.piece or "?"
            self.problems[key] = Problem(reading.piece, reading.problem)
            return None
        if reading.wrong is not None:
            self._put_back(reading, reading.wrong)
            return None
        if reading.ask is not None:
            answers = tuple(Play(chosen, reading.seat, about=reading) for chosen in reading.options)
            seats = (reading.seat,) if reading.seat else ()
            waiting = told("waiting for %(who)s to say what happened", who=reading.seat)
            return Ask(Question(seats, "choose_reading", reading.ask, answers, waiting))
        return Play(reading.actions, reading.seat, about=reading)

    def refused(self, play: Play, action: Action, reason: str, state: Any) -> Status | None:
        reading = play.about if isinstance(play.about, Reading) else Reading(seat=play.seat)
        self._put_back(reading, reason)
        return None

    def _put_back(self, reading: Reading, reason: str) -> None:
        piece = reading.piece or told("the piece")
        where = reading.put_back
        if where:
            text = told("put %(piece)s back on %(hex)s", piece=_name(piece), hex=where)
        else:
            text = told("take %(piece)s back", piece=_name(piece))
        self.problems[reading.piece or AMBIGUOUS] = Problem(reading.piece, text, reason)

    def board_status(self, state: Any) -> Status | None:
        if self.problems:
            return Status("illegal", joined("; ", (p.words() for p in self.problems.values())))
        return None

    def accepted(self, accepted: Accepted, state: Any) -> None:
        # The tracker is told the new position; whatever is still wrong it reports again.
        self.problems.clear()

    def undone(self, state: Any) -> None:
        self.problems.clear()


def _in_reach(state: State, player: str, rolled: set[int]) -> bool:
    where = state.scrawlers[player].position
    return where is not None and any(
        where in movement.judge_moves(state, n, state.allowance) for n in rolled
    )


def _faces(faces: object) -> Any:
    """Faces typed on a form arrive as text (``"4"``) or a lone number: as a list of numbers."""
    if isinstance(faces, int | str):
        faces = [faces]
    if not isinstance(faces, list):
        return faces
    return [int(f) if isinstance(f, str) and f.strip().isdigit() else f for f in faces]


def _waiting_for(state: State) -> str:
    if state.phase == "over":
        return told("the game is over")
    if state.phase == "roll":
        return told("%(who)s rolls the dice first", who=opponent(state.turn))
    if state.phase == "judges":
        return told("the Judges rolled are %(dice)s", dice=", ".join(map(str, state.dice)))
    if state.phase == "reenter":
        return told("%(who)s places a new scrawler first", who=state.turn)
    return told("it is %(who)s's move", who=state.turn)


def _name(piece: str) -> str:
    number = judge_number(piece)
    if number is not None:
        return told("Judge %(number)s", number=number)
    if piece in PLAYERS:
        return told("%(piece)s's pawn", piece=piece)
    return piece


def _story(moved: Any, actions: Sequence[Mapping[str, Any]]) -> str:
    name = _name(moved.piece)
    if len(actions) > 1:
        steps = joined(told(" then "), (Text(str(a.get("to"))) for a in actions))
        return told("%(piece)s moved twice: %(steps)s", piece=name, steps=steps)
    return told(
        "%(piece)s moved from %(start)s to %(end)s", piece=name, start=moved.from_, end=moved.to
    )
