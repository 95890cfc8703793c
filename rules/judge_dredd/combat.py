"""One combat's life, for every kind: arrests (joint and competing), the Alien, Block Mania
and the end-of-game tie-break.

A combat goes: opened → cards committed (face-down unless the Psi-Judge's rule
makes them face-up) → ``reveal`` → ``roll`` (dice are inputs) → resolved.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from lawmaster.rules.core import IllegalAction, field, optional_field, public

from .state import (
    State,
    base_strength,
    book,
    discard_action,
    is_,
    judge,
    ko,
    private,
    take_from_hand,
)

ALIEN_STRENGTH = 12


def open_combat(
    state: State, kind: str, sector: str | None, groups: list[list[str]], events: list
) -> None:
    """Start a combat of ``kind`` (arrest, alien, block, tiebreak) between ``groups``."""
    state["combat"] = {
        "kind": kind,
        "sector": sector,
        "groups": groups,
        "cards": [],
        "cooled": [],
        "revealed": False,
        "psi_first": [],
        "needed": None,
        "roller": None,
    }
    info: dict[str, Any] = {"kind": kind, "sector": sector, "groups": groups}
    if kind == "arrest":
        if sector is None:
            raise ValueError("an arrest is always in a Sector")  # an engine bug, not input
        info["perp"] = state["perps"][sector]["card"]
        info["perp_strength"] = perp_base(state, sector)
    elif kind == "alien":
        info["perp_strength"] = ALIEN_STRENGTH
    events.append(public("combat", **info))


def perp_base(state: State, sector: str) -> int:
    """A Perp's strength before cards and dice: its card plus every Crime in its Sector."""
    cards = book(state)
    return cards.perps[state["perps"][sector]["card"]] + sum(
        cards.crimes[c] for c in state["crimes"][sector]
    )


def participants(combat: Mapping[str, Any]) -> list[str]:
    return [s for g in combat["groups"] for s in g]


def group_of(combat: Mapping[str, Any], seat: str) -> int | None:
    for i, g in enumerate(combat["groups"]):
        if seat in g:
            return i
    return None


def _open_combat(state: State) -> dict[str, Any]:
    combat = state["combat"]
    if combat is None:
        raise IllegalAction("there is no combat going on")
    return combat


def commit(state: State, action: Mapping[str, Any], events: list) -> None:
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


def default_option(card: Any, controller: bool) -> str:
    """The option a player means when they do not say: their Judge's best use of the card."""
    if not controller:
        return "main"
    helps = card.effect.get("judge", 0) > 0 or card.effect.get("judge_dice", 0) > 0
    if card.fights and helps:
        return "main"
    return "alt" if card.shield is not None else "main"


def cool(state: State, action: Mapping[str, Any], events: list) -> None:
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


def card_effect(state: State, combat: Mapping[str, Any], entry: Mapping[str, Any]) -> dict:
    """What one committed card does: strength and extra dice for a group and the Perp."""
    card = book(state).actions[entry["card"]]
    gi = group_of(combat, entry["for"])
    out = {"group": gi, "judge": 0, "judge_dice": 0, "perp": 0, "perp_dice": 0, "counts": False}
    if entry["option"] == "alt":
        out["judge"] = card.shield or 0
        out["counts"] = True
        return out
    if not card.fights:
        return out  # a bluff
    out["counts"] = True
    out["judge"] = card.effect.get("judge", 0)
    out["judge_dice"] = card.effect.get("judge_dice", 0)
    if combat["kind"] == "arrest":
        out["perp"] = card.effect.get("perp", 0)
        out["perp_dice"] = card.effect.get("perp_dice", 0)
    # The Alien: cards helping Perps have no effect; Block Mania and the tie-break: no Perp.
    return out


def dice_needed(state: State, combat: Mapping[str, Any]) -> dict[str, int]:
    """Dice each group (by its first seat) and the Perp must roll."""
    need = {g[0]: 1 for g in combat["groups"]}
    perp = 1 if combat["kind"] == "arrest" else 0
    for entry in combat["cards"]:
        eff = card_effect(state, combat, entry)
        need[combat["groups"][eff["group"]][0]] += eff["judge_dice"]
        perp += eff["perp_dice"] if perp else 0
    if perp:
        need["perp"] = perp
    return need


def perp_roller(state: State, combat: Mapping[str, Any]) -> str | None:
    """Who rolls the Perp die: the other player who added most cards; ties go clockwise."""
    if combat["kind"] != "arrest":
        return None
    fighters = participants(combat)
    first = fighters[0]
    players = state["players"]
    i = players.index(first)
    clockwise = [p for p in players[i + 1 :] + players[:i]]
    others = [p for p in clockwise if p not in fighters]
    if not others:
        return clockwise[0] if clockwise else first
    counts = {p: sum(1 for c in combat["cards"] if c["by"] == p) for p in others}
    best = max(counts.values())
    return next(p for p in others if counts[p] == best)


def reveal(state: State, action: Mapping[str, Any], events: list) -> None:
    """``reveal``: everyone is done adding cards; every face-down card is turned up."""
    combat = _open_combat(state)
    if combat["revealed"]:
        raise IllegalAction("the cards are already revealed")
    combat["revealed"] = True
    shown = []
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


def _dice(action: Mapping[str, Any], combat: Mapping[str, Any]) -> dict[str, list[int]]:
    raw = optional_field(action, "dice", dict, {})
    raw = dict(raw)
    if "judge" in action:
        if len(combat["groups"]) != 1:
            raise IllegalAction("with several Judges or groups, give 'dice' by seat")
        raw[combat["groups"][0][0]] = action["judge"]
    if "perp" in action:
        raw["perp"] = action["perp"]
    out: dict[str, list[int]] = {}
    for key, faces in raw.items():
        if isinstance(faces, int) and not isinstance(faces, bool):
            faces = [faces]
        if not (isinstance(faces, list) and all(_face(f) for f in faces)):
            raise IllegalAction("dice results are whole numbers from 1 to 6")
        if key == "perp":
            out["perp"] = list(faces)
            continue
        gi = group_of(combat, key)
        if gi is None:
            raise IllegalAction(f"{key!r} is not rolling in this combat")
        lead = combat["groups"][gi][0]
        if lead in out:
            raise IllegalAction("a group of Judges rolls one set of dice; give it once")
        out[lead] = list(faces)
    return out


def _face(f: object) -> bool:
    return isinstance(f, int) and not isinstance(f, bool) and 1 <= f <= 6


def roll(state: State, action: Mapping[str, Any], events: list) -> None:
    """``roll``: the dice, then the combat is resolved."""
    combat = _open_combat(state)
    if not combat["revealed"]:
        raise IllegalAction("reveal the cards before rolling")
    dice = _dice(action, combat)
    need = combat["needed"]
    for key, n in need.items():
        got = len(dice.get(key, []))
        if got != n:
            who = "the Perp" if key == "perp" else key
            raise IllegalAction(f"{who} rolls {n} dice in this combat, not {got}")
    for key in dice:
        if key not in need:
            raise IllegalAction(f"{key} does not roll in this combat")
    resolve(state, dice, events)


def strengths(
    state: State, combat: Mapping[str, Any], dice: Mapping[str, list[int]]
) -> tuple[list[int], list[bool], int | None]:
    """Each group's strength and overheating, and the Perp's strength (None: no Perp)."""
    effects = [card_effect(state, combat, e) for e in combat["cards"]]
    totals, hot = [], []
    for gi, group in enumerate(combat["groups"]):
        faces = dice.get(group[0], [])
        total = sum(base_strength(state, s) for s in group) + sum(faces)
        total += sum(e["judge"] for e in effects if e["group"] == gi)
        mechs = [s for s in group if is_(state, s, "mechanismo")]
        total -= 2 * sum(1 for s in mechs if s in combat["cooled"])
        hot.append(any(s not in combat["cooled"] for s in mechs) and 6 in faces)
        totals.append(total)
    perp: int | None = None
    if combat["kind"] == "arrest":
        perp = perp_base(state, combat["sector"]) + sum(dice.get("perp", []))
        perp += sum(e["perp"] for e in effects)
    elif combat["kind"] == "alien":
        perp = ALIEN_STRENGTH
    return totals, hot, perp


def judge_outcomes(
    state: State, combat: Mapping[str, Any], totals: list[int], hot: list[bool], perp: int | None
) -> tuple[int | None, list[int], list[int]]:
    """For an arrest or Alien fight: the winning group, the tied groups, the KO'd groups."""
    if perp is None:
        raise ValueError("an arrest or Alien fight has a strength to beat")  # an engine bug
    kind = combat["kind"]
    beats, tied, koed = [], [], []
    for gi, group in enumerate(combat["groups"]):
        margin = totals[gi] - perp
        sjs = any(is_(state, s, "sjs") for s in group)
        if hot[gi] or margin < 0 or (margin == 0 and kind == "alien"):
            koed.append(gi)
        elif margin > 0 or sjs:
            beats.append(gi)
        else:
            tied.append(gi)
    winner = None
    if beats:
        # Largest margin; ties between Judges: the SJS, then the earliest in turn order.
        winner = min(
            beats,
            key=lambda gi: (
                -(totals[gi] - perp),
                not any(is_(state, s, "sjs") for s in combat["groups"][gi]),
                gi,
            ),
        )
    return winner, tied, koed


def resolve(state: State, dice: Mapping[str, list[int]], events: list) -> None:
    """Settle a rolled combat, then let the arrest phase go on."""
    from .arrests import advance, arrest, stop_crime  # arrests builds on this module

    combat = state["combat"]
    totals, hot, perp = strengths(state, combat, dice)
    kind = combat["kind"]
    result: dict[str, Any] = {
        "kind": kind,
        "groups": combat["groups"],
        "strengths": totals,
        "overheated": hot,
        "perp_strength": perp,
        "dice": dict(dice),
    }
    for seat in participants(combat):
        state["judges"][seat]["fought"] = True
    state["combat"] = None
    for entry in combat["cards"]:
        discard_action(state, entry["card"])
    escape = None
    if kind in ("arrest", "alien"):
        winner, tied, koed = judge_outcomes(state, combat, totals, hot, perp)
        result.update(winner=winner, tied=tied, koed=koed)
        events.append(public("combat_result", **result))
        sector = combat["sector"]
        if kind == "alien":
            if winner is not None:
                state["alien"] = None
                events.append(public("alien_defeated", sector=sector, by=combat["groups"][winner]))
        elif winner is not None:
            arrest(state, sector, combat["groups"][winner], events)
        elif tied:
            escape = stop_crime(state, sector, combat["groups"][tied[0]], combat["roller"], events)
        for gi in koed:
            for seat in combat["groups"][gi]:
                ko(state, seat, events)
    elif kind == "block":
        (a, b) = totals
        ha, hb = hot
        if ha or hb:
            out = [i for i, h in enumerate(hot) if h]
        elif a == b:
            # The SJS wins ties in combat; otherwise both are KO'd.
            sjs = [is_(state, combat["groups"][i][0], "sjs") for i in (0, 1)]
            out = [1 - sjs.index(True)] if any(sjs) else [0, 1]
        else:
            out = [0 if a < b else 1]
        result["koed"] = out
        events.append(public("combat_result", **result))
        for gi in out:
            ko(state, combat["groups"][gi][0], events)
    else:  # the final tie-break
        live = [gi for gi in range(len(totals)) if not hot[gi]] or list(range(len(totals)))
        best = max(totals[gi] for gi in live)
        top = [combat["groups"][gi][0] for gi in live if totals[gi] == best]
        top = [s for s in top if is_(state, s, "sjs")] or top  # the SJS wins ties
        result["top"] = top
        events.append(public("combat_result", **result))
        from .refill import tiebreak_done

        tiebreak_done(state, top, events)
        return
    if escape is not None:
        state["pending"] = escape
    advance(state, events)
