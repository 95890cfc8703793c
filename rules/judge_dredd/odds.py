"""Combat odds from one seat's point of view, exact over the cards it cannot see and the dice.

The model (also in the README): every card the seat can see (its own, face-up ones, all of
them once revealed) counts exactly as played. The face-down cards of other players are ``k``
different cards drawn, without replacement, from the Action cards the seat cannot place: all
cards except those in its own hand as the referee knows it, the discard pile as far as it is
known, the cards it can see in this combat, and Alert cards (never held: they are played the
moment they are drawn). So the same physical card never counts twice, and every ordered choice
of ``k`` of them is equally likely (:mod:`.odds_draws`). Such a card is assumed played with its
main effect, or, by a player whose own Judge it is played for, with whichever option helps
that Judge (as the referee's default). Dice are fair and enumerated exactly, Mechanismo's
overheating included.

:func:`exact_combat_odds` gives the probabilities as computed; :func:`combat_odds`, the one the
seat's view carries, rounds them to six places.
"""

from __future__ import annotations

from collections import Counter

import numpy as np

from .cards import CardBook
from .fight import ALIEN_STRENGTH, card_effect, default_option, group_of, perp_base
from .odds_draws import summed_effects
from .odds_groups import Floats, Ints, Side, against_perp, alone, duel
from .state import CardPlay, Combat, CombatCard, State, base_strength, combat_sector, is_

Vector = tuple[int, ...]
#: One group of a combat: fixed strength, dice count, Mechanismo may overheat, SJS wins ties.
Group = tuple[int, int, bool, bool]
Odds = dict[str, float]


def _vector(state: State, combat: Combat, entry: CardPlay) -> Vector:
    """A card's effect as (group 0 net strength, group 0 extra dice, ..., extra Perp dice).

    Only margins over the Perp matter, so a card adding to the Perp is folded in as the same
    amount off every group: fewer distinct vectors to enumerate.
    """
    eff = card_effect(state, combat, entry)
    groups = len(combat["groups"])
    vec = [0] * (2 * groups + 1)
    for gi in range(groups):
        vec[2 * gi] = -eff["perp"]
    gi = eff["group"]
    vec[2 * gi] += eff["judge"]
    vec[2 * gi + 1] = eff["judge_dice"]
    vec[-1] = eff["perp_dice"]
    return tuple(vec)


def candidate_pool(state: State, seat: str, visible: list[str]) -> list[str]:
    """The Action cards ``seat`` cannot place: what another player's face-down card may be."""
    cards: CardBook = state["cards"]
    ruled_out = set(state["judges"][seat]["known"]) | set(state["action_discard"]) | set(visible)
    return [c for c, a in cards.actions.items() if a.type != "alert" and c not in ruled_out]


def combat_odds(state: State, seat: str) -> dict[str, float] | None:
    """P(win), P(tie), P(lose) for ``seat``'s Judge, rounded to six places (the seat's view)."""
    odds = exact_combat_odds(state, seat)
    return None if odds is None else {k: round(v, 6) for k, v in odds.items()}


def exact_combat_odds(state: State, seat: str) -> dict[str, float] | None:
    """P(win), P(tie), P(lose) for ``seat``'s Judge in the current combat, or None."""
    combat = state.get("combat")
    if not combat or seat not in state["judges"]:
        return None
    me = group_of(combat, seat)
    if me is None:
        return None
    known, unknown, base = seen_cards(state, combat, seat)
    if unknown:
        effects, weights = unknown_effects(state, combat, seat, known, unknown)
        totals = effects + np.array(base, dtype=np.int64)
    else:
        totals, weights = np.array([base], dtype=np.int64), np.ones(1)
    return _score(state, combat, totals, weights, me)


def seen_cards(
    state: State, combat: Combat, seat: str
) -> tuple[list[CombatCard], list[CombatCard], Vector]:
    """The cards ``seat`` can see, those it cannot, and the summed effect of the first."""
    known = [e for e in combat["cards"] if combat["revealed"] or e["face_up"] or e["by"] == seat]
    unknown = [e for e in combat["cards"] if e not in known]
    base = [0] * (2 * len(combat["groups"]) + 1)
    for e in known:
        for i, v in enumerate(_vector(state, combat, e)):
            base[i] += v
    return known, unknown, tuple(base)


def unknown_effects(
    state: State,
    combat: Combat,
    seat: str,
    known: list[CombatCard],
    unknown: list[CombatCard],
) -> tuple[Ints, Floats]:
    """The distribution of the summed effect of the cards ``seat`` cannot see: the possible
    sums (one effect vector a row) and their probabilities.

    Each face-down card's slot is its class: the group it is played for, and whether by a
    player of that group (who would use the card's shield badge rather than sabotage his
    own Judge). Pool cards with the same effect in every class are one type.
    """
    slots: Counter[tuple[int, bool]] = Counter()
    for e in unknown:
        gi = group_of(combat, e["for"])
        if gi is None:
            raise ValueError(f"a card committed for {e['for']}, who is not in this combat")
        slots[(gi, e["by"] in combat["groups"][gi])] += 1
    classes = sorted(slots)
    cards: CardBook = state["cards"]
    profiles: Counter[tuple[Vector, ...]] = Counter()
    for c in candidate_pool(state, seat, [e["card"] for e in known]):
        profiles[
            tuple(
                _vector(
                    state,
                    combat,
                    {
                        "for": combat["groups"][gi][0],
                        "card": c,
                        "option": default_option(cards.actions[c], controller),
                    },
                )
                for gi, controller in classes
            )
        ] += 1
    types = [(n, list(profile)) for profile, n in sorted(profiles.items())]
    return summed_effects(types, [slots[c] for c in classes])


def _groups(state: State, combat: Combat, vec: Vector) -> list[Group]:
    """Per group: fixed strength, dice count, Mechanismo may overheat, SJS wins ties."""
    out: list[Group] = []
    for gi, group in enumerate(combat["groups"]):
        fixed = sum(base_strength(state, s) for s in group) + vec[2 * gi]
        mechs = [s for s in group if is_(state, s, "mechanismo")]
        fixed -= 2 * sum(1 for s in mechs if s in combat["cooled"])
        hot = any(s not in combat["cooled"] for s in mechs)
        sjs = any(is_(state, s, "sjs") for s in group)
        out.append((fixed, 1 + vec[2 * gi + 1], hot, sjs))
    return out


def _score(state: State, combat: Combat, totals: Ints, weights: Floats, me: int) -> Odds:
    """P(win/tie/lose) for group ``me`` over every summed card effect (a row of ``totals``,
    with its probability): exact over the dice (:mod:`.odds_groups`). Effects that give the
    same numbers of dice differ only in strengths, and are scored together."""
    kind = combat["kind"]
    count = len(combat["groups"])
    fixed = _groups(state, combat, (0,) * (2 * count + 1))
    sides = [Side(mech, sjs) for _, _, mech, sjs in fixed]
    alien = kind == "alien"
    perp = 0
    if kind in ("arrest", "alien"):
        perp = ALIEN_STRENGTH if alien else perp_base(state, combat_sector(combat))
    dice_columns = [2 * g + 1 for g in range(count)] + [2 * count]
    extra = totals[:, dice_columns]
    # One integer per row for its numbers of extra dice (mixed radix), to group rows by.
    low = extra.min(axis=0)
    strides = np.cumprod(np.concatenate(([1], extra.max(axis=0)[:-1] - low[:-1] + 1)))
    code = (extra - low) @ strides
    win = tie = lose = 0.0
    for key in np.unique(code).tolist():
        chosen = code == key
        counts = extra[chosen][0].tolist()
        w = weights[chosen]
        strengths = [fixed[g][0] + totals[chosen, 2 * g] for g in range(count)]
        dice = [1 + n for n in counts[:count]]
        perp_dice = 0 if kind != "arrest" else 1 + counts[-1]
        if kind not in ("arrest", "alien"):
            part = duel(sides, strengths, dice, w, me)
        elif count == 1:
            part = alone(alien, sides[0], strengths[0], dice[0], perp, perp_dice, w)
        else:
            part = against_perp(alien, sides, strengths, dice, perp, perp_dice, w, me)
        win, tie, lose = win + part[0], tie + part[1], lose + part[2]
    return {"win": win, "tie": tie, "lose": lose}
