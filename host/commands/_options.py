"""Command-line options every command shares: a game, named by its slug."""

from __future__ import annotations

from collections.abc import Callable, Sequence

import click

from lawmaster.host import games


class GameChoice(click.Choice[str]):
    """One of the installed games' slugs, read from the registry when asked for.

    ``which`` narrows the games (e.g. to those with simulated players or a
    sensor map); the registry is read at parse and help time, never at import,
    so a game registered at run time is accepted too.
    """

    def __init__(self, which: Callable[[], Sequence[str]] = games.slugs) -> None:
        self._which = which
        super().__init__([], case_sensitive=True)

    @property  # type: ignore[override]
    def choices(self) -> Sequence[str]:
        return tuple(self._which())

    @choices.setter
    def choices(self, value: Sequence[str]) -> None:
        pass  # click's own constructor sets them; the registry is the only source


def with_sensor_map() -> list[str]:
    """Games whose board the hall sensors read (each has a sensor map)."""
    return [slug for slug, game in games.games().items() if game.sensor_maps]
