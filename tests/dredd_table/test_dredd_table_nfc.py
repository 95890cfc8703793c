"""Judge Dredd cards tapped on emulated PN532 readers (the real driver, reader threads,
registry and resolver) and read by the referee as the action they stand for now: who
tapped (the seat's own reader), what is being placed or turned up, what is unknown or
unexpected (flagged, nothing changes), and what is unclear (asked, never guessed)."""

from __future__ import annotations

import pytest
from dredd_table_support import CRIMES, dredd_table, header, in_swedish, ok, sources

from lawmaster.host.nfc.simulated import SimulatedNfc
from lawmaster.host.runtime import wait_until

HANDS = {"a": ["fergee-1", "robo-dogs-1"], "b": ["aah-ankle-trap-1"]}


@pytest.fixture
def combat(tmp_path, monkeypatch):
    """a fights Max Normal on Channel 99; b stands on the Grand Hall, not fighting."""
    table = dredd_table(tmp_path, header(hands=HANDS))
    ok(table.submit("a", {"act": "move", "by": "a", "path": ["mega-mall", "channel-99"]}))
    ok(table.submit("b", {"act": "move", "by": "b", "path": []}))
    ok(table.submit("a", {"act": "end_movement"}))
    assert table.state["combat"]["groups"] == [["a"]]
    with SimulatedNfc("judge-dredd", table.referee.nfc, seats=[None, "a", "b"], seed=4) as nfc:
        yield table, nfc


def test_dredd_table_a_card_on_a_seats_own_reader_is_committed_by_that_seat(combat):
    table, nfc = combat
    nfc.tap("aah-ankle-trap-1", "b")
    assert table.actions[-1] == {"act": "commit", "by": "b", "card": "aah-ankle-trap-1", "for": "a"}
    nfc.tap("fergee-1", "a")
    assert table.actions[-1] == {"act": "commit", "by": "a", "card": "fergee-1", "for": "a"}
    assert sources(table)[-2:] == ["nfc", "nfc"]
    # Face down: the other seat sees that a card was added, never which.
    cards = table.snapshot("a")["view"]["combat"]["cards"]
    assert [c.get("card") for c in cards] == [None, "fergee-1"]
    assert "aah-ankle-trap-1" not in str(table.snapshot("a"))
    assert "fergee-1" not in str(table.snapshot("b"))


def test_dredd_table_a_card_known_in_another_hand_is_flagged_and_changes_nothing(combat):
    table, nfc = combat
    before = len(table.actions)
    nfc.tap("robo-dogs-1", "b")  # the engine knows a holds it
    assert table.status.state == "illegal"
    assert "not expected" in table.status.message
    # The flag says what kind of card, never which: that is a's secret.
    assert "robo" not in table.status.message.lower()
    assert len(table.actions) == before
    nfc.tap("robo-dogs-1", "a")
    assert table.actions[-1]["by"] == "a" and table.status.state == "ok"


def test_dredd_table_a_card_on_the_shared_reader_asks_whose_it_is(combat, tmp_path):
    table, nfc = combat
    before = len(table.actions)
    nfc.tap("stumm-gas-1")  # nobody is known to hold it; a and b may both commit now
    assert len(table.actions) == before
    assert table.status.state == "waiting"
    for seat in ("a", "b"):
        prompts = table.snapshot(seat)["prompts"]
        asked = [p for p in prompts if p["kind"] == "which_reading"]
        assert len(asked) == 1 and "stumm" not in str(asked).lower()
        # Each answer names its Judge as the pages do, in a whole sentence.
        labels = [o["label"] for o in asked[0]["options"]]
        assert labels == ["It is Judge A's card.", "It is Judge B's card."]
        assert in_swedish(tmp_path, labels) == [
            "Kortet tillhör Domare A.",
            "Kortet tillhör Domare B.",
        ]
    # Only a seat that was asked may answer, and an answer must be one of the options.
    answer = {"act": "claim_card", "index": 5}
    assert not table.submit("b", answer)["ok"]
    ok(table.submit("b", {"act": "claim_card", "index": 1}))
    assert table.actions[-1] == {"act": "commit", "by": "b", "card": "stumm-gas-1", "for": "a"}
    assert all(p["kind"] != "which_reading" for p in table.snapshot("a")["prompts"])


def test_dredd_table_a_card_for_a_joint_arrest_asks_in_front_of_which_judge(tmp_path):
    # a and b arrest Max Normal in Channel 99 together: a card a taps on its own reader
    # may go in front of either, so a's tablet asks, naming the Judges as the pages do.
    crimes = [dict(c) for c in CRIMES]
    for crime in crimes:
        if crime["sector_card"] == "sector-kelp-farm":
            crime["sector_card"] = "sector-ped-zone-plaza"  # b walks through Kelp Farm
    hands = {"a": ["fergee-1"], "b": ["aah-ankle-trap-1"]}
    table = dredd_table(tmp_path, header(crimes=crimes, hands=hands))
    ok(table.submit("a", {"act": "move", "by": "a", "path": ["mega-mall", "channel-99"]}))
    ok(table.submit("b", {"act": "move", "by": "b", "path": ["kelp-farm", "channel-99"]}))
    ok(table.submit("a", {"act": "end_movement"}))
    ok(table.submit("a", {"act": "arrest", "groups": [["a", "b"]]}))
    assert table.state["combat"]["groups"] == [["a", "b"]]
    with SimulatedNfc("judge-dredd", table.referee.nfc, seats=[None, "a", "b"], seed=4) as nfc:
        nfc.tap("fergee-1", "a")
        asked = [p for p in table.snapshot("a")["prompts"] if p.get("act") == "commit_for"]
        labels = [o["label"] for o in asked[0]["options"]]
        assert labels == ["Put it in front of Judge A.", "Put it in front of Judge B."]
        assert in_swedish(tmp_path, labels) == [
            "Lägg det framför Domare A.",
            "Lägg det framför Domare B.",
        ]
        ok(table.submit("a", {"act": "commit_for", "index": 1}))
    assert table.actions[-1] == {"act": "commit", "by": "a", "card": "fergee-1", "for": "b"}


def test_dredd_table_each_roller_enters_its_own_dice_and_the_roll_waits_for_all(combat):
    table, nfc = combat
    nfc.tap("fergee-1", "a")  # an extra Judge die
    table.referee.button("end_turn")  # the panel's button reveals the cards
    assert table.actions[-1] == {"act": "reveal"}
    needed = table.state["combat"]["needed"]
    roller = table.state["combat"]["roller"]
    assert needed == {"a": 2, "perp": 1} and roller == "b"
    mine = [p for p in table.snapshot("a")["prompts"] if p["kind"] == "enter_dice"]
    theirs = [p for p in table.snapshot("b")["prompts"] if p["kind"] == "enter_dice"]
    assert [(p["key"], p["count"]) for p in mine] == [("a", 2)]
    assert [(p["key"], p["count"]) for p in theirs] == [("perp", 1)]
    assert not table.submit("a", {"act": "roll", "by": "a", "key": "perp", "faces": [6]})["ok"]
    held = ok(table.submit("a", {"act": "roll", "by": "a", "key": "a", "faces": [6, 6]}))
    assert "pending" in held and table.status.state == "waiting"
    assert not [p for p in table.snapshot("a")["prompts"] if p["kind"] == "enter_dice"]
    ok(table.submit("b", {"act": "roll", "by": "b", "key": "perp", "faces": ["1"]}))
    assert table.actions[-1] == {"act": "roll", "dice": {"a": [6, 6], "perp": [1]}}
    assert table.state["combat"] is None
    assert "max-normal" in table.engine.summary(table.state)["judges"]["a"]["score_pile"]


def test_dredd_table_an_unknown_tag_and_an_unexpected_card_are_flagged(combat):
    table, nfc = combat
    before = len(table.actions)
    nfc.tap_stranger()
    assert table.referee.counts["unknown_tag"] == 1
    assert table.status.state == "illegal" and "unknown card" in table.status.message
    nfc.tap("littering")  # a Crime card: nothing places a crime during a combat
    assert table.status.state == "illegal" and "Littering" in table.status.message
    nfc.tap("sector-spaceport")
    assert table.status.state == "illegal" and "Sector cards" in table.status.message
    assert len(table.actions) == before
    nfc.tap("fergee-1", "a")  # a good card clears the flag
    assert table.status.state == "ok" and len(table.actions) == before + 1


def test_dredd_table_crimes_placed_by_nfc_and_a_perp_turned_up_by_a_move(tmp_path, monkeypatch):
    head = header()
    del head["crimes"]
    table = dredd_table(tmp_path, head)
    with SimulatedNfc("judge-dredd", table.referee.nfc, seats=[None], seed=5) as nfc:
        nfc.tap("robot-smashing")  # a Crime before its Sector card
        assert table.status.state == "illegal" and not table.actions
        nfc.tap("sector-devils-island")
        assert table.status.state == "waiting" and not table.actions
        nfc.tap("the-mantis-brothers")
        assert "the-mantis-brothers" not in table.status.message  # kept secret
        nfc.tap("robot-smashing")
        assert table.actions == [dict(CRIMES[0], act="place_crime")]
        # The rest without tapping their Perps: face down, unknown to the engine.
        for crime in CRIMES[1:]:
            nfc.tap(crime["sector_card"])
            nfc.tap(crime["crime"])
            assert table.actions[-1] == {
                "act": "place_crime",
                "sector_card": crime["sector_card"],
                "crime": crime["crime"],
            }
        assert table.state["phase"] == "movement"
        assert table.engine.view(table.state, "b")["perps"]["devils-island"] == {"face_up": False}
        ok(table.submit("a", {"act": "move", "by": "a", "path": []}))
        # b enters Kelp Farm's face-down Perp: the move waits for the Perp to be tapped.
        answer = ok(table.submit("b", {"act": "move", "by": "b", "path": ["kelp-farm"]}))
        assert "tap it" in answer["pending"] and len(table.actions) == 7
        nfc.tap("otto-sump")
        assert table.actions[-1] == {
            "act": "move",
            "by": "b",
            "path": ["kelp-farm"],
            "perp": "otto-sump",
        }
        assert sources(table)[-1] == "nfc"
        assert table.engine.view(table.state, "a")["perps"]["kelp-farm"]["perp"] == "otto-sump"
    assert wait_until(lambda: table.status.state == "ok", 1)


def test_dredd_table_a_refused_card_is_named_only_to_its_holder(tmp_path, monkeypatch):
    full = ["aah-ankle-trap-1", "barney-1", "barney-2", "barney-3", "barney-4", "boing-1"]
    table = dredd_table(tmp_path, header(hands={"a": ["fergee-1"], "b": full}))
    ok(table.submit("a", {"act": "move", "by": "a", "path": ["mega-mall", "channel-99"]}))
    ok(table.submit("b", {"act": "move", "by": "b", "path": []}))
    ok(table.submit("a", {"act": "end_movement"}))
    with SimulatedNfc("judge-dredd", table.referee.nfc, seats=[None, "a", "b"], seed=6) as nfc:
        before = len(table.actions)
        nfc.tap("stumm-gas-1", "b")  # every card b holds is known: this one cannot be b's
        assert len(table.actions) == before
        assert table.snapshot("a")["status"]["state"] == "illegal"
        public = table.snapshot("a")["status"]["message"]
        assert "b's Action card is not allowed now" in public and "stumm" not in public
        assert "stumm" in table.snapshot("b")["status"]["message"]


def test_dredd_table_a_robodoc_landing_on_a_face_down_perp_waits_for_its_tap(tmp_path, monkeypatch):
    # "If you enter a Sector containing a face-down Perp, immediately turn the card face up":
    # Robodoc's move enters (rules README, ruling 6), so the tablet's play waits for the tap.
    crimes = [dict(c) for c in CRIMES]
    unknown = next(c for c in crimes if c["sector_card"] == "sector-devils-island")
    perp = unknown.pop("perp")
    table = dredd_table(
        tmp_path, header(crimes=crimes, hands={"a": ["robodoc-1"], "b": ["boing-1"]})
    )
    ok(table.submit("b", {"act": "play", "by": "b", "card": "boing-1", "target": "a"}))
    ok(table.submit("a", {"act": "accept", "by": "a"}))
    prompts = [p["kind"] for p in table.snapshot("a")["prompts"]]
    assert "dredd_robodoc" in prompts
    with SimulatedNfc("judge-dredd", table.referee.nfc, seats=[None], seed=6) as nfc:
        play = {"act": "play", "by": "a", "card": "robodoc-1", "to": "devils-island"}
        answer = ok(table.submit("a", play))
        assert "tap it" in answer["pending"] and table.actions[-1]["act"] == "accept"
        nfc.tap(perp)
        assert table.actions[-1] == {**play, "perp": perp}
    assert table.engine.view(table.state, "b")["perps"]["devils-island"]["face_up"] is True
