"""Combat odds from one seat's point of view, by exact enumeration over the dice.

The model (also in the README): every card the seat can see (its own, face-up
ones, all of them once revealed) counts exactly as played. Each face-down card
of another player is treated as an independent draw, uniform over the Action
cards that seat cannot rule out: all cards except those in its own known hand,
the discard pile, the cards it can see in this combat, and Alert cards (never
held: they are played the moment they are drawn). Such a card is assumed played
with its main effect, or, by a player whose own Judge it is played for, with
whichever option helps that Judge (as the referee's default). Dice are fair and
enumerated exactly, Mechanismo's overheating included.
"""

from __future__ import annotations

import itertools
from collections import Counter

from .cards import CardBook
from .dice import dice_difference, dice_sums
from .fight import ALIEN_STRENGTH, card_effect, default_option, group_of, perp_base
from .odds_multi import CardClass, Group, NotSplittable, multi_odds
from .state import CardPlay, Combat, CombatCard, State, base_strength, combat_sector, is_

Vector = tuple[int, ...]


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
    """The Action cards ``seat`` cannot rule out for someone else's face-down card."""
    cards: CardBook = state["cards"]
    ruled_out = set(state["judges"][seat]["known"]) | set(state["action_discard"]) | set(visible)
    return [c for c, a in cards.actions.items() if a.type != "alert" and c not in ruled_out]


def combat_odds(state: State, seat: str) -> dict[str, float] | None:
    """P(win), P(tie), P(lose) for ``seat``'s Judge in the current combat, or None."""
    combat = state.get("combat")
    if not combat or seat not in state["judges"]:
        return None
    me = group_of(combat, seat)
    if me is None:
        return None
    known, unknown, base = seen_cards(state, combat, seat)
    if len(combat["groups"]) == 1 and combat["kind"] in ("arrest", "alien"):
        return _single(state, combat, base, mixtures(state, combat, seat, known, unknown))
    try:
        return _split(state, combat, base, unknown, seat, known, me)
    except NotSplittable:
        # A card hitting a group and the Perp at once: enumerate the joint effects.
        mixed = mixtures(state, combat, seat, known, unknown)
        return joint_odds(state, combat, base, mixed, me)


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


def mixtures(
    state: State,
    combat: Combat,
    seat: str,
    known: list[CombatCard],
    unknown: list[CombatCard],
) -> list[Counter[Vector]]:
    """For each unknown card, how many candidate cards give each effect vector."""
    out: list[Counter[Vector]] = []
    if not unknown:
        return out
    pool = candidate_pool(state, seat, [e["card"] for e in known])
    cards: CardBook = state["cards"]
    for e in unknown:
        gi = group_of(combat, e["for"])
        if gi is None:
            raise ValueError(f"a card committed for {e['for']}, who is not in this combat")
        controller = e["by"] in combat["groups"][gi]
        counts: Counter[Vector] = Counter()
        for c in pool:
            option = default_option(cards.actions[c], controller)
            counts[_vector(state, combat, {"for": e["for"], "card": c, "option": option})] += 1
        out.append(counts)
    return out


def joint_odds(
    state: State, combat: Combat, base: Vector, mixtures: list[Counter[Vector]], me: int
) -> dict[str, float]:
    """The general method: every joint effect of the unknown cards, then the dice."""
    dist: dict[Vector, float] = {tuple([0] * len(base)): 1.0}
    for counts in mixtures:
        if counts:
            total = sum(counts.values())
            nxt: dict[Vector, float] = {}
            for v, p in dist.items():
                for w, n in counts.items():
                    key = tuple(a + b for a, b in zip(v, w, strict=True))
                    nxt[key] = nxt.get(key, 0.0) + p * n / total
            dist = nxt
    result = {"win": 0.0, "tie": 0.0, "lose": 0.0}
    for vec, p in dist.items():
        full = tuple(a + b for a, b in zip(vec, base, strict=True))
        for outcome, q in _outcomes(state, combat, full, me).items():
            result[outcome] += p * q
    return {k: round(v, 6) for k, v in result.items()}


def _split(
    state: State,
    combat: Combat,
    base: Vector,
    unknown: list[CombatCard],
    seat: str,
    known: list[CombatCard],
    me: int,
) -> dict[str, float]:
    """Several groups: see :mod:`.odds_multi`."""
    groups = _groups(state, combat, base)
    kind = combat["kind"]
    if kind == "arrest":
        perp_fixed, perp_dice = perp_base(state, combat_sector(combat)), 1 + base[-1]
    elif kind == "alien":
        perp_fixed, perp_dice = ALIEN_STRENGTH, 0
    else:
        perp_fixed, perp_dice = 0, 0
    counts: Counter[tuple[int, bool]] = Counter()
    for e in unknown:
        gi = group_of(combat, e["for"])
        if gi is None:
            raise ValueError(f"a card committed for {e['for']}, who is not in this combat")
        counts[(gi, e["by"] in combat["groups"][gi])] += 1
    classes = []
    if counts:
        pool = candidate_pool(state, seat, [e["card"] for e in known])
        cards: CardBook = state["cards"]
        for (gi, controller), k in sorted(counts.items()):
            lead = combat["groups"][gi][0]
            effects = [
                card_effect(
                    state,
                    combat,
                    {
                        "for": lead,
                        "card": c,
                        "option": default_option(cards.actions[c], controller),
                    },
                )
                for c in pool
            ]
            classes.append(CardClass(gi, k, effects, groups[gi][2]))
    odds = multi_odds(kind, groups, perp_fixed, perp_dice, classes, me)
    return {k: round(v, 6) for k, v in odds.items()}


def _single(
    state: State, combat: Combat, base: Vector, mixtures: list[Counter[Vector]]
) -> dict[str, float]:
    """One group against the Perp or the Alien: only the margin and overheating matter, so each
    unknown card becomes a distribution over (margin change, overheated), its extra dice rolled
    in, and the cards convolve in one dimension."""
    fixed, n, mech, sjs = _groups(state, combat, base)[0]
    alien = combat["kind"] == "alien"
    perp = ALIEN_STRENGTH if alien else perp_base(state, combat_sector(combat))
    perp_dice = 0 if alien else 1 + base[-1]
    dist: dict[tuple[int, bool], float] = {}
    for diff, hot, p in dice_difference(n, mech, perp_dice):
        key = (fixed - perp + diff, hot)
        dist[key] = dist.get(key, 0.0) + p
    for counts in mixtures:
        total = sum(counts.values())
        card: dict[tuple[int, bool], float] = {}
        for (net, extra, perp_extra), k in counts.items():
            for diff, hot, p in dice_difference(extra, mech, 0 if alien else perp_extra):
                key = (net + diff, hot)
                card[key] = card.get(key, 0.0) + p * k / total
        nxt: dict[tuple[int, bool], float] = {}
        for (m1, h1), p1 in dist.items():
            for (m2, h2), p2 in card.items():
                key = (m1 + m2, h1 or h2)
                nxt[key] = nxt.get(key, 0.0) + p1 * p2
        dist = nxt
    out = {"win": 0.0, "tie": 0.0, "lose": 0.0}
    for (margin, hot), p in dist.items():
        if hot or margin < 0 or (margin == 0 and alien):
            out["lose"] += p
        elif margin > 0 or sjs:
            out["win"] += p
        else:
            out["tie"] += p
    return {k: round(v, 6) for k, v in out.items()}


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


def _outcomes(state: State, combat: Combat, vec: Vector, me: int) -> dict[str, float]:
    kind = combat["kind"]
    groups = _groups(state, combat, vec)
    if kind == "arrest":
        perp_fixed, perp_dice = perp_base(state, combat_sector(combat)), 1 + vec[-1]
    elif kind == "alien":
        perp_fixed, perp_dice = ALIEN_STRENGTH, 0
    else:
        perp_fixed, perp_dice = 0, 0
    out = {"win": 0.0, "tie": 0.0, "lose": 0.0}
    if kind in ("arrest", "alien") and len(groups) == 1:
        fixed, n, mech, sjs = groups[0]
        for diff, hot, p in dice_difference(n, mech, perp_dice):
            margin = fixed - perp_fixed + diff
            if hot or margin < 0 or (margin == 0 and kind == "alien"):
                out["lose"] += p
            elif margin > 0 or sjs:
                out["win"] += p
            else:
                out["tie"] += p
        return out
    if kind in ("arrest", "alien"):
        return _competing(kind, groups, perp_fixed, perp_dice, me)
    dists = [dice_sums(n, mech) for _, n, mech, _ in groups]
    perp_dist = dice_sums(perp_dice, False)
    for combo in itertools.product(*dists, perp_dist):
        p = 1.0
        for _, _, q in combo:
            p *= q
        totals = [g[0] + combo[i][0] for i, g in enumerate(groups)]
        hots = [combo[i][1] for i in range(len(groups))]
        out[_classify(kind, groups, totals, hots, perp_fixed + combo[-1][0], me)] += p
    return out


def _competing(
    kind: str, groups: list[Group], perp_fixed: int, perp_dice: int, me: int
) -> dict[str, float]:
    """Competing arrests, factorised: given the Perp's roll the groups are independent, so
    P(nobody outranks me) is a product over the other groups."""
    out = {"win": 0.0, "tie": 0.0, "lose": 0.0}
    dists = [dice_sums(n, mech) for _, n, mech, _ in groups]
    # Equal margins: the SJS first, then the earliest in turn order (the group's index).
    rank = [(not g[3], gi) for gi, g in enumerate(groups)]
    fixed, _, _, sjs = groups[me]
    for perp_roll, _, pp in dice_sums(perp_dice, False):
        perp = perp_fixed + perp_roll
        rivals = []
        for gi, (g_fixed, _, _, g_sjs) in enumerate(groups):
            if gi == me:
                continue
            beats: dict[int, float] = {}
            for roll, hot, q in dists[gi]:
                margin = g_fixed + roll - perp
                if hot or margin < 0 or (margin == 0 and kind == "alien"):
                    continue
                if margin > 0 or g_sjs:
                    beats[margin] = beats.get(margin, 0.0) + q
            rivals.append((rank[gi] < rank[me], beats))
        for roll, hot, q in dists[me]:
            weight = pp * q
            margin = fixed + roll - perp
            if hot or margin < 0 or (margin == 0 and kind == "alien"):
                out["lose"] += weight
            elif margin > 0 or sjs:
                clear = 1.0
                for ahead, beats in rivals:
                    clear *= 1.0 - sum(
                        p for m, p in beats.items() if m > margin or (m == margin and ahead)
                    )
                out["win"] += weight * clear
                out["tie"] += weight * (1.0 - clear)
            else:
                out["tie"] += weight
    return out


def _classify(
    kind: str, groups: list[Group], totals: list[int], hots: list[bool], perp: int, me: int
) -> str:
    if kind == "block":
        if hots[me]:
            return "lose"
        other = 1 - me
        if hots[other] or totals[me] > totals[other]:
            return "win"
        if totals[me] < totals[other]:
            return "lose"
        sjs_me, sjs_other = groups[me][3], groups[other][3]
        return "win" if sjs_me else "lose" if sjs_other else "tie"
    if kind == "tiebreak":
        live = [i for i in range(len(totals)) if not hots[i]]
        if me not in live:
            return "lose"
        best = max(totals[i] for i in live)
        top = [i for i in live if totals[i] == best]
        if totals[me] < best:
            return "lose"
        top = [i for i in top if groups[i][3]] or top
        if me not in top:
            return "lose"
        return "win" if len(top) == 1 else "tie"
    beats, koed = [], []
    for gi, (_, _, _, sjs) in enumerate(groups):
        margin = totals[gi] - perp
        if hots[gi] or margin < 0 or (margin == 0 and kind == "alien"):
            koed.append(gi)
        elif margin > 0 or sjs:
            beats.append(gi)
    if me in koed:
        return "lose"
    if beats:
        winner = min(beats, key=lambda gi: (-(totals[gi] - perp), not groups[gi][3], gi))
        if winner == me:
            return "win"
    return "tie"
