"""Odds for combats of several groups (competing arrests, the Alien, Block Mania, the final
tie-break), exact under the model of :mod:`.odds` but without enumerating every joint effect.

Each unknown card hits either the Perp or the group it is played for (never both, in the
card data). Given how many cards of each kind hit the Perp, the groups' totals and the Perp's
total are independent, so every count is one product of small one-dimensional
distributions, and the chance that no rival outranks a group is a product over rivals.
"""

from __future__ import annotations

import bisect
import itertools
from collections.abc import Sequence
from math import comb
from typing import TypedDict

from .dice import dice_sums

Dist = dict[tuple[int, bool], float]
#: One group of a combat: fixed strength, dice count, Mechanismo may overheat, SJS wins ties.
Group = tuple[int, int, bool, bool]


class CardHit(TypedDict):
    """What a candidate card adds: strength and extra dice, to its group or to the Perp."""

    judge: int
    judge_dice: int
    perp: int
    perp_dice: int


ZERO: Dist = {(0, False): 1.0}


class NotSplittable(Exception):
    """A candidate card hits both a group and the Perp: the caller enumerates jointly."""


def convolve(a: Dist, b: Dist) -> Dist:
    """The distribution of the sum of two independent (total, overheated) variables."""
    if b is ZERO:
        return a
    out: Dist = {}
    for (x, hx), p in a.items():
        for (y, hy), q in b.items():
            key = (x + y, hx or hy)
            out[key] = out.get(key, 0.0) + p * q
    return out


def dice_dist(n: int, mech: bool, shift: int = 0) -> Dist:
    return {(shift + s, hot): p for s, hot, p in dice_sums(n, mech)}


def _powers(d: Dist, k: int) -> list[Dist]:
    out = [ZERO]
    for _ in range(k):
        out.append(convolve(out[-1], d) if out[-1] is not ZERO else dict(d))
    return out


class CardClass:
    """Unknown cards played for one group by the same kind of player: k draws from one mix."""

    def __init__(self, group: int, count: int, effects: Sequence[CardHit], mech: bool):
        self.group = group
        self.count = count
        perp: Dist = {}
        side: Dist = {}
        hits = 0
        for eff in effects:
            on_perp = eff["perp"] or eff["perp_dice"]
            on_group = eff["judge"] or eff["judge_dice"]
            if on_perp and on_group:
                raise NotSplittable
            if on_perp:
                hits += 1
                for key, p in dice_dist(eff["perp_dice"], False, eff["perp"]).items():
                    perp[key] = perp.get(key, 0.0) + p
            else:
                for key, p in dice_dist(eff["judge_dice"], mech, eff["judge"]).items():
                    side[key] = side.get(key, 0.0) + p
        self.p_perp = hits / len(effects)
        self.perp_pow = _powers({k: v / hits for k, v in perp.items()}, count) if hits else []
        rest = len(effects) - hits
        self.side_pow = _powers({k: v / rest for k, v in side.items()}, count) if rest else []

    def splits(self) -> range:
        if self.p_perp == 0:
            return range(0, 1)
        if self.p_perp == 1:
            return range(self.count, self.count + 1)
        return range(self.count + 1)

    def weight(self, hits: int) -> float:
        p = self.p_perp
        return comb(self.count, hits) * p**hits * (1 - p) ** (self.count - hits)


def multi_odds(
    kind: str,
    groups: list[Group],
    perp_fixed: int,
    perp_dice: int,
    classes: list[CardClass],
    me: int,
) -> dict[str, float]:
    """P(win/tie/lose) for group ``me``; ``groups`` are (fixed, dice, Mechanismo, SJS)."""
    out = {"win": 0.0, "tie": 0.0, "lose": 0.0}
    base_perp = dice_dist(perp_dice, False, perp_fixed)
    bases = [dice_dist(n, mech, fixed) for fixed, n, mech, _ in groups]
    for split in itertools.product(*(c.splits() for c in classes)):
        weight = 1.0
        for c, hits in zip(classes, split, strict=True):
            weight *= c.weight(hits)
        if weight == 0.0:
            continue
        perp = base_perp
        totals = list(bases)
        for c, hits in zip(classes, split, strict=True):
            if hits:
                perp = convolve(perp, c.perp_pow[hits])
            if c.count - hits:
                totals[c.group] = convolve(totals[c.group], c.side_pow[c.count - hits])
        sjs = [g[3] for g in groups]
        if kind in ("arrest", "alien"):
            part = _against_perp(kind, sjs, perp, totals, me)
        else:
            part = _duel(sjs, totals, me)
        for key in out:
            out[key] += weight * part[key]
    return out


class _Tail:
    """P(total >= x) and P(total == x) for a group's totals that did not overheat."""

    def __init__(self, dist: Dist):
        cool: dict[int, float] = {}
        self.hot = 0.0
        for (t, hot), p in dist.items():
            if hot:
                self.hot += p
            else:
                cool[t] = cool.get(t, 0.0) + p
        self.keys = sorted(cool)
        self.point = cool
        self.suffix = list(itertools.accumulate(reversed([cool[k] for k in self.keys])))[::-1]

    def at_least(self, x: int) -> float:
        i = bisect.bisect_left(self.keys, x)
        return self.suffix[i] if i < len(self.keys) else 0.0

    def exactly(self, x: int) -> float:
        return self.point.get(x, 0.0)


def _against_perp(
    kind: str, sjs: list[bool], perp: Dist, totals: list[Dist], me: int
) -> dict[str, float]:
    out = {"win": 0.0, "tie": 0.0, "lose": 0.0}
    # Equal margins: the SJS first, then the earliest in turn order (the group's index).
    rank = [(not s, gi) for gi, s in enumerate(sjs)]
    rivals = [(_Tail(totals[r]), rank[r] < rank[me]) for r in range(len(totals)) if r != me]
    for (p_total, _), pp in perp.items():
        for (total, hot), q in totals[me].items():
            weight = pp * q
            margin = total - p_total
            if hot or margin < 0 or (margin == 0 and kind == "alien"):
                out["lose"] += weight
            elif margin > 0 or sjs[me]:
                clear = 1.0
                for tail, ahead in rivals:
                    beat = tail.at_least(p_total + margin + 1)
                    if ahead and margin > 0:
                        beat += tail.exactly(p_total + margin)
                    clear *= 1.0 - beat
                out["win"] += weight * clear
                out["tie"] += weight * (1.0 - clear)
            else:
                out["tie"] += weight
    return out


def _duel(sjs: list[bool], totals: list[Dist], me: int) -> dict[str, float]:
    """Block Mania and the tie-break: highest total wins, the SJS wins ties, a 6 overheats."""
    out = {"win": 0.0, "tie": 0.0, "lose": 0.0}
    rivals = [(_Tail(totals[r]), sjs[r]) for r in range(len(totals)) if r != me]
    for (total, hot), q in totals[me].items():
        if hot:
            out["lose"] += q
            continue
        below = below_or_level = 1.0
        for tail, rival_sjs in rivals:
            under = 1.0 - tail.at_least(total)  # overheated, or a lower total
            level = tail.exactly(total)
            if sjs[me]:
                under, level = under + level, 0.0
            elif rival_sjs:
                level = 0.0
            below *= under
            below_or_level *= under + level
        out["win"] += q * below
        out["tie"] += q * (below_or_level - below)
        out["lose"] += q * (1.0 - below_or_level)
    return out
