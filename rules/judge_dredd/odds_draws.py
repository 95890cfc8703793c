"""The summed effect of face-down cards drawn without replacement, exactly.

A seat that cannot see ``k`` face-down cards knows only that they are ``k`` different
cards from the ``N`` it cannot place (the deck, the other hands, the face-down cards
themselves): every ordered choice of ``k`` different cards among those ``N`` is equally
likely, ``1 / N(N-1)...(N-k+1)`` each. The same physical card never counts twice.

A face-down card's effect depends on the card and on its *slot*: which Judge it was played
for and whether by that Judge's own player (who would use a shield badge rather than a
sabotage). Slots with the same (group, controller) form a *class*. Cards whose effect
vector is the same in every class are interchangeable: they form a *type* of ``n``
cards. Then the chance that, for each type ``t``, ``a[t][c]`` of the slots of class ``c``
hold a card of type ``t`` is

    prod_t( n_t! / (n_t - m_t)!  *  prod_c C(free_c, a[t][c]) )  /  (N! / (N - k)!)

where ``m_t = sum_c a[t][c]`` and ``free_c`` counts the slots of class ``c`` not yet
given a type when ``t`` is taken (the types are taken in a fixed order): ``n_t! / (n_t -
m_t)!`` ordered ways to pick the type's cards, ``C(free_c, a)`` ways to choose their slots.
:func:`summed_effects` runs over the types once, keeping for each number of slots still
free per class the weight of every summed effect so far, so equal sums merge as they go
(each vector coded as one integer; few sums are kept in dicts, many in numpy arrays).
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Sequence
from math import comb, perm
from typing import Any, Protocol

import numpy as np
import numpy.typing as npt

#: A card's effect on a combat (the caller's vector: strengths and extra dice).
Vector = tuple[int, ...]
Ints = npt.NDArray[np.int64]
Floats = npt.NDArray[np.float64]


def summed_effects(
    types: Sequence[tuple[int, Sequence[Vector]]], slots: Sequence[int]
) -> tuple[Ints, Floats]:
    """The exact distribution of the summed effect of the face-down cards.

    ``types``: per type of card, how many cards of it the seat cannot place, and its
    effect vector in each class of slots; ``slots``: how many face-down cards each class
    holds. Returns the possible summed effects (one vector a row) and their probabilities
    (they add up to 1).
    """
    total = sum(n for n, _ in types)
    k = sum(slots)
    if k > total:
        # Each face-down card is one of the cards the seat cannot place: an engine bug.
        raise ValueError(f"{k} face-down cards but only {total} cards they could be")
    if not types:
        return np.zeros((1, 0), dtype=np.int64), np.ones(1)
    code = _Code(types, slots)
    bags: _Bags = _Dicts(code.dtype) if _few(types, slots) else _Arrays(code.dtype)
    # free slots per class -> the summed effects so far (as integers) and their weights
    states = {tuple(slots): bags.start(code.zero)}
    left = total
    for count, vectors in types:
        left -= count
        steps = code.steps(vectors)
        parts: dict[tuple[int, ...], list[Any]] = {}
        for free, bag in states.items():
            for take in _takes(free, count):
                rest = tuple(f - a for f, a in zip(free, take, strict=True))
                if sum(rest) > left:
                    continue  # the types still to come cannot fill the slots left
                weight = float(perm(count, sum(take)))
                for f, a in zip(free, take, strict=True):
                    weight *= comb(f, a)
                shift = sum(a * step for a, step in zip(take, steps, strict=True))
                parts.setdefault(rest, []).append(bags.moved(bag, shift, weight))
        states = {rest: bags.merged(found) for rest, found in parts.items()}
    keys, weights = bags.arrays(states[(0,) * len(slots)])
    return code.vectors(keys), weights / float(perm(total, k))


def _few(types: Sequence[tuple[int, Sequence[Vector]]], slots: Sequence[int]) -> bool:
    """Whether the sums stay few: at most as many as the multisets of types per class."""
    multisets = 1
    for n in slots:
        multisets *= comb(len(types) + n - 1, n)
    return multisets <= _FEW


#: Up to about this many summed effects, Python dicts beat numpy's overheads.
_FEW = 2000


class _Bags(Protocol):
    """Where the DP keeps the summed effects of one state (integer code -> weight)."""

    def start(self, zero: int) -> Any: ...

    def moved(self, bag: Any, shift: int, weight: float) -> Any: ...

    def merged(self, bags: list[Any]) -> Any: ...

    def arrays(self, bag: Any) -> tuple[Ints, Floats]: ...


class _Dicts:
    """Few sums: a dict each."""

    def __init__(self, dtype: type) -> None:
        self.dtype = dtype

    def start(self, zero: int) -> dict[int, float]:
        return {zero: 1.0}

    def moved(self, bag: dict[int, float], shift: int, weight: float) -> dict[int, float]:
        return {key + shift: w * weight for key, w in bag.items()}

    def merged(self, bags: list[dict[int, float]]) -> dict[int, float]:
        out = bags[0]
        for bag in bags[1:]:
            for key, w in bag.items():
                out[key] = out.get(key, 0.0) + w
        return out

    def arrays(self, bag: dict[int, float]) -> tuple[Ints, Floats]:
        return np.array(list(bag), dtype=self.dtype), np.array(list(bag.values()))


class _Arrays:
    """Many sums: numpy arrays of codes and weights, equal codes added up on merging."""

    def __init__(self, dtype: type) -> None:
        self.dtype = dtype

    def start(self, zero: int) -> tuple[Ints, Floats]:
        return np.array([zero], dtype=self.dtype), np.ones(1)

    def moved(self, bag: tuple[Ints, Floats], shift: int, weight: float) -> tuple[Ints, Floats]:
        return bag[0] + shift, bag[1] * weight

    def merged(self, bags: list[tuple[Ints, Floats]]) -> tuple[Ints, Floats]:
        if len(bags) == 1:
            return bags[0]
        keys = np.concatenate([k for k, _ in bags])
        weights = np.concatenate([w for _, w in bags])
        # Each bag is sorted (a shift keeps it so): a stable sort merges the runs quickly.
        order = np.argsort(keys, kind="stable")
        keys, weights = keys[order], weights[order]
        starts = np.flatnonzero(np.concatenate(([True], keys[1:] != keys[:-1])))
        return keys[starts], np.add.reduceat(weights, starts)

    def arrays(self, bag: tuple[Ints, Floats]) -> tuple[Ints, Floats]:
        return bag


class _Code:
    """Effect vectors as single integers (mixed radix), so a sum of vectors is an integer sum.

    Every partial sum takes at most ``slots[c]`` cards into class ``c`` and at most
    ``min(n_t, k)`` cards of type ``t``, so each coordinate stays within bounds worked out
    from both; the radix of each coordinate covers them, and no coordinate ever borrows
    from the next. (Numpy's 64-bit integers hold the code for any real card set; a card
    set edited to need more falls back on Python's integers.)
    """

    def __init__(self, types: Sequence[tuple[int, Sequence[Vector]]], slots: Sequence[int]):
        k = sum(slots)
        width = len(types[0][1][0])
        self.low: list[int] = []
        self.radix: list[int] = []
        counts = [min(n, k) for n, _ in types]
        for i in range(width):
            per_class = [[v[c][i] for _, v in types] for c in range(len(slots))]
            per_type = [[vec[i] for vec in v] for _, v in types]
            lo = max(_bound(slots, per_class, min), _bound(counts, per_type, min))
            hi = min(_bound(slots, per_class, max), _bound(counts, per_type, max))
            self.low.append(lo)
            self.radix.append(hi - lo + 1)
        self.strides: list[int] = []
        stride = 1
        for size in self.radix:
            self.strides.append(stride)
            stride *= size
        self.dtype: type = np.int64 if stride < 2**62 else object
        self.zero = sum(-lo * s for lo, s in zip(self.low, self.strides, strict=True))

    def steps(self, vectors: Sequence[Vector]) -> list[int]:
        """Each class's effect vector as the integer it adds."""
        return [sum(v * s for v, s in zip(vec, self.strides, strict=True)) for vec in vectors]

    def vectors(self, keys: Ints) -> Ints:
        """The effect vectors the integers stand for, one a row."""
        out = np.empty((len(keys), len(self.low)), dtype=np.int64)
        for i, (lo, stride) in enumerate(zip(self.low, self.strides, strict=True)):
            out[:, i] = (lo + (keys // stride) % self.radix[i]).astype(np.int64)
        return out


def _bound(
    counts: Sequence[int], values: Sequence[Sequence[int]], pick: Callable[..., int]
) -> int:
    """The lowest (``min``) or highest (``max``) sum of ``counts[j]`` values from
    ``values[j]`` each, zero included (a partial sum may take none)."""
    return sum(n * pick(0, *vals) for n, vals in zip(counts, values, strict=True))


def _takes(free: tuple[int, ...], count: int) -> list[tuple[int, ...]]:
    """How many slots of each class a type of ``count`` cards may fill now."""
    ranges = [range(min(f, count) + 1) for f in free]
    return [t for t in itertools.product(*ranges) if sum(t) <= count]
