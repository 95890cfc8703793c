"""Any JSON at all, as an action or a header, gets an answer: accepted or a reason."""

from __future__ import annotations

from gwtest_support import tiny_header
from hypothesis import given, settings
from hypothesis import strategies as st

from lawmaster.rules.core import IllegalAction
from lawmaster.rules.gw_brott import ENGINE

JSON = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(-3, 12)
    | st.sampled_from(
        ["red", "green", "gw", "A3", "G3", "Z9", "arrow", "up", "1", "blue-1", "helicopter", ""]
    ),
    lambda inner: (
        st.lists(inner, max_size=5) | st.dictionaries(st.text(max_size=3), inner, max_size=3)
    ),
    max_leaves=8,
)
ACTS = st.sampled_from(
    ["reset", "destroy_evidence", "roll", "move", "pass", "gw_roll", "gw_move", "trump", "inform"]
)
FIELDS = st.sampled_from(
    ["by", "card", "faces", "die", "to", "direction", "exit", "face", "path", "informer", "target"]
)


def _states():
    start = ENGINE.new_game(tiny_header()).state
    rolled = ENGINE.apply(
        start, {"act": "roll", "by": "red", "faces": ["1", "2", "3", "4", "arrow"]}
    ).state
    moved = ENGINE.apply(rolled, {"act": "move", "by": "red", "die": "1", "to": "G3"}).state
    rolled2 = ENGINE.apply(
        moved, {"act": "roll", "by": "green", "faces": ["1", "2", "3", "4", "arrow"]}
    ).state
    gw = ENGINE.apply(rolled2, {"act": "move", "by": "green", "die": "1", "to": "A3"}).state
    gw_rolled = ENGINE.apply(gw, {"act": "gw_roll", "face": 3}).state
    return [start, rolled, gw, gw_rolled]


STATES = _states()


@settings(max_examples=400, deadline=None)
@given(
    which=st.integers(0, len(STATES) - 1),
    act=ACTS | JSON,
    fields=st.dictionaries(FIELDS, JSON, max_size=4),
)
def test_any_action_is_accepted_or_refused_with_a_reason(which, act, fields):
    state = STATES[which]
    before = ENGINE.summary(state)
    try:
        ENGINE.apply(state, {"act": act, **fields})
    except IllegalAction as exc:
        assert exc.reason
    assert ENGINE.summary(state) == before


@settings(max_examples=200, deadline=None)
@given(
    key=st.sampled_from(
        ["board", "criminals", "abilities", "evidence", "trumps", "two_player", "options"]
    ),
    value=JSON,
)
def test_any_header_value_is_accepted_or_refused_with_a_reason(key, value):
    header = tiny_header()
    header[key] = value
    try:
        ENGINE.new_game(header)
    except IllegalAction as exc:
        assert exc.reason


@settings(max_examples=100, deadline=None)
@given(seat=JSON)
def test_any_seat_gets_a_view_or_a_reason(seat):
    try:
        ENGINE.view(STATES[1], seat)
    except IllegalAction as exc:
        assert exc.reason
