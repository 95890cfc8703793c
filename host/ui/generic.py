"""The fallback for any game without its own drawing: the view as a readable list.

A game that has no module here yet (or a view shape a module does not know)
still shows every field its seat may see, so nothing is hidden by accident and
nothing extra can appear: this only ever reads the snapshot it is given.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from flask import render_template
from flask_babel import gettext as _
from markupsafe import Markup, escape

#: Deeper nesting than this is shown as one line of words, not more lists.
_MAX_DEPTH = 6


def _label(key: object) -> str:
    return str(key).replace("_", " ")


def value_html(value: Any, depth: int = 0) -> Markup:
    """One value of a view as HTML: objects become definition lists, lists become lists."""
    if isinstance(value, Mapping):
        if not value:
            return Markup('<span class="empty">{}</span>').format(_("none"))
        if depth >= _MAX_DEPTH:
            return escape(_flat(value))
        items = Markup("").join(
            Markup("<dt>{}</dt><dd>{}</dd>").format(_label(k), value_html(v, depth + 1))
            for k, v in value.items()
        )
        return Markup('<dl class="view">{}</dl>').format(items)
    if isinstance(value, list | tuple):
        if not value:
            return Markup('<span class="empty">{}</span>').format(_("none"))
        if all(not isinstance(v, Mapping | list | tuple) for v in value):
            return escape(", ".join(_scalar(v) for v in value))
        items = Markup("").join(
            Markup("<li>{}</li>").format(value_html(v, depth + 1)) for v in value
        )
        return Markup("<ul>{}</ul>").format(items)
    return escape(_scalar(value))


def _scalar(value: Any) -> str:
    if value is None:
        return "—"
    if value is True:
        return str(_("yes"))
    if value is False:
        return str(_("no"))
    return str(value)


def board(snapshot: Mapping[str, Any]) -> Markup:
    """No drawing for this game: the whole view as a definition list."""
    view = snapshot.get("view") or {}
    return Markup('<div class="generic-view">{}</div>').format(value_html(view))


def extras(snapshot: Mapping[str, Any]) -> Markup:
    """Nothing beyond the view itself."""
    return Markup("")


# Routing and numbering keys, not part of what happened.
_NOT_SHOWN = ("type", "visible_to", "move")


def controls(snapshot: Mapping[str, Any], token: str, digital_dice: bool) -> Markup:
    """No game-specific inputs: the table's prompts are shown as they come."""
    return Markup("")


#: Prompt kinds this module's controls cover (none).
COVERED_PROMPTS: frozenset[str] = frozenset()


def describe(event: Mapping[str, Any]) -> str:
    """A log line for any event, as a sentence: its type, then its fields in words.

    >>> describe({"type": "combat_result", "kind": "arrest", "groups": [["hershey"]]})
    'combat result: kind arrest, groups hershey'
    """
    kind = _label(event.get("type", "event"))
    fields = [f"{_label(k)} {_flat(v)}" for k, v in event.items() if k not in _NOT_SHOWN]
    return f"{kind}: {', '.join(fields)}" if fields else kind


def _flat(value: Any) -> str:
    """A value in words: no braces or brackets, so no line reads like data."""
    if isinstance(value, Mapping):
        return ", ".join(f"{_label(k)} {_flat(v)}" for k, v in value.items()) or "none"
    if isinstance(value, list | tuple):
        return ", ".join(_flat(v) for v in value) or "none"
    return _scalar(value)


def prompt_controls(
    snapshot: Mapping[str, Any],
    template: str,
    covered: frozenset[str],
    token: str,
    digital_dice: bool,
    **context: Any,
) -> Markup:
    """A game's forms for the referee's prompts it covers, from the seat's snapshot only.

    Empty when the seat has no view or is asked nothing the game's template draws
    (the page's generic prompt forms then show whatever is asked).
    """
    view = snapshot.get("view")
    prompts = [
        p
        for p in snapshot.get("prompts") or []
        if isinstance(p, Mapping) and p.get("kind") in covered
    ]
    if not isinstance(view, Mapping) or not prompts:
        return Markup("")
    return Markup(
        render_template(
            template,
            view=view,
            prompts=prompts,
            seat=snapshot.get("seat"),
            token=token,
            digital_dice=digital_dice,
            **context,
        )
    )
