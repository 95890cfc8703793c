"""What a table publishes, built from the table screen's snapshot and nothing else.

Every function here reads a ``"table"`` snapshot (:meth:`Table.snapshot`, what the
table screen's stream carries) and the game's public facts (its title, its seats and
how players name them, its score rule over the public view). So a payload can never
hold more than the table screen was sent: that is the whole of the secrecy argument,
and ``tests/hall`` checks it over random games of every game.

The formats are documented in ``docs/HALL.md``; a change here is a change there.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

#: Public events the state payload repeats (the hall's "last few events").
RECENT = 6


@dataclass(frozen=True)
class GameFacts:
    """What a payload says of the game beside the snapshot: all of it public."""

    #: The journal's number of this game at this table (a finished game's key with the table).
    game_id: int
    slug: str
    title: str
    #: Every player seat, in the game's order.
    seats: tuple[str, ...]
    #: Seat → the name players use for it ("gw" → "GW").
    names: Mapping[str, str]
    #: The game's score rule over the public view (``Game.scores``).
    scores: Callable[[Mapping[str, Any]], Mapping[str, Any]] = lambda view: {}
    #: When this table first saw the game at its very start (wall clock), if it did.
    started: float | None = None

    @classmethod
    def of(cls, table: Any, started: float | None = None) -> GameFacts:
        """The facts of a :class:`~lawmaster.host.table.Table`'s game."""
        plugin = table.plugin
        seats = tuple(table.seats())
        return cls(
            game_id=int(table.record.id),
            slug=str(table.game),
            title=str(plugin.title),
            seats=seats,
            names={seat: str(plugin.ui.seat_name(seat)) for seat in seats},
            scores=plugin.scores,
            started=started,
        )


def new_events(
    published: Sequence[Mapping[str, Any]], log: Sequence[Mapping[str, Any]]
) -> tuple[int, list[Mapping[str, Any]]]:
    """``(kept, new)``: how much of ``published`` the snapshot's ``log`` still holds, and
    the entries after it. An undo takes entries off the end (``kept`` shrinks); what
    follows it is new."""
    if len(log) >= len(published) and log[: len(published)] == published:
        return len(published), list(log[len(published) :])  # the usual case, compared in C
    kept = 0
    for old, now in zip(published, log, strict=False):
        if old != now:
            break
        kept += 1
    return kept, list(log[kept:])


def players(facts: GameFacts, view: Any) -> list[dict[str, Any]]:
    """Each seat, its name, and its score where the game keeps one anyone may see."""
    scores = facts.scores(view) if isinstance(view, Mapping) else {}
    found = []
    for seat in facts.seats:
        score = scores.get(seat)
        found.append(
            {
                "seat": seat,
                "name": facts.names.get(seat, seat),
                "score": None if score is None else score.value,
                "of": None if score is None else score.of,
                "what": None if score is None else score.what,
            }
        )
    return found


def _winner(view: Any) -> Any:
    return view.get("winner") if isinstance(view, Mapping) else None


def _names(facts: GameFacts, seats: Any) -> list[str]:
    return [facts.names.get(s, str(s)) for s in seats] if isinstance(seats, list) else []


def state(table: str, facts: GameFacts, snapshot: Mapping[str, Any], now: float) -> dict[str, Any]:
    """The retained ``state`` payload of one ``"table"`` snapshot."""
    view = snapshot.get("view")
    winner = _winner(view)
    log = list(snapshot.get("log") or [])
    return {
        "table": table,
        "game": facts.slug,
        "title": facts.title,
        "game_id": facts.game_id,
        "move": snapshot.get("move"),
        "version": snapshot.get("version"),
        "round": view.get("round") if isinstance(view, Mapping) else None,
        "players": players(facts, view),
        "to_act": list(snapshot.get("to_act") or []),
        "to_act_names": _names(facts, snapshot.get("to_act")),
        "over": bool(snapshot.get("over")),
        "winner": winner,
        "winner_name": facts.names.get(winner, winner) if isinstance(winner, str) else None,
        "status": snapshot.get("status"),
        "events": len(log),
        "recent": log[-RECENT:],
        "view": view,
        "at": round(now, 3),
    }


def health(table: str, snapshot: Mapping[str, Any]) -> dict[str, Any]:
    """The retained ``health`` payload: the table screen's health panel, and whether the
    referee is paused because the board is blind."""
    seen = snapshot.get("health") or {}
    status = snapshot.get("status") or {}
    panel = [list(row) for row in seen.get("panel") or []]
    return {
        "table": table,
        "online": True,
        "blind": status.get("state") == "blind",
        "status": status,
        "trouble": any(bool(row[2]) for row in panel if len(row) > 2),
        "panel": panel,
        "banner": list(seen.get("banner") or []),
    }


#: Why a table is offline: it stopped cleanly, or it stopped answering (its last will).
STOPPED, LOST = "stopped", "lost"
_WHY = {
    STOPPED: "the table was stopped",
    LOST: "the table stopped answering the broker",
}


def offline(table: str, why: str) -> dict[str, Any]:
    """The ``health`` payload of a table that is gone (``why``: :data:`STOPPED` for its
    goodbye, :data:`LOST` for the last will the broker publishes for it)."""
    return {"table": table, "online": False, "why": why, "reason": _WHY[why]}


def result(
    table: str, facts: GameFacts, snapshot: Mapping[str, Any], now: float
) -> dict[str, Any]:
    """The retained ``result`` payload of a finished game."""
    view = snapshot.get("view")
    winner = _winner(view)
    minutes = None if facts.started is None else round((now - facts.started) / 60, 1)
    return {
        "table": table,
        "game": facts.slug,
        "title": facts.title,
        "game_id": facts.game_id,
        "players": players(facts, view),
        "winner": winner,
        "winner_name": facts.names.get(winner, winner) if isinstance(winner, str) else None,
        "length": {
            "inputs": snapshot.get("move"),
            "rounds": view.get("round") if isinstance(view, Mapping) else None,
            "minutes": minutes,
        },
        "ended": round(now, 3),
    }
