"""What a scrawler's move and one Judge die do to the board.

These are the state changes alone, with no checking: the engine checks an
action and then calls them, and the threat map calls the very same functions
on the moves the engine would accept, so the two can never disagree.
"""

from __future__ import annotations

from dataclasses import replace

from lawmaster.rules.core import Event, public

from .state import State


def land(state: State, who: str, path: list[str]) -> tuple[State, list[Event]]:
    """``who`` walks ``path`` (already checked); ending on a clean location scrawls it."""
    start = state.scrawlers[who].position
    end = path[-1] if path else start
    assert end is not None
    scrawlers = {**state.scrawlers, who: replace(state.scrawlers[who], position=end)}
    state = replace(state, scrawlers=scrawlers, moved=len(path))
    events: list[Event] = [public("moved", player=who, path=path, to=end, hexes=len(path))]
    if path and state.is_clean_location(end):
        state, scrawl_events = scrawl(state, who, end)
        events += scrawl_events
    return state, events


def scrawl(state: State, who: str, where: str) -> tuple[State, list[Event]]:
    """``who`` scrawls ``where`` in its colour and scores the location's prestige."""
    colour_id = state.scrawlers[who].colour
    colour = state.colours[colour_id]
    place = state.board.hex(where)
    colours = dict(state.colours)
    colours[colour_id] = replace(colour, prestige=colour.prestige + place.prestige)
    defaced = state.defaced | {where} if place.kind == "landmark" else state.defaced
    state = replace(
        state,
        scrawls={**state.scrawls, where: colour_id},
        colours=colours,
        defaced=defaced,
        scrawled=where,
        statue_reached=state.statue_reached or place.kind == "statue",
    )
    event = public(
        "scrawled",
        player=who,
        colour=colour_id,
        at=where,
        prestige=place.prestige,
        total=colours[colour_id].prestige,
    )
    return state, [event]


def allowance(state: State) -> int:
    """Hexes each rolled Judge may move: the prestige of this turn's scrawl, else 1."""
    return state.board.hex(state.scrawled).prestige if state.scrawled else 1


def judge_die(state: State, judge: int, path: list[str]) -> tuple[State, list[Event]]:
    """Resolve one die showing ``judge``: he cleans, or walks ``path`` (already checked).

    The die itself is not taken off ``state.dice``; the caller keeps the dice.
    """
    if judge in state.cleaning:
        where = state.judges[judge]
        colour = state.scrawls.get(where)
        scrawls = {h: c for h, c in state.scrawls.items() if h != where}
        state = state.evolve(scrawls=scrawls, cleaning=state.cleaning - {judge})
        return state, [public("cleaned", judge=judge, at=where, colour=colour)]
    end = path[-1] if path else state.judges[judge]
    events: list[Event] = [public("judge_moved", judge=judge, path=path, to=end)]
    if not path:
        return state, events
    stops = end in state.scrawls
    cleaning = state.cleaning | {judge} if stops else state.cleaning
    state = state.evolve(judges={**state.judges, judge: end}, cleaning=cleaning)
    caught = next((p for p, s in state.scrawlers.items() if s.position == end), None)
    if caught is not None:
        state, arrest_events = arrest(state, caught, judge, end)
        events += arrest_events
    if stops:
        events.append(public("judge_stops_to_clean", judge=judge, at=end))
    return state, events


def arrest(state: State, player: str, judge: int, where: str) -> tuple[State, list[Event]]:
    """``player``'s pawn is taken off the board; its colour is scored at the turn's end."""
    pawn = state.scrawlers[player]
    colours = dict(state.colours)
    colours[pawn.colour] = replace(colours[pawn.colour], arrested=True)
    state = replace(
        state,
        scrawlers={**state.scrawlers, player: replace(pawn, position=None)},
        colours=colours,
        arrested_now=(*state.arrested_now, pawn.colour),
    )
    return state, [public("arrested", player=player, colour=pawn.colour, judge=judge, at=where)]
