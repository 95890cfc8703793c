"""The reconstruction data: cards, dice, and the card list the NFC registry reads."""

from __future__ import annotations

from collections import Counter

from lawmaster.rules.gw_brott import Board
from lawmaster.rules.gw_brott.cards import (
    card_data,
    card_list,
    criminal_cards,
    criminal_faces,
    dice_data,
    gw_faces,
    trump_names,
)
from lawmaster.rules.gw_brott.state import TRUMPS


def test_data_files_say_they_are_reconstructions():
    assert "RECONSTRUCTION" in card_data()["_note"]
    assert "RECONSTRUCTION" in dice_data()["_note"]


def test_eight_criminal_cards_two_immune_to_each_trump():
    cards = criminal_cards()
    assert len(cards) == 8
    assert Counter(c["immune_to"] for c in cards.values()) == {t: 2 for t in TRUMPS}
    assert all(c["name"] and c["crime"] for c in cards.values())


def test_23_evidence_cards_match_the_standard_board_spaces():
    board = Board.load("standard")
    ids = [c["id"] for c in card_data()["evidence"]]
    assert len(ids) == 23 == len(set(ids))
    assert set(ids) == set(board.evidence)
    for card in card_data()["evidence"]:
        assert card["id"].startswith(card["colour"] + "-")


def test_four_trumps_are_the_ones_the_engine_plays():
    assert set(trump_names()) == set(TRUMPS)


def test_dice_faces():
    assert criminal_faces() == ("1", "2", "3", "4", "arrow", "gw")
    assert dice_data()["criminal_dice"] == 5
    assert gw_faces() == (1, 2, 3, 4, 5, 6)


def test_card_list_gives_every_physical_card_once():
    cards = card_list()
    assert len(cards) == 8 + 23 + 4
    assert Counter(c["kind"] for c in cards) == {"criminal": 8, "evidence": 23, "trump": 4}
    assert len({c["id"] for c in cards}) == len(cards)
    assert all(set(c) == {"id", "name", "kind"} and c["name"] for c in cards)
