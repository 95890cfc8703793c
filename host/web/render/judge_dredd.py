"""Judge Dredd: the sectors that matter as a table, and the seat's combat odds.

The map itself (28 sectors) is not drawn yet: the board panel lists every
sector where something is (Judges, Perps, Crimes, the Alien), and the rest of
the view follows as the readable list. When the seat's view carries combat
odds (``you.odds``: win, tie, lose), they are shown as numbers and a bar.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from flask import render_template
from markupsafe import Markup

from . import generic

# Parts of the view the sector table already shows (the rest goes to the list).
_IN_TABLE = ("judges", "perps", "crimes", "alien", "quarantined")
_BAR = {"win": "#2e7d32", "tie": "#f9a825", "lose": "#c62828"}


def _sectors(view: Mapping[str, Any]) -> dict[str, dict[str, list[str]]]:
    rows: dict[str, dict[str, list[str]]] = {}

    def at(sector: object) -> dict[str, list[str]]:
        return rows.setdefault(str(sector), {"judges": [], "perp": [], "crimes": [], "notes": []})

    for seat, judge in (view.get("judges") or {}).items():
        if isinstance(judge, Mapping) and judge.get("sector"):
            label = seat + (" (KO)" if judge.get("ko") else "")
            if judge.get("specialist"):
                label += f" [{judge['specialist']}]"
            at(judge["sector"])["judges"].append(label)
    for sector, perp in (view.get("perps") or {}).items():
        if isinstance(perp, Mapping):
            shown = (
                f"{perp.get('perp')} ({perp.get('strength')})"
                if perp.get("face_up")
                else "face-down Perp"
            )
            at(sector)["perp"].append(shown)
    for sector, crimes in (view.get("crimes") or {}).items():
        at(sector)["crimes"].extend(str(c) for c in crimes or [])
    if view.get("alien"):
        alien = view["alien"]
        where = alien.get("sector") if isinstance(alien, Mapping) else alien
        if isinstance(where, str):
            at(where)["notes"].append("the Alien")
    for sector in view.get("quarantined") or []:
        at(sector)["notes"].append("quarantined")
    return rows


def board(snapshot: Mapping[str, Any]) -> Markup | None:
    """The sectors with anything on them, as a table (``None`` if this is not a Dredd view)."""
    view = snapshot.get("view")
    if not isinstance(view, Mapping) or not isinstance(view.get("judges"), Mapping):
        return None
    rows = Markup("").join(
        Markup("<tr><th>{}</th><td>{}</td><td>{}</td><td>{}</td></tr>").format(
            sector.replace("-", " "),
            ", ".join(things["judges"]),
            ", ".join(things["perp"]),
            ", ".join(things["crimes"] + things["notes"]),
        )
        for sector, things in sorted(_sectors(view).items())
    )
    return Markup(
        '<table class="sectors"><thead><tr><th>Sector</th><th>Judges</th><th>Perp</th>'
        "<th>Crimes</th></tr></thead><tbody>{}</tbody></table>"
    ).format(rows)


def odds_html(odds: Mapping[str, Any]) -> Markup:
    """Win/tie/lose chances as percentages and a stacked bar (an inline SVG)."""
    parts = [(k, float(odds.get(k) or 0.0)) for k in ("win", "tie", "lose")]
    x = 0.0
    rects = []
    for kind, p in parts:
        rects.append(
            Markup('<rect x="{:.2f}" y="0" width="{:.2f}" height="10" fill="{}"/>').format(
                x * 100, p * 100, _BAR[kind]
            )
        )
        x += p
    words = Markup(" · ").join(
        Markup('<span class="odds-{}">{} {:.0f}%</span>').format(k, k, p * 100) for k, p in parts
    )
    return Markup(
        '<div class="odds" data-win="{}"><p>Your combat odds: {}</p>'
        '<svg class="odds-bar" viewBox="0 0 100 10" preserveAspectRatio="none" role="img" '
        'aria-label="combat odds">{}</svg></div>'
    ).format(parts[0][1], words, Markup("").join(rects))


def extras(snapshot: Mapping[str, Any]) -> Markup:
    """The seat's combat odds (when its view has them), then the rest of the view."""
    view = snapshot.get("view")
    if not isinstance(view, Mapping):
        return Markup("")
    you = view.get("you") if isinstance(view.get("you"), Mapping) else {}
    odds = you.get("odds")
    panel = odds_html(odds) if isinstance(odds, Mapping) else Markup("")
    rest = {k: v for k, v in view.items() if k not in (*_IN_TABLE, "seat", "game")}
    return Markup("{}{}").format(panel, generic.value_html(rest))


#: Actions that name their seat as ``by`` (README action table); the rest do not.
WITH_BY = frozenset(
    {
        "place_judge",
        "move",
        "play",
        "accept",
        "commit",
        "cool",
        "perp_escape",
        "recycle",
        "draw",
        "internal_affairs",
        "psi_peek",
        "show",
    }
)

#: What each asked action needs besides its name and seat, as a starting point to fill.
_PREFILL: dict[str, Any] = {
    "place_judge": {"sector": ""},
    "place_crime": {"sector_card": "", "crime": ""},
    "move": {"path": []},
    "commit": {"card": ""},
    "roll": {"judge": [], "perp": []},
    "perp_escape": {"to": ""},
    "recycle": {"count": 0},
    "draw": {"count": 1},
    "reveal_perp": {"sector": "", "perp": ""},
    "discard_sector": {"sector_card": ""},
    "play": {"card": ""},
}

#: The base referee asks "your_turn"; the forms below say what exactly.
COVERED_PROMPTS = frozenset({"your_turn"})


def controls(snapshot: Mapping[str, Any], token: str, digital_dice: bool) -> Markup:
    """One form per action the engine waits for from this seat (from its own view)."""
    view = snapshot.get("view")
    asked = view.get("asked") if isinstance(view, Mapping) else None
    if not isinstance(asked, list) or not asked:
        return Markup("")
    items = [a for a in asked if isinstance(a, Mapping) and isinstance(a.get("act"), str)]
    prefill = dict(_PREFILL)
    seat = snapshot.get("seat")
    if seat and isinstance(view.get("judges"), Mapping):
        prefill["arrest"] = {"groups": [[seat]]}
    you = view.get("you") if isinstance(view.get("you"), Mapping) else {}
    known = [c for c in you.get("known_cards") or [] if isinstance(c, str)]
    return Markup(
        render_template(
            "jd_controls.html",
            asked=items,
            known_cards=known,
            seat=seat,
            token=token,
            with_by=WITH_BY,
            prefill=prefill,
        )
    )


def describe(event: Mapping[str, Any]) -> str:
    """Log lines: the generic wording (the engine's events are self-describing)."""
    return generic.describe(event)
