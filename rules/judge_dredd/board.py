"""The Mega-City One board: 28 Sectors, their borders, the river and its bridges.

Sectors are named by stable ids (``"resyk"``, ``"devils-island"``, ...) everywhere.
Borders are crossed freely; a river pair only where the board has a bridge, and
not at all while Bridges Closed is in force (except by the Alien).
"""

from __future__ import annotations

from collections.abc import Collection, Mapping
from dataclasses import dataclass, field
from functools import lru_cache

from lawmaster.rules.core import IllegalAction, load_board_data

KINDS = ("crime", "start", "hospital")


@dataclass(frozen=True)
class Sector:
    """One Sector: its id, printed name, kind and refill bonus (1, 2, "recycle" or None)."""

    id: str
    name: str
    kind: str
    bonus: int | str | None = None
    x: int = 0
    y: int = 0


@dataclass(frozen=True)
class Board:
    """One board's topology. Immutable and shared between states (never deep-copied)."""

    sectors: Mapping[str, Sector] = field(hash=False)
    borders: frozenset[frozenset[str]] = field(hash=False)
    bridges: frozenset[frozenset[str]] = field(hash=False)
    river: frozenset[frozenset[str]] = field(hash=False)
    name: str = "inline"

    def __deepcopy__(self, memo: dict[int, object]) -> Board:
        return self

    # -- naming -----------------------------------------------------------
    def sector(self, name: object) -> str:
        """The id of the Sector called ``name``, or :class:`IllegalAction`."""
        if not isinstance(name, str) or name not in self.sectors:
            raise IllegalAction(f"there is no Sector called {name!r} on this board")
        return name

    def name_of(self, sector: str) -> str:
        """The printed name of a Sector."""
        return self.sectors[sector].name

    @property
    def hospital(self) -> str:
        """The Justice Department Hospital (the one Sector of kind ``hospital``)."""
        return next(s.id for s in self.sectors.values() if s.kind == "hospital")

    @property
    def starting_sectors(self) -> list[str]:
        """Every Starting Sector, in board order."""
        return [s.id for s in self.sectors.values() if s.kind == "start"]

    @property
    def crime_sectors(self) -> list[str]:
        """Every Sector a Sector card names."""
        return [s.id for s in self.sectors.values() if s.kind == "crime"]

    # -- topology ---------------------------------------------------------
    def neighbours(self, sector: str, bridges_open: bool = True) -> list[str]:
        """Sectors one step from ``sector``: across a border, or a bridge if open."""
        out: list[str] = []
        for pair in self.borders:
            if sector in pair:
                out.extend(p for p in pair if p != sector)
        if bridges_open:
            for pair in self.bridges:
                if sector in pair:
                    out.extend(p for p in pair if p != sector)
        return sorted(out)

    def adjacent(self, a: str, b: str, bridges_open: bool = True) -> bool:
        """Whether one step leads from ``a`` to ``b``."""
        pair = frozenset((a, b))
        return pair in self.borders or (bridges_open and pair in self.bridges)

    def within(
        self, start: str, steps: int, bridges_open: bool = True, avoid: Collection[str] = ()
    ) -> set[str]:
        """Sectors reachable in at most ``steps`` steps, never entering ``avoid``."""
        seen = {start}
        frontier = {start}
        for _ in range(steps):
            nxt: set[str] = set()
            for s in frontier:
                for n in self.neighbours(s, bridges_open):
                    if n not in seen and n not in avoid:
                        nxt.add(n)
            seen |= nxt
            frontier = nxt
        return seen

    # -- loading ----------------------------------------------------------
    @classmethod
    def load(cls, board: object = "standard") -> Board:
        """A shipped board by name, or an inline board object (see the README)."""
        if board is None or isinstance(board, str):
            return _shipped_board(board or "standard")
        return cls.from_data(load_board_data(__package__, board))

    @classmethod
    def from_data(cls, data: Mapping[str, object]) -> Board:
        """Build and check a board from its JSON object."""
        raw = data.get("sectors")
        if not isinstance(raw, list) or not raw:
            raise IllegalAction("a board needs a list of 'sectors'")
        sectors: dict[str, Sector] = {}
        for item in raw:
            sid = item.get("id") if isinstance(item, Mapping) else None
            if not isinstance(item, Mapping) or not isinstance(sid, str):
                raise IllegalAction("each Sector needs an 'id'")
            kind = item.get("kind", "crime")
            if not isinstance(kind, str) or kind not in KINDS:
                raise IllegalAction(f"Sector {sid!r} has an unknown kind {kind!r}")
            bonus = item.get("bonus")
            if kind == "hospital":
                bonus = "recycle"
            # A bonus is a number of cards (1 or 2) or "recycle"; 1.0 is not a card count.
            if not (bonus is None or (isinstance(bonus, int | str) and bonus in (1, 2, "recycle"))):
                raise IllegalAction(f"Sector {sid!r} has an unknown bonus {bonus!r}")
            if sid in sectors:
                raise IllegalAction(f"the Sector {sid!r} is listed twice")
            sectors[sid] = Sector(
                sid,
                str(item.get("name", sid)),
                kind,
                bonus,
                int(item.get("x", 0)) if isinstance(item.get("x", 0), int) else 0,
                int(item.get("y", 0)) if isinstance(item.get("y", 0), int) else 0,
            )
        if sum(1 for s in sectors.values() if s.kind == "hospital") != 1:
            raise IllegalAction("a board needs exactly one Sector of kind 'hospital'")
        borders = _pairs(data.get("borders", []), "borders", sectors)
        bridges = _pairs(data.get("bridges", []), "bridges", sectors)
        river = _pairs(data.get("river", []), "river", sectors) | bridges
        if borders & river:
            raise IllegalAction("a pair of Sectors cannot share both a border and the river")
        return cls(sectors, borders, bridges, river, str(data.get("name", "inline")))


@lru_cache(maxsize=8)
def _shipped_board(name: str) -> Board:
    # Boards are immutable, so every game on a shipped board can share one.
    return Board.from_data(load_board_data(__package__, name))


def _pairs(value: object, what: str, sectors: Mapping[str, Sector]) -> frozenset[frozenset[str]]:
    if not isinstance(value, list):
        raise IllegalAction(f"the board's {what} must be a list of Sector pairs")
    out: set[frozenset[str]] = set()
    for pair in value:
        names = (
            [p for p in pair if isinstance(p, str) and p in sectors]
            if isinstance(pair, list)
            else []
        )
        if not (isinstance(pair, list) and len(names) == len(pair) == 2):
            raise IllegalAction(f"{pair!r} in the board's {what} is not a pair of known Sectors")
        if names[0] == names[1]:
            raise IllegalAction(f"{pair!r} in the board's {what} joins a Sector to itself")
        out.add(frozenset(names))
    return frozenset(out)
