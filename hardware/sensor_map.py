"""Sensor maps: which hall sensor (scanner channel) sits under which space of a board.

A sensor map is JSON data in ``hardware/maps/<game>-<board>.json`` (format in
``hardware/SENSOR-MAPS.md``). Each *spot* is one sensor: its scanner channel,
the space it belongs to (the game's own name: ``"C7"``, a sector id, a hex id)
and its position in millimetres, which the simulator uses to compute fields.
A space may own several spots (a Judge Dredd sector has standing spots for
several Judges); the sensing layer then counts magnets per kind in that space.

*Kinds* are the kinds of magnet a game uses (``"criminal"``, ``"gw"``,
``"judge"``, ``"scrawler"``): each has a polarity as the sensor sees it and the
magnets that make up one piece (GW's pair is two magnets, one on each side).
"""

from __future__ import annotations

import json
import math
from collections.abc import Mapping
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path
from typing import Any

GRADES_TESLA = {"N35": 1.19, "N38": 1.24, "N42": 1.30, "N45": 1.34, "N48": 1.40, "N52": 1.45}
"""Remanence Br (tesla) of the sintered NdFeB grades we name in the BOM."""


@dataclass(frozen=True)
class Spot:
    """One sensor: scanner channel, the space it belongs to, and where it sits (mm)."""

    channel: int
    space: str
    x: float
    y: float


@dataclass(frozen=True)
class Magnet:
    """One disc magnet of a piece.

    ``side`` is ``"front"`` (the side the sensors' branded face looks at; the only
    side of a flat board) or ``"back"`` (GW's side of the two-sided GW:s brott
    board). ``pole`` is the pole that faces the board. ``lift_mm`` is how far the
    magnet's near face sits above the board surface (the piece's base).
    """

    side: str
    pole: str
    diameter_mm: float
    thickness_mm: float
    grade: str
    lift_mm: float = 1.0
    footprint_mm: float = 0.0  # diameter of the piece's base that carries this magnet
    body_g: float = 0.0  # the piece's mass without the magnet (grams)
    base: str = ""  # what the piece's base is made of (its friction on the board)
    #: How the lift is built, which sets its tolerance (``hardware/magnetics/tolerance.py``
    #: ``LIFT_TOL_MM``): ``"rigid"`` (a hard body's pocket floor under a thin skin),
    #: or, when empty, the base material itself.
    lift_kind: str = ""

    @property
    def sign(self) -> int:
        """+1 when the sensor reads the field as "south" (reading rises), else -1.

        A south pole facing the front and a north pole facing the back both push
        field lines out through the sensor's branded face.
        """
        south_like = (self.side == "front") == (self.pole == "south")
        return 1 if south_like else -1

    @property
    def moment(self) -> float:
        """Br·V/(4π) in tesla·mm³: the dipole strength used by the simulator."""
        volume = math.pi * (self.diameter_mm / 2) ** 2 * self.thickness_mm
        return GRADES_TESLA[self.grade] * volume / (4 * math.pi)


@dataclass(frozen=True)
class Kind:
    """A kind of magnetic piece: its name, polarity as sensed and its magnets.

    ``long_still_ms`` is how long a magnet of this kind that arrived sliding must
    read steady before it counts as at rest (``None``: the sensing layer's
    default): a careful slide across a sensor's centre looks still for a while,
    longer the flatter the kind's field is at its peak
    (``lawmaster.host.sensing.stillness`` computes it; a test holds the two together).
    """

    name: str
    polarity: str
    magnets: tuple[Magnet, ...]
    description: str = ""
    long_still_ms: float | None = None


@dataclass(frozen=True)
class Keeper:
    """A soft-steel washer under each spot that holds pieces on a vertical board.

    It is coaxial with the spot's sensor, ``gap_mm`` under the playing surface
    on each side listed in ``sides``; the sensor looks through its hole.
    """

    outer_mm: float
    inner_mm: float
    thickness_mm: float
    gap_mm: float
    sides: tuple[str, ...] = ("front",)


@dataclass(frozen=True)
class SensorSpec:
    """The hall sensor part and where it sits in the board.

    ``depth_mm`` runs from the sensor's Hall element to the front playing
    surface, ``back_depth_mm`` to the back one (a two-sided board; it defaults
    to ``depth_mm``).
    """

    part: str
    sensitivity_mv_per_mt: float
    supply_v: float
    depth_mm: float
    rail_v: float = 0.2
    back_depth_mm: float | None = None
    keeper: Keeper | None = None

    def depth(self, side: str) -> float:
        """Sensor element to the playing surface of ``side`` (mm)."""
        if side == "back" and self.back_depth_mm is not None:
            return self.back_depth_mm
        return self.depth_mm


@dataclass(frozen=True)
class SensorMap:
    """Channel → space for one game's board, plus the kinds of magnet it sees."""

    game: str
    board: str
    spots: tuple[Spot, ...]
    kinds: Mapping[str, Kind] = field(hash=False)
    sensor: SensorSpec
    jail: str | None = None
    pitch_mm: float = 25.0
    size_mm: tuple[float, float] | None = None  # the board's width and height
    #: Kind → the kind whose magnet it clicks onto and rides with (a caught piece).
    clicks: Mapping[str, str] = field(default_factory=dict, hash=False)

    @property
    def channels(self) -> int:
        """Number of scanner channels the map uses (highest channel + 1)."""
        return max(s.channel for s in self.spots) + 1

    @property
    def spaces(self) -> tuple[str, ...]:
        """Every space with at least one sensor, in channel order of first spot."""
        seen: dict[str, None] = {}
        for spot in sorted(self.spots, key=lambda s: s.channel):
            seen.setdefault(spot.space)
        return tuple(seen)

    def spots_of(self, space: str) -> tuple[Spot, ...]:
        """The spots of one space."""
        return tuple(s for s in self.spots if s.space == space)

    def centre(self, space: str) -> tuple[float, float]:
        """The mean position (mm) of a space's spots."""
        spots = self.spots_of(space)
        if not spots:
            raise KeyError(space)
        return (sum(s.x for s in spots) / len(spots), sum(s.y for s in spots) / len(spots))

    def space_of_channel(self) -> list[str | None]:
        """For each channel 0..channels-1, its space (``None`` if unused)."""
        result: list[str | None] = [None] * self.channels
        for spot in self.spots:
            result[spot.channel] = spot.space
        return result

    # -- loading ----------------------------------------------------------
    @classmethod
    def load(cls, game: str, board: str = "standard") -> SensorMap:
        """A shipped map by game and board name (``SensorMap.load("gw-brott")``)."""
        return cls.from_file(shipped_map(game, board))

    @classmethod
    def for_game(cls, game: str, path: str | Path | None = None) -> SensorMap:
        """The map a table uses: the file at ``path`` when one is given (the
        configuration's ``[board] map``), else the shipped standard map of ``game``.

        ``ValueError`` if the file is a map of another game; ``OSError`` if it cannot
        be read.
        """
        if not path:
            return cls.load(game)
        sensor_map = cls.from_file(path)
        if sensor_map.game != game:
            raise ValueError(f"{path} is a sensor map of {sensor_map.game}, not of {game}")
        return sensor_map

    @classmethod
    def from_file(cls, path: str | Path) -> SensorMap:
        """A map from a JSON file an owner edited."""
        return cls.from_data(json.loads(Path(path).read_text("utf-8")))

    @classmethod
    def from_data(cls, data: Mapping[str, Any]) -> SensorMap:
        """Build and check a map from its JSON object."""
        spots = tuple(
            Spot(int(s["channel"]), str(s["space"]), float(s["x_mm"]), float(s["y_mm"]))
            for s in data["spots"]
        )
        channels = [s.channel for s in spots]
        if len(set(channels)) != len(channels):
            raise ValueError("a sensor map lists a channel twice")
        if min(channels) < 0:
            raise ValueError("channels are numbered from 0")
        kinds = {}
        for name, k in data["kinds"].items():
            if k["polarity"] not in ("north", "south"):
                raise ValueError(f"kind {name}: polarity is 'north' or 'south'")
            magnets = tuple(
                Magnet(
                    m["side"],
                    m["pole"],
                    float(m["diameter_mm"]),
                    float(m["thickness_mm"]),
                    m["grade"],
                    float(m.get("lift_mm", 1.0)),
                    float(m.get("footprint_mm", 0.0)),
                    float(m.get("body_g", 0.0)),
                    str(m.get("base", "")),
                    str(m.get("lift_kind", "")),
                )
                for m in k["magnets"]
            )
            sign = sum(m.sign * m.moment for m in magnets)
            if (sign > 0) != (k["polarity"] == "south"):
                raise ValueError(f"kind {name}: its magnets do not add up to {k['polarity']}")
            window = k.get("long_still_ms")
            kinds[name] = Kind(
                name,
                k["polarity"],
                magnets,
                k.get("description", ""),
                None if window is None else float(window),
            )
        s = data["sensor"]
        keeper = s.get("keeper")
        if isinstance(keeper, Mapping):
            keeper = Keeper(
                float(keeper["outer_mm"]),
                float(keeper["inner_mm"]),
                float(keeper["thickness_mm"]),
                float(keeper["gap_mm"]),
                tuple(keeper.get("sides", ("front",))),
            )
        back = s.get("back_depth_mm")
        sensor = SensorSpec(
            s["part"],
            float(s["sensitivity_mv_per_mt"]),
            float(s["supply_v"]),
            float(s["depth_mm"]),
            float(s.get("rail_v", 0.2)),
            None if back is None else float(back),
            keeper,
        )
        return cls(
            str(data["game"]),
            str(data["board"]),
            spots,
            kinds,
            sensor,
            data.get("jail"),
            float(data.get("pitch_mm", 25.0)),
            tuple(float(v) for v in data["size_mm"]) if "size_mm" in data else None,  # type: ignore[arg-type]
            {str(k): str(v) for k, v in dict(data.get("clicks") or {}).items()},
        )


def shipped_map(game: str, board: str = "standard") -> Path:
    """The file of a map shipped in this package (``maps/<game>-<board>.json``)."""
    return Path(str(resources.files(__package__).joinpath("maps", f"{game}-{board}.json")))
