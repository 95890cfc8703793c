"""What a combat is made of: opening one, what each committed card does, the dice each side
rolls, who rolls the Perp die, the strengths and who wins.

These read the state (``open_combat`` only puts a new combat in it); playing cards into a
combat and rolling are in :mod:`.combat`, settling it in :mod:`.arrests`.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TypedDict

from lawmaster.rules.core import Event, JsonObject, public

from .cards import ActionCard
from .state import (
    CardPlay,
    Combat,
    CombatKind,
    State,
    base_strength,
    book,
    combat_sector,
    is_,
    perp_card,
    perp_in,
)

ALIEN_STRENGTH = 12


class Effect(TypedDict):
    """What one committed card does in its combat."""

    #: The group it is played for.
    group: int
    judge: int
    judge_dice: int
    perp: int
    perp_dice: int
    #: False for a bluff: a card with no effect in combat.
    counts: bool


def open_combat(
    state: State,
    kind: CombatKind,
    sector: str | None,
    groups: list[list[str]],
    events: list[Event],
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
    info: JsonObject = {"kind": kind, "sector": sector, "groups": groups}
    if kind == "arrest":
        if sector is None:
            raise ValueError("an arrest is always in a Sector")  # an engine bug, not input
        info["perp"] = perp_in(state, sector)["card"]
        info["perp_strength"] = perp_base(state, sector)
    elif kind == "alien":
        info["perp_strength"] = ALIEN_STRENGTH
    events.append(public("combat", **info))


def perp_base(state: State, sector: str) -> int:
    """A Perp's strength before cards and dice: its card plus every Crime in its Sector."""
    cards = book(state)
    return cards.perps[perp_card(perp_in(state, sector))] + sum(
        cards.crimes[c] for c in state["crimes"][sector]
    )


def participants(combat: Combat) -> list[str]:
    return [s for g in combat["groups"] for s in g]


def group_of(combat: Combat, seat: str) -> int | None:
    for i, g in enumerate(combat["groups"]):
        if seat in g:
            return i
    return None


def default_option(card: ActionCard, controller: bool) -> str:
    """The option a player means when they do not say: their Judge's best use of the card."""
    if not controller:
        return "main"
    helps = card.effect.get("judge", 0) > 0 or card.effect.get("judge_dice", 0) > 0
    if card.fights and helps:
        return "main"
    return "alt" if card.shield is not None else "main"


def card_effect(state: State, combat: Combat, entry: CardPlay) -> Effect:
    """What one committed card does: strength and extra dice for a group and the Perp."""
    card = book(state).actions[entry["card"]]
    gi = group_of(combat, entry["for"])
    if gi is None:
        # ``commit`` takes cards only for a Judge in the combat; an engine bug, not input.
        raise ValueError(f"a card committed for {entry['for']}, who is not in this combat")
    out: Effect = {
        "group": gi,
        "judge": 0,
        "judge_dice": 0,
        "perp": 0,
        "perp_dice": 0,
        "counts": False,
    }
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


def dice_needed(state: State, combat: Combat) -> dict[str, int]:
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


def perp_roller(state: State, combat: Combat) -> str | None:
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


def strengths(
    state: State, combat: Combat, dice: Mapping[str, list[int]]
) -> tuple[list[int], list[bool], int | None]:
    """Each group's strength and overheating, and the Perp's strength (None: no Perp)."""
    effects = [card_effect(state, combat, e) for e in combat["cards"]]
    totals: list[int] = []
    hot: list[bool] = []
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
        perp = perp_base(state, combat_sector(combat)) + sum(dice.get("perp", []))
        perp += sum(e["perp"] for e in effects)
    elif combat["kind"] == "alien":
        perp = ALIEN_STRENGTH
    return totals, hot, perp


def judge_outcomes(
    state: State, combat: Combat, totals: list[int], hot: list[bool], perp: int | None
) -> tuple[int | None, list[int], list[int]]:
    """For an arrest or Alien fight: the winning group, the tied groups, the KO'd groups."""
    if perp is None:
        raise ValueError("an arrest or Alien fight has a strength to beat")  # an engine bug
    kind = combat["kind"]
    beats: list[int] = []
    tied: list[int] = []
    koed: list[int] = []
    for gi, group in enumerate(combat["groups"]):
        margin = totals[gi] - perp
        sjs = any(is_(state, s, "sjs") for s in group)
        if hot[gi] or margin < 0 or (margin == 0 and kind == "alien"):
            koed.append(gi)
        elif margin > 0 or sjs:
            beats.append(gi)
        else:
            tied.append(gi)
    winner: int | None = None
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
