"""Cards tapped on a (emulated) PN532 and the panel on gpiozero's mock pins, through the referee."""

from __future__ import annotations

import pytest

from lawmaster.host.runtime import Runtime, open_host, wait_until
from lawmaster.host.sim.hardware import SimulatedHardware
from lawmaster.host.stack import TableStages

TINY = {
    "game": "gw-brott",
    "board": {
        "width": 5,
        "height": 4,
        "houses": ["C2"],
        "jail": {"exits": ["A1"]},
        "gw_start": "E4",
        "evidence": {
            "blue-1": "A1",
            "red-1": "B1",
            "green-1": "C1",
            "yellow-1": "D1",
            "white-1": "E1",
            "blue-2": "A3",
            "red-2": "B3",
            "green-2": "C3",
            "yellow-2": "D3",
            "white-2": "E3",
        },
    },
    "criminals": ["red", "green"],
    "abilities": {"red": "helicopter", "green": "informer"},
    "evidence": {
        "red": ["blue-1", "red-1", "green-1", "yellow-1", "white-1"],
        "green": ["blue-2", "red-2", "green-2", "yellow-2", "white-2"],
    },
    "trumps": ["helicopter", "informer", "breakthrough"],
}

#: Red ends its first turn on A1, blue-1's space; at its next turn it may hand blue-1 in.
OPENING = [
    ("red", {"act": "roll", "by": "red", "faces": ["1"] * 5}),
    ("red", {"act": "move", "by": "red", "die": "1", "to": "A1"}),
    ("green", {"act": "roll", "by": "green", "faces": ["2"] * 5}),
    ("green", {"act": "move", "by": "green", "die": "2", "to": "A2"}),
    ("gw", {"act": "gw_roll", "face": 1}),
    ("gw", {"act": "gw_move", "path": ["E3"]}),
]


@pytest.fixture
def rig(tmp_path):
    runtime = Runtime(open_host(str(tmp_path / "j.db"), {"board": False}, TINY))
    hardware = SimulatedHardware(seed=3, board=False)
    stages = TableStages(runtime, hardware).start()
    panel, nfc = stages.current.panel, hardware.nfc
    table = runtime.table
    for seat, action in OPENING:
        assert table.submit(seat, action)["ok"], action
    yield runtime, table, nfc, panel
    runtime.close()


def test_referee_evidence_tapped_on_the_reader_is_handed_in(rig):
    runtime, table, nfc, panel = rig
    before = table.last_seq
    nfc.tap("blue-1")
    assert wait_until(lambda: table.last_seq > before, 5)
    assert table.actions[-1] == {"act": "destroy_evidence", "by": "red", "card": "blue-1"}
    stored = runtime.host.journal.open_game()
    assert stored.entries[-1].source == "nfc"
    assert panel.status == "ok"


def test_referee_a_card_that_cannot_be_handed_in_is_refused_in_words_and_changes_nothing(rig):
    _, table, nfc, panel = rig
    before = table.last_seq
    nfc.tap("red-1")  # red holds it, but is not on its space
    assert wait_until(lambda: table.status.state == "illegal", 5)
    assert table.last_seq == before
    assert panel.status == "illegal" and panel.colour == (1.0, 0.0, 0.0)
    # The criminals read why; GW and the table screen only that it was refused.
    red = table.snapshot("red")["status"]["message"]
    gw = table.snapshot("gw")["status"]["message"]
    assert "red-1" in red
    assert "red-1" not in gw
    assert gw == "Red's evidence card is not allowed now"


def test_referee_an_unknown_sticker_is_answered_and_counted(rig):
    _, table, nfc, panel = rig
    before = table.last_seq
    nfc.tap_stranger()
    assert wait_until(lambda: table.status.state == "illegal", 5)
    assert "unknown card" in table.snapshot("table")["status"]["message"]
    assert table.referee.counts["unknown_tag"] == 1
    assert table.last_seq == before


def test_referee_panel_undo_and_confirm_buttons_take_back_the_last_input(rig):
    runtime, table, _, panel = rig
    moves = len(table.actions)
    panel.press("undo")
    assert wait_until(lambda: table.undo is not None, 5)
    panel.press("confirm")
    assert wait_until(lambda: len(table.actions) == moves - 1, 5)
    assert table.actions == [a for _, a in OPENING[:-1]]
