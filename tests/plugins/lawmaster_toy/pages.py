"""What the race's seat pages draw: the two lanes as an inline SVG, the moves as buttons.

Everything is drawn from the snapshot given (the seat's view, prompts and log).
The controls come from this game's own template, ``templates/controls.html``,
which the web app finds as ``<slug>/controls.html``.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from markupsafe import Markup

from lawmaster.host.ui import SeatUI
from lawmaster.host.ui.generic import prompt_controls

from .engine import LENGTH, SLUG

CELL = 60  # px
COLOURS = {"red": "#c0392b", "blue": "#2e6fbf"}


class RaceUI(SeatUI):
    """The race's seat pages."""

    covered = frozenset({"choose_cell"})

    def board(self, snapshot: Mapping[str, Any]) -> Markup:
        view = snapshot.get("view")
        if not isinstance(view, Mapping) or not isinstance(view.get("lanes"), list):
            return super().board(snapshot)
        lanes: list[list[str]] = view["lanes"]
        positions: Mapping[str, str] = view.get("positions") or {}
        width, height = CELL * LENGTH + 8, CELL * len(lanes) + 8
        parts: list[Markup] = []
        for row, lane in enumerate(lanes):
            for column, cell in enumerate(lane):
                x, y = 4 + column * CELL, 4 + row * CELL
                goal = " goal" if column == LENGTH - 1 else ""
                parts.append(
                    Markup(
                        '<g class="cell{goal}" data-cell="{cell}"><title>{cell}</title>'
                        '<rect x="{x}" y="{y}" width="{size}" height="{size}" fill="{fill}"'
                        ' stroke="#333"/><text x="{tx}" y="{ty}" font-size="12">{cell}</text></g>'
                    ).format(
                        goal=goal,
                        cell=cell,
                        x=x,
                        y=y,
                        size=CELL,
                        fill="#f4e8b8" if goal else "#fafafa",
                        tx=x + 4,
                        ty=y + 14,
                    )
                )
        for player, cell in sorted(positions.items()):
            found = _place(lanes, cell)
            if found is None:
                continue
            row, column = found
            cx, cy = 4 + column * CELL + CELL // 2, 4 + row * CELL + CELL // 2
            parts.append(
                Markup(
                    '<g class="piece" data-piece="{}" data-cell="{}"><title>{} on {}</title>'
                    '<circle cx="{}" cy="{}" r="{}" fill="{}"/></g>'
                ).format(player, cell, player, cell, cx, cy, CELL // 3, COLOURS.get(player, "#555"))
            )
        label = "; ".join(f"{p} on {c}" for p, c in sorted(positions.items()))
        return Markup(
            '<svg class="board race-board" viewBox="0 0 {} {}" width="{}" height="{}" '
            'role="img" aria-label="The race: {}">{}</svg>'
        ).format(width, height, width, height, label, Markup("").join(parts))

    def extras(self, snapshot: Mapping[str, Any]) -> Markup:
        view = snapshot.get("view")
        if not isinstance(view, Mapping):
            return Markup("")
        if view.get("winner"):
            text = f"{view['winner'].capitalize()} reached the far end and won."
        else:
            turn = view.get("turn")
            text = f"It is {turn}'s turn. The first piece to reach column {LENGTH} wins."
        return Markup('<p class="race-extras">{}</p>').format(text)

    def controls(self, snapshot: Mapping[str, Any], token: str, digital_dice: bool) -> Markup:
        return prompt_controls(snapshot, f"{SLUG}/controls.html", self.covered, token, digital_dice)

    def describe(self, event: Mapping[str, Any]) -> str:
        kind = event.get("type")
        if kind == "setup":
            where = event.get("positions") or {}
            starts = " and ".join(f"{p} on {c}" for p, c in where.items())
            return f"The race is set up: {starts}; {event.get('first')} moves first."
        if kind == "moved":
            who = str(event.get("by")).capitalize()
            return f"{who} moved from {event.get('from')} to {event.get('to')}."
        if kind == "won":
            return f"{str(event.get('winner')).capitalize()} reached the far end and wins."
        return super().describe(event)


def _place(lanes: list[list[str]], cell: str) -> tuple[int, int] | None:
    for row, lane in enumerate(lanes):
        if cell in lane:
            return row, lane.index(cell)
    return None
