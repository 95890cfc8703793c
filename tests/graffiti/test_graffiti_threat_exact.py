"""The threat map equals brute force over the dice, on random crowded positions.

The rulebook sentences the threat must respect: "your opponent rolls a number
of dice equal to the number of hexes you moved. He then moves the Judges whose
numbers have been rolled. A Judge can move more than once in a turn if his
number appears on more than one of the dice." and "A Judge may never enter or
pass through a hex occupied by another Judge." So one Judge may step aside to
open the way for another, and the threat has to count that.
"""

from __future__ import annotations

from fractions import Fraction

from graffiti_boards import SMALL, board
from graffiti_brute import brute_chance
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from lawmaster.rules.unamerican_graffiti import ENGINE
from lawmaster.rules.unamerican_graffiti.state import Options
from lawmaster.rules.unamerican_graffiti.threat import threat_map

BASE = ENGINE.new_game({"dredd_roll": 1, "board": SMALL}).state
HEXES = sorted(BASE.board.hexes)
LOCATIONS = [h for h in HEXES if BASE.board.hexes[h].is_location]
STANDING = [h for h in HEXES if BASE.board.hexes[h].kind in ("street", "sector-house")]


@st.composite
def positions(draw):
    """A position with Chopper to move: Judges, pawns, scrawls and cleaning drawn at random.

    Judges stand where play puts them (streets, Sector Houses, scrawls), so they
    crowd the streets and get in each other's way.
    """
    scrawled = draw(st.lists(st.sampled_from(LOCATIONS), unique=True, max_size=10))
    scrawls = {h: draw(st.sampled_from(["chopper-1", "phantom-1"])) for h in scrawled}
    spots = draw(st.permutations(HEXES))
    standing = [h for h in spots if h in STANDING or h in scrawls]
    judges = dict(zip(range(1, 7), standing[:6], strict=True))
    chopper, other = [h for h in spots if h not in judges.values()][:2]
    phantom = draw(st.sampled_from([other, None]))
    cleaning = frozenset(n for n, h in judges.items() if h in scrawls and draw(st.booleans()))
    landmarks = BASE.board.landmarks
    defaced = frozenset(h for h in landmarks if h in scrawls or draw(st.booleans()))
    options = Options(
        gate=draw(st.sampled_from(["into", "through"])),
        self_arrest=draw(st.sampled_from(["refuse", "allow"])),
    )
    scrawlers = {
        "chopper": BASE.scrawlers["chopper"].__class__("chopper", "chopper-1", chopper),
        "phantom": BASE.scrawlers["phantom"].__class__("phantom", "phantom-1", phantom),
    }
    return BASE.evolve(
        judges=judges,
        scrawlers=scrawlers,
        scrawls=scrawls,
        cleaning=cleaning,
        defaced=defaced,
        options=options,
    )


@settings(
    max_examples=15,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
@given(positions(), st.data())
def test_graffiti_threat_map_equals_brute_force_over_every_roll(state, data):
    threats = threat_map(state, "chopper")
    assert set(threats) == {
        a["path"][-1] if a["path"] else state.scrawlers["chopper"].position
        for a in ENGINE.legal_actions(state)
    }
    moving = sorted(h for h, t in threats.items() if t.hexes)
    if not moving:
        return
    # Judges get in each other's way where three dice fall and the map says
    # neither never nor always: one end from those, and one from all, so a
    # wrong 0 or 1 is caught as well.
    between = [h for h in moving if 0 < threats[h].chance < 1]
    between = [h for h in between if threats[h].hexes == 3] or between or moving
    ends = {data.draw(st.sampled_from(between)), data.draw(st.sampled_from(moving))}
    for end in sorted(ends):
        chance, dice, allowance = brute_chance(state, "chopper", end)
        assert threats[end].chance == chance, end
        assert (threats[end].hexes, threats[end].judges_move) == (dice, allowance)


# A corridor of streets between two rows of clean City Blocks, which a Judge may
# not enter ("They may only enter other locations either to make an arrest, or
# clean up an existing scrawl"). One street hole below hex 1,1 lets a Judge step
# aside. The pawns start on two landmarks at the corridor's end ("Each player scrawls
# at this location ..., scores 3 points of prestige and places his pawn there"); the
# other landmarks and the Sector Houses sit out of the way below.
CORRIDOR = board(["BBBBBBBBB", "......L.L", "BB.BBBBBB", "LLLL..SSSSSS"])
CORRIDOR_JUDGES = {"1": "0,1", "2": "1,1", "3": "S1", "4": "S2", "5": "S3", "6": "S4"}


def test_graffiti_threat_counts_a_judge_stepping_aside_for_another():
    header = {"dredd_roll": 1, "board": CORRIDOR, "judge_start": CORRIDOR_JUDGES}
    state = ENGINE.new_game(header).state
    # Chopper walks three streets to 3,1: three dice, each rolled Judge moves one hex.
    # Judge 2 (on 1,1) arrests with two of his dice: 15 + 1 of the 216 rolls.
    # Dredd (on 0,1) needs two dice and "may move an extra hex, but only if it
    # allows him to make an arrest": 1 hex, then 2. Judge 2 blocks him ("A Judge
    # may never enter or pass through a hex occupied by another Judge") unless
    # Judge 2's own die moves him into the hole first: the rolls 1-1-2, 1-2-1,
    # 2-1-1. Moving each Judge alone, as the old threat did, gave 16/216.
    threat = threat_map(state, "chopper")["3,1"]
    assert (threat.hexes, threat.judges_move) == (3, 1)
    assert threat.chance == Fraction(16 + 3, 216)
    assert brute_chance(state, "chopper", "3,1") == (Fraction(19, 216), 3, 1)


def test_graffiti_threat_counts_dredd_arresting_the_rollers_own_pawn_on_the_way():
    # Found by the property test above. Chopper walks L3 → 5,2 → 5,1 → 6,0; Phantom,
    # rolling 1, 1, 1 with option self_arrest = "allow", sends Judge Dredd (Judge 1, on
    # 1,2, five hexes away) to arrest his own pawn on the statue X (2,2, X: Dredd's extra
    # hex, as the move ends in an arrest), on to 4,2, then to 5,1 and 6,0 (the extra hex
    # again): Chopper is arrested. So Dredd may get his extra hex on more than one move.
    judges = {1: "1,2", 2: "-1,2", 3: "S5", 4: "S3", 5: "S6", 6: "S2"}
    pawn = BASE.scrawlers["chopper"].__class__
    state = BASE.evolve(
        judges=judges,
        scrawlers={
            "chopper": pawn("chopper", "chopper-1", "L3"),
            "phantom": pawn("phantom", "phantom-1", "X"),
        },
        scrawls={},
        cleaning=frozenset(),
        defaced=frozenset(),
        options=Options(gate="through", self_arrest="allow"),
    )
    chance, dice, allowance = brute_chance(state, "chopper", "6,0")
    # A 4 (Judge 4 is next to 6,0), or 5, 5, 5, or 1, 1, 1: 93 of 216 rolls.
    assert chance == Fraction(93, 216) and (dice, allowance) == (3, 1)
    assert threat_map(state, "chopper")["6,0"].chance == chance
    refused = state.evolve(options=Options(gate="through", self_arrest="refuse"))
    without = brute_chance(refused, "chopper", "6,0")[0]
    assert threat_map(refused, "chopper")["6,0"].chance == without < chance
