"""The tracker is game-agnostic: Judge Dredd sectors (several spots) and Graffiti hexes."""

from lawmaster.host.sim.rig import Rig
from lawmaster.host.tracker import Ambiguous, Expectation, Moved


def test_judge_leaves_a_shared_sector_and_the_one_who_may_move_is_named():
    rig = Rig.for_game("judge-dredd", seed=2)
    kinds = {"dredd": "judge", "anderson": "judge", "hershey": "judge"}
    positions = {"dredd": "resyk", "anderson": "resyk", "hershey": "mega-mall"}
    for judge, sector in positions.items():
        rig.board.put(judge, "judge", sector)
    assert rig.run(0.1) == []
    assert rig.tracker.seen["resyk"] == {"judge": 2}
    rig.tracker.expect(Expectation(kinds, positions, {"anderson"}), rig.now)
    # Which standee leaves is not something the sensors can tell; whose turn it is can.
    rest = rig.hands.lift_place("dredd", "devils-island", rig.now)
    moved = [o for o in rig.run_until(rest + 0.5) if isinstance(o, Moved)]
    assert [(m.piece, m.from_, m.to) for m in moved] == [("anderson", "resyk", "devils-island")]


def test_two_judges_who_may_both_move_from_one_sector_are_ambiguous():
    rig = Rig.for_game("judge-dredd", seed=2)
    kinds = {"dredd": "judge", "anderson": "judge"}
    positions = {"dredd": "resyk", "anderson": "resyk"}
    for judge, sector in positions.items():
        rig.board.put(judge, "judge", sector)
    rig.run(0.1)
    rig.tracker.expect(Expectation(kinds, positions, {"dredd", "anderson"}), rig.now)
    rest = rig.hands.lift_place("anderson", "mega-mall", rig.now)
    obs = [o for o in rig.run_until(rest + 0.5) if isinstance(o, Ambiguous)]
    assert len(obs) == 1
    assert {(r.piece, r.to) for r in obs[0].readings} == {
        ("dredd", "mega-mall"),
        ("anderson", "mega-mall"),
    }


def test_graffiti_scrawler_and_judge_told_apart_by_polarity():
    rig = Rig.for_game("unamerican-graffiti", seed=4)
    kinds = {"chopper": "scrawler", "judge-1": "judge"}
    positions = {"chopper": "power-tower", "judge-1": "sector-house-1"}
    for piece, hex_id in positions.items():
        rig.board.put(piece, kinds[piece], hex_id)
    rig.run(0.1)
    assert rig.tracker.seen["power-tower"] == {"scrawler": 1}
    assert rig.tracker.seen["sector-house-1"] == {"judge": 1}
    rig.tracker.expect(Expectation(kinds, positions, {"judge-1"}), rig.now)
    rest = rig.hands.slide("judge-1", ["3,1"], rig.now)
    obs = rig.run_until(rest + 0.5)
    assert [(o.piece, o.from_, o.to, o.how) for o in obs] == [
        ("judge-1", "sector-house-1", "3,1", "slid")
    ]
