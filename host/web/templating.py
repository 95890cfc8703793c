"""Each game's page templates, found through the registry as ``<slug>/<name>``.

A game keeps its templates in its own folder (:attr:`Game.templates`); the
web app finds them by the game's slug, so a game added at run time brings its
templates with it and nothing here names a game.
"""

from __future__ import annotations

from collections.abc import Callable

from jinja2 import BaseLoader, Environment, FileSystemLoader, TemplateNotFound

from lawmaster.host import games


class GameTemplates(BaseLoader):
    """Loads ``"<slug>/<name>"`` from that game's template folder."""

    def get_source(
        self, environment: Environment, template: str
    ) -> tuple[str, str | None, Callable[[], bool] | None]:
        slug, _, name = template.partition("/")
        game = games.games().get(slug)
        if not name or game is None or game.templates is None:
            raise TemplateNotFound(template)
        return FileSystemLoader(str(game.templates)).get_source(environment, name)

    def list_templates(self) -> list[str]:
        found = []
        for slug, game in games.games().items():
            if game.templates is not None:
                names = FileSystemLoader(str(game.templates)).list_templates()
                found += [f"{slug}/{name}" for name in names]
        return sorted(found)
