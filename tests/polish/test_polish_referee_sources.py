"""The journal records where an input really came from, whatever ``complete`` filled in.

A roll assembled from dice typed by several Judges is a tablet input; dice the
referee rolled are ``digital-dice``; a GW move whose die was said on the tablet
and whose square the board showed is a board input, whichever came first.
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "dredd_table"))

from dredd_table_support import dredd_table, header, ok, sources  # noqa: E402

from lawmaster.host.games.gw_brott.setup import DEMO_HEADER  # noqa: E402
from lawmaster.host.journal import Journal  # noqa: E402
from lawmaster.host.plugin import DIGITAL, TABLET, Completed  # noqa: E402
from lawmaster.host.referee import completed_action  # noqa: E402
from lawmaster.host.table import Table  # noqa: E402

HANDS = {"a": ["fergee-1", "robo-dogs-1"], "b": ["aah-ankle-trap-1"]}


def _combat(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, settings: dict | None) -> Table:
    """a fights Max Normal with an extra die; b rolls for the Perp."""
    table = dredd_table(tmp_path, header(hands=HANDS), settings)
    ok(table.submit("a", {"act": "move", "by": "a", "path": ["mega-mall", "channel-99"]}))
    ok(table.submit("b", {"act": "move", "by": "b", "path": []}))
    ok(table.submit("a", {"act": "end_movement"}))
    ok(table.submit("a", {"act": "commit", "by": "a", "card": "fergee-1", "for": "a"}))
    ok(table.submit("a", {"act": "reveal"}))
    assert table.state["combat"]["needed"] == {"a": 2, "perp": 1}
    return table


def test_polish_a_dredd_roll_typed_by_two_judges_is_journalled_as_tablet(tmp_path, monkeypatch):
    table = _combat(tmp_path, monkeypatch, None)
    ok(table.submit("a", {"act": "roll", "by": "a", "key": "a", "faces": [6, 6]}))
    ok(table.submit("b", {"act": "roll", "by": "b", "key": "perp", "faces": [1]}))
    assert table.actions[-1] == {"act": "roll", "dice": {"a": [6, 6], "perp": [1]}}
    assert sources(table)[-1] == TABLET


def test_polish_a_dredd_roll_the_referee_rolled_is_journalled_as_digital(tmp_path, monkeypatch):
    table = _combat(tmp_path, monkeypatch, {"digital_dice": True, "seed": 3})
    ok(table.submit("a", {"act": "roll", "by": "a"}))
    ok(table.submit("b", {"act": "roll", "by": "b"}))
    assert table.actions[-1]["act"] == "roll"
    assert sources(table)[-1] == DIGITAL


def test_polish_gw_dice_rolled_by_the_referee_or_typed_keep_their_source(tmp_path):
    rolled = Table.start(Journal(tmp_path / "a.db"), DEMO_HEADER, {"digital_dice": True})
    ok(rolled.submit("red", {"act": "roll", "by": "red"}))
    typed = Table.start(Journal(tmp_path / "b.db"), DEMO_HEADER, {})
    ok(typed.submit("red", {"act": "roll", "by": "red", "faces": rolled.actions[0]["faces"]}))
    assert sources(rolled) == [DIGITAL] and sources(typed) == [TABLET]


def test_polish_completed_action_keeps_the_inputs_own_source_for_a_plain_dict():
    action = {"act": "roll", "faces": [1]}
    assert completed_action(action, "board") == (action, "board")
    assert completed_action(Completed(action, DIGITAL), "board") == (action, DIGITAL)
