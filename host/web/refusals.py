"""The common refusals of the rules engines, recognised whole and said in the page's language.

The engines (``rules/``) are pure and know nothing of Flask or of languages: a
refusal (:class:`~lawmaster.rules.core.IllegalAction`) is an English sentence
built there. The web layer matches the common ones here, whole, and says them
again in the page's language; a value a pattern picks out (a piece, a cell, a
number) is kept as it was, or translated in turn when it is one of these
sentences itself. A refusal not listed is shown as the engine wrote it, in
English (see ``host/web/README.md``). The host's own sentences do not need this:
they are :class:`~lawmaster.host.ui.text.Text` and carry their message id.
"""

from __future__ import annotations

import re
from typing import Any

from flask_babel import get_locale
from flask_babel import lazy_gettext as _l

_PIECE = r"(?P<piece>[\w-]+)"
_CELL = r"(?P<cell>[A-Za-z]+\d+)"
_N = r"(?P<num>\d+) steps?"

#: (pattern, message): the pattern must match the whole reason (a final "." aside).
_TABLE: tuple[tuple[str, Any], ...] = (
    # The table, the referee and the plugin seam.
    ("it is not your turn", _l("it is not your turn")),
    ("the game is over", _l("the game is over")),
    (r"the game is over: (?P<winner>\S+) won", _l("the game is over: %(winner)s won")),
    ("there is nothing to undo", _l("there is nothing to undo")),
    (
        r"the referee could not take that input \((?P<error>.*)\)",
        _l("the referee could not take that input (%(error)s)"),
    ),
    (r"(?P<what>.+) is not allowed now", _l("%(what)s is not allowed now")),
    ("that move", _l("that move")),
    (r"(?P<who>[\w-]+)'s move", _l("%(who)s's move")),
    (r"(?P<who>[\w-]+)'s Judge", _l("%(who)s's Judge")),
    ("up", _l("up")),
    ("down", _l("down")),
    ("left", _l("left")),
    ("right", _l("right")),
    # GW:s brott: whose turn.
    (rf"it is GW's turn, not {_PIECE}'s", _l("it is GW's turn, not %(piece)s's")),
    (
        rf"it is (?P<who>[\w-]+)'s turn, not {_PIECE}'s \('[^']*'\)",
        _l("it is %(who)s's turn, not %(piece)s's"),
    ),
    (r"it is (?P<who>[\w-]+)'s turn, not GW's \('[^']*'\)", _l("it is %(who)s's turn, not GW's")),
    (
        rf"it is GW's turn: {_PIECE} is to name whom it informs on",
        _l("it is GW's turn: %(piece)s is to name whom it informs on"),
    ),
    (
        rf"the informer {_PIECE} must first name whom it informs on",
        _l("the informer %(piece)s must first name whom it informs on"),
    ),
    (
        rf"GW must first make its special move after {_PIECE}'s reset",
        _l("GW must first make its special move after %(piece)s's reset"),
    ),
    # GW:s brott: a criminal's dice and move.
    (
        r"no die shows (?P<face>\S+); the dice show (?P<shown>.+)",
        _l("no die shows %(face)s; the dice show %(shown)s"),
    ),
    (
        rf"all five dice show GW: {_PIECE} must reset them first",
        _l("all five dice show GW: %(piece)s must reset them first"),
    ),
    (
        rf"all five dice show GW: {_PIECE} must reset them before rolling",
        _l("all five dice show GW: %(piece)s must reset them before rolling"),
    ),
    (
        rf"{_PIECE} must roll the dice before moving",
        _l("%(piece)s must roll the dice before moving"),
    ),
    (rf"{_PIECE} must roll before it can pass", _l("%(piece)s must roll before it can pass")),
    (
        rf"{_PIECE} can still move \(for example the (?P<die>\S+) .*\), so it may not pass",
        _l("%(piece)s can still move (for example with the %(die)s), so it may not pass"),
    ),
    (
        rf"{_PIECE} has already handed in a card this turn",
        _l("%(piece)s has already handed in a card this turn"),
    ),
    (
        rf"{_PIECE} may hand in evidence only at the start of its turn, before rolling",
        _l("%(piece)s may hand in evidence only at the start of its turn, before rolling"),
    ),
    (
        rf"{_PIECE} may reset the dice only at the very start of its turn, before handing in"
        r" evidence or rolling",
        _l(
            "%(piece)s may reset the dice only at the very start of its turn, before handing in"
            " evidence or rolling"
        ),
    ),
    (
        rf"{_CELL} is a house; no piece may stand there",
        _l("%(cell)s is a house; no piece may stand there"),
    ),
    (
        rf"{_CELL} is the jail; no piece may move into it",
        _l("%(cell)s is the jail; no piece may move into it"),
    ),
    (
        rf"GW stands on {_CELL}; a move must end on an empty space",
        _l("GW stands on %(cell)s; a move must end on an empty space"),
    ),
    (
        rf"(?P<other>[\w-]+) stands on {_CELL}; a move must end on an empty space",
        _l("%(other)s stands on %(cell)s; a move must end on an empty space"),
    ),
    (
        rf"{_PIECE} cannot reach {_CELL} without passing a house, the jail or GW",
        _l("%(piece)s cannot reach %(cell)s without passing a house, the jail or GW"),
    ),
    (
        rf"{_PIECE} must move exactly {_N}; {_CELL} is (?P<away>\d+) steps? away",
        _l("%(piece)s must move exactly %(num)s steps; %(cell)s is %(away)s steps away"),
    ),
    (
        rf"{_PIECE} cannot end a walk of exactly {_N} on {_CELL}",
        _l("%(piece)s cannot end a walk of exactly %(num)s steps on %(cell)s"),
    ),
    (
        rf"{_PIECE} cannot slide (?P<direction>\w+) from {_CELL}: the next space is blocked",
        _l("%(piece)s cannot slide %(direction)s from %(cell)s: the next space is blocked"),
    ),
    (
        rf"{_PIECE} cannot move with the arrow in any direction",
        _l("%(piece)s cannot move with the arrow in any direction"),
    ),
    (
        rf"an arrow slide.* does not take {_PIECE} to {_CELL}",
        _l("an arrow slide does not take %(piece)s to %(cell)s"),
    ),
    (
        rf"the jail exit {_CELL} is taken; {_PIECE} cannot step onto it",
        _l("the jail exit %(cell)s is taken; %(piece)s cannot step onto it"),
    ),
    (
        "the informer must inform on another criminal, not itself",
        _l("the informer must inform on another criminal, not itself"),
    ),
    # GW:s brott: GW's move and trumps.
    (
        rf"GW may move at most {_N} in .+; this path has (?P<length>\d+)",
        _l("GW may move at most %(num)s steps; this path has %(length)s"),
    ),
    (
        rf"GW must move exactly {_N} in .+; this path has (?P<length>\d+)",
        _l("GW must move exactly %(num)s steps; this path has %(length)s"),
    ),
    (
        rf"GW moves one space at a time: {_CELL} is not next to (?P<here>\w+)",
        _l("GW moves one space at a time: %(cell)s is not next to %(here)s"),
    ),
    (
        rf"{_CELL} is a house; GW cannot pass through it",
        _l("%(cell)s is a house; GW cannot pass through it"),
    ),
    (rf"{_CELL} is the jail; GW may not visit it", _l("%(cell)s is the jail; GW may not visit it")),
    (
        rf"{_CELL} is a house or the jail; GW cannot land there",
        _l("%(cell)s is a house or the jail; GW cannot land there"),
    ),
    (rf"GW is already on {_CELL}", _l("GW is already on %(cell)s")),
    (
        r"GW rolls its die first \('gw_roll'\) or plays a trump",
        _l("GW rolls its die first or plays a trump"),
    ),
    (
        rf"GW now makes its (?P<kind>\w+) move of {_N} \('gw_move'\)",
        _l("GW now makes its move of %(num)s steps"),
    ),
    (
        r"GW's special move must end on an empty space.*",
        _l("GW's special move must end on an empty space"),
    ),
    (
        r"GW has already played the (?P<card>\w+) trump; each is used once",
        _l("GW has already played that trump; each is used once"),
    ),
    (r"GW does not hold the '?(?P<card>\w+)'? trump.*", _l("GW does not hold that trump")),
    # The sensors' faults (host/sensing/faults.py), in the health banner and panel.
    (r"the sensor under one cell (?P<what>.+)", _l("the sensor under one cell %(what)s")),
    (r"the sensor under (?P<cell>\w+) (?P<what>.+)", _l("the sensor under %(cell)s %(what)s")),
    (
        r"the sensor on spare channel (?P<channel>\d+) (?P<what>.+)",
        _l("the sensor on spare channel %(channel)s %(what)s"),
    ),
    (
        r"reads at the edge of its range, which no magnet can cause"
        r" \(a wire or the sensor is broken\)",
        _l(
            "reads at the edge of its range, which no magnet can cause"
            " (a wire or the sensor is broken)"
        ),
    ),
    (
        r"reads exactly the same value scan after scan \(the sensor or its input is dead\)",
        _l("reads exactly the same value scan after scan (the sensor or its input is dead)"),
    ),
    (
        r"jumps further between two scans than any piece can move it \(a loose contact\)",
        _l("jumps further between two scans than any piece can move it (a loose contact)"),
    ),
    (
        "has not seen the piece the game has there for longer than a move takes",
        _l("has not seen the piece the game has there for longer than a move takes"),
    ),
    ("failed the scanner's own test", _l("failed the scanner's own test")),
    (
        r"failed the scanner's own test \((?P<detail>.*)\)",
        _l("failed the scanner's own test (%(detail)s)"),
    ),
    ("GW's trump", _l("GW's trump")),
    ("GW's move", _l("GW's move")),
    (r"(?P<who>[\w-]+)'s evidence card", _l("%(who)s's evidence card")),
)

REFUSALS: tuple[tuple[re.Pattern[str], Any], ...] = tuple(
    (re.compile(pattern), message) for pattern, message in _TABLE
)


def refusal(reason: str, depth: int = 0) -> str:
    """``reason`` in the page's language when it is one of the common refusals; else as it is.

    An English page reads the engine's own words (they say "1 step", say, where a
    pattern here only keeps the number).
    """
    locale = get_locale()
    if locale is None or locale.language == "en":
        return reason
    text = reason.strip()
    end = "." if text.endswith(".") else ""
    core = text[:-1] if end else text
    for pattern, message in REFUSALS:
        match = pattern.fullmatch(core)
        if match is None:
            continue
        values = {
            k: (refusal(v, depth + 1) if depth < 2 else v)
            for k, v in match.groupdict().items()
            if v is not None
        }
        said = str(message)
        return (said % values if values else said) + end
    return reason
