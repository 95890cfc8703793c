"""Secrecy outside the live views: replay output, refusals and exported scenarios.

Random games of all three games (refused inputs mixed in, some aimed at
secrets) are played twice: through ``replay(lines, seat=...)``, what
``lawmaster replay --seat`` prints, and through a live :class:`Table` with one
subscription per seat, read the way the web's SSE stream reads it. For every
seat:

* each replayed line carries exactly the events that seat's live stream
  carried for that input, the verdicts agree, and the last line is the view
  its live snapshot holds;
* no refusal it is told names a card or a cell hidden from it then (the
  sender may read back what it sent itself);
* its exported scenario holds no card or cell hidden from it, beyond what
  its live stream showed it of the same input.
"""

from __future__ import annotations

import contextlib
import json
import tempfile
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st
from secrecy_games import SCENARIOS, Scenario, hidden_from, told

from lawmaster.host.games import engine_for
from lawmaster.host.journal import Journal
from lawmaster.host.plugin import TABLET
from lawmaster.host.table import TABLE_SEAT, Subscription, Table
from lawmaster.rules.core import IllegalAction, events_for
from lawmaster.rules.core.export import line, scenario_lines
from lawmaster.rules.core.refusals import REFUSED_ELSEWHERE
from lawmaster.rules.core.replay import Game, replay

GAMES = list(SCENARIOS)
SEEDS = st.integers(0, 10**6)
# A failing seed is printed and replays as it is; shrinking a game of a hundred
# inputs only costs minutes.
SETTINGS = settings(
    max_examples=3,
    deadline=None,
    phases=[Phase.explicit, Phase.reuse, Phase.generate],
    suppress_health_check=[HealthCheck.too_slow],
)


def _carried(snapshot: dict[str, Any], move: int) -> list[dict[str, Any]]:
    """The events a seat's snapshot logs for input number ``move`` (0: the setup)."""
    return [
        {k: v for k, v in e.items() if k != "move"} for e in snapshot["log"] if e["move"] == move
    ]


def _latest(subscription: Subscription) -> dict[str, Any]:
    """The newest message of a subscription, as the SSE generator would push it last."""
    message = subscription.get(timeout=0)
    assert message is not None, "an accepted input pushed nothing"
    while (newer := subscription.get(timeout=0)) is not None:
        message = newer
    return message["snapshot"]


def live_streams(scenario: Scenario, folder: Path) -> tuple[Table, dict[str, list[dict[str, Any]]]]:
    """Each seat's stream over the scenario: per input, its events or a refusal."""
    table = Table.start(Journal(folder / "journal.db"), scenario.header, {"board": False})
    seats = [*table.seats(), TABLE_SEAT]
    subscriptions = {seat: table.subscribe(seat) for seat in seats}
    streams = {seat: [{"ok": True, "events": _carried(table.snapshot(seat), 0)}] for seat in seats}
    for action in scenario.inputs:
        try:
            table.accept(action, seat=scenario.engine.actor(action), source=TABLET)
        except IllegalAction:
            for seat in seats:
                streams[seat].append({"ok": False})
            continue
        for seat, subscription in subscriptions.items():
            snapshot = _latest(subscription)
            streams[seat].append({"ok": True, "events": _carried(snapshot, len(table.actions))})
    return table, streams


@pytest.mark.parametrize("game", GAMES)
@SETTINGS
@given(seed=SEEDS)
def test_secrecy_replay_for_a_seat_is_what_its_live_stream_carried(game: str, seed: int):
    scenario = SCENARIOS[game](seed)
    with tempfile.TemporaryDirectory() as folder:
        table, streams = live_streams(scenario, Path(folder))
        table.journal.close()
    for seat, stream in streams.items():
        printed = list(replay(scenario.lines(), seat=seat, engines=engine_for))
        assert len(printed) == len(stream) + 1
        for number, (out, live) in enumerate(zip(printed, stream, strict=False)):
            assert out["ok"] == live["ok"], (seat, number)
            if live["ok"]:
                assert out["events"] == live["events"], (seat, number)
        assert printed[-1] == {"view": table.snapshot(seat)["view"]}


def _walk(scenario: Scenario):
    """Yield (input, state before, outcome or the refusal) for every input."""
    game, _ = Game.start(scenario.header, engine_for)
    for action in scenario.inputs:
        before = game.state
        try:
            events = game.apply(action)
        except IllegalAction as exc:
            yield action, before, exc
        else:
            yield action, before, (game.state, events)


@pytest.mark.parametrize("game", GAMES)
@SETTINGS
@given(seed=SEEDS)
def test_secrecy_no_refusal_names_what_its_reader_may_not_know(game: str, seed: int):
    scenario = SCENARIOS[game](seed)
    engine = scenario.engine
    start = engine.new_game(scenario.header).state
    seats = [*engine.seats(start), TABLE_SEAT]
    printed = {
        seat: list(replay(scenario.lines(), seat=seat, engines=engine_for))[1:-1]
        for seat in seats
    }
    refused = 0
    for number, (action, before, result) in enumerate(_walk(scenario)):
        if not isinstance(result, IllegalAction):
            continue
        refused += 1
        actor = engine.actor(action)
        for seat in seats:
            text = printed[seat][number]["error"]
            own = json.dumps(action) if actor == seat else ""
            leaked = told(text, hidden_from(engine, before, seat), own)
            assert not leaked, (seat, action, text)
            # The sender (or, for a whole-table input, everyone) reads the reason whole.
            expected = result.reason if actor in (None, seat) else REFUSED_ELSEWHERE
            assert text == expected
    assert refused or game == "unamerican-graffiti"


@pytest.mark.parametrize("game", GAMES)
@SETTINGS
@given(seed=SEEDS)
def test_secrecy_an_exported_scenario_holds_nothing_hidden_from_its_seat(game: str, seed: int):
    scenario = SCENARIOS[game](seed)
    engine = scenario.engine
    outcome = engine.new_game(scenario.header)
    seats = [*engine.seats(outcome.state), TABLE_SEAT]
    accepted, batches, afters = [], [outcome.events], []
    for action, _, result in _walk(scenario):
        if not isinstance(result, IllegalAction):
            accepted.append(action)
            batches.append(result[1])
            afters.append(result[0])
    withheld = 0
    for seat in seats:
        first_view = engine.view(outcome.state, seat)
        lines = scenario_lines(scenario.header, accepted, batches, seat, first_view)
        assert json.loads(lines[0])["game"] == game
        assert not told(lines[0], hidden_from(engine, outcome.state, seat))
        inputs = [text for text in lines[1:] if not text.startswith("# the header")]
        assert len(inputs) == len(accepted)
        for text, action, batch, after in zip(inputs, accepted, batches[1:], afters, strict=True):
            if text.startswith("#"):
                withheld += 1
                continue
            assert text == line(action)
            # What the seat was shown of this input live (GW's helicopter landing
            # by a hidden criminal names a cell; the seat saw the landing) may show again.
            shown = "" if engine.actor(action) != seat else json.dumps(action)
            shown += json.dumps(events_for(batch, seat))
            assert not told(text, hidden_from(engine, after, seat), shown), (seat, text)
    assert withheld or game == "unamerican-graffiti"


def test_secrecy_the_table_exports_a_finished_game_per_seat(tmp_path):
    scenario = next(s for s in map(SCENARIOS["gw-brott"], range(40)) if _ends(s))
    table, _ = live_streams(scenario, tmp_path)
    assert table.is_over()
    engine = table.engine
    for seat in [*table.seats(), TABLE_SEAT]:
        first_view = engine.view(engine.new_game(scenario.header).state, seat)
        events = [engine.new_game(scenario.header).events]
        game, _ = Game.start(scenario.header, engine_for)
        for action in table.actions:
            events.append(game.apply(action))
        expected = scenario_lines(table.header, table.actions, events, seat, first_view)
        assert table.export_scenario(seat) == expected
    # The whole file is the journal's: it replays to the same end.
    out = list(replay(table.export_scenario(), engines=engine_for))
    assert all(r["ok"] for r in out[:-1]) and out[-1]["summary"] == engine.summary(table.state)
    with pytest.raises(IllegalAction):
        table.export_scenario("purple")


def _ends(scenario: Scenario) -> bool:
    game, _ = Game.start(scenario.header, engine_for)
    for action in scenario.inputs:
        with contextlib.suppress(IllegalAction):
            game.apply(action)
    return game.engine.is_over(game.state)
