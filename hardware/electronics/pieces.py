"""How each board is cut into pieces a hobby fab makes cheaply, and the circuit of each kind.

No board is one PCB: GW:s brott's would be 250 × 300 mm, Judge Dredd's 720 ×
560 mm. Each is cut into pieces of at most 100 × 100 mm (the size hobby fabs
sell at their lowest price) that carry the sensors of one part of the board:

* **GW:s brott** (a 10 × 12 grid at 25 mm, the jail's four slots in D6/E6):
  three columns of pieces, 4 + 2 + 4 cells wide, in three bands of four rows.
  The outer columns are 100 × 100 mm *tiles* of 16 sensors with their own
  multiplexer; the middle column is two 50 × 100 mm *strips* of 8 sensors
  without one, either side of the *jail strip* that carries the jail's slots,
  both multiplexers of the middle column and cables from the two strips.
  No layout of 100 × 100 mm pieces can give every multiplexer a piece of its
  own: the 122 sensors fill 8 multiplexers to within 6 inputs and the jail's
  four slots sit in two cells, so a 4 × 4 tile round the jail holds 17.
* **Judge Dredd** (four or six standing spots per sector, sectors 100 mm
  apart): one small *pod* per sector. Sectors are too far apart for a piece to
  span two, and a multiplexer per pod would need 28 of them, so one pod in
  each group of up to four neighbouring sectors carries the multiplexer and
  the others are *satellites* cabled to it (four sensor outputs each).
* **Unamerican Graffiti** (77 hexes, 32 mm across): *tiles* of 3 (or 2) hex
  columns by 4 (or 3) hex rows, each with its own multiplexer.

Only the multiplexer chain crosses between the pieces that carry multiplexers:
supply, ground, the four select lines and one analog line per multiplexer, on
one 15-way bus that runs from the scanner board through up to three pieces in a
*chain*. Each piece takes the first analog line(s) of the bus for its own
multiplexer(s) and passes the rest on shifted down, so every piece of a kind is
the same PCB wherever it sits; the scanner's second-level multiplexer reads
chain ``c`` position ``s`` on its input ``3c + s``, which makes that piece's
multiplexer number ``m = 3c + s`` and its sensors channels ``16m`` to
``16m + 15`` (the maps' channels follow from the pieces: :func:`channels`).

:func:`plan` gives each board's pieces; :func:`kind_circuit` the circuit of a
kind of piece with its own (local) references and net names, which
:mod:`.circuits` joins into the board's one circuit and
:mod:`lawmaster.hardware.pcb` lays out.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from functools import cache

from lawmaster.hardware.sensor_map import SensorMap, Spot

from .datasheet import figure
from .parts import PICO_PINS

INPUTS = 16
#: Analog lines on the bus, so pieces per chain; chains on the scanner board.
SLOTS, CHAINS = 3, 3
#: The hobby fab's cheapest size (JLCPCB, PCBWay, Aisler: 2-layer boards up to 100 × 100 mm).
MAX_PIECE_MM = 100.0
#: Pieces are this much smaller than the cells they cover on every side, so fab
#: tolerance (±0.2 mm on the outline) never makes a row of them longer than the board.
INSET_MM = 0.25

#: Where the scanner board sits, for the cables' lengths: this far below the middle of the
#: board's bottom (near) edge, where the bus cables leave it (``mechanical.plans.CABLE_EDGE``):
#: in GW:s brott's stand under the upright board, in the flat boards' scanner box standing
#: against that edge (mm).
SCANNER_BELOW_MM = 40.0
#: Cable lengths to make (mm): from JST's pre-crimped SH leads (ASSHSSH28K, 51 to 305 mm;
#: two spliced for the 400-600 mm runs of Judge Dredd) in SH housings, wired pin k to pin k.
STOCK_LENGTHS_MM = (50, 100, 150, 200, 300, 400, 500, 600)
#: Slack on every cable: a loop at each end and the way round the pieces' edges (mm).
CABLE_SLACK_MM = 30.0


def stock_length(need_mm: float) -> int:
    """The cable length to make for a run of ``need_mm`` (slack included)."""
    return next((s for s in STOCK_LENGTHS_MM if s >= need_mm), int(-(-need_mm // 100) * 100))


#: The 15-way bus (JST SH): pin → signal. Four pins each for the supply and ground: a JST
#: SH contact has up to 40 mΩ and a 28 AWG wire 0.21 Ω/m, and the first cable of a chain
#: carries 48 sensors' 0.48 A (the copper budget, ``budget.copper``); ground between the
#: supply and the select lines and beside the analog lines.
BUS_PINS: tuple[str, ...] = (
    "GND", "+3V3", "+3V3", "GND", "+3V3", "+3V3", "GND", "SEL0", "SEL1", "SEL2", "SEL3",
    "GND", "Z0", "Z1", "Z2",
)  # fmt: skip


@dataclass(frozen=True)
class Placed:
    """A sensor on a piece: its spot in the map and where it sits on the piece (mm)."""

    spot: Spot
    local: tuple[float, float]


@dataclass(frozen=True)
class Piece:
    """One PCB of a board: which kind, where it lies, its sensors and multiplexers.

    ``origin`` and ``rotation`` (0 or 180 degrees) place the kind's local frame on
    the board: ``board = origin + R(rotation) · local``. ``muxes`` are the
    first-level multiplexers the piece carries, in bus-slot order; ``own`` the
    one of them its own sensors feed; ``feeds`` a satellite's (multiplexer, first
    input).
    """

    name: str
    kind: str
    origin: tuple[float, float]
    rotation: int
    sensors: tuple[Placed, ...]
    muxes: tuple[int, ...] = ()
    own: int | None = None
    chain: tuple[int, int] | None = None
    feeds: tuple[int, int] | None = None
    #: Satellite pieces cabled to this one: (piece name, multiplexer, first input).
    satellites: tuple[tuple[str, int, int], ...] = ()

    def to_board(self, x: float, y: float) -> tuple[float, float]:
        """A local point on the board (mm)."""
        if self.rotation == 180:
            return (self.origin[0] - x, self.origin[1] - y)
        return (self.origin[0] + x, self.origin[1] + y)


@dataclass(frozen=True)
class Plan:
    """A board's pieces, in order: chains first (chain by chain, scanner outwards)."""

    board: str
    pieces: tuple[Piece, ...]
    #: Where the scanner board sits (board mm), for the cables' lengths.
    scanner_at: tuple[float, float]
    scanner_place: str
    size_mm: tuple[float, float] = field(default=(0.0, 0.0))

    def piece(self, name: str) -> Piece:
        """The piece called ``name``."""
        return next(p for p in self.pieces if p.name == name)

    def chain(self, c: int) -> list[Piece]:
        """The pieces on chain ``c``, from the scanner outwards."""
        on = [p for p in self.pieces if p.chain is not None and p.chain[0] == c]
        return sorted(on, key=lambda p: p.chain[1] if p.chain else 0)

    def number(self, piece: Piece) -> int:
        """The piece's number on this board (1…), used in its parts' references."""
        return self.pieces.index(piece) + 1

    @property
    def first_level(self) -> int:
        """First-level multiplexers of the board."""
        return max(m for p in self.pieces for m in p.muxes) + 1


def _sorted(placed: Iterable[Placed]) -> tuple[Placed, ...]:
    """Input order on a piece: rows top to bottom, left to right (in the piece's frame)."""
    return tuple(sorted(placed, key=lambda s: (round(s.local[1], 1), round(s.local[0], 1))))


def _place(spots: Iterable[Spot], origin: tuple[float, float], rotation: int) -> tuple[Placed, ...]:
    out = []
    for s in spots:
        if rotation == 180:
            local = (origin[0] - s.x, origin[1] - s.y)
        else:
            local = (s.x - origin[0], s.y - origin[1])
        out.append(Placed(s, (round(local[0], 3), round(local[1], 3))))
    return _sorted(out)


def _chained(
    pieces: list[Piece], chains: list[list[str]], sats: dict[str, list[str]]
) -> tuple[Piece, ...]:
    """Give each chained piece its bus slots and multiplexers, and each satellite its inputs."""
    by_name = {p.name: p for p in pieces}
    done: dict[str, Piece] = {}
    for c, names in enumerate(chains):
        slot = 0
        for name in names:
            p = by_name[name]
            count = len(p.muxes) or 1
            muxes = tuple(SLOTS * c + slot + k for k in range(count))
            own = muxes[-1] if count > 1 else muxes[0]  # a two-mux piece: its own on the last
            done[name] = Piece(
                p.name, p.kind, p.origin, p.rotation, p.sensors, muxes, own, (c, slot)
            )
            slot += count
        if slot > SLOTS:
            raise ValueError(f"chain {c} needs {slot} analog lines, the bus has {SLOTS}")
    for host, names in sats.items():
        piece = done[host]
        # The multiplexer the satellites feed: the host's first (a two-mux piece keeps its
        # own sensors on the last one), after the host's own sensors when they share it.
        mux = piece.muxes[0]
        first = len(piece.sensors) if piece.own == mux else 0
        links = []
        for name in names:
            sat = by_name[name]
            if first + len(sat.sensors) > INPUTS:
                raise ValueError(f"{host}: satellites overflow multiplexer {mux}")
            done[name] = Piece(
                sat.name, sat.kind, sat.origin, sat.rotation, sat.sensors, feeds=(mux, first)
            )
            links.append((name, mux, first))
            first += len(sat.sensors)
        done[host] = Piece(
            piece.name, piece.kind, piece.origin, piece.rotation, piece.sensors,
            piece.muxes, piece.own, piece.chain, None, tuple(links),
        )  # fmt: skip
    order = [n for names in chains for n in names] + [n for v in sats.values() for n in v]
    missing = set(by_name) - set(order)
    if missing:
        raise ValueError(f"pieces on no chain and feeding none: {sorted(missing)}")
    return tuple(done[n] for n in order)


# -- GW:s brott ------------------------------------------------------------------------------


def _gw(smap: SensorMap) -> Plan:
    cell = smap.pitch_mm  # 25 mm
    left, right = 4 * cell, 6 * cell  # the middle column: cells E-F

    def column(s: Spot) -> int:
        # The jail slot in cell D6 nearest the middle lies on the jail strip's tab.
        if 3.5 * cell < s.x < left and 5.4 * cell < s.y < 6 * cell:
            return 1
        return 0 if s.x < left else (1 if s.x < right else 2)

    pieces: list[Piece] = []
    for band in range(3):
        y0 = 4 * cell * band
        for col, x0, tag in ((0, 0.0, "L"), (2, right, "R")):
            spots = [s for s in smap.spots if column(s) == col and y0 <= s.y < y0 + 4 * cell]
            kind = "tile-jail" if (tag, band) == ("L", 1) else "tile"
            pieces.append(Piece(f"{tag}{band + 1}", kind, (x0, y0), 0, _place(spots, (x0, y0), 0)))
        spots = [s for s in smap.spots if column(s) == 1 and y0 <= s.y < y0 + 4 * cell]
        if band == 1:
            pieces.append(
                Piece("M2", "strip-jail", (left, y0), 0, _place(spots, (left, y0), 0), (0, 1))
            )
        else:
            # The bottom strip is the top one turned round: its connector faces the jail strip.
            origin, rot = ((left, y0), 0) if band == 0 else ((right, y0 + 4 * cell), 180)
            pieces.append(Piece(f"M{band + 1}", "strip", origin, rot, _place(spots, origin, rot)))
    chains = [["L3", "L2", "L1"], ["R3", "R2", "R1"], ["M2"]]
    size = smap.size_mm or (250.0, 300.0)
    return Plan(
        "gw-brott",
        _chained(pieces, chains, {"M2": ["M1", "M3"]}),
        (size[0] / 2, size[1] + SCANNER_BELOW_MM),
        "in the stand under the upright board (off the sensor layers)",
        size,
    )


# -- Judge Dredd -----------------------------------------------------------------------------

#: Groups of neighbouring sectors sharing one multiplexer; the first sector's pod carries it.
#: Chains of groups run from the scanner (at the board's near edge) outwards.
DREDD_CHAINS: tuple[tuple[tuple[str, ...], ...], ...] = (
    (
        ("power-tower", "smokatorium", "otto-sumps-ugly-clinic", "fatties-diner"),
        ("sky-surf-park", "aggro-dome", "statue-of-judgement", "block-tower-row"),
        ("academy-of-law", "resyk", "devils-island", "west-wall"),
    ),
    (
        ("undercity-access", "justice-department-armoury", "ped-zone-plaza", "weather-control"),
        ("meg-way-junction", "kelp-farm", "grand-hall-of-justice", "black-atlantic-docks"),
        ("mega-mall", "channel-99", "spaceport", "alien-zoo"),
    ),
    (
        ("justice-department-hospital", "palais-de-boing", "sector-house-44"),
        ("robot-wars-arena",),
    ),
)  # fmt: skip


def _dredd(smap: SensorMap) -> Plan:
    pieces: list[Piece] = []
    chains: list[list[str]] = []
    sats: dict[str, list[str]] = {}
    for groups in DREDD_CHAINS:
        names = []
        for group in groups:
            for i, space in enumerate(group):
                spots = smap.spots_of(space)
                cx = (min(s.x for s in spots) + max(s.x for s in spots)) / 2
                cy = (min(s.y for s in spots) + max(s.y for s in spots)) / 2
                if len(spots) == 4:
                    kind = "pod-mux" if i == 0 else "pod"
                else:
                    kind = "pod-hospital"
                    if i != 0:
                        raise ValueError("the hospital's pod carries its group's multiplexer")
                pieces.append(Piece(space, kind, (cx, cy), 0, _place(spots, (cx, cy), 0), (0,)))
            names.append(group[0])
            if len(group) > 1:
                sats[group[0]] = list(group[1:])
        chains.append(names)
    # Satellites carry no multiplexer: drop the placeholder given above.
    sat_names = {n for v in sats.values() for n in v}
    pieces = [
        Piece(p.name, p.kind, p.origin, p.rotation, p.sensors) if p.name in sat_names else p
        for p in pieces
    ]
    size = smap.size_mm or (720.0, 560.0)
    return Plan(
        "judge-dredd",
        _chained(pieces, chains, sats),
        (size[0] / 2, size[1] + SCANNER_BELOW_MM),
        "in its own box against the board's near (bottom) edge, the bus cables through a slot in"
        " the rim (the base under the board is too low)",
        size,
    )


# -- Unamerican Graffiti ---------------------------------------------------------------------

#: Hex columns and rows per tile: 3 columns of 32 mm hexes (80 mm with the odd rows' half
#: step) by 4 rows (83 mm) is the most that fits 100 × 100 mm with its margins.
GRAFFITI_COLUMNS = ((0, 3), (3, 6), (6, 9), (9, 11))
GRAFFITI_ROWS = ((0, 4), (4, 7))
#: Chains, as (column group, row group) tiles, scanner outwards; the last tile is the one
#: with the fewest hexes, so the channel count stays low.
GRAFFITI_CHAINS = (
    ((0, 1), (0, 0), (1, 0)),
    ((1, 1), (2, 1), (2, 0)),
    ((3, 1), (3, 0)),
)
GRAFFITI_MARGIN_MM = 8.0


def _hex(smap: SensorMap, s: Spot) -> tuple[int, int]:
    """(column, row) of a hex from its centre (pointy-top, odd rows shifted half a hex)."""
    first = min(p.y for p in smap.spots)
    rows = sorted({round(p.y, 1) for p in smap.spots})
    row = rows.index(round(s.y, 1))
    x0 = min(p.x for p in smap.spots if round(p.y, 1) == round(first, 1))
    col = round((s.x - x0 - (smap.pitch_mm / 2 if row % 2 else 0)) / smap.pitch_mm)
    return col, row


def _graffiti(smap: SensorMap) -> Plan:
    pitch = smap.pitch_mm
    x0 = min(s.x for s in smap.spots)
    ys = sorted({round(s.y, 2) for s in smap.spots})
    pieces = []
    for cg, (c0, c1) in enumerate(GRAFFITI_COLUMNS):
        for rg, (r0, r1) in enumerate(GRAFFITI_ROWS):
            spots = [
                s for s in smap.spots if c0 <= _hex(smap, s)[0] < c1 and r0 <= _hex(smap, s)[1] < r1
            ]
            origin = (x0 + c0 * pitch - GRAFFITI_MARGIN_MM, ys[r0] - GRAFFITI_MARGIN_MM)
            kind = f"tile-{c1 - c0}x{r1 - r0}"
            pieces.append(Piece(f"T{cg}{rg}", kind, origin, 0, _place(spots, origin, 0), (0,)))
    chains = [[f"T{cg}{rg}" for cg, rg in chain] for chain in GRAFFITI_CHAINS]
    size = smap.size_mm or (400.0, 240.0)
    return Plan(
        "unamerican-graffiti",
        _chained(pieces, chains, {}),
        (size[0] / 2, size[1] + SCANNER_BELOW_MM),
        "in its own box against the board's near (bottom) edge, the bus cables through a slot in"
        " the rim (the base under the board is too low)",
        size,
    )


PLANNERS = {"gw-brott": _gw, "judge-dredd": _dredd, "unamerican-graffiti": _graffiti}


@cache
def plan(board: str) -> Plan:
    """The pieces of a standard board (``"gw-brott"``…), from its sensor map."""
    return plan_of(board, SensorMap.load(board))


def plan_of(board: str, smap: SensorMap) -> Plan:
    """The pieces of ``board`` for the spots of ``smap``."""
    made = PLANNERS[board](smap)
    placed = [s.spot for p in made.pieces for s in p.sensors]
    if sorted(placed, key=lambda s: (s.x, s.y)) != sorted(smap.spots, key=lambda s: (s.x, s.y)):
        raise ValueError(f"{board}: the pieces do not carry every spot of the map exactly once")
    return made


def channels(made: Plan) -> dict[tuple[float, float], int]:
    """The channel each spot gets from the pieces: ``16 · multiplexer + input``.

    A piece's own sensors take its multiplexer's first inputs in the piece's
    reading order (rows top to bottom, left to right, in its own frame), so
    every piece of a kind wires sensor ``k`` to input ``k``; a satellite's
    sensors follow from the input its cable starts at.
    """
    out: dict[tuple[float, float], int] = {}
    for p in made.pieces:
        if p.own is not None:
            mux, first = p.own, 0
        elif p.feeds is not None:
            mux, first = p.feeds
        else:
            raise ValueError(f"{p.name} feeds no multiplexer")
        for k, s in enumerate(p.sensors):
            out[(s.spot.x, s.spot.y)] = INPUTS * mux + first + k
    return out


def map_disagreements(made: Plan, smap: SensorMap) -> list[str]:
    """Spots whose channel in the map is not the one the pieces give (empty: they agree)."""
    wanted = channels(made)
    return [
        f"{s.space} at ({s.x:g}, {s.y:g}): map channel {s.channel}, pieces give"
        f" {wanted[(s.x, s.y)]}"
        for s in smap.spots
        if wanted[(s.x, s.y)] != s.channel
    ]


# -- the circuit of each kind of piece -------------------------------------------------------


@dataclass(frozen=True)
class LocalPart:
    """A part on a kind of piece: its reference on that PCB, its part key, pin → local net."""

    ref: str
    key: str
    pins: tuple[tuple[str, str], ...]

    def net(self, pin: str) -> str:
        """The local net on ``pin``."""
        return dict(self.pins)[pin]


@dataclass(frozen=True)
class KindCircuit:
    """Everything on one kind of piece, with local references and net names."""

    kind: str
    parts: tuple[LocalPart, ...]
    sensors: tuple[tuple[float, float], ...]
    muxes: int
    #: Connector refs by role: "in", "out", "up", "sat1"…
    connectors: tuple[tuple[str, str], ...]

    def part(self, ref: str) -> LocalPart:
        """The part ``ref``."""
        return next(p for p in self.parts if p.ref == ref)

    def connector(self, role: str) -> str:
        """The reference of the connector with ``role``."""
        return dict(self.connectors)[role]

    @property
    def nets(self) -> tuple[str, ...]:
        """Every local net, sorted."""
        return tuple(sorted({net for p in self.parts for _, net in p.pins}))


HC4067 = {
    "Z": "1", "Y7": "2", "Y6": "3", "Y5": "4", "Y4": "5", "Y3": "6", "Y2": "7", "Y1": "8",
    "Y0": "9", "S0": "10", "S1": "11", "GND": "12", "S3": "13", "S2": "14", "E": "15",
    "Y15": "16", "Y14": "17", "Y13": "18", "Y12": "19", "Y11": "20", "Y10": "21", "Y9": "22",
    "Y8": "23", "VCC": "24",
}  # fmt: skip


def _mux(ref: str, selects: str, inputs: dict[int, str], z: str) -> LocalPart:
    pins = {"VCC": "+3V3", "GND": "GND", "E": "GND", "Z": z}
    pins.update({f"S{i}": f"{selects}{i}" for i in range(4)})
    pins.update({f"Y{i}": inputs.get(i, "GND") for i in range(INPUTS)})
    return LocalPart(ref, "hc4067", tuple((HC4067[name], net) for name, net in pins.items()))


def _cap(ref: str, key: str, net: str = "+3V3") -> LocalPart:
    return LocalPart(ref, key, (("1", net), ("2", "GND")))


def _connector(ref: str, signals: tuple[str, ...]) -> LocalPart:
    key = {6: "jst6", 10: "jst10", 15: "jst15"}[len(signals)]
    return LocalPart(ref, key, tuple((str(i + 1), net) for i, net in enumerate(signals)))


def satellite_pins(count: int) -> tuple[str, ...]:
    """A satellite cable's signals: supply, ground, then the sensor outputs ``OUT1``…"""
    return ("+3V3", "GND", *[f"OUT{k + 1}" for k in range(count)])


def bus_pins(side: str, muxes: int, onwards: bool = True) -> tuple[str, ...]:
    """The bus connector's local nets on a piece carrying ``muxes`` multiplexers.

    ``side`` is "in" (towards the scanner) or "out". On the way in, the piece's
    own multiplexers take the first analog lines (``MUXZ0``…) and the rest pass
    through (``ZPASS0``…) to the "out" side's first lines; the "out" side's
    lines left over are tied to ground, and so are the passing lines of a kind
    that never has a piece after it (``onwards`` false: no "out" connector).
    """
    pins = list(BUS_PINS)
    for slot in range(SLOTS):
        index = BUS_PINS.index(f"Z{slot}")
        if side == "in":
            passing = f"ZPASS{slot - muxes}" if onwards else "GND"
            pins[index] = f"MUXZ{slot}" if slot < muxes else passing
        else:
            pins[index] = f"ZPASS{slot}" if slot < SLOTS - muxes else "GND"
    return tuple(pins)


@cache
def kind_circuit(board: str, kind: str) -> KindCircuit:
    """The circuit of one kind of piece of ``board``'s plan (its first piece of that kind)."""
    made = plan(board)
    same = [p for p in made.pieces if p.kind == kind]
    # The piece with the most satellites sets the kind's satellite connectors: a piece with
    # fewer (Judge Dredd's lone pod) leaves some unplugged.
    piece = max(same, key=lambda p: len(p.satellites))
    for other in same:
        if [s.local for s in other.sensors] != [s.local for s in piece.sensors]:
            raise ValueError(f"{board}: pieces of kind {kind} differ in their sensors")
        if len(other.muxes) != len(piece.muxes):
            raise ValueError(f"{board}: pieces of kind {kind} differ in their multiplexers")
    onwards = any(_successor(made, p) is not None for p in same)
    parts: list[LocalPart] = []
    outs = {k: f"OUT{k + 1}" for k in range(len(piece.sensors))}
    for k in range(len(piece.sensors)):
        parts.append(
            LocalPart(f"H{k + 1}", "drv5055", (("1", "+3V3"), ("2", outs[k]), ("3", "GND")))
        )
        parts.append(_cap(f"C{k + 1}", "c100n"))
    connectors: list[tuple[str, str]] = []
    if piece.feeds is not None:
        parts.append(_connector("J1", satellite_pins(len(piece.sensors))))
        connectors.append(("up", "J1"))
    else:
        n = len(piece.muxes)
        inputs: list[dict[int, str]] = [{} for _ in range(n)]
        own = piece.muxes.index(piece.own) if piece.own is not None else 0
        for k in range(len(piece.sensors)):
            inputs[own][k] = outs[k]
        for s, (_, mux, first) in enumerate(piece.satellites):
            sat = made.piece(piece.satellites[s][0])
            j = piece.muxes.index(mux)
            for k in range(len(sat.sensors)):
                inputs[j][first + k] = f"SAT{s + 1}_{k + 1}"
        for j in range(n):
            parts.append(_mux(f"U{j + 1}", "SEL", inputs[j], f"MUXZ{j}"))
            parts.append(_cap(f"CU{j + 1}", "c100n"))
            parts.append(_cap(f"CB{j + 1}", "c10u"))
        parts.append(_connector("J1", bus_pins("in", n, onwards)))
        connectors.append(("in", "J1"))
        if onwards:
            parts.append(_connector("J2", bus_pins("out", n)))
            connectors.append(("out", "J2"))
        for s, (name, _, _) in enumerate(piece.satellites):
            sat = made.piece(name)
            signals = tuple(
                net if net in ("+3V3", "GND") else f"SAT{s + 1}_{k - 1}"
                for k, net in enumerate(satellite_pins(len(sat.sensors)))
            )
            ref = f"J{3 + s}"
            parts.append(_connector(ref, signals))
            connectors.append((f"sat{s + 1}", ref))
    parts.append(LocalPart("TP1", "testpoint", (("1", "+3V3"),)))
    return KindCircuit(
        kind,
        tuple(parts),
        tuple(s.local for s in piece.sensors),
        len(piece.muxes),
        tuple(connectors),
    )


def _successor(made: Plan, piece: Piece) -> Piece | None:
    """The next piece on ``piece``'s chain, if any."""
    if piece.chain is None:
        return None
    pieces = made.chain(piece.chain[0])
    i = pieces.index(piece)
    return pieces[i + 1] if i + 1 < len(pieces) else None


def kinds(board: str) -> tuple[str, ...]:
    """The kinds of piece a board is made of, in plan order."""
    return tuple(dict.fromkeys(p.kind for p in plan(board).pieces))


def _centre(piece: Piece) -> tuple[float, float]:
    xs = [s.spot.x for s in piece.sensors]
    ys = [s.spot.y for s in piece.sensors]
    return ((min(xs) + max(xs)) / 2, (min(ys) + max(ys)) / 2)


def cable_drops(made: Plan) -> dict[str, float]:
    """Each piece's supply drop from its cables alone (V, every sensor at its maximum): the
    four supply wires of a bus cable, the one of a satellite cable, a JST contact at each
    end of each, lengths from the pieces' places plus slack. An estimate that needs no
    routed board (the full figure, tracks and planes included, is ``budget.copper``)."""
    icc = figure("drv5055.icc_max")
    wire = figure("wire.awg28_ohm_per_m") / 1000
    contact = figure("jst_sh.contact_ohm")

    def cable(a: tuple[float, float], b: tuple[float, float], wires: int) -> float:
        length = stock_length(abs(a[0] - b[0]) + abs(a[1] - b[1]) + CABLE_SLACK_MM)
        return (wire * length + 2 * contact) / wires

    def load(p: Piece) -> float:
        return icc * (len(p.sensors) + sum(len(made.piece(n).sensors) for n, _, _ in p.satellites))

    supply = sum(1 for pin in BUS_PINS if pin == "+3V3")
    drops: dict[str, float] = {}
    for c in range(CHAINS):
        pieces = made.chain(c)
        at, volts = made.scanner_at, 0.0
        for i, p in enumerate(pieces):
            volts += sum(load(q) for q in pieces[i:]) * cable(at, _centre(p), supply)
            drops[p.name] = volts
            at = _centre(p)
            for name, _, _ in p.satellites:
                sat = made.piece(name)
                drops[name] = volts + icc * len(sat.sensors) * cable(at, _centre(sat), 1)
    return drops


def far_piece(made: Plan) -> Piece:
    """The piece at the far end of the supply, whose test pad is TP5: the one its cables
    leave lowest (:func:`cable_drops`)."""
    drops = cable_drops(made)
    return made.piece(max(drops, key=lambda name: (drops[name], name)))


# -- the scanner board -----------------------------------------------------------------------

#: The scanner board's test points: reference → (net, what a builder measures there).
TEST_POINTS = {
    "TP1": ("+12V", "12 V after the fuse and the reverse-polarity diode"),
    "TP2": ("+3V3", "3.3 V after the rail filter (the sensors', multiplexers' and Pico's supply)"),
    "TP3": ("GND", "ground, beside the buck module"),
    "TP4": ("ADC0", "the analog line into the Pico's ADC (GP26)"),
}
#: The sensor rail's filter on the scanner board: the inductor from the buck's output
#: (+3V3_BUCK) to the rail (+3V3) and the ceramic capacitors on the rail after it, a
#: second-order low pass that keeps the buck's switching ripple out of the sensors' supply
#: (``budget.ripple`` computes what is left).
RAIL_FILTER_INDUCTOR = "L1"
RAIL_FILTER_CAPS = ("CF1", "CF2", "CF3", "CF4")
#: Pico pins the scanner uses (GPIO → net); every other Pico pin is left unconnected.
PICO_NETS = {
    "3V3": "+3V3", "3V3_EN": "GND", "AGND": "GND", "GP22": "SAFE_MODE", "GP26_ADC0": "ADC0",
    "GP2": "SEL0", "GP3": "SEL1", "GP4": "SEL2", "GP5": "SEL3",
    "GP6": "BANK0", "GP7": "BANK1", "GP8": "BANK2", "GP9": "BANK3",
}  # fmt: skip


@cache
def scanner_kind() -> KindCircuit:
    """The scanner board, the same for every game: power, Pico, second-level multiplexer, bus.

    12 V in through J1, the fuse F1, the series Schottky D3 (a reversed adapter
    is blocked; the Pololu module also withstands it) and the TVS D4 across the
    protected rail; the buck PS1 makes +3V3_BUCK, and the rail filter (the inductor
    L1 into :data:`RAIL_FILTER_CAPS`, ``budget.ripple``) turns it into +3V3 for the
    Pico (its own regulator off: 3V3_EN to ground), the second-level multiplexer U21
    and, through the three bus connectors J3-J5, every piece. The local references
    are the board's.
    """
    parts = [
        LocalPart("J1", "jack", (("1", "+12V_RAW"), ("2", "GND"))),
        LocalPart("F1", "fuse", (("1", "+12V_RAW"), ("2", "+12V_FUSED"))),
        LocalPart("D3", "schottky", (("2", "+12V_FUSED"), ("1", "+12V"))),
        LocalPart("D4", "tvs", (("1", "+12V"), ("2", "GND"))),
        LocalPart("PS1", "buck", (("1", "+12V"), ("2", "GND"), ("3", "+3V3_BUCK"))),
        _cap("CB1", "c10u", "+3V3_BUCK"),
        LocalPart(RAIL_FILTER_INDUCTOR, "inductor", (("1", "+3V3_BUCK"), ("2", "+3V3"))),
        *(_cap(ref, "c10u") for ref in RAIL_FILTER_CAPS),
    ]
    pico = []
    for number, name, _ in PICO_PINS:
        if name == "GND":
            pico.append((number, "GND"))
        elif name in PICO_NETS:
            pico.append((number, PICO_NETS[name]))
    parts.append(LocalPart("U30", "pico", tuple(pico)))
    parts.append(LocalPart("J2", "jumper", (("1", "SAFE_MODE"), ("2", "GND"))))
    inputs = {g: f"BUSZ{g}" for g in range(SLOTS * CHAINS)}
    parts.append(_mux("U21", "BANK", inputs, "ADC0"))
    parts.append(_cap("C21", "c100n"))
    parts.append(_cap("CB22", "c10u"))
    connectors = []
    for c in range(CHAINS):
        pins = tuple(
            f"BUSZ{SLOTS * c + int(net[1])}" if net.startswith("Z") else net for net in BUS_PINS
        )
        parts.append(_connector(f"J{3 + c}", pins))
        connectors.append((f"chain{c}", f"J{3 + c}"))
    for ref, (net, _) in TEST_POINTS.items():
        parts.append(LocalPart(ref, "testpoint", (("1", net),)))
    return KindCircuit("scanner", tuple(parts), (), 1, tuple(connectors))


# -- from a piece's own references and nets to the board's ----------------------------------


def slot_net(made: Plan, c: int, t: int) -> str:
    """The board's net on analog line ``t`` of chain ``c``'s bus at the scanner."""
    if t >= SLOTS:
        return "GND"  # a line a piece upstream tied to ground on its way out
    pieces = made.chain(c)
    for p in pieces:
        s = p.chain[1] if p.chain else 0
        if s <= t < s + len(p.muxes):
            return f"MUX{p.muxes[t - s] + 1}"
    if pieces and "out" not in dict(kind_circuit(made.board, pieces[-1].kind).connectors):
        return "GND"  # the chain's last kind ties its passing lines to ground
    return f"BUS{c + 1}_Z{t}"  # read by no multiplexer: the last piece's "out" is unplugged


def global_ref(made: Plan, piece: Piece | None, ref: str) -> str:
    """The board-wide reference of part ``ref`` of ``piece`` (``None``: the scanner board)."""
    if piece is None:
        return ref
    chans = channels(made)
    if ref.startswith("H") or (ref.startswith("C") and ref[1:].isdigit()):
        k = int(ref[1:]) - 1
        ch = chans[(piece.sensors[k].spot.x, piece.sensors[k].spot.y)]
        return f"H{ch}" if ref.startswith("H") else f"CH{ch}"
    if ref.startswith(("U", "CU", "CB")):
        j = int(ref.lstrip("UCB")) - 1
        m = piece.muxes[j]
        return {"U": f"U{m + 1}", "CU": f"C{m + 1}", "CB": f"CB{m + 2}"}[ref.rstrip("0123456789")]
    number = made.number(piece)
    if ref.startswith("J"):
        return f"J{100 * number + int(ref[1:])}"
    if ref == "TP1":
        return "TP5" if piece == far_piece(made) else f"TP{100 + number}"
    raise KeyError(f"{piece.name}: no board reference for {ref}")


def global_net(made: Plan, piece: Piece | None, net: str) -> str:
    """The board-wide name of ``piece``'s local net ``net`` (``None``: the scanner board)."""
    if net in ("+3V3", "GND") or net.startswith("SEL"):
        return net
    if piece is None:
        if net.startswith("BUSZ"):
            g = int(net[4:])
            return slot_net(made, g // SLOTS, g % SLOTS)
        return net
    chans = channels(made)
    if net.startswith("OUT"):
        k = int(net[3:]) - 1
        return f"CH{chans[(piece.sensors[k].spot.x, piece.sensors[k].spot.y)]}_OUT"
    if net.startswith("SAT"):
        s, k = (int(v) for v in net[3:].split("_"))
        if s > len(piece.satellites):
            return f"P{made.number(piece)}_{net}"  # an unplugged satellite socket
        sat = made.piece(piece.satellites[s - 1][0])
        spot = sat.sensors[k - 1].spot
        return f"CH{chans[(spot.x, spot.y)]}_OUT"
    if net.startswith("MUXZ"):
        return f"MUX{piece.muxes[int(net[4:])] + 1}"
    if net.startswith("ZPASS") and piece.chain is not None:
        c, s = piece.chain
        return slot_net(made, c, s + len(piece.muxes) + int(net[5:]))
    raise KeyError(f"{piece.name}: no board net for {net}")


@dataclass(frozen=True)
class Cable:
    """A cable between two connectors, pin k to pin k: (piece or None for the scanner, ref)."""

    a: tuple[str | None, str]
    b: tuple[str | None, str]
    ways: int


def cables(made: Plan) -> tuple[Cable, ...]:
    """Every cable of a board: scanner to each chain, along each chain, satellites."""
    out = []
    for c in range(CHAINS):
        pieces = made.chain(c)
        if not pieces:
            continue
        out.append(Cable((None, f"J{3 + c}"), (pieces[0].name, "J1"), len(BUS_PINS)))
        for a, b in zip(pieces, pieces[1:], strict=False):
            out.append(Cable((a.name, "J2"), (b.name, "J1"), len(BUS_PINS)))
    for p in made.pieces:
        circuit = kind_circuit(made.board, p.kind)
        for s, (name, _, _) in enumerate(p.satellites):
            ways = len(satellite_pins(len(made.piece(name).sensors)))
            out.append(Cable((p.name, circuit.connector(f"sat{s + 1}")), (name, "J1"), ways))
    return tuple(out)
