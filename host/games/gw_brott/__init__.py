"""GW:s brott at a Lawmaster table: hidden movement on a two-sided vertical board.

Everything the host needs of the game, gathered in :data:`GAME`: the engine
(:mod:`lawmaster.rules.gw_brott`), the referee's reading of the board and the
tablets (:mod:`.referee`), the seat pages (:mod:`.pages`, :mod:`.know`,
``templates/``), setup and dealing (:mod:`.setup`), the simulated players
(:mod:`.players`), the cards and the sensor map.
"""

from __future__ import annotations

from pathlib import Path

from lawmaster.hardware.sensor_map import shipped_map
from lawmaster.host.nfc.cards import cards_from
from lawmaster.host.plugin import Game
from lawmaster.rules.gw_brott import ENGINE
from lawmaster.rules.gw_brott.cards import card_list

from .pages import GwBrottUI
from .players import Players
from .referee import GW, GwBrottRules
from .scores import scores
from .setup import SETUP

GAME = Game(
    slug="gw-brott",
    title="GW:s brott",
    engine=ENGINE,
    rules=GwBrottRules,
    ui=GwBrottUI(),
    templates=Path(__file__).with_name("templates"),
    setup=SETUP,
    players=Players,
    cards=lambda: cards_from(card_list()),
    readers="shared",
    sensor_maps={"standard": shipped_map("gw-brott")},
    # A criminal's page shows where the criminals are: GW must never scan one.
    private_once_started=lambda seat: seat != GW,
    scores=scores,
)
