"""A tiny race, plugged into Lawmaster the way any game distribution would be.

It lives only in the test suite: two lanes of four cells, one piece per
player, one rule (see :mod:`.engine`). :data:`GAME` gathers the engine, the
referee's board reading (:mod:`.referee`), the seat pages (:mod:`.pages` and
``templates/``), setup (:mod:`.setup`), the simulated racers (:mod:`.players`)
and the sensor map (``maps/toy-standard.json``). The tests find it through the
``lawmaster.games`` entry point group (``tests/plugins/README.md``).
"""

from __future__ import annotations

from pathlib import Path

from lawmaster.host.plugin import Game

from .engine import ENGINE, SLUG
from .pages import RaceUI
from .players import RacePlayers
from .referee import RaceRules
from .setup import SETUP

HERE = Path(__file__).parent

GAME = Game(
    slug=SLUG,
    title="Toy race",
    engine=ENGINE,
    rules=RaceRules,
    ui=RaceUI(),
    templates=HERE / "templates",
    setup=SETUP,
    players=RacePlayers,
    sensor_maps={"standard": HERE / "maps" / f"{SLUG}-standard.json"},
)
