"""The Unamerican Graffiti hex map.

Hexes sit on axial coordinates ``(q, r)`` (pointy-top). Each hex has an id:
locations carry a name-like id (``"power-tower"``, ``"block-3"``); plain street
hexes are called ``"q,r"``. Locations are worth prestige when scrawled.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import TypedDict

from lawmaster.rules.core import IllegalAction, load_board_data

#: Prestige for scrawling each kind of location (the rulebook's "priority").
PRESTIGE: dict[str, int] = {"city-block": 1, "landmark": 3, "sector-house": 5, "statue": 9}
KINDS = ("street", *PRESTIGE)
#: Landmarks on the rulebook's board ("all six landmarks").
LANDMARKS = 6
AXIAL_STEPS = ((1, 0), (-1, 0), (0, 1), (0, -1), (1, -1), (-1, 1))


class HexData(TypedDict):
    """One hex of an inline board object."""

    q: int
    r: int
    kind: str
    id: str
    name: str


class BoardData(TypedDict):
    """An inline board object, as a scenario header writes it."""

    hexes: list[HexData]
    sector_house_pairs: list[list[str]]
    chopper_start: str
    phantom_start: str


@dataclass(frozen=True)
class Hex:
    """One hex of the map."""

    id: str
    q: int
    r: int
    kind: str
    name: str

    @property
    def is_location(self) -> bool:
        """Whether the hex holds a picture (anything but plain street)."""
        return self.kind != "street"

    @property
    def prestige(self) -> int:
        """Prestige for scrawling here (0 for a street)."""
        return PRESTIGE.get(self.kind, 0)


@dataclass(frozen=True)
class Board:
    """The map: hexes by id, adjacency, Sector House pairs and their gates."""

    hexes: Mapping[str, Hex]
    neighbours: Mapping[str, tuple[str, ...]] = field(hash=False)
    #: Gate hex → the two Sector Houses it lies between.
    gates: Mapping[str, tuple[str, str]] = field(hash=False)
    chopper_start: str
    phantom_start: str
    name: str = "inline"

    def hex(self, hex_id: object) -> Hex:
        """The hex with this id, or :class:`IllegalAction`."""
        if not isinstance(hex_id, str) or hex_id not in self.hexes:
            raise IllegalAction(f"{hex_id!r} is not a hex of this board")
        return self.hexes[hex_id]

    def of_kind(self, kind: str) -> list[str]:
        """Ids of every hex of a kind, in board order."""
        return [h.id for h in self.hexes.values() if h.kind == kind]

    @property
    def landmarks(self) -> list[str]:
        return self.of_kind("landmark")

    @property
    def sector_houses(self) -> list[str]:
        return self.of_kind("sector-house")

    @property
    def statue(self) -> str | None:
        found = self.of_kind("statue")
        return found[0] if found else None

    def to_data(self) -> str | BoardData:
        """The board as a scenario header gives it: a shipped board's name, else in full."""
        if self.name != "inline":
            return self.name
        return {
            "hexes": [
                {"q": h.q, "r": h.r, "kind": h.kind, "id": h.id, "name": h.name}
                for h in self.hexes.values()
            ],
            "sector_house_pairs": [list(pair) for pair in self.gates.values()],
            "chopper_start": self.chopper_start,
            "phantom_start": self.phantom_start,
        }

    @classmethod
    def load(cls, board: object = "standard") -> Board:
        """A shipped board by name, or an inline board object."""
        return cls.from_data(load_board_data(__package__, board))

    @classmethod
    def from_data(cls, data: Mapping[str, object]) -> Board:
        """Build and check a board from its JSON object."""
        raw = data.get("hexes")
        if not isinstance(raw, list) or not raw:
            raise IllegalAction("a board needs a non-empty list of 'hexes'")
        hexes: dict[str, Hex] = {}
        by_coord: dict[tuple[int, int], str] = {}
        for item in raw:
            if not isinstance(item, Mapping):
                raise IllegalAction("each hex is an object with q, r and kind")
            q, r, kind = item.get("q"), item.get("r"), item.get("kind", "street")
            if not (isinstance(q, int) and isinstance(r, int)):
                raise IllegalAction("each hex needs whole-number axial coordinates q and r")
            if kind not in KINDS:
                raise IllegalAction(f"unknown hex kind {kind!r}; kinds are {', '.join(KINDS)}")
            hex_id = item.get("id") or f"{q},{r}"
            if not isinstance(hex_id, str) or hex_id in hexes or (q, r) in by_coord:
                raise IllegalAction(f"hex {hex_id!r} is given twice")
            hexes[hex_id] = Hex(hex_id, q, r, kind, str(item.get("name", hex_id)))
            by_coord[(q, r)] = hex_id
        neighbours = {
            h.id: tuple(
                by_coord[(h.q + dq, h.r + dr)]
                for dq, dr in AXIAL_STEPS
                if (h.q + dq, h.r + dr) in by_coord
            )
            for h in hexes.values()
        }
        gates: dict[str, tuple[str, str]] = {}
        pairs = data.get("sector_house_pairs", [])
        if not isinstance(pairs, list):
            raise IllegalAction("'sector_house_pairs' must be a list of Sector House pairs")
        for pair in pairs:
            if not (
                isinstance(pair, list) and len(pair) == 2 and all(isinstance(h, str) for h in pair)
            ):
                raise IllegalAction("each Sector House pair is a list of two hex ids")
            a, b = pair
            for house in (a, b):
                if house not in hexes or hexes[house].kind != "sector-house":
                    raise IllegalAction(f"{house!r} in a pair is not a Sector House")
            between = set(neighbours[a]) & set(neighbours[b])
            if len(between) != 1:
                raise IllegalAction(f"{a} and {b} must have exactly one hex between them")
            gates[between.pop()] = (a, b)
        landmarks = sum(1 for h in hexes.values() if h.kind == "landmark")
        if landmarks != LANDMARKS:
            # "Once all six landmarks have been scrawled at least once, the race
            # is on to scrawl the Statue of Judgement."
            raise IllegalAction(f"a board has {LANDMARKS} landmarks, not {landmarks}")
        if sum(1 for h in hexes.values() if h.kind == "statue") > 1:
            raise IllegalAction("a board has one Statue of Judgement")
        starts = []
        for key in ("chopper_start", "phantom_start"):
            start = data.get(key)
            if not isinstance(start, str) or start not in hexes:
                raise IllegalAction(f"'{key}' must name a hex of the board")
            if hexes[start].kind != "landmark":
                raise IllegalAction(_not_a_landmark(key, hexes[start]))
            starts.append(start)
        if starts[0] == starts[1]:
            raise IllegalAction(f"Chopper and the Phantom cannot both start on {starts[0]}")
        return cls(hexes, neighbours, gates, starts[0], starts[1], str(data.get("name", "inline")))


#: What decides where a pawn may start (the rules README quotes it too).
START_SENTENCE = (
    "Each player scrawls at this location (by writing on the board), scores 3 points of"
    " prestige and places his pawn there."
)


def _not_a_landmark(key: str, start: Hex) -> str:
    """Why a board starting a pawn off a landmark is refused.

    The rulebook's starts, Power Tower and Palais De Boing, are landmarks, and its setup
    sentence scrawls the start for a landmark's 3 prestige: a street cannot be scrawled
    at all, and a City Block's or Sector House's scrawl would be worth other than 3
    whenever the colour scores its scrawls again.
    """
    kind = start.kind.replace("-", " ")
    return (
        f"'{key}' must be a landmark, not {start.id} (a {kind}):"
        f' "{START_SENTENCE}" A landmark is the location worth 3.'
    )
