"""JSON conventions for actions and events.

An *action* is a dict with the key ``"act"`` naming it, plus its fields, exactly
as a scenario line (``docs/SCENARIOS.md``) writes it. An *event* is a dict
with the key ``"type"``. An event is public unless it carries ``"visible_to"``,
the list of seats allowed to see it; the referee's omniscient log keeps every event and
each seat's log keeps only what :func:`visible_to` lets through.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any, TypeVar, overload

from .errors import IllegalAction

Action = Mapping[str, Any]
Event = dict[str, Any]

T = TypeVar("T")

_TYPE_WORDS = {
    str: "text",
    int: "a whole number",
    bool: "true or false",
    list: "a list",
    dict: "an object",
}


def _type_word(kind: type | tuple[type, ...]) -> str:
    kinds = kind if isinstance(kind, tuple) else (kind,)
    return " or ".join(_TYPE_WORDS.get(k, k.__name__) for k in kinds)


def field(action: Action, name: str, kind: type[T] | tuple[type, ...]) -> T:
    """Return ``action[name]``, or raise :class:`IllegalAction` if missing or mistyped."""
    if name not in action:
        raise IllegalAction(f"'{action.get('act', 'action')}' needs the field '{name}'")
    return _checked(action, name, kind)


@overload
def optional_field(
    action: Action, name: str, kind: type[T] | tuple[type, ...], default: T
) -> T: ...


@overload
def optional_field(
    action: Action, name: str, kind: type[T] | tuple[type, ...], default: None = None
) -> T | None: ...


def optional_field(
    action: Action, name: str, kind: type[T] | tuple[type, ...], default: T | None = None
) -> T | None:
    """Return ``action[name]`` if present (type-checked), else ``default``."""
    if name not in action or action[name] is None:
        return default
    return _checked(action, name, kind)


def _checked(action: Action, name: str, kind: type | tuple[type, ...]) -> Any:
    value = action[name]
    kinds = kind if isinstance(kind, tuple) else (kind,)
    # bool is an int in Python; a JSON true is never a die face or a count.
    if isinstance(value, bool) and bool not in kinds:
        ok = False
    else:
        ok = isinstance(value, kinds)
    if not ok:
        raise IllegalAction(
            f"the field '{name}' of '{action.get('act', 'action')}' must be {_type_word(kind)}"
        )
    return value


def public(type_: str, **fields: Any) -> Event:
    """An event every seat, and the table screen, may see."""
    return {"type": type_, **fields}


def to_seats(seats: Iterable[str], type_: str, **fields: Any) -> Event:
    """An event only the listed seats may see."""
    return {"type": type_, **fields, "visible_to": sorted(set(seats))}


def visible_to(event: Event, seat: str) -> bool:
    """Whether ``seat`` may see ``event``. The seat ``"table"`` sees public events only."""
    allowed = event.get("visible_to")
    return allowed is None or seat in allowed


def events_for(events: Iterable[Event], seat: str) -> list[Event]:
    """The events ``seat`` may see, without the routing key."""
    return [
        {k: v for k, v in e.items() if k != "visible_to"} for e in events if visible_to(e, seat)
    ]
