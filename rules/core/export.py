"""A finished game as a scenario file, whole or as one seat may read it.

The whole file (header, then every accepted input) replays the game exactly,
and it holds every secret: each criminal's path, each card tapped face-down.
A seat's file holds only inputs that seat saw happen. An input line is kept
when every event it produced is one the seat received, and every field of the
input shows in those events (so ``{"act": "place_crime", "perp": "judge-death"}``
stays out: its event says only ``"perp": "face-down"``). The header keeps the
game's name and each field shown in the setup the seat received (its setup
events and its first view). What is left out becomes a comment line, so the
file still reads one line per input; such a file is the seat's record of the
game and does not replay it.

Nothing here asks an engine which fields are secret: the events each seat
received are the one record of what it may know (see :func:`events_for`).
"""

from __future__ import annotations

import json
from collections.abc import Iterator, Mapping, Sequence

from .actions import Event, events_for, visible_to


def line(value: Mapping[str, object]) -> str:
    """One scenario line, written the way the shipped examples are."""
    return json.dumps(value, ensure_ascii=False, separators=(", ", ": "))


def scenario_lines(
    header: Mapping[str, object],
    actions: Sequence[Mapping[str, object]],
    events: Sequence[Sequence[Event]],
    seat: str | None = None,
    first_view: object = None,
) -> list[str]:
    """The scenario file's lines: whole for ``seat=None``, else what ``seat`` may read.

    ``events[0]`` are the setup events and ``events[i]`` those of ``actions[i - 1]``;
    ``first_view`` is ``seat``'s view right after setup.
    """
    if seat is None:
        return [line(header), *(line(a) for a in actions)]
    setup = [*events_for(events[0], seat), first_view]
    kept = {k: v for k, v in header.items() if k == "game" or _shown(v, setup)}
    hidden = sorted(set(header) - set(kept))
    lines = [line(kept)]
    if hidden:
        lines.append(f"# the header's {', '.join(hidden)}: hidden from {seat}")
    for number, (action, batch) in enumerate(zip(actions, events[1:], strict=True), start=1):
        if all(visible_to(e, seat) for e in batch) and _action_shown(action, batch, seat):
            lines.append(line(action))
        else:
            lines.append(f"# input {number}: hidden from {seat}")
    return lines


def _action_shown(action: Mapping[str, object], batch: Sequence[Event], seat: str) -> bool:
    seen = events_for(batch, seat)
    return all(k == "act" or _shown(v, seen) for k, v in action.items())


def _shown(value: object, seen: Sequence[object]) -> bool:
    """Whether ``value`` can be read off ``seen``.

    It can when it is a part of ``seen``; a list when each of its items can; an
    object when one object of ``seen`` holds every one of its fields.
    """
    subtrees = list(_subtrees(seen))
    return _found(value, subtrees)


def _found(value: object, subtrees: list[object]) -> bool:
    if any(_same(value, s) for s in subtrees):
        return True
    if isinstance(value, list):
        return all(_found(item, subtrees) for item in value)
    if isinstance(value, Mapping):
        return any(
            isinstance(s, Mapping) and all(k in s and _same(v, s[k]) for k, v in value.items())
            for s in subtrees
        )
    return False


def _same(a: object, b: object) -> bool:
    if isinstance(a, str | int | float) and isinstance(b, str | int | float):
        # An engine reads a die typed as 1 and reports it as "1": the same fact.
        return str(a) == str(b)
    return json.dumps(a, sort_keys=True) == json.dumps(b, sort_keys=True)


def _subtrees(value: object) -> Iterator[object]:
    yield value
    if isinstance(value, Mapping):
        for v in value.values():
            yield from _subtrees(v)
    elif isinstance(value, list | tuple):
        for v in value:
            yield from _subtrees(v)
