"""Combats of several groups (competing arrests, the Alien, Block Mania, the final tie-break):
one group's chance of each result, exact over the dice, for many card effects at once.

The face-down cards a seat cannot see give many possible summed effects (:mod:`.odds_draws`),
each a strength before dice for every group and a number of dice for every group and the
Perp. Effects with the same numbers of dice differ only in the strengths, so they are scored
together, as numpy arrays over the strengths, against the same dice tables.

Given one roll of the seat's own dice (total ``T``, or overheated), the other groups and the
Perp are independent of each other, and whether another group outranks the seat's depends
only on its total against ``T``: a group ahead of the seat beats the Perp by at least as much
(``R - P >= T - P``). So each roll of the seat's dice costs one table lookup per other group.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

import numpy as np
import numpy.typing as npt

from .dice import dice_difference, dice_sums

Ints = npt.NDArray[np.int64]
Floats = npt.NDArray[np.float64]
#: Win, tie, lose.
Result = tuple[float, float, float]


@dataclass(frozen=True)
class Side:
    """One group in a combat: Mechanismo may overheat, the SJS wins ties."""

    mech: bool
    sjs: bool


@dataclass(frozen=True)
class _Table:
    """A roll's result (a total of dice, or a difference of two totals): the overheated
    mass, and for the rolls that did not overheat P(result = t) and P(result <= t) as
    arrays from the lowest result."""

    low: int
    hot: float
    point: Floats
    upto: Floats  # upto[i] = P(cool, total <= low + i - 1); upto[0] = 0

    def equal(self, t: Ints) -> Floats:
        """P(not overheated and total == t), elementwise."""
        i = t - self.low
        inside = (i >= 0) & (i < len(self.point))
        return np.where(inside, self.point[np.clip(i, 0, len(self.point) - 1)], 0.0)

    def at_most(self, t: Ints) -> Floats:
        """P(not overheated and total <= t), elementwise."""
        return self.upto[np.clip(t - self.low + 1, 0, len(self.upto) - 1)]

    @property
    def cool(self) -> float:
        return float(self.upto[-1])


def _table(results: tuple[tuple[int, bool, float], ...]) -> _Table:
    low = min(r for r, _, _ in results)
    point = np.zeros(max(r for r, _, _ in results) - low + 1)
    hot = 0.0
    for result, overheated, p in results:
        if overheated:
            hot += p
        else:
            point[result - low] += p
    upto = np.concatenate(([0.0], np.cumsum(point)))
    return _Table(low, hot, point, upto)


@lru_cache(maxsize=256)
def _dice(n: int, mech: bool) -> _Table:
    """The total of ``n`` dice (Mechanismo's overheat on any 6)."""
    return _table(dice_sums(n, mech))


@lru_cache(maxsize=512)
def _difference(judge: int, mech: bool, perp: int) -> _Table:
    """A group's dice total minus the Perp's."""
    return _table(dice_difference(judge, mech, perp))


def alone(
    alien: bool,
    side: Side,
    strength: Ints,
    dice: int,
    perp: int,
    perp_dice: int,
    weights: Floats,
) -> Result:
    """One group against the Perp (or the Alien), for each effect's strength before dice:
    win = the arrest, lose = KO'd (the Alien and overheating included), tie = the rest."""
    table = _difference(dice, side.mech, perp_dice)
    need = perp - strength  # the group's dice must beat the Perp's by more than this
    below = table.at_most(need - 1)
    level = table.equal(need)
    above = table.cool - below - level
    lose = table.hot + below
    if alien:
        return _sums(weights, above, np.zeros_like(level), lose + level)
    if side.sjs:
        return _sums(weights, above + level, np.zeros_like(level), lose)
    return _sums(weights, above, level, lose)


def _sums(weights: Floats, win: Floats, tie: Floats, lose: Floats) -> Result:
    return float(weights @ win), float(weights @ tie), float(weights @ lose)


def _rolls(n: int, mech: bool) -> tuple[Ints, Floats, float]:
    """A group's own dice: the totals that did not overheat, their chances, and the
    overheated mass."""
    table = _dice(n, mech)
    keep = table.point > 0
    totals = np.arange(table.low, table.low + len(table.point), dtype=np.int64)[keep]
    return totals, table.point[keep], table.hot


def against_perp(
    alien: bool,
    sides: list[Side],
    strengths: list[Ints],
    dice: list[int],
    perp: int,
    perp_dice: int,
    weights: Floats,
    me: int,
) -> Result:
    """Groups against the Perp (or the Alien): win = my group makes the arrest, lose = it
    is KO'd. ``strengths[g]``: each effect's strength of group ``g`` before its ``dice[g]``
    dice; ``perp`` and ``perp_dice`` the Perp's; ``weights`` each effect's probability.

    Arrays run over (effect, my roll): my total ``T`` for each of my rolls that did not
    overheat; an overheated roll KOs my Judge whatever the rest.
    """
    totals, chances, hot = _rolls(dice[me], sides[me].mech)
    mine = strengths[me][:, None] + totals[None, :]
    # Equal margins go to the SJS, then to the earliest group in turn order.
    rank = [(not s.sjs, g) for g, s in enumerate(sides)]
    clear = np.ones(mine.shape)  # no other group outranks mine
    for r, side in enumerate(sides):
        if r != me:
            roll = _dice(dice[r], side.mech)
            # r outranks me with a higher total, or an equal one when it ranks first.
            first = 1 if rank[r] < rank[me] else 0
            clear *= roll.hot + roll.at_most(mine - strengths[r][:, None] - first)
    # The Perp's total against mine: under (I beat it), level, over (I am KO'd).
    need = mine - perp
    if perp_dice:
        table = _dice(perp_dice, False)
        under, level = table.at_most(need - 1), table.equal(need)
    else:
        under, level = (need > 0).astype(np.float64), (need == 0).astype(np.float64)
    over = 1.0 - under - level
    if sides[me].sjs and not alien:
        under, level = under + level, np.zeros_like(level)  # the SJS wins ties
    elif alien:
        under, level, over = under, np.zeros_like(level), over + level  # the Alien wins ties
    w = weights[:, None] * chances[None, :]
    win = float((w * under * clear).sum())
    tie = float((w * (under * (1.0 - clear) + level)).sum())
    lose = float((w * over).sum()) + hot * float(weights.sum())
    return win, tie, lose


def duel(
    sides: list[Side], strengths: list[Ints], dice: list[int], weights: Floats, me: int
) -> Result:
    """Block Mania and the final tie-break: the highest total wins, the SJS wins ties, an
    overheated Mechanismo loses; equal best totals (no SJS among them) are a tie."""
    totals, chances, hot = _rolls(dice[me], sides[me].mech)
    mine = strengths[me][:, None] + totals[None, :]
    below = np.ones(mine.shape)  # every rival overheated or under my total
    below_or_level = np.ones(mine.shape)  # ... or level with it, and not the SJS
    for r, side in enumerate(sides):
        if r == me:
            continue
        roll = _dice(dice[r], side.mech)
        under = roll.hot + roll.at_most(mine - strengths[r][:, None] - 1)
        level = roll.equal(mine - strengths[r][:, None])
        if sides[me].sjs:
            under, level = under + level, np.zeros_like(level)
        elif side.sjs:
            level = np.zeros_like(level)
        below *= under
        below_or_level *= under + level
    w = weights[:, None] * chances[None, :]
    win = float((w * below).sum())
    tie = float((w * (below_or_level - below)).sum())
    lose = float((w * (1.0 - below_or_level)).sum()) + hot * float(weights.sum())
    return win, tie, lose
