"""Dice come from where the table says they do (issue 20, finding 5).

With digital dice on, a seat that posts faces of its own choosing to its action
URL is refused with a sentence; the referee's own roll is taken. With real dice,
the public log says who entered each roll.
"""

from __future__ import annotations

from security_support import served

from lawmaster.host.games.gw_brott.setup import DEMO_HEADER

ROLL = {"act": "roll", "by": "red", "faces": ["4", "4", "4", "4", "4"]}


def test_security_a_seat_cannot_choose_its_dice_when_the_table_rolls_them(tmp_path):
    with served(tmp_path, DEMO_HEADER, {"board": False, "digital_dice": True}) as world:
        table = world.table
        red = table.token("red")
        tablet = world.device()
        assert tablet.claim(red).status == 200
        chosen = tablet.post_json(f"/seat/{red}/action", ROLL)
        assert chosen.status == 409, chosen.text
        assert "digital dice" in chosen.json()["error"]
        assert table.actions == []
        rolled = tablet.post_json(f"/seat/{red}/roll", {})
        assert rolled.status == 200, rolled.text
        assert len(table.actions) == 1
        entry = table.journal.open_game().entries[-1]
        assert entry.source == "digital-dice"
        log = world.device().get("/table").text
        assert "rolled by the referee" in log


def test_security_with_real_dice_the_log_says_who_entered_the_roll(tmp_path):
    with served(tmp_path, DEMO_HEADER) as world:
        table = world.table
        red = table.token("red")
        tablet = world.device()
        assert tablet.claim(red).status == 200
        assert tablet.post_json(f"/seat/{red}/action", ROLL).status == 200
        log = world.device().get("/table").text
        assert "entered on red" in log.lower(), log
        # From the journal's record of each input (seat and source): the same after a restart.
        snapshot = world.device().get("/table.json").json()["snapshot"]
        assert snapshot["entered"] == [{"move": 1, "by": "red", "source": "tablet"}]
