"""Drawing a snapshot, one module per game, with a readable fallback for the rest.

A game module offers three functions, each reading only the snapshot given:

* ``board(snapshot) -> Markup`` — the board (an inline SVG) or the view as a list;
* ``extras(snapshot) -> Markup`` — what the view adds beside the board (a hand,
  combat odds), empty when nothing;
* ``describe(event) -> str`` — one log line for an event;
* optionally ``controls(snapshot, token, digital_dice) -> Markup`` — the seat's
  input forms built from its own view, and ``COVERED_PROMPTS``, the table prompt
  kinds those forms already ask for.

A module may return ``None`` from ``board`` when the view is not in a shape it
knows; the generic fallback then draws it.
"""

from __future__ import annotations

import importlib
from collections.abc import Mapping
from types import ModuleType
from typing import Any

from markupsafe import Markup

from . import generic

# Game name → module under this package; a game whose module is not there (yet)
# uses ``generic``, so a game's drawing plugs in by adding its module.
_MODULES = {
    "gw-brott": "gw_brott",
    "judge-dredd": "judge_dredd",
    "unamerican-graffiti": "unamerican_graffiti",
}


def module_for(game: object) -> ModuleType:
    """The rendering module for a game, or the generic one."""
    name = _MODULES.get(game) if isinstance(game, str) else None
    if name is None:
        return generic
    full = f"{__name__}.{name}"
    try:
        return importlib.import_module(full)
    except ModuleNotFoundError as exc:
        if exc.name != full:
            raise  # the module is there but imports something missing: a real bug
        return generic


def board(snapshot: Mapping[str, Any]) -> Markup:
    """The board of a snapshot, falling back to the generic list."""
    drawn = module_for(snapshot.get("game")).board(snapshot)
    return drawn if drawn is not None else generic.board(snapshot)


def extras(snapshot: Mapping[str, Any]) -> Markup:
    """The game's extra panels for a snapshot."""
    return module_for(snapshot.get("game")).extras(snapshot)


def controls(snapshot: Mapping[str, Any], token: str, digital_dice: bool) -> Markup:
    """The game's own input forms for a seat, built from its view (empty if none)."""
    module = module_for(snapshot.get("game"))
    return getattr(module, "controls", generic.controls)(snapshot, token, digital_dice)


def covered_prompts(game: object) -> frozenset[str]:
    """Prompt kinds the game's controls already ask for."""
    return getattr(module_for(game), "COVERED_PROMPTS", frozenset())


def describe(game: object, event: Mapping[str, Any]) -> str:
    """One log line for an event of ``game``."""
    if not isinstance(event, Mapping):
        return str(event)
    return module_for(game).describe(event)
