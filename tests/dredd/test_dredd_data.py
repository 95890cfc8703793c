"""The shipped board and card data: counts, names and the rulebook's board note."""

from __future__ import annotations

import pytest

from lawmaster.host.games import engine_for
from lawmaster.rules.core import IllegalAction
from lawmaster.rules.judge_dredd import ENGINE, Board, CardBook, card_list


def test_dredd_engine_is_registered():
    assert engine_for("judge-dredd") is ENGINE


def test_dredd_board_has_28_sectors_of_the_right_kinds():
    b = Board.load()
    kinds = [s.kind for s in b.sectors.values()]
    assert len(b.sectors) == 28
    assert kinds.count("crime") == 21
    assert kinds.count("start") == 6
    assert b.hospital == "justice-department-hospital"
    assert b.sectors[b.hospital].bonus == "recycle"
    assert sorted(b.sectors[s].bonus for s in b.starting_sectors) == [1, 1, 1, 1, 2, 2]


def test_dredd_board_names_from_the_rulebooks_are_there():
    b = Board.load()
    names = {s.name for s in b.sectors.values()}
    for name in (
        "Resyk",
        "Devil's Island",
        "Academy of Law",
        "Power Tower",
        "Channel 99",
        "Alien Zoo",
        "Justice Department Hospital",
        "Palais De Boing",
        "Justice Department Armoury",
        "Aggro Dome",
        "Grand Hall of Justice",
        "Otto Sump's Ugly Clinic",
    ):
        assert name in names


def test_dredd_board_note_resyk_devils_island_and_the_unbridged_river():
    b = Board.load()
    assert "devils-island" in b.within("resyk", 2)
    assert not b.adjacent("academy-of-law", "power-tower")
    assert frozenset(("academy-of-law", "power-tower")) in b.river
    assert b.bridges, "the river must have bridges"
    # Every sector can be reached from every other (with the bridges open).
    assert b.within("resyk", 28) == set(b.sectors)


def test_dredd_closed_bridges_cut_the_river():
    b = Board.load()
    for pair in b.bridges:
        x, y = sorted(pair)
        assert b.adjacent(x, y, True) and not b.adjacent(x, y, False)


def test_dredd_every_sector_has_drawing_coordinates_and_an_id():
    for s in Board.load().sectors.values():
        assert s.id and s.id == s.id.lower()
        assert s.x > 0 and s.y > 0


@pytest.mark.parametrize(
    "bad, reason",
    [
        ({"sectors": []}, "list of 'sectors'"),
        ({"sectors": [{"id": "a"}]}, "exactly one Sector of kind 'hospital'"),
        ({"sectors": [{"id": "h", "kind": "hospital"}], "borders": [["h", "x"]]}, "not a pair"),
        ({"sectors": [{"id": "h", "kind": "moon"}]}, "unknown kind"),
    ],
)
def test_dredd_bad_inline_boards_are_refused(bad, reason):
    with pytest.raises(IllegalAction, match=reason):
        Board.from_data(bad)


def test_dredd_card_counts_match_the_rulebook():
    cards = CardBook.load()
    assert len(cards.perps) == 28
    assert len(cards.crimes) == 28
    assert len(cards.sector_cards) == 21
    assert len(cards.actions) == 55
    types = {a.type for a in cards.actions.values()}
    assert types == {"combat", "movement", "alert", "special"}
    # Every crime Sector of the board has exactly one Sector card.
    assert sorted(cards.sector_cards.values()) == sorted(Board.load().crime_sectors)


def test_dredd_cards_whose_effect_the_rulebook_gives():
    cards = CardBook.load()
    assert cards.perps["the-mantis-brothers"] == 6
    assert cards.crimes["robot-smashing"] == 4
    assert cards.actions["aah-ankle-trap-1"].effect == {"judge": -3}
    assert cards.actions["fergee-1"].effect == {"judge_dice": 1}
    assert cards.actions["robo-dogs-1"].effect == {"judge": 4}
    assert cards.actions["stumm-gas-1"].effect == {"judge": 4}
    kinds = {a.kind for a in cards.actions.values()}
    for kind in (
        "alien-escape",
        "quarantine",
        "bridges-closed",
        "block-mania",
        "tip-off",
        "boing",
        "robodoc",
        "barney",
        "crime-spree",
        "escape",
        "sabotage",
    ):
        assert kind in kinds
    alts = [a.alt for a in cards.actions.values() if a.alt]
    assert any(a.get("shield") == 2 and "anti-dazzle visor" in a["text"] for a in alts)
    assert any(a.get("ignore") == "barney" and "Anderson" in a["text"] for a in alts)


def test_dredd_card_list_covers_every_physical_card_once():
    cards = card_list()
    assert len(cards) == 28 + 28 + 21 + 55
    assert len({c["id"] for c in cards}) == len(cards)
    assert {c["kind"] for c in cards} == {"perp", "crime", "sector", "action"}
    assert all(set(c) == {"id", "name", "kind"} for c in cards)


def test_dredd_data_files_say_they_are_reconstructions():
    from lawmaster.rules.core.boarddata import load_data

    for name in ("board-standard", "cards-standard"):
        assert "RECONSTRUCTION" in load_data("lawmaster.rules.judge_dredd", name)["_note"]
