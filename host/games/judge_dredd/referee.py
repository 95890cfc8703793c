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
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from lawmaster.rules.core import IllegalAction
from lawmaster.rules.judge_dredd.movement import current_mover, perp_destinations, reachable, walk
from lawmaster.rules.judge_dredd.state import board, book, known_location
from lawmaster.rules.judge_dredd.views import asking

from .referee import DIGITAL, TABLET, Completed, GameRules

if TYPE_CHECKING:
    from .referee import Referee
    from .table import Accepted, Status

#: The kind of magnet in a standee's base (the sensor map's name).
JUDGE = "judge"
#: Die faces of an ordinary six-sided die.
FACES = (1, 2, 3, 4, 5, 6)
#: Acts without a ``by`` that belong to the one seat the engine asks for them (a roll may
#: come from any roller; the referee checks each roller's own dice).
ASKED_ACTS = frozenset({"place_crime", "discard_sector", "reveal_perp", "arrest"})
#: The problem key of a wrong answer to "whose Judge moved?" (no sensor can confirm it).
AMBIGUOUS = "?ambiguous"
#: Referee-only tablet inputs (answers to the referee's own questions).
ANSWERS = frozenset({"choose_reading", "claim_card", "commit_for"})


def judge_piece(seat: str) -> str:
    """The tracker's name of a seat's standee."""
    return f"judge-{seat}"


def piece_seat(piece: object) -> str | None:
    """The seat a tracker piece name stands for, if it is a standee."""
    if isinstance(piece, str) and piece.startswith("judge-"):
        return piece[6:]
    return None


@dataclass
class Question:
    """A question the referee put to some seats: ``options[i]`` is what answer ``i`` means."""

    kind: str
    seats: tuple[str, ...]
    prompt: dict[str, Any]
    options: list[dict[str, Any]]
    #: A card being asked about (claim / commit target), for the answer.
    card: str | None = None


@dataclass
class Placing:
    """A crime placement being tapped in: the Sector card, then maybe the Perp."""

    sector_card: str
    perp: str | None = None


class DreddRules(GameRules):
    """Judge Dredd: every Judge is its own side; cards by NFC, standees on the board."""

    def __init__(self, table: Any) -> None:
        super().__init__(table)
        #: Board problems by piece (``"?<sector>"`` for a stray magnet): words for the table.
        self.problems: dict[str, str] = {}
        #: Standees the game moved (KO, Barney, Robodoc) that the table still has to move:
        #: (where the standee stands, where the game has it now), by piece.
        self.relocate: dict[str, tuple[str, str]] = {}
        #: An open question to seats.
        self.question: Question | None = None
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
        self._sectors = _sectors(table.state)

    # -- who may send what -------------------------------------------------------
    def owner(self, action: Mapping[str, Any], state: Any) -> str | None:
        by = action.get("by")
        if isinstance(by, str):
            return by
        act = action.get("act")
        if act in ASKED_ACTS:
            asked = _asked_for(state, str(act))
            if len(asked) == 1:
                return asked[0]
        return None

    def physical_name(self, action: Mapping[str, Any]) -> str:
        """How a refused input is named in public: never an Action card or a Perp by name
        (a hand and a face-down Perp are secrets); Sector and Crime cards are face up."""
        act = str(action.get("act", "input"))
        by = action.get("by")
        if act == "move":
            return f"{by}'s move"
        if act == "place_crime":
            return f"the Crime for {action.get('sector_card')}"
        if act in ("discard_sector",):
            return f"the card {action.get('sector_card')}"
        if "card" in action or "cards" in action:
            return f"{by}'s Action card" if by else "that Action card"
        if act == "reveal_perp":
            return "that Perp"
        return act.replace("_", " ")

    def detail_seats(self, action: Mapping[str, Any], state: Any) -> tuple[str, ...]:
        """Seats that read why a card input was refused: the reason may name the card."""
        if "perp" in action:
            return ()  # it may name a face-down Perp: the public words must do
        owner = self.owner(action, state)
        if "card" in action or "cards" in action:
            return (owner,) if owner else ()
        return tuple(self.table.engine.seats(state))

    @property
    def board_on(self) -> bool:
        return bool(self.table.settings.get("board", False))

    # -- completing inputs --------------------------------------------------------
    def complete(
        self, seat: str, action: dict[str, Any], state: Any, rng: random.Random | None
    ) -> dict[str, Any] | Completed | str:
        act = action.get("act")
        if act == "roll":
            return self._complete_roll(seat, action, state, rng)
        if act in ("move", "play", "accept") and action.get("perp") is None:
            end = self._move_end(action, state) if act == "move" else _landing(action, state)
            if end is not None and self._unknown_face_down(state, end):
                self.held_move = dict(action)
                name = board(state).name_of(end)
                return f"turn up the Perp in {name} and tap it on the reader"
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
        self, seat: str, action: dict[str, Any], state: Any, rng: random.Random | None
    ) -> dict[str, Any] | Completed | str:
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
                raise IllegalAction(f"{seat} does not roll those dice (yours: {', '.join(mine)})")
            faces = _faces(action.get("faces"))
            if len(faces) != needed[key] or not all(f in FACES for f in faces):
                raise IllegalAction(f"enter {needed[key]} die face(s), each 1 to 6")
            self.dice[key] = faces
        missing = [k for k in needed if k not in self.dice]
        if missing:
            return "dice held; waiting for " + ", ".join(_key_name(k) for k in missing)
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

    # -- prompts --------------------------------------------------------------------
    def prompts(self, seat: str, state: Any, view: Mapping[str, Any]) -> list[dict[str, Any]]:
        out: list[dict[str, Any]] = []
        you = view.get("you") if isinstance(view.get("you"), Mapping) else {}
        names = board(state)
        for item in view.get("asked") or []:
            act = item.get("act")
            if act == "move":
                out.append(self._move_prompt(seat, state, you))
            elif act == "commit":
                out.append(self._commit_prompt(seat, view, you))
            elif act == "reveal":
                action = {"act": "reveal"}
                out.append(
                    _prompt(
                        "dredd_reveal",
                        action,
                        message=_cap(item["why"]),
                        options=[{"label": "Reveal the cards", "action": action}],
                    )
                )
            elif act == "roll":
                out.extend(self._roll_prompts(seat, state))
            elif act in ("end_movement", "next_arrest", "accept"):
                action = {"act": act, "by": seat} if act == "accept" else {"act": act}
                label = act.replace("_", " ").capitalize()
                out.append(_one_button(act, action, item["why"], label))
            elif act == "arrest":
                out.append(self._arrest_prompt(view))
            elif act == "reveal_perp":
                sector = (view.get("pending") or {}).get("sector")
                out.append(
                    _prompt(
                        "dredd_reveal_perp",
                        {"act": "reveal_perp", "sector": sector},
                        message=f"Turn up the Perp in {names.name_of(sector)} and tap it "
                        "on the reader",
                    )
                )
            elif act == "perp_escape":
                sector = (view.get("pending") or {}).get("sector")
                ends = sorted(perp_destinations(state, sector)) if sector else []
                base = {"act": "perp_escape", "by": seat}
                out.append(
                    _prompt(
                        "dredd_perp_escape",
                        base,
                        message="The Perp escapes: move it up to two Sectors",
                        options=[
                            {"label": names.name_of(s), "action": {**base, "to": s}} for s in ends
                        ],
                    )
                )
            elif act == "place_crime":
                out.append(self._placing_prompt(state))
            elif act == "discard_sector":
                out.append(
                    _prompt(
                        "dredd_discard_sector",
                        {"act": "discard_sector"},
                        message="Hotdog Run: tap the top Sector card to discard it",
                    )
                )
            elif act == "recycle":
                out.append(self._recycle_prompt(seat, state, you))
            elif act == "draw":
                owed = ((view.get("refill") or {}).get("owed") or {}).get(seat, 0)
                base = {"act": "draw", "by": seat}
                out.append(
                    _prompt(
                        "dredd_draw",
                        base,
                        message=f"Draw {owed} Action card(s) and tap each on your reader",
                        options=[
                            {
                                "label": f"I drew {owed} without tapping",
                                "action": {**base, "count": owed},
                            }
                        ],
                    )
                )
            elif act == "place_judge":
                out.append(self._place_judge_prompt(seat, state))
            elif act in ("decline", "cool"):
                label = "Decline" if act == "decline" else "Cool (-2, no overheating)"
                out.append(_one_button(act, {"act": act, "by": seat}, item["why"], label))
            elif act == "internal_affairs":
                base = {"act": act, "by": seat}
                others = [s for s in state["players"] if s != seat]
                out.append(
                    _prompt(
                        "dredd_internal_affairs",
                        base,
                        message=_cap(item["why"]),
                        options=[
                            {"label": f"Look at {s}'s hand", "action": {**base, "target": s}}
                            for s in others
                        ],
                    )
                )
            elif act == "play" and state["judges"][seat]["ko"]:
                out.append(self._robodoc_prompt(seat, state, you))
        if self.question is not None and seat in self.question.seats:
            out.append(self.question.prompt)
        return out

    def _robodoc_prompt(self, seat: str, state: Any, you: Mapping[str, Any]) -> dict[str, Any]:
        """Robodoc for a KO'd Judge: one choice per known Robodoc card and adjacent Sector."""
        names = board(state)
        here = state["judges"][seat]["sector"]
        cards = [c for c in you.get("known_cards") or [] if book(state).action(c).kind == "robodoc"]
        base = {"act": "play", "by": seat}
        options = [
            {"label": f"{card}: to {names.name_of(to)}", "action": {**base, "card": card, "to": to}}
            for card in cards
            for to in names.neighbours(here)
        ]
        return _prompt(
            "dredd_robodoc",
            base,
            message="Your Judge is KO'd: play Robodoc (tap it first if the referee does not "
            "know it) to move to an adjacent Sector instead",
            options=options,
        )

    def _move_prompt(self, seat: str, state: Any, you: Mapping[str, Any]) -> dict[str, Any]:
        base = {"act": "move", "by": seat}
        names = board(state)
        here = state["judges"][seat]["sector"]
        options = []
        for end, path in sorted(reachable(state, seat).items(), key=lambda kv: len(kv[1])):
            label = "Stay in " + names.name_of(end) if end == here else names.name_of(end)
            if state["perps"].get(end) and not state["perps"][end]["face_up"]:
                label += " (turns up a Perp)"
            options.append({"label": label, "action": {**base, "path": path}})
        on = ": move your standee on the board, or choose here" if self.board_on else ""
        return _prompt(
            "dredd_move",
            base,
            message=f"Move up to {you.get('movement')} Sector(s){on}",
            options=options,
        )

    def _commit_prompt(
        self, seat: str, view: Mapping[str, Any], you: Mapping[str, Any]
    ) -> dict[str, Any]:
        combat = view.get("combat") or {}
        fighters = [s for g in combat.get("groups") or [] for s in g]
        base = {"act": "commit", "by": seat}
        options = []
        for card in you.get("known_cards") or []:
            for judge in fighters:
                action = {**base, "card": card, "for": judge}
                label = f"{card} for {judge}" if len(fighters) > 1 else card
                options.append({"label": f"Add {label}", "action": action})
        # With one fighter the page's own commit buttons say it all; with several, which
        # Judge a card goes in front of matters, so the choices name it.
        return _prompt(
            "dredd_commit" if len(fighters) <= 1 else "dredd_commit_for",
            base,
            message="Add Action cards face down: tap each on your own reader, or choose here",
            options=options,
        )

    def _roll_prompts(self, seat: str, state: Any) -> list[dict[str, Any]]:
        needed = state["combat"]["needed"] if state["combat"] else {}
        out = []
        for key in self.roll_keys(seat, state):
            if key in self.dice:
                continue
            n = needed[key]
            what = "the Perp die" if key == "perp" else f"your group's {n} die(s)"
            out.append(
                _prompt(
                    "enter_dice",
                    {"act": "roll", "by": seat, "key": key},
                    count=n,
                    faces=list(FACES),
                    field="faces",
                    label=f"Roll {what} and enter the faces",
                )
            )
        return out

    def _arrest_prompt(self, view: Mapping[str, Any]) -> dict[str, Any]:
        pending = view.get("pending") or {}
        seats = list(pending.get("seats") or [])
        options = [
            {"label": "All together: " + ", ".join(seats), "action": {"groups": [seats]}},
            {"label": "Each alone", "action": {"groups": [[s] for s in seats]}},
        ]
        return _prompt(
            "dredd_arrest",
            {"act": "arrest"},
            message="Several Judges share this Perp: who arrests together, who alone?",
            options=[{**o, "action": {"act": "arrest", **o["action"]}} for o in options],
        )

    def _placing_prompt(self, state: Any) -> dict[str, Any]:
        if self.placing is None:
            text = (
                "Reveal the top Sector card and tap it; then tap the Perp face down (optional) "
                "and last the Crime"
            )
        else:
            shown = book(state).names.get(self.placing.sector_card, self.placing.sector_card)
            text = f"Sector card {shown} tapped: " + (
                "now the Crime" if self.placing.perp else "now the Perp (face down) or the Crime"
            )
        return _prompt("dredd_place_crime", {"act": "place_crime"}, message=text)

    def _recycle_prompt(self, seat: str, state: Any, you: Mapping[str, Any]) -> dict[str, Any]:
        base = {"act": "recycle", "by": seat}
        tapped = self.recycling.get(seat, [])
        named = [book(state).names.get(c, c) for c in tapped]
        options = [{"label": "Discard none", "action": {**base, "count": 0}}]
        if tapped:
            options.insert(
                0,
                {
                    "label": f"Discard the {len(tapped)} tapped: {', '.join(named)}",
                    "action": {**base, "count": len(tapped), "cards": tapped},
                },
            )
        for n in range(1, int(you.get("hand_size") or 0) + 1):
            options.append({"label": f"Discard {n} (untapped)", "action": {**base, "count": n}})
        return _prompt(
            "dredd_recycle",
            base,
            message="On the Hospital: tap the cards you discard to recycle, then confirm",
            options=options,
        )

    def _place_judge_prompt(self, seat: str, state: Any) -> dict[str, Any]:
        b = board(state)
        taken = {j["sector"] for j in state["judges"].values()}
        base = {"act": "place_judge", "by": seat}
        return _prompt(
            "dredd_place_judge",
            base,
            message="Put your Judge on an empty Starting Sector",
            options=[
                {"label": b.name_of(s), "action": {**base, "sector": s}}
                for s in b.starting_sectors
                if s not in taken
            ],
        )

    # -- NFC ------------------------------------------------------------------------
    def card(self, card: Any, seat: str | None, state: Any) -> dict[str, Any] | str | None:
        """A tapped card as the action it stands for now (see the module docstring)."""
        self.flag = None
        kind = getattr(card, "kind", None)
        asked = asking(state)
        acts = {a["act"] for items in asked.values() for a in items}
        if kind == "sector":
            return self._sector_card(card, acts)
        if kind == "crime":
            return self._crime_card(card, state, acts)
        if kind == "perp":
            return self._perp_card(card, state, acts)
        if kind == "action":
            return self._action_card(card, seat, state, asked)
        return self._unexpected(card, "it is no card of this game")

    def _unexpected(self, card: Any, why: str) -> None:
        # An Action card's name is a secret of its holder, a Perp's may be one (face down):
        # the table reads only the kind of card.
        kind = getattr(card, "kind", "")
        name = {"action": "an Action card", "perp": "a Perp card"}.get(kind, card.name)
        self.flag = f"{name} was not expected now: {why}"
        return None

    def _sector_card(self, card: Any, acts: set[str]) -> dict[str, Any] | str | None:
        if "discard_sector" in acts:
            return {"act": "discard_sector", "sector_card": card.id}
        if "place_crime" not in acts:
            return self._unexpected(card, "Sector cards are revealed only to place a crime")
        self.placing = Placing(card.id)
        return f"{card.name}: tap the Perp face down (optional), then the Crime"

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
            return f"Perp tapped (kept secret): now tap the Crime for {self.placing.sector_card}"
        return self._unexpected(card, "a Perp is tapped when placed or turned up")

    def _action_card(
        self, card: Any, seat: str | None, state: Any, asked: Mapping[str, list[dict[str, str]]]
    ) -> dict[str, Any] | str | None:
        holder = known_location(state, card.id)
        if holder is not None and holder.startswith("hand:"):
            holder_seat: str | None = holder[5:]
        else:
            holder_seat = None
        if holder in ("discard", "combat"):
            return self._unexpected(card, f"the engine has it in the {holder}")
        if seat is not None and holder_seat not in (None, seat):
            return self._unexpected(card, f"the engine knows it is in {holder_seat}'s hand")
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
    ) -> dict[str, Any] | str | None:
        acts = {a["act"] for a in items}
        if "commit" in acts:
            fighters = [s for g in state["combat"]["groups"] for s in g]
            if len(fighters) == 1:
                return {"act": "commit", "by": who, "card": card.id, "for": fighters[0]}
            return self._ask_commit_for(card, who, fighters)
        if "recycle" in acts:
            tapped = self.recycling.setdefault(who, [])
            if card.id not in tapped:
                tapped.append(card.id)
            return f"{who} recycles {len(tapped)} card(s): confirm on the tablet when all are in"
        if "draw" in acts:
            if book(state).action(card.id).type == "alert":
                return f"{who} drew an Alert: play it at once on the tablet"
            return {"act": "draw", "by": who, "cards": [card.id]}
        j = state["judges"].get(who)
        if j is not None and card.id not in j["known"] and state["phase"] != "over":
            return {"act": "show", "by": who, "cards": [card.id]}
        if j is not None and card.id in j["known"]:
            return f"{who}: play that card on the tablet"
        return self._unexpected(card, "nothing takes an Action card now")

    def _ask_claim(self, card: Any, seats: Sequence[str]) -> str:
        options = [
            {"label": f"It is mine ({s})", "action": {"act": "claim_card", "index": i}}
            for i, s in enumerate(seats)
        ]
        prompt = _prompt(
            "which_reading",
            {"act": "claim_card"},
            message="An Action card was tapped on the shared reader: whose is it?",
            options=options,
        )
        self.question = Question(
            "claim", tuple(seats), prompt, [{"seat": s} for s in seats], card.id
        )
        return "whose card was tapped? (answer on the tablet)"

    def _ask_commit_for(self, card: Any, who: str, fighters: Sequence[str]) -> str:
        options = [
            {"label": f"In front of {f}", "action": {"act": "commit_for", "index": i}}
            for i, f in enumerate(fighters)
        ]
        prompt = _prompt(
            "which_reading",
            {"act": "commit_for"},
            message=f"{card.name}, face down: in front of which Judge?",
            options=options,
        )
        actions = [{"act": "commit", "by": who, "card": card.id, "for": f} for f in fighters]
        self.question = Question("commit_for", (who,), prompt, actions, card.id)
        return f"{who}: say on the tablet which Judge the card is for"

    # -- the board --------------------------------------------------------------------
    def expectation(self, state: Any) -> Any:
        """Where every standee belongs and which may move now."""
        if not self.board_on:
            return None
        from .tracker import Expectation

        kinds: dict[str, str] = {}
        positions: dict[str, str | None] = {}
        movers: set[str] = set()
        due = next(iter(_asked_for(state, "place_judge")), None)
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

    def observe(self, observation: Any, referee: Referee) -> None:
        """A tracker observation: apply the move it stands for, or flag, or ask."""
        kind = getattr(observation, "TYPE", "")
        state = self.table.state
        if kind == "moved":
            self._moved([observation], state, referee)
        elif kind == "ambiguous":
            stories = [r for r in observation.readings if getattr(r, "TYPE", "") == "moved"]
            self._moved(stories, state, referee)
        elif kind == "anomaly":
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

    def _anomaly_words(self, anomaly: Any, state: Any) -> str:
        b = board(state)
        seat = piece_seat(anomaly.piece)
        who = f"{seat}'s Judge" if seat else "the standee"
        if anomaly.put_back is None:
            return f"take the standee off {b.name_of(anomaly.found)}"
        where = b.name_of(anomaly.put_back)
        if anomaly.piece in self.relocate:
            old = b.name_of(self.relocate[anomaly.piece][0])
            return f"move {who} from {old} to {where}"
        return f"put {who} back on {where}"

    def _moved(self, stories: Sequence[Any], state: Any, referee: Referee) -> None:
        candidates: list[tuple[str, dict[str, Any] | None, str]] = []
        for moved in stories:
            seat = piece_seat(moved.piece)
            if seat is None:
                continue
            action, why = self._read_move(seat, moved, state)
            candidates.append((seat, action, why))
        if not candidates:
            return
        if len(candidates) == 1:
            seat, action, why = candidates[0]
            if action is None:
                self._put_back(stories[0], why, state)
                return
            self._apply_board(action, seat, stories[0], referee)
            return
        self._ask_which(stories, candidates, state)

    def _read_move(self, seat: str, moved: Any, state: Any) -> tuple[dict[str, Any] | None, str]:
        if state["phase"] == "setup":
            if seat not in _asked_for(state, "place_judge"):
                return None, f"{seat} does not place a Judge now"
            return {"act": "place_judge", "by": seat, "sector": moved.to}, ""
        mover = current_mover(state)
        if seat != mover or state["pending"] or state["combat"]:
            return None, (f"it is {mover}'s move" if mover else "no Judge moves now")
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
                    self.table.check({"act": "move", "by": seat, "path": [moved.to]})
                except IllegalAction as exc:
                    return None, exc.reason
                return None, f"{board(state).name_of(moved.to)} is out of {seat}'s reach"
            path = options[moved.to]
        return {"act": "move", "by": seat, "path": path}, ""

    def _apply_board(self, action: dict[str, Any], seat: str, moved: Any, referee: Referee) -> None:
        completed = self.complete(seat, dict(action), self.table.state, None)
        if isinstance(completed, str):
            referee.notice = _status("waiting", completed)
            return
        reason = referee.apply_physical(completed, seat)
        if reason is not None:
            self._put_back(moved, reason, self.table.state)

    def _put_back(self, moved: Any, reason: str, state: Any) -> None:
        seat = piece_seat(moved.piece)
        b = board(state)
        if moved.from_:
            fix = f"put {seat}'s Judge back on {b.name_of(moved.from_)}"
        else:
            fix = f"take {seat}'s Judge off {b.name_of(moved.to)}"
        self.problems[moved.piece] = f"{reason}: {fix}"

    def _ask_which(
        self,
        stories: Sequence[Any],
        candidates: Sequence[tuple[str, dict[str, Any] | None, str]],
        state: Any,
    ) -> None:
        b = board(state)
        options, meanings = [], []
        for i, (moved, (seat, action, why)) in enumerate(zip(stories, candidates, strict=True)):
            label = f"{seat}'s Judge moved to {b.name_of(moved.to)}"
            options.append(
                {
                    "label": label,
                    "seat": seat,
                    "to": moved.to,
                    "action": {"act": "choose_reading", "index": i},
                }
            )
            meanings.append({"seat": seat, "action": action, "why": why, "moved": moved})
        seats = tuple(sorted({c[0] for c in candidates}))
        prompt = _prompt(
            "which_reading",
            {"act": "choose_reading"},
            message="The sensors cannot tell these standees apart: whose Judge moved?",
            options=options,
        )
        self.question = Question("reading", seats, prompt, meanings)

    # -- referee-only inputs -----------------------------------------------------------
    def referee_input(self, seat: str, action: Mapping[str, Any], referee: Referee) -> bool:
        act = action.get("act")
        if act not in ANSWERS:
            return False
        q = self.question
        if q is None or seat not in q.seats or _KINDS[act] != q.kind:
            raise IllegalAction("there is no such question for you to answer")
        index = action.get("index")
        if isinstance(index, bool) or not isinstance(index, int):
            raise IllegalAction(f"'index' must be 0 to {len(q.options) - 1}")
        if not 0 <= index < len(q.options):
            raise IllegalAction(f"'index' must be 0 to {len(q.options) - 1}")
        chosen = q.options[index]
        self.question = None
        self.table.set_prompts({})
        state = self.table.state
        if q.kind == "commit_for":
            self._apply_or_flag(chosen, seat, referee)
        elif q.kind == "claim":
            from .nfc.cards import Card

            card = Card(q.card or "", book(state).names.get(q.card or "", q.card or ""), "action")
            reading = self._card_for(card, chosen["seat"], state, asking(state)[chosen["seat"]])
            if isinstance(reading, dict):
                self._apply_or_flag(reading, chosen["seat"], referee)
            elif isinstance(reading, str):
                referee.notice = _status("waiting", reading)
        else:
            if chosen["action"] is None:
                # The sensors saw one standee leave a shared Sector: they cannot confirm which
                # one goes back, so the words stay until the next standee is lifted or put back.
                seat_name = chosen["seat"]
                where = board(state).name_of(chosen["moved"].from_)
                self.problems[AMBIGUOUS] = (
                    f"{chosen['why']}: put {seat_name}'s Judge back on {where}"
                )
                # The tracker is told the position again: it then reports the standee
                # off its Sector as a stray, and its return as restored.
                referee.expect()
            else:
                self._apply_board(chosen["action"], chosen["seat"], chosen["moved"], referee)
        referee.refresh()
        return True

    def _apply_or_flag(self, action: dict[str, Any], seat: str, referee: Referee) -> None:
        reason = referee.apply_physical(action, seat, source="nfc")
        if reason is not None:
            # The reason may name the tapped card: only its sender reads it (detail_seats).
            self.flag = referee._refused(action, reason, self.table.state)

    # -- the panel's button ------------------------------------------------------------
    def end_turn(self, state: Any, referee: Referee) -> dict[str, Any] | None:
        """Stay put (the mover), end the movement phase, next arrest, or reveal the cards."""
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
            return _status("waiting" if waiting else "illegal", "; ".join(words))
        if isinstance(self.flag, str):
            return _status("illegal", self.flag)
        if self.flag is not None:
            return self.flag
        if self.question is not None:
            return _status("waiting", "waiting for " + ", ".join(self.question.seats) + " to say")
        if self.dice:
            return _status("waiting", "dice in from " + ", ".join(map(_key_name, self.dice)))
        return None

    def accepted(self, accepted: Accepted) -> None:
        after = self.table.state
        before, self._sectors = self._sectors, _sectors(after)
        self.problems.clear()
        self.flag = None
        self.question = None
        self.held_move = None
        if after["combat"] is None or not after["combat"]["revealed"]:
            self.dice = {}
        if after["refill"] is None:
            self.recycling = {}
        by_hand = self.table.actions[-1].get("act") in ("move", "place_judge")
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
        self.question = None
        self.placing = None
        self.held_move = None
        self.dice = {}
        self.recycling = {}


_CARD_ACTS = frozenset({"commit", "draw", "recycle"})
_KINDS = {"choose_reading": "reading", "claim_card": "claim", "commit_for": "commit_for"}


def _sectors(state: Any) -> dict[str, str | None]:
    return {seat: j["sector"] for seat, j in state["judges"].items()}


def _asked_for(state: Any, act: str) -> list[str]:
    return [s for s, items in asking(state).items() if any(a["act"] == act for a in items)]


def _key_name(key: str) -> str:
    return "the Perp die" if key == "perp" else f"{key}'s dice"


def _faces(faces: object) -> list[Any]:
    """Faces typed on a form arrive as text or a lone number: as a list of numbers."""
    if isinstance(faces, int | str):
        faces = [faces]
    if not isinstance(faces, list):
        return []
    return [int(f) if isinstance(f, str) and f.strip().isdigit() else f for f in faces]


def _cap(text: str) -> str:
    return text[:1].upper() + text[1:]


def _status(state: str, text: str) -> Status:
    from .table import Status

    return Status(state, text)


def _landing(action: Mapping[str, Any], state: Any) -> str | None:
    """Where a Robodoc ``play`` or a Barney's ``accept`` puts its Judge, if it is one."""
    if action.get("act") == "accept":
        pending = state["pending"]
        if pending and pending["kind"] == "barney" and action.get("by") == pending["target"]:
            return str(pending["to"])
        return None
    card, to = action.get("card"), action.get("to")
    actions = book(state).actions
    robodoc = isinstance(card, str) and card in actions and actions[card].kind == "robodoc"
    if robodoc and action.get("option") != "alt" and isinstance(to, str):
        return to if to in board(state).sectors else None
    return None


def _one_button(act: str, action: dict[str, Any], why: str, label: str) -> dict[str, Any]:
    """A question the seat answers with a single button."""
    return _prompt(
        f"dredd_{act}", action, message=_cap(why), options=[{"label": label, "action": action}]
    )


def _prompt(kind: str, action: dict[str, Any], **extra: Any) -> dict[str, Any]:
    """A prompt: its kind, the base action its answer completes, and what to show."""
    return {"kind": kind, **action, "action": dict(action), **extra}
