"""One combat's inputs, for every kind: arrests (joint and competing), the Alien, Block Mania
and the end-of-game tie-break.

A combat goes: opened → cards committed (face-down unless the Psi-Judge's rule
makes them face-up) → ``reveal`` → ``roll`` (dice are inputs) → resolved. What a
combat is made of is in :mod:`.fight`; settling it in :mod:`.arrests`.
"""

from __future__ import annotations

from typing import TypeGuard

from lawmaster.rules.core import (
    Action,
    Event,
    IllegalAction,
    JsonObject,
    field,
    optional_field,
    public,
)

from .arrests import resolve
from .fight import card_effect, default_option, dice_needed, group_of, participants, perp_roller
from .state import Combat, State, book, is_, judge, private, take_from_hand


def _open_combat(state: State) -> Combat:
    combat = state["combat"]
    if combat is None:
        raise IllegalAction("there is no combat going on")
    return combat


def commit(state: State, action: Action, events: list[Event]) -> None:
    """``commit``: a player adds an Action card to the combat, face-down."""
    combat = _open_combat(state)
    if combat["revealed"]:
        raise IllegalAction("the cards are already revealed: no more cards in this combat")
    seat = field(action, "by", str)
    j = judge(state, seat)
    if combat["kind"] == "tiebreak":
        if seat not in participants(combat):
            raise IllegalAction("only the tied players may add cards to the final combat")
    elif j["ko"]:
        raise IllegalAction(f"{seat}'s Judge is KO'd and cannot play cards this round")
    card = book(state).action(field(action, "card", str))
    if card.type == "alert":
        raise IllegalAction(f"{card.name} is an Alert: it is played when drawn, never held")
    target = optional_field(action, "for", str, combat["groups"][0][0])
    gi = group_of(combat, target)
    if gi is None:
        raise IllegalAction(f"{target!r} is not a Judge in this combat")
    controller = seat in combat["groups"][gi]
    option = optional_field(action, "option", str)
    if option is None:
        option = default_option(card, controller)
    if option not in ("main", "alt"):
        raise IllegalAction("'option' is 'main' or 'alt' (the alternative option)")
    if option == "alt":
        if not controller:
            raise IllegalAction("alternative options can only be used on your own Judge")
        if card.shield is None:
            raise IllegalAction(f"{card.name} has no shield badge to add in combat")
    take_from_hand(state, seat, card.id)
    face_up = bool(optional_field(action, "face_up", bool, False))
    psi = [s for s in participants(combat) if is_(state, s, "psi-judge")]
    if psi and seat not in psi and seat not in combat["psi_first"]:
        combat["psi_first"].append(seat)
        face_up = True  # Mind Reader: the first card each other player adds
    combat["cards"].append(
        {"by": seat, "for": target, "card": card.id, "face_up": face_up, "option": option}
    )
    if face_up:
        events.append(
            public("card_committed", by=seat, to=target, face_up=True, card=card.id, option=option)
        )
    else:
        events.append(public("card_committed", by=seat, to=target, face_up=False))
        events.append(private(seat, "card_committed_own", card=card.id, to=target, option=option))


def cool(state: State, action: Action, events: list[Event]) -> None:
    """``cool``: Mechanismo takes -2 in this combat and does not overheat on a 6."""
    combat = _open_combat(state)
    seat = field(action, "by", str)
    if not is_(state, seat, "mechanismo") or seat not in participants(combat):
        raise IllegalAction("only Mechanismo, in this combat, can cool")
    if seat in combat["cooled"]:
        raise IllegalAction("Mechanismo is already cooling")
    if combat["revealed"] or combat["cards"]:
        # "Before each combat you may choose to cool": the choice comes before anyone
        # commits a card, so nobody plays their cards knowing it and then sees it change.
        raise IllegalAction(
            "Mechanismo chooses to cool before the combat, before any card is committed"
        )
    combat["cooled"].append(seat)
    events.append(public("cooled", judge=seat))


def reveal(state: State, action: Action, events: list[Event]) -> None:
    """``reveal``: everyone is done adding cards; every face-down card is turned up."""
    combat = _open_combat(state)
    if combat["revealed"]:
        raise IllegalAction("the cards are already revealed")
    combat["revealed"] = True
    shown: list[JsonObject] = []
    for entry in combat["cards"]:
        eff = card_effect(state, combat, entry)
        shown.append(
            {
                "by": entry["by"],
                "to": entry["for"],
                "card": entry["card"],
                "option": entry["option"],
                "counts": eff["counts"],
            }
        )
    combat["needed"] = dice_needed(state, combat)
    combat["roller"] = perp_roller(state, combat)
    events.append(
        public("cards_revealed", cards=shown, dice=combat["needed"], perp_roller=combat["roller"])
    )


def _dice(action: Action, combat: Combat) -> dict[str, list[int]]:
    raw = dict(optional_field(action, "dice", dict, {}))
    if "judge" in action:
        if len(combat["groups"]) != 1:
            raise IllegalAction("with several Judges or groups, give 'dice' by seat")
        raw[combat["groups"][0][0]] = action["judge"]
    if "perp" in action:
        raw["perp"] = action["perp"]
    out: dict[str, list[int]] = {}
    for key, value in raw.items():
        faces = _faces(value)
        if key == "perp":
            out["perp"] = faces
            continue
        gi = group_of(combat, key) if isinstance(key, str) else None
        if gi is None:
            raise IllegalAction(f"{key!r} is not rolling in this combat")
        lead = combat["groups"][gi][0]
        if lead in out:
            raise IllegalAction("a group of Judges rolls one set of dice; give it once")
        out[lead] = faces
    return out


def _faces(value: object) -> list[int]:
    """One die result, or a list of them: each a whole number from 1 to 6."""
    faces = [value] if isinstance(value, int) and not isinstance(value, bool) else value
    good = [f for f in faces if _face(f)] if isinstance(faces, list) else []
    if not isinstance(faces, list) or len(good) != len(faces):
        raise IllegalAction("dice results are whole numbers from 1 to 6")
    return good


def _face(f: object) -> TypeGuard[int]:
    return isinstance(f, int) and not isinstance(f, bool) and 1 <= f <= 6


def roll(state: State, action: Action, events: list[Event]) -> None:
    """``roll``: the dice, then the combat is resolved."""
    combat = _open_combat(state)
    if not combat["revealed"]:
        raise IllegalAction("reveal the cards before rolling")
    dice = _dice(action, combat)
    need = combat["needed"]
    if need is None:
        raise ValueError("revealed cards always set the dice needed")  # an engine bug
    for key, n in need.items():
        got = len(dice.get(key, []))
        if got != n:
            who = "the Perp" if key == "perp" else key
            raise IllegalAction(f"{who} rolls {n} dice in this combat, not {got}")
    for key in dice:
        if key not in need:
            raise IllegalAction(f"{key} does not roll in this combat")
    resolve(state, dice, events)
