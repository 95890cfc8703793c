"""Hand-checked examples of each rule of GW's deduction map."""

from __future__ import annotations

from typing import Any

from lawmaster.rules.gw_brott.board import Board
from lawmaster.rules.gw_brott.deduction import Deduction

# A 5x4 street grid with dead ends:
#    A B C D E
#  1 . H . H .
#  2 . . . . .      exits C2 and D4, GW starts on C4
#  3 H . H . H
#  4 . . . . .
POCKETS = Board.load(
    {
        "width": 5,
        "height": 4,
        "houses": ["B1", "D1", "A3", "C3", "E3"],
        "jail": {"exits": ["C2", "D4"]},
        "gw_start": "C4",
        "evidence": {},
    }
)
# An empty 6x6 square, one exit in the middle of the left edge, GW in a corner.
OPEN = Board.load(
    {"width": 6, "height": 6, "jail": {"exits": ["A3"]}, "gw_start": "F6", "evidence": {}}
)


def moved(piece: str, die: str, from_jail: bool = False) -> dict[str, Any]:
    return {"type": "criminal_moved", "by": piece, "die": die, "from_jail": from_jail}


def gw_moved(path: list[str], start: str, caught: str | None = None, **extra: Any) -> dict:
    end = path[-1] if path else start
    return {
        "type": "gw_moved",
        "kind": extra.pop("kind", "normal"),
        "path": path,
        "from": start,
        "to": end,
        "caught": caught,
        "blocked": False,
        **extra,
    }


def pin(piece: str, cell: str) -> dict[str, Any]:
    return {"type": "informed", "informer": "x", "target": piece, "cell": cell, "immune": False}


def play(deduction: Deduction, *events: dict[str, Any]) -> Deduction:
    for event in events:
        deduction = deduction.update(event)
    return deduction


def test_update_returns_a_new_map_and_ignores_unknown_events() -> None:
    start = Deduction.start(POCKETS, ["red"])
    after = start.update(moved("red", "1", from_jail=True))
    assert start.cells("red") == {"jail"}
    assert after.cells("red") == {"C2", "D4"}
    assert after.update({"type": "gw_rolled", "face": 3}) is after


def test_a_walk_never_ends_on_or_passes_gw() -> None:
    # From D4 with a 2, GW on C4: D4-D3-D2, D4-D3-D4 or D4-E4-D4 (E3 is a house).
    d = play(Deduction.start(POCKETS, ["red"]), pin("red", "D4"), moved("red", "2"))
    assert d.cells("red") == {"D2", "D4"}


def _red_on_c1_or_b2_with_gw_on_c2(*pieces: str) -> Deduction:
    """Red steps off C2 by one (C1, B2 or D2), then GW walks up to C2 through D2."""
    return play(
        Deduction.start(POCKETS, ["red", *pieces]),
        moved("red", "1", from_jail=True),
        pin("red", "C2"),
        moved("red", "1"),
        gw_moved(["D4", "D3", "D2", "C2"], "C4"),
    )


def roll_and_pass(piece: str, *faces: str) -> list[dict[str, Any]]:
    dice = [*faces] + ["gw"] * (5 - len(faces))
    return [
        {"type": "rolled", "by": piece, "faces": dice, "dice": dice},
        {"type": "passed", "by": piece, "reason": "no legal move"},
    ]


def test_a_pass_rules_out_every_cell_with_a_move() -> None:
    d = _red_on_c1_or_b2_with_gw_on_c2()
    assert d.cells("red") == {"C1", "B2"}
    # C1 is a dead end under GW; from B2 a 1 reaches A2 or B3.
    assert play(d, *roll_and_pass("red", "1")).cells("red") == {"C1"}
    assert play(d, *roll_and_pass("red", "arrow", "4")).cells("red") == {"C1"}


def test_a_pass_counts_on_the_others_only_when_certain() -> None:
    # Green is known on A2: from B2 the 1 still reaches B3, so red is on C1.
    d = play(_red_on_c1_or_b2_with_gw_on_c2("green"), pin("green", "A2"))
    assert play(d, *roll_and_pass("red", "1")).cells("red") == {"C1"}
    # Green on A2 and blue maybe on B3: B2's two ends could both be taken, so
    # red may be stuck on B2 as well.
    d = play(
        _red_on_c1_or_b2_with_gw_on_c2("green", "blue"),
        pin("green", "A2"),
        moved("blue", "1", from_jail=True),
        pin("blue", "B4"),
        moved("blue", "1"),
    )
    assert d.cells("blue") == {"A4", "B3", "C4"}
    assert play(d, *roll_and_pass("red", "1")).cells("red") == {"C1", "B2"}
    # Green on A2 or B3, both of B2's ends, but it fills only one of them: a
    # move from B2 was certain (counting: two ends, one rival).
    d = play(
        _red_on_c1_or_b2_with_gw_on_c2("green"),
        moved("green", "1", from_jail=True),
        pin("green", "A2"),
        moved("green", "2"),
    )
    assert d.cells("green") == {"A2", "B3"}
    assert play(d, *roll_and_pass("red", "1")).cells("red") == {"C1"}
    # A third piece far away cannot help cover B2's ends.
    far = play(
        _red_on_c1_or_b2_with_gw_on_c2("green", "blue"),
        moved("green", "1", from_jail=True),
        pin("green", "A2"),
        moved("green", "2"),
        moved("blue", "1", from_jail=True),
        pin("blue", "E4"),
    )
    assert far.cells("green") == {"A2", "B3"}
    assert play(far, *roll_and_pass("red", "1")).cells("red") == {"C1"}
    # Tracked alone, red only knows two other pieces exist: B2 stays possible.
    alone = play(
        Deduction.start(POCKETS, ["red", "green", "blue"], joint=False),
        moved("red", "1", from_jail=True),
        pin("red", "C2"),
        moved("red", "1"),
        gw_moved(["D4", "D3", "D2", "C2"], "C4"),
        *roll_and_pass("red", "1"),
    )
    assert alone.cells("red") == {"C1", "B2"}


def test_a_pass_is_read_only_for_the_piece_that_rolled() -> None:
    d = _red_on_c1_or_b2_with_gw_on_c2("green")
    d = play(
        d,
        {"type": "rolled", "by": "green", "dice": ["1", "gw", "gw", "gw", "gw"]},
        {"type": "passed", "by": "red", "reason": "no legal move"},
    )
    assert d.cells("red") == {"C1", "B2"}


def test_a_pass_with_only_gw_faces_says_nothing() -> None:
    d = play(_red_on_c1_or_b2_with_gw_on_c2(), *roll_and_pass("red"))
    assert d.cells("red") == {"C1", "B2"}


def test_gw_path_clears_cells_and_a_catch_pins_then_jails() -> None:
    d = play(Deduction.start(OPEN, ["red", "green"]), moved("red", "2", from_jail=True))
    assert d.cells("red") == {"A2", "A4", "B3"}
    d = d.update(gw_moved(["B3", "A3"], "B4"))
    assert d.cells("red") == {"A2", "A4"}
    caught = d.update(gw_moved(["A4"], "A3", caught="red"))
    assert caught.cells("red") == {"A4"}
    jailed = caught.update({"type": "caught", "piece": "red", "cell": "A4", "handcuffs": 1})
    assert jailed.cells("red") == {"jail"}


def test_a_slide_may_stop_before_a_piece_that_might_be_there() -> None:
    pieces = ["red", "green"]
    events = [
        moved("red", "1", from_jail=True),
        pin("red", "D1"),
        moved("red", "arrow"),  # left to A1, right to F1, down to D6
        moved("green", "1", from_jail=True),
        pin("green", "D3"),
        moved("green", "arrow"),
    ]
    joint = play(Deduction.start(OPEN, pieces), *events)
    assert joint.cells("red") == {"A1", "F1", "D6"}
    # Up to D1 (red left it), left to A3, right to F3, down to D6 — or to D5 when
    # red is on D6.
    assert joint.cells("green") == {"D1", "A3", "F3", "D6", "D5"}
    # Knowing nothing of red, any cell of the four rays may be a stop.
    alone = play(Deduction.start(OPEN, pieces, joint=False), *events)
    assert alone.cells("green") == {"D2", "D1", "C3", "B3", "A3", "E3", "F3", "D4", "D5", "D6"}


def test_a_piece_known_exactly_is_a_wall_for_the_others() -> None:
    d = play(
        Deduction.start(OPEN, ["red", "green"]),
        moved("red", "1", from_jail=True),
        pin("red", "D3"),
        moved("green", "1", from_jail=True),
        pin("green", "A3"),
        moved("green", "arrow"),
    )
    # Right from A3, green stops on C3, before red on D3; never beyond.
    assert d.cells("green") == {"A1", "A6", "C3"}
    # And a walk may not end on red's cell.
    d2 = play(
        Deduction.start(OPEN, ["red", "green"]),
        moved("red", "1", from_jail=True),
        pin("red", "B3"),
        moved("green", "2", from_jail=True),
    )
    assert d2.cells("green") == {"A2", "A4"}


def test_hall_tight_pairs_are_walls_for_a_third_piece() -> None:
    d = play(
        Deduction.start(OPEN, ["red", "green", "blue"]),
        moved("red", "2", from_jail=True),
        moved("green", "2", from_jail=True),
    )
    assert d.cells("green") == {"A2", "A4", "B3"}
    d = d.update(gw_moved(["B3", "C3"], "C2"))
    assert d.cells("red") == d.cells("green") == {"A2", "A4"}
    # Red and green fill A2 and A4 between them, so blue's 2 out of jail can only
    # end on B3.
    d = d.update(moved("blue", "2", from_jail=True))
    assert d.cells("blue") == {"B3"}
    alone = play(
        Deduction.start(OPEN, ["red", "green", "blue"], joint=False),
        moved("red", "2", from_jail=True),
        moved("green", "2", from_jail=True),
        gw_moved(["B3", "C3"], "C2"),
        moved("blue", "2", from_jail=True),
    )
    assert alone.cells("blue") == {"A2", "A4", "B3"}


def test_evidence_pins_where_the_turn_starts() -> None:
    d = play(
        Deduction.start(OPEN, ["red", "green"]),
        moved("red", "3", from_jail=True),
        {"type": "evidence_destroyed", "by": "red", "card": "blue-1", "cell": "C3"},
    )
    assert d.cells("red") == {"C3"}


def test_infiltrator_pins_the_seen_and_says_nothing_of_the_hidden() -> None:
    d = play(
        Deduction.start(OPEN, ["red", "green", "blue"]),
        moved("red", "2", from_jail=True),
        moved("green", "2", from_jail=True),
    )
    d = d.update(
        {"type": "infiltrated", "seen": {"red": "B3", "blue": "jail"}, "hidden": ["green"]}
    )
    assert d.cells("red") == {"B3"}
    assert d.cells("blue") == {"jail"}
    # Green is not where red stands, but the empty cells GW saw are no evidence.
    assert d.cells("green") == {"A2", "A4"}


def test_informer_on_an_immune_target_says_nothing() -> None:
    d = play(Deduction.start(OPEN, ["red", "green"]), moved("red", "2", from_jail=True))
    same = d.update(
        {"type": "informed", "informer": "green", "target": "red", "cell": None, "immune": True}
    )
    assert same.cells("red") == {"A2", "A4", "B3"}


def _blocked(kind: str, **fields: Any) -> dict[str, Any]:
    return {
        "type": "gw_moved",
        "kind": kind,
        "path": fields.pop("path", []),
        "from": "F6",
        "to": "F6",
        "caught": None,
        "blocked": True,
        **fields,
    }


def test_blocked_breakthrough_pins_the_only_suspect() -> None:
    d = play(Deduction.start(OPEN, ["red", "green"]), moved("red", "2", from_jail=True))
    blocked = _blocked("breakthrough", path=["F5", "F4"], blocked_at="B3")
    # Green is in jail, so red is the one GW ran into.
    assert d.update(blocked).cells("red") == {"B3"}
    # With green possibly on B3 too, nobody is pinned.
    d2 = d.update(moved("green", "2", from_jail=True))
    after = d2.update(blocked)
    assert after.cells("red") == after.cells("green") == {"A2", "A4", "B3"}
    assert after.gw == OPEN.cell("F6")


def test_blocked_helicopter_cuts_the_only_suspect_to_the_target_area() -> None:
    d = play(Deduction.start(OPEN, ["red", "green"]), moved("red", "2", from_jail=True))
    after = d.update(_blocked("helicopter", target="A1"))
    assert after.cells("red") == {"A2"}
    after = d.update(_blocked("helicopter", target="C4"))
    assert after.cells("red") == {"B3"}


def test_special_move_over_criminals_clears_only_its_end() -> None:
    setup = {
        "type": "setup",
        "criminals": ["red", "green"],
        "gw_position": "F6",
        "options": {"special_move_catches": False},
    }
    over = play(
        Deduction.start(OPEN, ["red", "green"]),
        setup,
        moved("red", "2", from_jail=True),
        gw_moved(["A4", "A5"], "B5", kind="special"),
    )
    assert over.cells("red") == {"A2", "A4", "B3"}  # A4 was passed over, not checked
    catches = play(
        Deduction.start(OPEN, ["red", "green"]),
        moved("red", "2", from_jail=True),
        gw_moved(["A4", "A5"], "B5", kind="special"),
    )
    assert catches.cells("red") == {"A2", "B3"}


def test_out_of_the_game_is_nowhere() -> None:
    d = play(
        Deduction.start(OPEN, ["red", "green"]),
        moved("red", "2", from_jail=True),
        gw_moved(["A2"], "A1", caught="red"),
        {"type": "caught", "piece": "red", "cell": "A2", "handcuffs": 3},
        {"type": "out", "piece": "red"},
    )
    assert d.cells("red") == frozenset()
    assert d.is_out("red")
    d = d.update(moved("green", "2", from_jail=True))
    # GW stands on A2 where it caught red; red, out, blocks nothing.
    assert d.cells("green") == {"A4", "B3"}


def test_arrow_out_of_an_exit_stays_on_it_only_when_blocked() -> None:
    d = play(Deduction.start(OPEN, ["red", "green"]), moved("red", "arrow", from_jail=True))
    # From A3: up to A1, down to A6, right to F3; left is the edge, so staying counts.
    assert d.cells("red") == {"A1", "A6", "F3", "A3"}
    middle = Board.load(
        {"width": 5, "height": 5, "jail": {"exits": ["C3"]}, "gw_start": "E5", "evidence": {}}
    )
    d = play(Deduction.start(middle, ["red", "green"]), moved("red", "arrow", from_jail=True))
    assert d.cells("red") == {"C1", "C5", "A3", "E3"}


def test_a_move_is_read_from_each_start_with_what_that_start_tells() -> None:
    # Red and green are on C1 and C3, GW on B2; nobody knows who is where.
    d = play(
        Deduction.start(OPEN, ["red", "green"]),
        moved("red", "1", from_jail=True),
        pin("red", "C2"),
        moved("red", "1"),
        gw_moved(["B2"], "B1"),
        gw_moved(["D2"], "D1"),
        moved("green", "1", from_jail=True),
        pin("green", "C2"),
        moved("green", "1"),
        gw_moved(["C2", "B2"], "D2"),
    )
    assert d.cells("red") == d.cells("green") == {"C1", "C3"}
    # From C1 green is on C3 (red slides down to C2 only); from C3 green is on
    # C1, so red's slide up stops on C2 and never reaches C1.
    d = d.update(moved("red", "arrow"))
    assert d.cells("red") == {"A1", "F1", "C2", "A3", "F3", "C6"}


def test_a_jailed_piece_that_passes_shows_the_exits_taken() -> None:
    d = play(
        Deduction.start(POCKETS, ["red", "green", "blue"]),
        moved("green", "1", from_jail=True),
        pin("green", "B2"),
        moved("green", "1"),
        moved("blue", "1", from_jail=True),
        pin("blue", "D3"),
        moved("blue", "1"),
    )
    assert d.cells("green") == {"A2", "C2", "B3"}
    assert d.cells("blue") == {"D2", "D4"}
    # Red in jail cannot even step onto an exit with its 1: both exits are taken,
    # C2 can only be green's and D4 only blue's.
    after = play(d, *roll_and_pass("red", "1"))
    assert after.cells("red") == {"jail"}
    assert after.cells("green") == {"C2"}
    assert after.cells("blue") == {"D4"}
    # A pass with only GW faces says nothing.
    assert play(d, *roll_and_pass("red")).cells("green") == {"A2", "C2", "B3"}


def test_a_piece_known_exactly_that_passes_shows_its_ends_taken() -> None:
    d = play(
        Deduction.start(POCKETS, ["red", "green"]),
        moved("green", "1", from_jail=True),
        pin("green", "B2"),
        moved("green", "1"),
        moved("red", "1", from_jail=True),
        pin("red", "A1"),
    )
    assert d.cells("green") == {"A2", "C2", "B3"}
    # Red on the dead end A1 cannot move its 1: A2, its only way out, is taken.
    after = play(d, *roll_and_pass("red", "1"))
    assert after.cells("red") == {"A1"}
    assert after.cells("green") == {"A2"}
