"""How each seat looks for a whole game: one colour, a mark (a letter or two) and a shape.

A player is told apart by colour *and* by a mark: the colour alone fails a
colour-blind player and a greyscale screen. The colour is chosen at setup (the
setup page's colour fields, kept in the game's settings as ``colours``: slot →
colour key, see :meth:`SeatUI.colour_slots`) and never follows a row of a list,
so a Judge is the same colour on every page, in the log and after game over.

The look of a table is public (every page draws every seat in it), so it is
added to the snapshot a page draws (``snapshot["look"]``) beside what the seat
may know; :func:`look_of` reads it back, or works out the defaults when a
snapshot is drawn without one (a test, a replay of an old game).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import asdict, dataclass
from typing import TYPE_CHECKING, Any

from flask_babel import lazy_gettext as _l
from markupsafe import escape

if TYPE_CHECKING:
    from .seat import SeatUI


@dataclass(frozen=True)
class Colour:
    """A colour a seat may take: its fill, the ink that reads on it, its name in words."""

    key: str
    fill: str
    ink: str
    name: Any  # a lazy string: said in the page's language


#: The colours a seat may take. Each fill is dark or light enough that its ink reads on
#: it (contrast 4.5:1 or more), and neighbours in the list differ in lightness as well as
#: hue, so two players' colours differ in greyscale too.
PALETTE: dict[str, Colour] = {
    c.key: c
    for c in (
        Colour("blue", "#1565c0", "#ffffff", _l("blue")),
        Colour("red", "#c62828", "#ffffff", _l("red")),
        Colour("green", "#2e7d32", "#ffffff", _l("green")),
        Colour("yellow", "#f9c825", "#1d1d1b", _l("yellow")),
        Colour("purple", "#6a1b9a", "#ffffff", _l("purple")),
        Colour("orange", "#f57c00", "#1d1d1b", _l("orange")),
        Colour("teal", "#00838f", "#ffffff", _l("teal")),
        Colour("pink", "#f48fb1", "#1d1d1b", _l("pink")),
        Colour("brown", "#6d4c41", "#ffffff", _l("brown")),
        Colour("black", "#212121", "#ffffff", _l("black")),
        Colour("white", "#fafafa", "#1d1d1b", _l("white")),
        Colour("navy", "#0d2f6b", "#ffffff", _l("dark blue")),
    )
}
#: The colours offered on the setup page, in this order.
CHOOSABLE = ("blue", "red", "green", "yellow", "purple", "orange", "teal", "pink", "brown", "black")
#: A seat whose colour is unknown takes one of these, by its place among the seats.
SPARE = ("teal", "purple", "brown", "pink", "orange", "black")


@dataclass(frozen=True)
class SeatLook:
    """One seat as every page draws it."""

    seat: str
    #: The seat's name as players say it ("Judge Hershey", "Red", "GW").
    name: str
    colour: str  # the colour key
    fill: str
    ink: str
    #: One or two letters drawn on the seat's piece, chip and bar.
    mark: str
    #: "circle" or "square": a second cue beside the colour.
    shape: str = "circle"

    def as_dict(self) -> dict[str, str]:
        return asdict(self)


def colour(key: object) -> Colour:
    """The palette's colour ``key`` (an unknown key is the palette's first spare)."""
    return PALETTE.get(str(key)) or PALETTE[SPARE[0]]


def colour_name(key: object) -> str:
    """A colour key in the page's language ("red" → "Röd" in Swedish), capitalised."""
    found = PALETTE.get(str(key))
    words = str(found.name) if found else str(key)
    return words[:1].upper() + words[1:]


def looks(
    ui: SeatUI, seats: Sequence[str], chosen: Mapping[str, Any] | None
) -> dict[str, SeatLook]:
    """Every seat's look at a table of ``seats`` (in the table's seat order), with the
    colours the setup page chose (``chosen``: slot → colour key)."""
    keys = ui.seat_colours(list(seats), dict(chosen or {}))
    marks = _unique_marks(ui, seats)
    found = {}
    for seat in seats:
        c = colour(keys.get(seat))
        found[seat] = SeatLook(
            seat=seat,
            name=ui.seat_name(seat),
            colour=c.key,
            fill=c.fill,
            ink=c.ink,
            mark=marks[seat],
            shape=ui.shape(seat),
        )
    return found


def _unique_marks(ui: SeatUI, seats: Sequence[str]) -> dict[str, str]:
    """Each seat's mark, told apart from the others': two seats whose marks are the same
    (Swedish "Grön" and "Gul") take two letters of their names, then a number."""
    marks = {seat: ui.mark(seat) for seat in seats}
    for seat in seats:
        if list(marks.values()).count(marks[seat]) > 1:
            # The name's last word: "Judge Hershey" → "He", "Grön" → "Gr".
            last = (ui.seat_name(seat).split() or [seat])[-1]
            name = "".join(ch for ch in last if ch.isalnum()) or seat
            marks[seat] = name[:1].upper() + name[1:2].lower()
    seen: dict[str, int] = {}
    for seat in seats:
        mark = marks[seat]
        seen[mark] = seen.get(mark, 0) + 1
        if seen[mark] > 1:
            marks[seat] = f"{mark}{seen[mark]}"
    return marks


def look_of(snapshot: Mapping[str, Any], ui: SeatUI | None = None) -> dict[str, dict[str, str]]:
    """Seat → look (as a dict) of the table a snapshot is drawn for.

    Pages draw a snapshot with its table's look in ``snapshot["look"]``; without one
    (a snapshot drawn outside a table) the seats the snapshot names take the game's
    default colours.
    """
    found = snapshot.get("look")
    if isinstance(found, Mapping):
        return {str(k): dict(v) for k, v in found.items() if isinstance(v, Mapping)}
    if ui is None:
        return {}
    seats = [str(s) for s in ui.seats_of(snapshot)]
    return {seat: look.as_dict() for seat, look in looks(ui, seats, None).items()}


def chip(look: Mapping[str, str] | None) -> str:
    """A seat's mark in its colour, for a line of HTML (the log, a list): escaped. The
    same drawing as the templates' ``_chip.html``."""
    if not look:
        return ""
    shape = " chip-square" if look.get("shape") == "square" else ""
    return (
        f'<span class="chip{shape}" data-seat="{escape(look.get("seat", ""))}" '
        f'style="background:{escape(look["fill"])};color:{escape(look["ink"])}" '
        f'aria-hidden="true">{escape(look["mark"])}</span>'
    )
