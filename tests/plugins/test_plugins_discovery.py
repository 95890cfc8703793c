"""The race is found through the ``lawmaster.games`` entry point group, like any game.

Nothing here calls ``games.register``: the game is known while its
distribution's metadata is on the import path, and unknown again once it is not.
"""

from __future__ import annotations

from importlib.metadata import entry_points
from pathlib import Path

import pytest
from plugins_support import MODULE, RACE, SLUG, lawmaster, plugged_in, plugin_env

from lawmaster.host import games


def test_plugins_discovery_the_entry_point_brings_the_game_and_takes_it_away(tmp_path: Path):
    with pytest.raises(games.UnknownGame):
        games.game(SLUG)
    with plugged_in(tmp_path):
        point = next(p for p in entry_points(group=games.GROUP) if p.name == SLUG)
        assert point.value == f"{MODULE}:GAME"
        found = games.game(SLUG)
        assert found is point.load()
        # Not a run-time registration: taking one away leaves the installed game.
        games.unregister(SLUG)
        assert games.game(SLUG) is found
        assert games.engine_for(SLUG) is found.engine
        assert SLUG in games.slugs()
        # The shipped games are still there beside it.
        assert {"gw-brott", "judge-dredd", "unamerican-graffiti", SLUG} <= set(games.slugs())
    with pytest.raises(games.UnknownGame):
        games.game(SLUG)


def test_plugins_discovery_the_game_gathers_what_the_host_asks_of_it(toy: Path):
    game = games.game(SLUG)
    assert game.title and game.engine.game == SLUG
    assert game.setup.demo is not None and game.players is not None
    sensor_map = game.sensor_map()
    assert sensor_map.game == SLUG
    assert set(sensor_map.spaces) == {f"{lane}{c}" for lane in "ab" for c in range(1, 5)}
    assert game.templates is not None and (game.templates / "controls.html").is_file()


def test_plugins_discovery_without_the_distribution_no_command_knows_the_game(tmp_path: Path):
    # The subprocess of the other tests finds the game (plugin_env); this one cannot.
    bare = {k: v for k, v in plugin_env(tmp_path).items() if k != "PYTHONPATH"}
    refused = lawmaster("replay", str(RACE), env=bare, check=False)
    assert refused.returncode == 2 and f"unknown game '{SLUG}'" in refused.stderr
