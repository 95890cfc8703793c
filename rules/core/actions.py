"""JSON conventions for actions and events.

An *action* is a dict with the key ``"act"`` naming it, plus its fields, exactly
as a scenario line (``docs/SCENARIOS.md``) writes it. An *event* is a dict
with the key ``"type"``. An event is public unless it carries ``"visible_to"``,
the list of seats allowed to see it; the referee's omniscient log keeps every event and
each seat's log keeps only what :func:`visible_to` lets through.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import TypeVar, overload

from .errors import IllegalAction
from .jsontypes import JsonValue

#: An action as it arrives: a JSON object whose fields are not checked yet. Each
#: engine reads it field by field (:func:`field`) and refuses what does not fit.
Action = Mapping[str, object]
#: An event as an engine emits it: a JSON object with a ``"type"``.
Event = dict[str, JsonValue]

T = TypeVar("T")

_TYPE_WORDS: dict[type, str] = {
    str: "text",
    int: "a whole number",
    bool: "true or false",
    list: "a list",
    dict: "an object",
}


def _type_word(kind: type) -> str:
    return _TYPE_WORDS.get(kind, kind.__name__)


# A JSON list or object read from an action holds values nobody has checked yet:
# ``list`` and ``dict`` come back with ``object`` items, for the caller to narrow.
@overload
def field(action: Action, name: str, kind: type[list[object]]) -> list[object]: ...


@overload
def field(action: Action, name: str, kind: type[dict[object, object]]) -> dict[object, object]: ...


@overload
def field(action: Action, name: str, kind: type[T]) -> T: ...


def field(action: Action, name: str, kind: type[object]) -> object:
    """Return ``action[name]``, or raise :class:`IllegalAction` if missing or mistyped."""
    if name not in action:
        raise IllegalAction(f"'{action.get('act', 'action')}' needs the field '{name}'")
    return _checked(action, name, kind)


@overload
def optional_field(
    action: Action, name: str, kind: type[list[object]], default: list[object]
) -> list[object]: ...


@overload
def optional_field(
    action: Action, name: str, kind: type[list[object]], default: None = None
) -> list[object] | None: ...


@overload
def optional_field(
    action: Action, name: str, kind: type[dict[object, object]], default: dict[object, object]
) -> dict[object, object]: ...


@overload
def optional_field(action: Action, name: str, kind: type[T], default: T) -> T: ...


@overload
def optional_field(action: Action, name: str, kind: type[T], default: None = None) -> T | None: ...


def optional_field(action: Action, name: str, kind: type[object], default: object = None) -> object:
    """Return ``action[name]`` if present (type-checked), else ``default``."""
    if name not in action or action[name] is None:
        return default
    return _checked(action, name, kind)


def _checked(action: Action, name: str, kind: type[object]) -> object:
    value = action[name]
    # bool is an int in Python; a JSON true is never a die face or a count.
    if isinstance(value, bool) and kind is not bool:
        ok = False
    else:
        ok = isinstance(value, kind)
    if not ok:
        raise IllegalAction(
            f"the field '{name}' of '{action.get('act', 'action')}' must be {_type_word(kind)}"
        )
    return value


def public(type_: str, **fields: JsonValue) -> Event:
    """An event every seat, and the table screen, may see."""
    return {"type": type_, **fields}


def to_seats(seats: Iterable[str], type_: str, **fields: JsonValue) -> Event:
    """An event only the listed seats may see."""
    return {"type": type_, **fields, "visible_to": sorted(set(seats))}


def visible_to(event: Mapping[str, object], seat: str) -> bool:
    """Whether ``seat`` may see ``event``. The seat ``"table"`` sees public events only."""
    allowed = event.get("visible_to")
    if allowed is None:
        return True
    if not isinstance(allowed, list | tuple):
        # Engines write a list of seats; anything else is a broken event, not a secret.
        raise TypeError(f"an event's 'visible_to' lists seats, not {allowed!r}")
    return seat in allowed


def events_for(events: Iterable[Event], seat: str) -> list[Event]:
    """The events ``seat`` may see, without the routing key."""
    return [
        {k: v for k, v in e.items() if k != "visible_to"} for e in events if visible_to(e, seat)
    ]
