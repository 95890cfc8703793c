"""The referee's knowledge of Judge Dredd: who sends what, prompts, NFC cards, standees.

Where inputs come from at a Judge Dredd table:

* **Standees.** Each Judge's standee has a magnet in its base; every Sector has
  several standing spots (``hardware/maps/judge-dredd-standard.json``), so the
  sensors count Judges per Sector but cannot tell one standee from another.
  The Judge due to move lifts its standee and puts it down where its move ends
  (a slide through the Sectors passed is read as that path when it is legal,
  otherwise the engine's shortest legal path is used: any legal path to the same
  Sector has the same outcome). When the mover shares its Sector with other
  Judges, a standee leaving that Sector could be anyone's: the seats there are
  asked which Judge moved. A Judge the game moves (KO'd to the Hospital, a
  Barney, Robodoc) shows as a standee to move by hand until the sensors see it
  there.
* **Cards, by NFC.** A Sector card tapped while a crime is being placed starts
  the placement; the face-down Perp tapped next (optional) and the face-up Crime
  tapped last complete ``place_crime``. A Perp tapped when one is turned up
  (an arrest, or a move ending on a face-down Perp) reveals it. An Action card
  tapped on a seat's own reader while a combat waits for cards is committed face
  down by that seat; tapped while that seat owes refill draws it is a drawn
  card; tapped at another moment it is shown to the engine (``show``: the seat
  and the engine now know it is in that hand). With a shared reader the tapping
  seat is unknown: it is taken from where the engine knows the card is, else
  the seats are asked. A card no step expects is flagged, never guessed.
* **Tablets** for everything else (card plays, arrests declared, dice typed or
  rolled by the referee); the panel's end-turn button stays put (an empty move),
  ends the movement phase, goes on to the next arrest or reveals a combat's
  cards.

Dice: a combat's dice are one engine action; each roller types its own dice
(``{"act": "roll", "by": seat, "key": <its group's first seat or "perp">,
"faces": [...]}``) and the referee holds them until every die is in.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from lawmaster.host.nfc.cards import Card
from lawmaster.host.plugin import (
    BOARD,
    BUTTON,
    DIGITAL,
    NFC,
    TABLET,
    Accepted,
    Action,
    Ask,
    Completed,
    Decision,
    Expect,
    GameRules,
    Play,
    Question,
    RulesContext,
    Status,
    Wait,
)
from lawmaster.host.tracker import Expectation
from lawmaster.host.ui.text import joined, told, told_n
from lawmaster.rules.core import IllegalAction
from lawmaster.rules.judge_dredd.movement import current_mover, reachable, walk
from lawmaster.rules.judge_dredd.state import board, book, known_location
from lawmaster.rules.judge_dredd.views import asking

from . import words
from .prompts import FACES, DreddPrompts, Placing, asked_for, landing, prompt

#: The kind of magnet in a standee's base (the sensor map's name).
JUDGE = "judge"
#: Acts without a ``by`` that belong to the one seat the engine asks for them (a roll may
#: come from any roller; the referee checks each roller's own dice).
ASKED_ACTS = frozenset({"place_crime", "discard_sector", "reveal_perp", "arrest"})
#: The problem key of a wrong answer to "whose Judge moved?" (no sensor can confirm it).
AMBIGUOUS = "?ambiguous"


def judge_piece(seat: str) -> str:
    """The tracker's name of a seat's standee."""
    return f"judge-{seat}"


def piece_seat(piece: object) -> str | None:
    """The seat a tracker piece name stands for, if it is a standee."""
    if isinstance(piece, str) and piece.startswith("judge-"):
        return piece[6:]
    return None


class DreddRules(DreddPrompts, GameRules):
    """Judge Dredd: every Judge is its own side; cards by NFC, standees on the board."""

    dice_fields = {"roll": frozenset({"dice", "judge", "perp", "faces"})}

    def __init__(self, context: RulesContext) -> None:
        super().__init__(context)
        #: Board problems by piece (``"?<sector>"`` for a stray magnet): words for the table.
        self.problems: dict[str, str] = {}
        #: Standees the game moved (KO, Barney, Robodoc) that the table still has to move:
        #: (where the standee stands, where the game has it now), by piece.
        self.relocate: dict[str, tuple[str, str]] = {}
        #: A crime placement being tapped.
        self.placing: Placing | None = None
        #: A move (or a Robodoc or Barney landing) waiting for the Perp it turns up.
        self.held_move: dict[str, Any] | None = None
        #: Combat dice typed so far, by key (a group's first seat, or ``"perp"``).
        self.dice: dict[str, list[int]] = {}
        #: A card tap that no step expected, until the next change.
        self.flag: str | Status | None = None
        #: Cards a Hospital Judge tapped to recycle, by seat.
        self.recycling: dict[str, list[str]] = {}
        #: Each Judge's Sector after the last accepted input (to see who the game moved).
        self._sectors: dict[str, str | None] = {}

    def start(self, state: Any) -> None:
        self._sectors = _sectors(state)

    # -- who may send what -------------------------------------------------------
    def owner(self, action: Mapping[str, Any], state: Any) -> str | None:
        by = action.get("by")
        if isinstance(by, str):
            return by
        act = action.get("act")
        if act in ASKED_ACTS:
            asked = asked_for(state, str(act))
            if len(asked) == 1:
                return asked[0]
        return None

    def physical_name(self, action: Mapping[str, Any]) -> str:
        """How a refused input is named in public: never an Action card or a Perp by name
        (a hand and a face-down Perp are secrets); Sector and Crime cards are face up."""
        act = str(action.get("act", "input"))
        by = action.get("by")
        if act == "move":
            return told("%(who)s's move", who=by)
        if act == "place_crime":
            return told("the Crime for %(card)s", card=action.get("sector_card"))
        if act in ("discard_sector",):
            return told("the card %(card)s", card=action.get("sector_card"))
        if "card" in action or "cards" in action:
            return told("%(who)s's Action card", who=by) if by else told("that Action card")
        if act == "reveal_perp":
            return told("that Perp")
        return told("that input")

    def detail_seats(self, action: Mapping[str, Any], state: Any) -> tuple[str, ...]:
        """Seats that read why a card input was refused: the reason may name the card."""
        if "perp" in action:
            return ()  # it may name a face-down Perp: the public words must do
        owner = self.owner(action, state)
        if "card" in action or "cards" in action:
            return (owner,) if owner else ()
        return tuple(self.engine.seats(state))

    # -- completing inputs --------------------------------------------------------
    def complete(
        self, seat: str, action: Action, state: Any, rng: random.Random | None
    ) -> Action | Completed | Wait:
        act = action.get("act")
        if act == "roll":
            return self._complete_roll(seat, action, state, rng)
        if act in ("move", "play", "accept") and action.get("perp") is None:
            end = self._move_end(action, state) if act == "move" else landing(action, state)
            if end is not None and self._unknown_face_down(state, end):
                self.held_move = dict(action)
                name = board(state).name_of(end)
                return Wait(
                    told("turn up the Perp in %(sector)s and tap it on the reader", sector=name)
                )
        return action

    def _move_end(self, action: Mapping[str, Any], state: Any) -> str | None:
        by, path = action.get("by"), action.get("path")
        if not isinstance(by, str) or not isinstance(path, list) or by not in state["judges"]:
            return None
        try:
            end, _ = walk(state, by, list(path))
        except IllegalAction:
            return None  # the engine says why when it is applied
        return end

    @staticmethod
    def _unknown_face_down(state: Any, sector: str) -> bool:
        perp = state["perps"].get(sector)
        return perp is not None and not perp["face_up"] and perp["card"] is None

    def _complete_roll(
        self, seat: str, action: Action, state: Any, rng: random.Random | None
    ) -> Action | Completed | Wait:
        combat = state["combat"]
        if combat is None or not combat["revealed"]:
            return action  # the engine explains
        needed: dict[str, int] = dict(combat["needed"])
        if "dice" in action or "judge" in action:
            return action  # the whole roll at once
        key = action.get("key")
        mine = self.roll_keys(seat, state)
        if key is None and len(mine) == 1:
            key = mine[0]
        if rng is not None and "faces" not in action:
            # Digital dice: the referee rolls this seat's dice (every key it rolls, unless
            # it named one); the others still roll their own.
            for k in [key] if key in mine else mine:
                self.dice[k] = [rng.choice(FACES) for _ in range(needed[k])]
        else:
            if key not in mine:
                raise IllegalAction(
                    told(
                        "%(seat)s does not roll those dice (yours: %(yours)s)",
                        seat=seat,
                        yours=", ".join(mine),
                    )
                )
            faces = _faces(action.get("faces"))
            if len(faces) != needed[key] or not all(f in FACES for f in faces):
                raise IllegalAction(
                    told_n(
                        "enter %(num)d die face, 1 to 6",
                        "enter %(num)d die faces, each 1 to 6",
                        int(needed[key]),
                    )
                )
            self.dice[key] = faces
        missing = [k for k in needed if k not in self.dice]
        if missing:
            return Wait(
                told(
                    "dice held; waiting for %(missing)s",
                    missing=joined(", ", (_key_name(k) for k in missing)),
                )
            )
        dice, self.dice = self.dice, {}
        return Completed(
            {"act": "roll", "dice": dice},
            DIGITAL if rng is not None and "faces" not in action else TABLET,
        )

    @staticmethod
    def roll_keys(seat: str, state: Any) -> list[str]:
        """The dice keys ``seat`` rolls in the open combat (its group's, the Perp's)."""
        combat = state["combat"]
        if combat is None or not combat["revealed"]:
            return []
        keys = [g[0] for g in combat["groups"] if seat in g and g[0] in combat["needed"]]
        if combat["roller"] == seat and "perp" in combat["needed"]:
            keys.append("perp")
        return keys

    # -- NFC ------------------------------------------------------------------------
    def card(self, card: Card, seat: str | None, state: Any) -> Decision:
        """A tapped card as the decision it stands for now (see the module docstring)."""
        self.flag = None
        kind = getattr(card, "kind", None)
        asked = asking(state)
        acts = {a["act"] for items in asked.values() for a in items}
        if kind == "sector":
            return self._decision(self._sector_card(card, acts), state)
        if kind == "crime":
            return self._decision(self._crime_card(card, state, acts), state)
        if kind == "perp":
            return self._decision(self._perp_card(card, state, acts), state)
        if kind == "action":
            return self._action_card(card, seat, state, asked)
        return self._unexpected(card, told("it is no card of this game"))

    def _decision(self, reading: Action | str | None, state: Any) -> Decision:
        """A card's reading as a decision: an action to apply, or words while it waits."""
        if isinstance(reading, str):
            return Wait(reading)
        if reading is None:
            return None
        return Play.one(reading, self.owner(reading, state), NFC)

    def _unexpected(self, card: Any, why: str) -> None:
        # An Action card's name is a secret of its holder, a Perp's may be one (face down):
        # the table reads only the kind of card.
        kind = getattr(card, "kind", "")
        name = {"action": told("an Action card"), "perp": told("a Perp card")}.get(kind, card.name)
        self.flag = told("%(card)s was not expected now: %(why)s", card=name, why=why)
        return None

    def _sector_card(self, card: Any, acts: set[str]) -> dict[str, Any] | str | None:
        if "discard_sector" in acts:
            return {"act": "discard_sector", "sector_card": card.id}
        if "place_crime" not in acts:
            return self._unexpected(card, "Sector cards are revealed only to place a crime")
        self.placing = Placing(card.id)
        return told("%(card)s: tap the Perp face down (optional), then the Crime", card=card.name)

    def _crime_card(self, card: Any, state: Any, acts: set[str]) -> dict[str, Any] | str | None:
        if self.placing is None:
            return self._unexpected(card, "tap the Sector card first")
        if "place_crime" not in acts:
            self.placing = None
            return self._unexpected(card, "no crime is being placed")
        action = {"act": "place_crime", "sector_card": self.placing.sector_card, "crime": card.id}
        if self.placing.perp is not None:
            action["perp"] = self.placing.perp
        self.placing = None
        return action

    def _perp_card(self, card: Any, state: Any, acts: set[str]) -> dict[str, Any] | str | None:
        if self.held_move is not None:
            move, self.held_move = self.held_move, None
            return {**move, "perp": card.id}
        if "reveal_perp" in acts:
            return {"act": "reveal_perp", "sector": state["pending"]["sector"], "perp": card.id}
        if self.placing is not None and "place_crime" in acts:
            if self.placing.perp is not None:
                return self._unexpected(card, "this crime already has its Perp")
            self.placing.perp = card.id
            return told(
                "Perp tapped (kept secret): now tap the Crime for %(card)s",
                card=self.placing.sector_card,
            )
        return self._unexpected(card, "a Perp is tapped when placed or turned up")

    def _action_card(
        self, card: Any, seat: str | None, state: Any, asked: Mapping[str, list[dict[str, str]]]
    ) -> Decision:
        holder = known_location(state, card.id)
        if holder is not None and holder.startswith("hand:"):
            holder_seat: str | None = holder[5:]
        else:
            holder_seat = None
        if holder in ("discard", "combat"):
            where = told("the engine has it in the discard pile")
            if holder == "combat":
                where = told("the engine has it in the combat")
            self._unexpected(card, where)
            return None
        if seat is not None and holder_seat not in (None, seat):
            self._unexpected(
                card, told("the engine knows it is in %(seat)s's hand", seat=holder_seat)
            )
            return None
        who = seat or holder_seat
        wanting = [s for s, items in asked.items() if any(a["act"] in _CARD_ACTS for a in items)]
        if who is None:
            if len(wanting) == 1:
                who = wanting[0]
            else:
                return self._ask_claim(card, wanting or list(state["players"]))
        return self._card_for(card, who, state, asked.get(who, []))

    def _card_for(
        self, card: Any, who: str, state: Any, items: Sequence[Mapping[str, str]]
    ) -> Decision:
        acts = {a["act"] for a in items}
        if "commit" in acts:
            fighters = [s for g in state["combat"]["groups"] for s in g]
            if len(fighters) == 1:
                commit = {"act": "commit", "by": who, "card": card.id, "for": fighters[0]}
                return Play.one(commit, who, NFC)
            return self._ask_commit_for(card, who, fighters)
        return self._decision(self._card_reading(card, who, state, acts), state)

    def _card_reading(self, card: Any, who: str, state: Any, acts: set[str]) -> Action | str | None:
        if "recycle" in acts:
            tapped = self.recycling.setdefault(who, [])
            if card.id not in tapped:
                tapped.append(card.id)
            return told_n(
                "%(who)s recycles %(num)d card: confirm on the tablet when all are in",
                "%(who)s recycles %(num)d cards: confirm on the tablet when all are in",
                len(tapped),
                who=who,
            )
        if "draw" in acts:
            if book(state).action(card.id).type == "alert":
                return told("%(who)s drew an Alert: play it at once on the tablet", who=who)
            return {"act": "draw", "by": who, "cards": [card.id]}
        j = state["judges"].get(who)
        if j is not None and card.id not in j["known"] and state["phase"] != "over":
            return {"act": "show", "by": who, "cards": [card.id]}
        if j is not None and card.id in j["known"]:
            return told("%(who)s: play that card on the tablet", who=who)
        return self._unexpected(card, "nothing takes an Action card now")

    def _ask_claim(self, card: Any, seats: Sequence[str]) -> Decision:
        options = [
            {
                "label": told("It is Judge %(name)s's card.", name=words.name(s)),
                "action": {"act": "claim_card", "index": i},
            }
            for i, s in enumerate(seats)
        ]
        asked = prompt(
            "which_reading",
            {"act": "claim_card"},
            message=told("An Action card was tapped on the shared reader: whose is it?"),
            options=options,
        )

        def claimed(seat: str) -> Callable[[Any], Decision]:
            # What the card means is read when its holder answers, from the game then.
            return lambda state: self._card_for(card, seat, state, asking(state)[seat])

        answers = tuple(claimed(s) for s in seats)
        waiting = told("waiting for %(seats)s to say whose card was tapped", seats=", ".join(seats))
        return Ask(Question(tuple(seats), "claim_card", asked, answers, waiting))

    def _ask_commit_for(self, card: Any, who: str, fighters: Sequence[str]) -> Decision:
        options = [
            {
                "label": told("Put it in front of Judge %(name)s.", name=words.name(f)),
                "for": f,
                "action": {"act": "commit_for", "index": i},
            }
            for i, f in enumerate(fighters)
        ]
        asked = prompt(
            "which_reading",
            {"act": "commit_for"},
            message=told("%(card)s, face down: in front of which Judge?", card=card.name),
            options=options,
        )
        answers = tuple(
            Play.one({"act": "commit", "by": who, "card": card.id, "for": f}, who, NFC)
            for f in fighters
        )
        waiting = told("waiting for %(who)s to say which Judge the card is for", who=who)
        return Ask(Question((who,), "commit_for", asked, answers, waiting))

    # -- the board --------------------------------------------------------------------
    def expectation(self, state: Any) -> Expectation | None:
        """Where every standee belongs and which may move now."""
        if not self.board_on:
            return None
        kinds: dict[str, str] = {}
        positions: dict[str, str | None] = {}
        movers: set[str] = set()
        due = next(iter(asked_for(state, "place_judge")), None)
        for seat, j in state["judges"].items():
            if j["sector"] is None and seat != due:
                continue  # not on the board yet, and not the one to place now
            kinds[judge_piece(seat)] = JUDGE
            positions[judge_piece(seat)] = j["sector"]
        if due is not None:
            movers.add(judge_piece(due))
        mover = current_mover(state)
        if mover is not None and not state["pending"] and not state["combat"]:
            here = state["judges"][mover]["sector"]
            # Standees look alike to the sensors: anyone sharing the mover's Sector may be
            # the one lifted, so the tracker reports every story and the seats are asked.
            movers |= {judge_piece(s) for s, j in state["judges"].items() if j["sector"] == here}
        return Expectation(kinds, positions, movers=frozenset(movers), turn=mover)

    def observe(self, observation: Any, state: Any, now: float) -> Decision:
        """A tracker observation: the move it stands for, or a question, or words to flag."""
        kind = getattr(observation, "TYPE", "")
        if kind == "moved":
            return self._moved([observation], state)
        if kind == "ambiguous":
            stories = [r for r in observation.readings if getattr(r, "TYPE", "") == "moved"]
            return self._moved(stories, state)
        if kind == "anomaly":
            key = observation.piece or f"?{observation.found}"
            self.problems[key] = self._anomaly_words(observation, state)
        elif kind == "restored":
            self.problems.pop(AMBIGUOUS, None)
            self.problems.pop(observation.piece or f"?{observation.at}", None)
            if observation.piece is not None:
                self.relocate.pop(observation.piece, None)
            else:
                # An anonymous magnet left a Sector: a stray, or a moved standee's old spot.
                self.problems = {k: v for k, v in self.problems.items() if not k.startswith("?")}
        return None

    def _anomaly_words(self, anomaly: Any, state: Any) -> str:
        b = board(state)
        seat = piece_seat(anomaly.piece)
        who = told("%(who)s's Judge", who=seat) if seat else told("the standee")
        if anomaly.put_back is None:
            return told("take the standee off %(sector)s", sector=b.name_of(anomaly.found))
        where = b.name_of(anomaly.put_back)
        if anomaly.piece in self.relocate:
            old = b.name_of(self.relocate[anomaly.piece][0])
            return told("move %(who)s from %(old)s to %(sector)s", who=who, old=old, sector=where)
        return told("put %(who)s back on %(sector)s", who=who, sector=where)

    def _moved(self, stories: Sequence[Any], state: Any) -> Decision:
        candidates: list[tuple[str, dict[str, Any] | None, str]] = []
        for moved in stories:
            seat = piece_seat(moved.piece)
            if seat is None:
                continue
            action, why = self._read_move(seat, moved, state)
            candidates.append((seat, action, why))
        if not candidates:
            return None
        if len(candidates) == 1:
            seat, action, why = candidates[0]
            if action is None:
                self._put_back(stories[0], why, state)
                return None
            return self._apply_board(action, seat, stories[0], state)
        return self._ask_which(stories, candidates, state)

    def _read_move(self, seat: str, moved: Any, state: Any) -> tuple[dict[str, Any] | None, str]:
        if state["phase"] == "setup":
            if seat not in asked_for(state, "place_judge"):
                return None, told("%(seat)s does not place a Judge now", seat=seat)
            return {"act": "place_judge", "by": seat, "sector": moved.to}, ""
        mover = current_mover(state)
        if seat != mover or state["pending"] or state["combat"]:
            return None, (
                told("it is %(who)s's move", who=mover) if mover else told("no Judge moves now")
            )
        start = state["judges"][seat]["sector"]
        path = [s for s in moved.path if s != start] if moved.how == "slid" else []
        try:
            if path and path[-1] == moved.to:
                walk(state, seat, path)
            else:
                raise IllegalAction("not a walked path")
        except IllegalAction:
            options = reachable(state, seat)
            if moved.to not in options:
                try:
                    self.engine.apply(state, {"act": "move", "by": seat, "path": [moved.to]})
                except IllegalAction as exc:
                    return None, exc.reason
                return None, told(
                    "%(sector)s is out of %(seat)s's reach",
                    sector=board(state).name_of(moved.to),
                    seat=seat,
                )
            path = options[moved.to]
        return {"act": "move", "by": seat, "path": path}, ""

    def _apply_board(self, action: Action, seat: str, moved: Any, state: Any) -> Decision:
        completed = self.complete(seat, dict(action), state, None)
        if isinstance(completed, Wait):
            return completed
        whole = completed.action if isinstance(completed, Completed) else completed
        return Play.one(whole, seat, BOARD, about=moved)

    def refused(self, play: Play, action: Action, reason: str, state: Any) -> Status | None:
        if play.source == BOARD and play.about is not None:
            self._put_back(play.about, reason, state)
            return None
        # The reason may name the tapped card: only its sender reads it (detail_seats).
        return super().refused(play, action, reason, state)

    def _put_back(self, moved: Any, reason: str, state: Any) -> None:
        seat = piece_seat(moved.piece)
        b = board(state)
        if moved.from_:
            fix = told(
                "put %(who)s's Judge back on %(sector)s", who=seat, sector=b.name_of(moved.from_)
            )
        else:
            fix = told("take %(who)s's Judge off %(sector)s", who=seat, sector=b.name_of(moved.to))
        self.problems[moved.piece] = told("%(reason)s: %(fix)s", reason=reason, fix=fix)

    def _ask_which(
        self,
        stories: Sequence[Any],
        candidates: Sequence[tuple[str, dict[str, Any] | None, str]],
        state: Any,
    ) -> Decision:
        b = board(state)
        options = []
        answers: list[Callable[[Any], Decision]] = []
        for i, (moved, (seat, action, why)) in enumerate(zip(stories, candidates, strict=True)):
            label = told(
                "Judge %(name)s moved to %(sector)s.",
                name=words.name(seat),
                sector=b.name_of(moved.to),
            )
            options.append(
                {
                    "label": label,
                    "seat": seat,
                    "to": moved.to,
                    "action": {"act": "choose_reading", "index": i},
                }
            )
            answers.append(self._reading(seat, action, why, moved))
        seats = tuple(sorted({c[0] for c in candidates}))
        asked = prompt(
            "which_reading",
            {"act": "choose_reading"},
            message=told("The sensors cannot tell these standees apart: whose Judge moved?"),
            options=options,
        )
        waiting = told("waiting for %(seats)s to say", seats=", ".join(seats))
        return Ask(Question(seats, "choose_reading", asked, tuple(answers), waiting))

    def _reading(
        self, seat: str, action: Action | None, why: str, moved: Any
    ) -> Callable[[Any], Decision]:
        """What the answer "it was ``seat``'s Judge" means, once given."""

        def chosen(state: Any) -> Decision:
            if action is not None:
                return self._apply_board(action, seat, moved, state)
            # The sensors saw one standee leave a shared Sector: they cannot confirm which
            # one goes back, so the words stay until the next standee is lifted or put back.
            where = board(state).name_of(moved.from_)
            self.problems[AMBIGUOUS] = told(
                "%(reason)s: put %(who)s's Judge back on %(sector)s",
                reason=why,
                who=seat,
                sector=where,
            )
            # The tracker is told the position again: it then reports the standee
            # off its Sector as a stray, and its return as restored.
            return Expect()

        return chosen

    # -- the panel's button ------------------------------------------------------------
    def button(self, name: str, state: Any) -> Decision:
        """End turn: stay put (the mover), end the movement phase, next arrest, or reveal."""
        if name != "end_turn":
            return None
        action = self._end_turn(state)
        return None if action is None else Play.one(action, self.owner(action, state), BUTTON)

    def _end_turn(self, state: Any) -> Action | None:
        mover = current_mover(state)
        if state["pending"]:
            return None
        if state["combat"] is not None:
            return None if state["combat"]["revealed"] else {"act": "reveal"}
        if mover is not None:
            return {"act": "move", "by": mover, "path": []}
        acts = {a["act"] for items in asking(state).values() for a in items}
        for act in ("end_movement", "next_arrest"):
            if act in acts:
                return {"act": act}
        return None

    # -- status --------------------------------------------------------------------------
    def board_status(self, state: Any) -> Status | None:
        if self.problems:
            # A standee the game moved leaves a stray magnet where it stands: one instruction
            # ("move ... from ... to ...") says both, and it is a wait, not a wrong move.
            moving = [old for piece, (old, _) in self.relocate.items() if piece in self.problems]
            left = {f"?{old}" for old in moving}
            waiting = all(k in self.relocate or k in left for k in self.problems)
            words = [v for k, v in self.problems.items() if k not in left]
            return _status("waiting" if waiting else "illegal", joined("; ", words))
        if isinstance(self.flag, str):
            return _status("illegal", self.flag)
        if self.flag is not None:
            return self.flag
        if self.dice:
            return _status(
                "waiting", told("dice in from %(who)s", who=joined(", ", map(_key_name, self.dice)))
            )
        return None

    def accepted(self, accepted: Accepted, state: Any) -> None:
        after = state
        before, self._sectors = self._sectors, _sectors(after)
        self.problems.clear()
        self.flag = None
        self.held_move = None
        if after["combat"] is None or not after["combat"]["revealed"]:
            self.dice = {}
        if after["refill"] is None:
            self.recycling = {}
        by_hand = accepted.action.get("act") in ("move", "place_judge")
        for seat, sector in self._sectors.items():
            old = before.get(seat)
            if old is not None and sector is not None and sector != old and not by_hand:
                piece = judge_piece(seat)
                stands = self.relocate.get(piece, (old, sector))[0]
                self.relocate[piece] = (stands, sector)

    def undone(self, state: Any) -> None:
        self.problems.clear()
        self.relocate.clear()
        self._sectors = _sectors(state)
        self.flag = None
        self.placing = None
        self.held_move = None
        self.dice = {}
        self.recycling = {}


_CARD_ACTS = frozenset({"commit", "draw", "recycle"})


def _sectors(state: Any) -> dict[str, str | None]:
    return {seat: j["sector"] for seat, j in state["judges"].items()}


def _key_name(key: str) -> str:
    return told("the Perp die") if key == "perp" else told("%(seat)s's dice", seat=key)


def _faces(faces: object) -> list[Any]:
    """Faces typed on a form arrive as text or a lone number: as a list of numbers."""
    if isinstance(faces, int | str):
        faces = [faces]
    if not isinstance(faces, list):
        return []
    return [int(f) if isinstance(f, str) and f.strip().isdigit() else f for f in faces]


def _status(state: str, text: str) -> Status:
    return Status(state, text)
