"""Exact distributions of dice sums, shared by the odds calculations."""

from __future__ import annotations

from functools import lru_cache


@lru_cache(maxsize=256)
def dice_sums(n: int, mech: bool) -> tuple[tuple[int, bool, float], ...]:
    """Distribution of the sum of ``n`` dice, with whether a 6 overheats Mechanismo."""
    dist: dict[tuple[int, bool], float] = {(0, False): 1.0}
    for _ in range(n):
        nxt: dict[tuple[int, bool], float] = {}
        for (s, hot), p in dist.items():
            for face in range(1, 7):
                key = (s + face, hot or (mech and face == 6))
                nxt[key] = nxt.get(key, 0.0) + p / 6
        dist = nxt
    return tuple((s, hot, p) for (s, hot), p in sorted(dist.items()))


@lru_cache(maxsize=256)
def dice_difference(nj: int, mech: bool, np_: int) -> tuple[tuple[int, bool, float], ...]:
    """Distribution of (Judge dice − Perp dice, overheated)."""
    out: dict[tuple[int, bool], float] = {}
    for sj, hot, pj in dice_sums(nj, mech):
        for sp, _, pp in dice_sums(np_, False):
            key = (sj - sp, hot)
            out[key] = out.get(key, 0.0) + pj * pp
    return tuple((d, hot, p) for (d, hot), p in out.items())
