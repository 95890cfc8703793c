"""Turning a request body into a rules action, or a 400 saying why not.

Two ways in, one result:

* JSON (what the page's script posts): the body *is* the action object.
* A plain HTML form (no script): the hidden field ``action`` holds the prompt's
  base action as JSON, a pressed button may add ``choice`` (a JSON object merged
  on top), and typed fields fill the rest. A field's name says its JSON type:
  ``f:to`` text, ``i:face`` whole number, ``l:faces`` a list (repeated fields, or
  numbered ones: ``l:faces.1``, ``l:faces.2``, one radio group per die, in that order),
  ``p:path`` cell names split on spaces or commas, ``b:two_player`` true/false.
  A field left empty is left out of the action.
"""

from __future__ import annotations

import json
import math
import re
from typing import Any

from flask import Request

from .errors import MALFORMED, WebError

_PATH_SPLIT = re.compile(r"[\s,;]+")


def _no_constants(name: str) -> Any:
    raise ValueError(f"{name} is not a JSON number")


def parse_json(text: str | bytes, what: str = "the body") -> Any:
    """Strict JSON: no NaN/Infinity, no absurd nesting, errors become 400s."""
    try:
        value = json.loads(text, parse_constant=_no_constants)
    except RecursionError:
        raise WebError(MALFORMED, f"{what} is nested too deeply") from None
    except (ValueError, UnicodeDecodeError) as exc:
        raise WebError(MALFORMED, f"{what} is not valid JSON ({_short(exc)})") from None
    return value


def _short(exc: Exception) -> str:
    text = str(exc)
    return text if len(text) <= 80 else text[:77] + "..."


def checked_action(value: Any) -> dict[str, Any]:
    """An action must be an object whose ``act`` is a short text."""
    if not isinstance(value, dict):
        raise WebError(MALFORMED, 'an action must be a JSON object with an "act" field')
    act = value.get("act")
    if not isinstance(act, str) or not act or len(act) > 64:
        raise WebError(MALFORMED, 'an action needs an "act" naming it')
    _check_finite(value)
    return value


def _check_finite(value: Any, depth: int = 0) -> None:
    # Engines compare numbers; a float infinity or a 5000-digit integer is never a move.
    if depth > 32:
        raise WebError(MALFORMED, "the action is nested too deeply")
    if isinstance(value, float) and not math.isfinite(value):
        raise WebError(MALFORMED, "numbers must be finite")
    if isinstance(value, int) and not isinstance(value, bool) and abs(value) > 10**9:
        raise WebError(MALFORMED, "that number is far too large")
    if isinstance(value, dict):
        for key, item in value.items():
            _check_finite(item, depth + 1)
            if not isinstance(key, str):
                raise WebError(MALFORMED, "object keys must be text")
    elif isinstance(value, list):
        for item in value:
            _check_finite(item, depth + 1)


def action_from_json(request: Request) -> dict[str, Any]:
    """The action a script posted as a JSON body."""
    return checked_action(parse_json(request.get_data(cache=True), "the body"))


def action_from_form(request: Request) -> dict[str, Any]:
    """The action an HTML form posted (see the module docstring for the field names)."""
    form = request.form
    base = parse_json(form.get("action", ""), "the form's action") if "action" in form else {}
    if not isinstance(base, dict):
        raise WebError(MALFORMED, "the form's action must be an object")
    action = dict(base)
    if form.get("choice"):
        choice = parse_json(form["choice"], "the chosen option")
        if not isinstance(choice, dict):
            raise WebError(MALFORMED, "the chosen option must be an object")
        action.update(choice)
    numbered: dict[str, list[tuple[int, str]]] = {}
    for key in form:
        kind, sep, name = key.partition(":")
        if not sep or not name:
            continue
        head, dot, index = name.rpartition(".")
        if kind == "l" and dot and head and index.isdigit() and len(index) < 4:
            parts = numbered.setdefault(head, [])
            parts += [(int(index), v.strip()) for v in form.getlist(key) if v.strip()]
            continue
        value = _typed(kind, name, form.getlist(key))
        # A field left empty is not sent at all: engines refuse fields they do not expect.
        if value != "" and value != []:
            action[name] = value
    for name, parts in numbered.items():
        if parts:
            action[name] = [*action.get(name, []), *(v for _i, v in sorted(parts))]
    return checked_action(action)


def _typed(kind: str, name: str, values: list[str]) -> Any:
    last = values[-1].strip() if values else ""
    if kind == "f":
        return last
    if kind == "i":
        if not last:
            return ""
        try:
            return int(last)
        except ValueError:
            raise WebError(MALFORMED, f"'{name}' must be a whole number") from None
    if kind == "l":
        return [v.strip() for v in values if v.strip()]
    if kind == "p":
        return [part.upper() for part in _PATH_SPLIT.split(" ".join(values)) if part]
    if kind == "b":
        return last.lower() in ("1", "true", "on", "yes")
    raise WebError(MALFORMED, f"the form field '{kind}:{name}' has an unknown type")


def body_is_json(request: Request) -> bool:
    """Whether the client sent JSON (scripts) rather than a form (plain browsers)."""
    return request.is_json or request.mimetype in ("", "text/plain")
