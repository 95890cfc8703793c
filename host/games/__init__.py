"""The registry of games: every installed game, found by its slug.

Games come from the ``lawmaster.games`` entry point group (this distribution
ships three; another distribution can add its own), each entry point naming a
:class:`~lawmaster.host.plugin.Game`. :func:`register` adds one at run time,
for a program or a test that brings its own; :func:`refresh` looks the entry
points up again (a distribution installed since). Nothing else in the host keeps a
list of games.
"""

from __future__ import annotations

import importlib
import threading
from importlib.metadata import entry_points
from typing import Any

from lawmaster.host.plugin import Game
from lawmaster.rules.core import Engine, IllegalAction

#: The entry point group games are found in.
GROUP = "lawmaster.games"

_lock = threading.Lock()
_found: dict[str, Game] | None = None
_added: dict[str, Game] = {}


class UnknownGame(IllegalAction):
    """No installed game has that slug (the reason lists those that do)."""


def _installed() -> dict[str, Game]:
    global _found
    with _lock:
        if _found is None:
            found: dict[str, Game] = {}
            for point in entry_points(group=GROUP):
                game = point.load()
                if not isinstance(game, Game):
                    raise TypeError(f"entry point {point.name!r} of {GROUP} is not a Game")
                if game.slug != point.name:
                    raise ValueError(
                        f"entry point {point.name!r} of {GROUP} names the game {game.slug!r}"
                    )
                found[game.slug] = game
            _found = found
        return _found


def games() -> dict[str, Game]:
    """Every game by slug: the installed ones, then those registered at run time."""
    return {**_installed(), **_added}


def slugs() -> list[str]:
    """The slugs of every game, in the order :func:`games` gives them."""
    return list(games())


def game(slug: object) -> Game:
    """The game with this slug; :class:`UnknownGame` (an ``IllegalAction``) if none."""
    known = games()
    if not isinstance(slug, str) or slug not in known:
        names = ", ".join(f'"{name}"' for name in known)
        raise UnknownGame(f"unknown game {slug!r}; known games are {names}")
    return known[slug]


def engine_for(slug: object) -> Engine[Any]:
    """The rules engine of a game (what a scenario header's ``"game"`` names)."""
    return game(slug).engine


def refresh() -> None:
    """Look the entry points up again at the next call: forget the installed games found.

    For a program that installs a game distribution while it runs, or a test that
    puts one on the import path and takes it off again. Games added with
    :func:`register` stay.
    """
    global _found
    importlib.invalidate_caches()  # importlib.metadata's view of the import path too
    with _lock:
        _found = None


def register(new: Game) -> None:
    """Add a game at run time (a slug already in use is replaced)."""
    with _lock:
        _added[new.slug] = new


def unregister(slug: str) -> None:
    """Remove a game added with :func:`register`."""
    with _lock:
        _added.pop(slug, None)
