"""Unamerican Graffiti at a Lawmaster table: two scrawlers and six Judges on a hex map.

Everything the host needs of the game, gathered in :data:`GAME`: the engine
(:mod:`lawmaster.rules.unamerican_graffiti`), the referee's reading of pawns
and counters (:mod:`.referee`), the seat pages (:mod:`.pages`, :mod:`.know`,
``templates/``), setup (:mod:`.setup`), the simulated players (:mod:`.players`)
and the sensor map. The game has no cards and hides nothing.
"""

from __future__ import annotations

from pathlib import Path

from lawmaster.hardware.sensor_map import shipped_map
from lawmaster.host.plugin import Game
from lawmaster.rules.unamerican_graffiti import ENGINE

from .pages import GraffitiUI
from .players import GraffitiPlayers
from .referee import GraffitiRules
from .scores import scores
from .setup import SETUP

GAME = Game(
    slug="unamerican-graffiti",
    title="Unamerican Graffiti",
    engine=ENGINE,
    rules=GraffitiRules,
    ui=GraffitiUI(),
    templates=Path(__file__).with_name("templates"),
    setup=SETUP,
    players=GraffitiPlayers,
    sensor_maps={"standard": shipped_map("unamerican-graffiti")},
    scores=scores,
)
