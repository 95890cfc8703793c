"""Judge Dredd: The Game of Crime-Fighting in Mega-City One, at a Lawmaster table.

Everything the host needs of the game, gathered in :data:`GAME`: the engine
(:mod:`lawmaster.rules.judge_dredd`), the referee's reading of standees and
cards (:mod:`.referee`), the seat pages (:mod:`.pages`, :mod:`.words`,
:mod:`.cards`, ``templates/``), setup (:mod:`.setup`), the simulated players
(:mod:`.players`), the cards and the sensor map.
"""

from __future__ import annotations

from pathlib import Path

from lawmaster.hardware.sensor_map import shipped_map
from lawmaster.host.nfc.cards import cards_from
from lawmaster.host.plugin import Game
from lawmaster.rules.judge_dredd import ENGINE
from lawmaster.rules.judge_dredd.cards import card_list

from .pages import JudgeDreddUI
from .players import DreddPlayers
from .referee import DreddRules
from .scores import scores
from .setup import SETUP

GAME = Game(
    slug="judge-dredd",
    title="Judge Dredd",
    engine=ENGINE,
    rules=DreddRules,
    ui=JudgeDreddUI(),
    templates=Path(__file__).with_name("templates"),
    setup=SETUP,
    players=DreddPlayers,
    cards=lambda: cards_from(card_list()),
    # Each Judge lays its own cards on its own reader; the table's reader takes the rest.
    readers="per-seat",
    sensor_maps={"standard": shipped_map("judge-dredd")},
    # A Judge's page shows its hand: once play starts, a code is for its own player.
    private_once_started=lambda seat: True,
    scores=scores,
)
