"""Judge Dredd's prompts: what each Judge is asked, built from its own view.

:class:`DreddPrompts` is the part of the game's host rules that draws prompts;
it reads the half-made inputs the rules keep (a crime being tapped in, cards
being recycled, dice typed so far) and the seat's own view.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from lawmaster.host.plugin import Prompt, prompt
from lawmaster.host.ui.text import Text, sentence, told, told_n
from lawmaster.rules.judge_dredd.movement import perp_destinations, reachable
from lawmaster.rules.judge_dredd.state import board, book
from lawmaster.rules.judge_dredd.views import asking

#: Die faces of an ordinary six-sided die.
FACES = (1, 2, 3, 4, 5, 6)


@dataclass
class Placing:
    """A crime placement being tapped in: the Sector card, then maybe the Perp."""

    sector_card: str
    perp: str | None = None


class DreddPrompts:
    """Prompts per seat; mixed into the game's host rules, whose half-made inputs it reads."""

    placing: Placing | None
    recycling: dict[str, list[str]]
    dice: dict[str, list[int]]

    if TYPE_CHECKING:
        # Declared for the type checker only: at run time the rules' own
        # GameRules.board_on must answer, and this mixin stands first in their bases.
        @property
        def board_on(self) -> bool: ...

    def roll_keys(self, seat: str, state: Any) -> list[str]:
        raise NotImplementedError

    def prompts(self, seat: str, state: Any, view: Mapping[str, Any]) -> list[Prompt]:
        out: list[Prompt] = []
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
                    prompt(
                        "dredd_reveal",
                        action,
                        message=cap(item["why"]),
                        options=[{"label": told("Reveal the cards"), "action": action}],
                    )
                )
            elif act == "roll":
                out.extend(self._roll_prompts(seat, state))
            elif act in ("end_movement", "next_arrest", "accept"):
                action = {"act": act, "by": seat} if act == "accept" else {"act": act}
                label = {
                    "end_movement": told("End movement"),
                    "next_arrest": told("Next arrest"),
                    "accept": told("Accept"),
                }[act]
                out.append(one_button(act, action, item["why"], label))
            elif act == "arrest":
                out.append(self._arrest_prompt(view))
            elif act == "reveal_perp":
                sector = (view.get("pending") or {}).get("sector")
                out.append(
                    prompt(
                        "dredd_reveal_perp",
                        {"act": "reveal_perp", "sector": sector},
                        message=told(
                            "Turn up the Perp in %(sector)s and tap it on the reader",
                            sector=names.name_of(sector),
                        ),
                    )
                )
            elif act == "perp_escape":
                sector = (view.get("pending") or {}).get("sector")
                ends = sorted(perp_destinations(state, sector)) if sector else []
                base = {"act": "perp_escape", "by": seat}
                out.append(
                    prompt(
                        "dredd_perp_escape",
                        base,
                        message=told("The Perp escapes: move it up to two Sectors"),
                        options=[
                            {"label": names.name_of(s), "action": {**base, "to": s}} for s in ends
                        ],
                    )
                )
            elif act == "place_crime":
                out.append(self._placing_prompt(state))
            elif act == "discard_sector":
                out.append(
                    prompt(
                        "dredd_discard_sector",
                        {"act": "discard_sector"},
                        message=told("Hotdog Run: tap the top Sector card to discard it"),
                    )
                )
            elif act == "recycle":
                out.append(self._recycle_prompt(seat, state, you))
            elif act == "draw":
                owed = ((view.get("refill") or {}).get("owed") or {}).get(seat, 0)
                base = {"act": "draw", "by": seat}
                out.append(
                    prompt(
                        "dredd_draw",
                        base,
                        message=told_n(
                            "Draw %(num)d Action card and tap it on your reader",
                            "Draw %(num)d Action cards and tap each on your reader",
                            int(owed),
                        ),
                        options=[
                            {
                                "label": told("I drew %(num)s without tapping", num=owed),
                                "action": {**base, "count": owed},
                            }
                        ],
                    )
                )
            elif act == "place_judge":
                out.append(self._place_judge_prompt(seat, state))
            elif act in ("decline", "cool"):
                label = told("Decline") if act == "decline" else told("Cool (-2, no overheating)")
                out.append(one_button(act, {"act": act, "by": seat}, item["why"], label))
            elif act == "internal_affairs":
                base = {"act": act, "by": seat}
                others = [s for s in state["players"] if s != seat]
                out.append(
                    prompt(
                        "dredd_internal_affairs",
                        base,
                        message=cap(item["why"]),
                        options=[
                            {
                                "label": told("Look at %(seat)s's hand", seat=s),
                                "action": {**base, "target": s},
                            }
                            for s in others
                        ],
                    )
                )
            elif act == "play" and state["judges"][seat]["ko"]:
                out.append(self._robodoc_prompt(seat, state, you))
        return out

    def _robodoc_prompt(self, seat: str, state: Any, you: Mapping[str, Any]) -> Prompt:
        """Robodoc for a KO'd Judge: one choice per known Robodoc card and adjacent Sector."""
        names = board(state)
        here = state["judges"][seat]["sector"]
        cards = [c for c in you.get("known_cards") or [] if book(state).action(c).kind == "robodoc"]
        base = {"act": "play", "by": seat}
        options = [
            {
                "label": told("%(card)s: to %(sector)s", card=card, sector=names.name_of(to)),
                "action": {**base, "card": card, "to": to},
            }
            for card in cards
            for to in names.neighbours(here)
        ]
        return prompt(
            "dredd_robodoc",
            base,
            message=told(
                "Your Judge is KO'd: play Robodoc (tap it first if the referee does not know it)"
                " to move to an adjacent Sector instead"
            ),
            options=options,
        )

    def _move_prompt(self, seat: str, state: Any, you: Mapping[str, Any]) -> Prompt:
        base = {"act": "move", "by": seat}
        names = board(state)
        here = state["judges"][seat]["sector"]
        options = []
        for end, path in sorted(reachable(state, seat).items(), key=lambda kv: len(kv[1])):
            name = names.name_of(end)
            label: str = told("Stay in %(sector)s", sector=name) if end == here else Text(name)
            if state["perps"].get(end) and not state["perps"][end]["face_up"]:
                label = told("%(sector)s (turns up a Perp)", sector=label)
            options.append({"label": label, "action": {**base, "path": path}})
        movement = int(you.get("movement") or 0)
        if self.board_on:
            message = told_n(
                "Move up to %(num)d Sector: move your standee on the board, or choose here",
                "Move up to %(num)d Sectors: move your standee on the board, or choose here",
                movement,
            )
        else:
            message = told_n("Move up to %(num)d Sector", "Move up to %(num)d Sectors", movement)
        return prompt(
            "dredd_move",
            base,
            message=message,
            options=options,
        )

    def _commit_prompt(
        self, seat: str, view: Mapping[str, Any], you: Mapping[str, Any]
    ) -> Prompt:
        combat = view.get("combat") or {}
        fighters = [s for g in combat.get("groups") or [] for s in g]
        base = {"act": "commit", "by": seat}
        options = []
        for card in you.get("known_cards") or []:
            for judge in fighters:
                action = {**base, "card": card, "for": judge}
                if len(fighters) > 1:
                    label = told("Add %(card)s for %(judge)s", card=card, judge=judge)
                else:
                    label = told("Add %(card)s", card=card)
                options.append({"label": label, "action": action})
        # With one fighter the page's own commit buttons say it all; with several, which
        # Judge a card goes in front of matters, so the choices name it.
        return prompt(
            "dredd_commit" if len(fighters) <= 1 else "dredd_commit_for",
            base,
            message=told("Add Action cards face down: tap each on your own reader, or choose here"),
            options=options,
        )

    def _roll_prompts(self, seat: str, state: Any) -> list[Prompt]:
        needed = state["combat"]["needed"] if state["combat"] else {}
        out = []
        for key in self.roll_keys(seat, state):
            if key in self.dice:
                continue
            n = needed[key]
            if key == "perp":
                label = told("Roll the Perp die and enter the faces")
            else:
                label = told_n(
                    "Roll your group's %(num)d die and enter the faces",
                    "Roll your group's %(num)d dice and enter the faces",
                    int(n),
                )
            out.append(
                prompt(
                    "enter_dice",
                    {"act": "roll", "by": seat, "key": key},
                    count=n,
                    faces=list(FACES),
                    field="faces",
                    label=label,
                )
            )
        return out

    def _arrest_prompt(self, view: Mapping[str, Any]) -> Prompt:
        pending = view.get("pending") or {}
        seats = list(pending.get("seats") or [])
        options = [
            {
                "label": told("All together: %(seats)s", seats=", ".join(seats)),
                "action": {"groups": [seats]},
            },
            {"label": told("Each alone"), "action": {"groups": [[s] for s in seats]}},
        ]
        return prompt(
            "dredd_arrest",
            {"act": "arrest"},
            message=told("Several Judges share this Perp: who arrests together, who alone?"),
            options=[{**o, "action": {"act": "arrest", **o["action"]}} for o in options],
        )

    def _placing_prompt(self, state: Any) -> Prompt:
        if self.placing is None:
            text = told(
                "Reveal the top Sector card and tap it; then tap the Perp face down (optional)"
                " and last the Crime"
            )
        else:
            shown = book(state).names.get(self.placing.sector_card, self.placing.sector_card)
            if self.placing.perp:
                text = told("Sector card %(card)s tapped: now the Crime", card=shown)
            else:
                text = told(
                    "Sector card %(card)s tapped: now the Perp (face down) or the Crime", card=shown
                )
        return prompt("dredd_place_crime", {"act": "place_crime"}, message=text)

    def _recycle_prompt(self, seat: str, state: Any, you: Mapping[str, Any]) -> Prompt:
        base = {"act": "recycle", "by": seat}
        tapped = self.recycling.get(seat, [])
        named = [book(state).names.get(c, c) for c in tapped]
        options = [{"label": told("Discard none"), "action": {**base, "count": 0}}]
        if tapped:
            options.insert(
                0,
                {
                    "label": told(
                        "Discard the %(num)s tapped: %(cards)s",
                        num=len(tapped),
                        cards=", ".join(named),
                    ),
                    "action": {**base, "count": len(tapped), "cards": tapped},
                },
            )
        for n in range(1, int(you.get("hand_size") or 0) + 1):
            options.append(
                {"label": told("Discard %(num)s (untapped)", num=n), "action": {**base, "count": n}}
            )
        return prompt(
            "dredd_recycle",
            base,
            message=told("On the Hospital: tap the cards you discard to recycle, then confirm"),
            options=options,
        )

    def _place_judge_prompt(self, seat: str, state: Any) -> Prompt:
        b = board(state)
        taken = {j["sector"] for j in state["judges"].values()}
        base = {"act": "place_judge", "by": seat}
        return prompt(
            "dredd_place_judge",
            base,
            message=told("Put your Judge on an empty Starting Sector"),
            options=[
                {"label": b.name_of(s), "action": {**base, "sector": s}}
                for s in b.starting_sectors
                if s not in taken
            ],
        )


def asked_for(state: Any, act: str) -> list[str]:
    """The seats the engine asks for ``act`` now."""
    return [s for s, items in asking(state).items() if any(a["act"] == act for a in items)]


def cap(text: str) -> str:
    return sentence(text)


def landing(action: Mapping[str, Any], state: Any) -> str | None:
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


def one_button(act: str, action: dict[str, Any], why: str, label: str) -> Prompt:
    """A question the seat answers with a single button."""
    return prompt(
        f"dredd_{act}", action, message=cap(why), options=[{"label": label, "action": action}]
    )
