"""Margins at every tolerance corner: no sensor leaves its range, every margin holds.

Each input the readings depend on is an interval with its source
(:func:`inputs`): the thickness of every layer of the board (:mod:`.stack`), the
Hall element's height over the PCB, how far a sensor sits off its printed spot,
the DRV5055's sensitivity and quiescent voltage (data sheet, 25 °C), each
magnet's remanence (its grade), size, magnetisation angle, lift (the piece's
base) and place in its piece, the room temperature at calibration and at play,
and NdFeB's remanence temperature coefficient. The sensor's own warming (the
electronics' heat budget) and its sensitivity temperature coefficient and offset
drift (``electronics/datasheet.py``) are applied as they are.

A calibration measures every spot with one piece of each kind (its level) and the
empty board (its baseline); play happens later, maybe at another temperature,
with another piece of the same kind. So the inputs come in three groups: the
*board*'s (one value shared by calibration and play: layers, sensor, its place),
each *piece*'s (the calibrating piece and the played piece each have their own),
and the *room*'s (a temperature at calibration and one at play).

Figures, as a function of all inputs (:func:`figures`, vectorised over samples):

* ``saturation`` per kind: the largest |output − quiescent| over the headroom to
  the DRV5055's linear output limit (``VL`` 0.2 V from a rail), the sensitivity
  and quiescent voltage at their data-sheet ends and the sensor warm; 1.0 is the
  edge of the specified range. At 25 °C with the data sheet's worst sensitivity
  and offset this is exactly |B| over the data sheet's ``BL``.
* margins in ADC counts, as :mod:`.margins` defines them, with the played piece,
  the calibrated level and the baseline's drift between calibration and play:
  entering at the worst placement, a neighbour not entering, GW's lagging pair.

:func:`worst_corners` finds, for each figure, the corner where every input sits
at the end of its interval that hurts that figure most (each input's effect is
found one at a time at both ends), and evaluates the figure there;
:func:`monte_carlo` draws ``MC_SAMPLES`` uniform samples with seed ``MC_SEED`` as
an independent check that no sample beats the corner (a test holds them
together). Fields are magpylib's exact cylinder fields (``magpylib.func``) and
the keeper washers' induced field from the same linear cell model as the field
tables (:mod:`.softiron`), so at the nominal inputs these figures are the
tables' (a test checks that too).
"""

from __future__ import annotations

import functools
import math
from collections.abc import Callable, Mapping
from dataclasses import dataclass

import magpylib as magpy
import numpy as np

from lawmaster.hardware.electronics.budget import heat
from lawmaster.hardware.electronics.datasheet import FIGURES
from lawmaster.hardware.electronics.tree import tree_of
from lawmaster.hardware.magnetics import stack
from lawmaster.hardware.magnetics.data import (
    DRV5055_SOURCE,
    GRADE_BR_T,
    GRADE_SOURCE,
)
from lawmaster.hardware.magnetics.margins import _nearest, footprint
from lawmaster.hardware.magnetics.placement import placement
from lawmaster.hardware.magnetics.softiron import MM, Keepers
from lawmaster.hardware.sensor_map import Keeper, Kind, Magnet, SensorMap
from lawmaster.host.sensing.sensing import ENTER, LEAVE

#: The most of the DRV5055's specified range a reading may use at its worst tolerance
#: corner (``lawmaster hardware check`` fails above it): the rest is headroom for what
#: no tolerance covers.
SATURATION_LIMIT = 0.9
#: The Monte Carlo's draws and seed (reported with its figures).
MC_SAMPLES = 2000
MC_SEED = 23

# -- values and their sources -----------------------------------------------------------
#: DRV5055 at VCC = 3.3 V, 25 °C (SBAS640, Magnetic Characteristics): sensitivity within
#: ±5 % of typical (A4 7.13-7.88 mV/mT), quiescent voltage VQ 1.59-1.71 V; the linear
#: range BL (±176 mT for the A4) is the data sheet's *minimum*, taken at the highest VQ
#: and sensitivity, and the output stays linear up to VL = 0.2 V from either rail.
SENSITIVITY_SPREAD = 0.05
VQ_RANGE_V = (1.59, 1.71)
VL_V = 0.2
SENSOR_SOURCE = (
    f"{DRV5055_SOURCE}: sensitivity ±5 % of typical, VQ 1.59-1.71 V at 3.3 V and 25 °C;"
    " BL is the minimum linear range at the highest VQ and sensitivity; linear output to"
    " 0.2 V from either rail"
)
#: Reversible temperature coefficient of NdFeB's remanence (per kelvin), and the
#: reference temperature of the grade tables' Br.
BR_TEMPCO_PER_K = (-0.0012, -0.0009)
BR_REFERENCE_C = 20.0
BR_TEMPCO_SOURCE = (
    "sintered NdFeB α(Br) −0.09 to −0.12 %/°C (Arnold Magnetic Technologies' NdFeB catalogue:"
    " N42 −0.12 %/°C; Advanced Magnets' note on temperature coefficients: −0.09 to −0.12),"
    " Br given at 20 °C"
)
#: The room a table is calibrated and played in (°C). Calibration and play may be
#: at any two temperatures in it (a calibration file is kept and reused).
ROOM_C = (15.0, 30.0)
ROOM_SOURCE = (
    "assumption: an indoor room between 15 and 30 °C; a calibration kept from one day is"
    " used on another, so calibration and play may sit at opposite ends"
)
#: Sintered magnets as bought: diameter and thickness ±0.1 mm, magnetisation axis
#: within 5° of the geometric axis.
MAGNET_SIZE_TOL_MM = 0.1
MAGNET_ANGLE_DEG = 5.0
MAGNET_SOURCE = (
    "sintered NdFeB as sold: ±0.1 mm on unground sizes (Mainrich's NdFeB tolerance guide:"
    " ±0.05 ground, ±0.1 as sintered); magnetisation direction within a few degrees of the"
    " axis, under 5° (K&J Magnetics, 'tolerance of the magnetized direction')"
)
#: How far a magnet's axis may sit off its piece's centre (its pocket's clearance and
#: glue): assumption.
MAGNET_IN_PIECE_MM = 0.25
MAGNET_IN_PIECE_SOURCE = (
    "assumption: a magnet glued in a pocket 0.2 mm wider than itself sits within 0.25 mm"
    " of the piece's centre"
)
#: A sensor's offset from its printed spot: the PCB against the cover's print (screw
#: holes of Ø3.2 mm for M3, both drilled from one template) and the part on its pads.
SENSOR_OFFSET_MM = 0.5
SENSOR_OFFSET_SOURCE = (
    "assumption: the PCB sits within 0.4 mm of the print (M3 screws in Ø3.2 mm holes,"
    " drilled from the same template) and the DRV5055 within 0.1 mm of its pads' centre"
    " (reflowed on its pads): 0.5 mm"
)
#: How well a person calibrating centres a piece on the spot asked for (mm).
CALIBRATION_CENTRING_MM = 1.0
CALIBRATION_SOURCE = "assumption: calibrating, a piece is centred on its printed spot within 1 mm"
#: Lift (the piece's base under its magnet) by base material: tolerance and why.
LIFT_TOL_MM: dict[str, tuple[float, str]] = {
    "acrylic": (
        0.1,
        "a criminal's magnet in a blind pocket milled or laser-engraved into its acrylic"
        " body, leaving the floor: ±0.1 mm (assumption)",
    ),
    "ptfe": (
        0.15,
        "PTFE (skived) sheet of the glide's thickness: ±0.15 mm (assumption, makers quote"
        " ±0.1-0.2 mm for 2-3 mm sheet)",
    ),
    "rubber": (
        0.2,
        "a solid rubber disc as the piece's base: ±0.2 mm sheet tolerance (assumption); its"
        " compression under the piece's weight and magnetic pull is computed and is microns",
    ),
    "rigid": (
        0.12,
        "a rigid lift: the magnet seated on the floor of a pocket turned or printed in the"
        " piece's hard body, ±0.1 mm, under a 0.5 mm anti-slip rubber skin, ±0.05 mm"
        " (assumption; the skin's compression is microns)",
    ),
}
#: The anti-slip rubber skin under a rigid lift (mm).
RIGID_SKIN_MM = 0.5
#: A solid rubber base's Young's modulus (Shore 60A natural rubber ≈ 3.5 MPa; low end of
#: the soft compounds taken, 2 MPa), and the hardest a player presses a piece (N).
RUBBER_E_MPA = 2.0
PRESS_N = 5.0
RUBBER_SOURCE = (
    "rubber's Young's modulus: about 2-4 MPa for Shore 50-60A compounds (Gent's relation,"
    " E ≈ 0.0981(56 + 7.62336 S)/(0.137505(254 − 2.54 S)) MPa); 2 MPa taken; a player"
    " presses a piece with up to 5 N (assumption)"
)


@dataclass(frozen=True)
class Build:
    """How a board's sensors are mounted: its layers, the Hall element's height over the
    sensor board's face (nominal, ± tolerance, source) and how far a sensor may sit off
    its printed spot (source). :func:`smd` is the fab-made PCB's; the stripboard route
    (:mod:`lawmaster.hardware.stripboard.margins`) gives its own. Every function here
    takes ``build`` (``None``: the board's SMD build)."""

    layers: tuple[stack.Layer, ...]
    element_mm: float
    element_tol_mm: float
    element_source: str
    sensor_offset_mm: float
    sensor_offset_source: str

    @property
    def two_sided(self) -> bool:
        """Whether the board is played on both faces (a back cover)."""
        return stack.has_back_face(self.layers)


@functools.lru_cache(maxsize=8)
def smd(board: str) -> Build:
    """The fab-made PCB's build of ``board`` (:mod:`.stack`)."""
    return Build(
        stack.STACKS[board],
        stack.ELEMENT_HEIGHT_MM,
        stack.ELEMENT_HEIGHT_TOL_MM,
        stack.ELEMENT_SOURCE,
        SENSOR_OFFSET_MM,
        SENSOR_OFFSET_SOURCE,
    )


@dataclass(frozen=True)
class Input:
    """One tolerance input: its interval, unit, group and source.

    ``group`` is ``"board"`` (shared by calibration and play), ``"cal"`` / ``"play"``
    (the calibrating piece's / the played piece's own) or ``"room"``.
    """

    name: str
    nominal: float
    low: float
    high: float
    unit: str
    group: str
    source: str


def _magnet_inputs(sm: SensorMap, role: str, kind: str, i: int, m: Magnet) -> list[Input]:
    low, high = GRADE_BR_T[m.grade]
    lift_tol, lift_src = LIFT_TOL_MM[m.lift_kind or m.base]
    p = f"{role}.{kind}.{i}."
    size = MAGNET_SIZE_TOL_MM
    out = [
        Input(p + "br", (low + high) / 2, low, high, "T", role, f"{m.grade}: {GRADE_SOURCE}"),
        Input(
            p + "dia",
            m.diameter_mm,
            m.diameter_mm - size,
            m.diameter_mm + size,
            "mm",
            role,
            MAGNET_SOURCE,
        ),
        Input(
            p + "thick",
            m.thickness_mm,
            m.thickness_mm - size,
            m.thickness_mm + size,
            "mm",
            role,
            MAGNET_SOURCE,
        ),
        Input(p + "tilt", 0.0, -MAGNET_ANGLE_DEG, MAGNET_ANGLE_DEG, "°", role, MAGNET_SOURCE),
        Input(
            p + "lift", m.lift_mm, m.lift_mm - lift_tol, m.lift_mm + lift_tol, "mm", role, lift_src
        ),
        Input(
            p + "off",
            0.0,
            -MAGNET_IN_PIECE_MM,
            MAGNET_IN_PIECE_MM,
            "mm",
            role,
            MAGNET_IN_PIECE_SOURCE,
        ),
    ]
    return out


@functools.lru_cache(maxsize=16)
def inputs(sm: SensorMap, build: Build | None = None) -> tuple[Input, ...]:
    """Every tolerance input of a board, with its interval and source."""
    b = build or smd(sm.game)
    out: list[Input] = []
    for la in b.layers:
        if la.role == "pcb" and not b.two_sided:
            continue  # a flat board's PCB lies under its sensors' faces: no reading moves
        if (la.role == "spacer" and la.side == "back") or la.role == "liner":
            continue  # no surface moves with it
        out.append(
            Input(f"board.{la.key}", la.thickness_mm, la.low, la.high, "mm", "board", la.source)
        )
    e, et = b.element_mm, b.element_tol_mm
    out.append(Input("board.element", e, e - et, e + et, "mm", "board", b.element_source))
    keeper = sm.sensor.keeper
    if keeper is not None:
        out.append(
            Input(
                "board.keeper_gap",
                keeper.gap_mm,
                keeper.gap_mm - 0.05,
                keeper.gap_mm + 0.05,
                "mm",
                "board",
                "assumption: keeper pockets milled with the criminals' face down on the bed, so"
                " their floor is 1.0 ± 0.05 mm from that face whatever the sheet's thickness",
            )
        )
    out.append(
        Input(
            "board.sensor_off",
            0.0,
            0.0,
            b.sensor_offset_mm,
            "mm",
            "board",
            b.sensor_offset_source,
        )
    )
    out.append(
        Input(
            "board.sens",
            1.0,
            1 - SENSITIVITY_SPREAD,
            1 + SENSITIVITY_SPREAD,
            "× typical",
            "board",
            SENSOR_SOURCE,
        )
    )
    out.append(Input("board.vq", 1.65, VQ_RANGE_V[0], VQ_RANGE_V[1], "V", "board", SENSOR_SOURCE))
    for role in ("cal", "play"):
        for name, kind in sm.kinds.items():
            for i, m in enumerate(kind.magnets):
                out += _magnet_inputs(sm, role, name, i, m)
    out.append(
        Input("cal.centring", 0.0, 0.0, CALIBRATION_CENTRING_MM, "mm", "cal", CALIBRATION_SOURCE)
    )
    mid = sum(ROOM_C) / 2
    out.append(Input("room.t_cal", mid, *ROOM_C, "°C", "room", ROOM_SOURCE))
    out.append(Input("room.t_play", mid, *ROOM_C, "°C", "room", ROOM_SOURCE))
    lo, hi = BR_TEMPCO_PER_K
    out.append(Input("room.br_tempco", (lo + hi) / 2, lo, hi, "1/K", "room", BR_TEMPCO_SOURCE))
    return tuple(out)


Params = Mapping[str, np.ndarray]


# -- fields -----------------------------------------------------------------------------


@functools.lru_cache(maxsize=8)
def _keeper_model(keeper: Keeper | None) -> tuple[Keepers, np.ndarray, np.ndarray] | None:
    """The keeper of one spot solved at the origin, its cell centres (mm) and angles."""
    if keeper is None:
        return None
    k = Keepers(keeper, [(0.0, 0.0, 0.0)])
    centres = k.points / MM
    angles = np.array([c.orientation.as_euler("xyz")[2] for c in k.cells])
    return k, centres, angles


def _cyl_b(
    obs: np.ndarray, dia: np.ndarray, thick: np.ndarray, jx: np.ndarray, jz: np.ndarray
) -> np.ndarray:
    """B (T) of axial cylinders at observers given relative to each magnet's centre (mm)."""
    n = obs.shape[0]
    dims = np.stack([dia, thick], axis=1) * MM
    pol = np.stack([jx, np.zeros(n), jz], axis=1)
    return np.asarray(magpy.func.cylinder_field("B", obs * MM, dims, pol)).reshape(-1, 3)


@dataclass(frozen=True)
class Geometry:
    """Per sample: the sensor frame (mm) of one spot: surfaces, keeper, sensor offset."""

    front: np.ndarray  # Hall element to the front surface
    back: np.ndarray | None  # … to the back surface (two-sided boards)
    keeper_z: np.ndarray | None  # the keeper's mid-plane
    sensor_off: np.ndarray  # the sensor's offset from the spot's centre (along −x)


def geometry(sm: SensorMap, p: Params, build: Build | None = None) -> Geometry:
    """The stack of each sample (``p`` holds every input as an array)."""
    b = build or smd(sm.game)
    t = {la.key: p[f"board.{la.key}"] for la in b.layers if f"board.{la.key}" in p}
    e = p["board.element"]
    front = sum(t[la.key] for la in b.layers if la.side == "front" and la.role != "liner") - e
    back = None
    if b.two_sided:
        back = e + sum(t[la.key] for la in b.layers if la.side == "back" and la.role != "spacer")
    keeper_z = None
    if sm.sensor.keeper is not None:
        keeper_z = front - p["board.keeper_gap"] - sm.sensor.keeper.thickness_mm / 2
    return Geometry(front, back, keeper_z, p["board.sensor_off"])


@dataclass(frozen=True)
class Placed:
    """A magnet of a piece for each sample: which, whose inputs, where (mm, along +x)."""

    magnet: Magnet
    prefix: str  # "play.gw.1." …
    x: np.ndarray  # offset of the piece's centre from the spot's centre, towards +x
    br_scale: np.ndarray  # remanence factor for the room temperature


def _magnet_arrays(pl: Placed, p: Params, g: Geometry) -> tuple[np.ndarray, ...]:
    m = pl.magnet
    dia = p[pl.prefix + "dia"]
    thick = p[pl.prefix + "thick"]
    lift = p[pl.prefix + "lift"]
    tilt = np.radians(p[pl.prefix + "tilt"])
    j = p[pl.prefix + "br"] * pl.br_scale * m.sign
    surface = g.front if m.side == "front" else g.back
    assert surface is not None
    z = surface + lift + thick / 2
    z = z if m.side == "front" else -z
    x = pl.x + p[pl.prefix + "off"] + g.sensor_off  # the sensor sits sensor_off towards −x
    return dia, thick, j * np.sin(tilt), j * np.cos(tilt), x, z


def bz_mt(keeper: Keeper | None, placed: list[Placed], p: Params, g: Geometry) -> np.ndarray:
    """Bz (mT) at the sensor from the placed magnets and the spot's keeper (if any)."""
    n = g.front.shape[0]
    total = np.zeros(n)
    model = _keeper_model(keeper)
    applied = None
    if model is not None:
        keepers, centres, _ = model
        nc = centres.shape[0]
        applied = np.zeros((n, nc, 3))
    for pl in placed:
        dia, thick, jx, jz, x, z = _magnet_arrays(pl, p, g)
        obs = np.stack([-x, np.zeros(n), -z], axis=1)
        total += _cyl_b(obs, dia, thick, jx, jz)[:, 2] * 1000
        if model is not None and applied is not None:
            assert g.keeper_z is not None
            # Keeper cells in the sensor frame: the keeper sits on the spot's centre.
            cx = centres[None, :, 0] + g.sensor_off[:, None]
            cy = np.broadcast_to(centres[None, :, 1], (n, nc))
            cz = centres[None, :, 2] + g.keeper_z[:, None]
            rel = np.stack([cx - x[:, None], cy, cz - z[:, None]], axis=2).reshape(-1, 3)
            rep = lambda a: np.repeat(a, nc)  # noqa: E731
            applied += _cyl_b(rel, rep(dia), rep(thick), rep(jx), rep(jz)).reshape(n, nc, 3)
    if model is not None and applied is not None:
        total += _keeper_bz(model, applied, g) * 1000
    return total


def _keeper_bz(
    model: tuple[Keepers, np.ndarray, np.ndarray], applied: np.ndarray, g: Geometry
) -> np.ndarray:
    """Bz (T) at the sensor from the keeper cells polarised by ``applied`` (n, cells, 3)."""
    assert g.keeper_z is not None
    keepers, centres, angles = model
    n, nc, _ = applied.shape
    pol = applied.reshape(n, 3 * nc) @ keepers.response.T  # (n, 3nc), global axes
    # Observer (the sensor) in each cell's own frame: cells are turned about z only.
    ox = -g.sensor_off[:, None] - centres[None, :, 0]
    oy = -centres[None, :, 1] + np.zeros((n, 1))
    oz = -g.keeper_z[:, None] - centres[None, :, 2]
    c, s = np.cos(angles)[None, :], np.sin(angles)[None, :]
    lx, ly = c * ox + s * oy, -s * ox + c * oy
    obs = np.stack([lx, ly, oz], axis=2).reshape(-1, 3) * MM
    dims = np.array([kc.dimension for kc in keepers.cells])
    dims = np.tile(dims, (n, 1))
    px, py, pz = pol[:, 0::3], pol[:, 1::3], pol[:, 2::3]
    # Each cell's polarisation in its own frame, then Bz (a turn about z keeps Bz).
    lpx, lpy = c * px + s * py, -s * px + c * py
    local = np.stack([lpx, lpy, pz], axis=2).reshape(-1, 3)
    bz = np.asarray(magpy.func.cuboid_field("B", obs, dims, local)).reshape(-1, 3)[:, 2]
    bz = bz.reshape(n, nc)
    return bz.sum(axis=1)


# -- figures ----------------------------------------------------------------------------


@dataclass(frozen=True)
class Context:
    """What the figures of one board need besides the inputs."""

    sm: SensorMap
    counts_per_mt: float  # typical sensitivity, 3.3 V ratiometric
    rise_k: float  # the sensor above the room once warm (heat budget)
    stc: float  # sensitivity temperature coefficient (1/K)
    vq_drift: float  # V/K
    vcc: float


@functools.lru_cache(maxsize=16)
def context(sm: SensorMap) -> Context:
    """The board's sensor gain, warming and drift figures."""
    spec = sm.sensor
    cpm = spec.sensitivity_mv_per_mt / (spec.supply_v * 1000) * 65536
    warm = heat(sm, tree_of(sm.game, sm))
    return Context(
        sm,
        cpm,
        warm.rise_k,
        FIGURES["drv5055.stc"].value,
        FIGURES["drv5055.vq_drift"].value,
        spec.supply_v,
    )


def _br_scale(p: Params, which: str) -> np.ndarray:
    t = p[f"room.t_{which}"]
    return 1 + p["room.br_tempco"] * (t - BR_REFERENCE_C)


def _gain(ctx: Context, p: Params, which: str) -> np.ndarray:
    """Counts per mT of the sensor at the room temperature of ``which`` (warm board)."""
    t_sensor = p[f"room.t_{which}"] + ctx.rise_k
    return ctx.counts_per_mt * p["board.sens"] * (1 + ctx.stc * (t_sensor - 25.0))


def _kind_placed(kind: Kind, role: str, x: np.ndarray, p: Params, which: str) -> list[Placed]:
    scale = _br_scale(p, which)
    return [Placed(m, f"{role}.{kind.name}.{i}.", x, scale) for i, m in enumerate(kind.magnets)]


def _drift_counts(ctx: Context, p: Params) -> np.ndarray:
    """The baseline's move between calibration and play (counts, magnitude)."""
    dt = np.abs(p["room.t_play"] - p["room.t_cal"])
    return ctx.vq_drift * dt / ctx.vcc * 65536


def level_counts(ctx: Context, name: str, p: Params, g: Geometry) -> np.ndarray:
    """The calibrated level of ``name`` (counts from the baseline, signed)."""
    kind = ctx.sm.kinds[name]
    placed = _kind_placed(kind, "cal", p["cal.centring"], p, "cal")
    return bz_mt(ctx.sm.sensor.keeper, placed, p, g) * _gain(ctx, p, "cal")


def figures(
    sm: SensorMap, p: Params, build: Build | None = None, only: str | None = None
) -> dict[str, np.ndarray]:
    """Every tolerance figure of a board for the samples in ``p`` (see the module doc).

    Keys: ``saturation.<kind>``, ``enter.<kind>.<cell|jail>``,
    ``neighbour.<kind>.<cell|jail>``, and on GW:s brott ``lag.wood``, ``lag.blue``.
    Saturation figures are fractions (worse when higher); the rest are margins in
    counts (worse when lower). ``only`` names one figure to compute alone (the same
    arithmetic, without the fields the others need): the corner search asks for one
    figure at a time, and each field costs the most here.
    """

    def want(key: str) -> bool:
        return only is None or only == key

    ctx = context(sm)
    keeper = sm.sensor.keeper
    g = geometry(sm, p, build)
    n = g.front.shape[0]
    out: dict[str, np.ndarray] = {}
    drift = _drift_counts(ctx, p)
    # Saturation alone needs no calibrated levels; every margin does.
    need_levels = only is None or not only.startswith("saturation.")
    levels = {name: level_counts(ctx, name, p, g) for name in sm.kinds} if need_levels else {}
    gain_play = _gain(ctx, p, "play")
    for name, kind in sm.kinds.items():
        if want(f"saturation.{name}"):
            out[f"saturation.{name}"] = _saturation(ctx, kind, p, g)
        pockets = [False, True] if (sm.jail is not None and name == "criminal") else [False]
        for pocket in pockets:
            where = "jail" if pocket else "cell"
            if not (want(f"enter.{name}.{where}") or want(f"neighbour.{name}.{where}")):
                continue
            place = placement(sm, footprint(kind), pocket=pocket)
            if want(f"enter.{name}.{where}"):
                x = np.full(n, place.worst)
                w = bz_mt(keeper, _kind_placed(kind, "play", x, p, "play"), p, g) * gain_play
                out[f"enter.{name}.{where}"] = np.abs(w) - ENTER * np.abs(levels[name]) - drift
            if want(f"neighbour.{name}.{where}"):
                dist = _nearest(sm, pocket) - place.towards_neighbour
                # The played piece on the neighbouring spot, reaching towards this sensor.
                x = np.full(n, -dist)
                nb = bz_mt(keeper, _kind_placed(kind, "play", x, p, "play"), p, g) * gain_play
                out[f"neighbour.{name}.{where}"] = _neighbour_margin(sm, levels, nb) - drift
    if "gw" in sm.kinds and (want("lag.wood") or want("lag.blue")):
        out.update(_lag(ctx, p, g, levels["gw"], drift))
    if only is not None:
        return {only: out[only]}  # a name that is no figure of this board is a KeyError
    return out


def _saturation(ctx: Context, kind: Kind, p: Params, g: Geometry) -> np.ndarray:
    """The played piece centred, the sensor warm at the room's either end: the share of
    the output's headroom its field takes (worse when higher)."""
    n = g.front.shape[0]
    b = bz_mt(ctx.sm.sensor.keeper, _kind_placed(kind, "play", np.zeros(n), p, "play"), p, g)
    t_sensor = p["room.t_play"] + ctx.rise_k
    slope = ctx.counts_per_mt / 65536 * ctx.vcc  # V per mT, typical
    swing = np.abs(b) * slope * p["board.sens"] * (1 + ctx.stc * (t_sensor - 25.0))
    vq_shift = ctx.vq_drift * np.abs(t_sensor - 25.0)
    headroom = np.where(
        b > 0,
        ctx.vcc - VL_V - (p["board.vq"] + vq_shift),
        (p["board.vq"] - vq_shift) - VL_V,
    )
    return swing / headroom


def _neighbour_margin(
    sm: SensorMap, levels: Mapping[str, np.ndarray], nb: np.ndarray
) -> np.ndarray:
    """How far a neighbour's reading stays from entering any kind on its side (counts)."""
    best = np.full(nb.shape, np.inf)
    for name in sm.kinds:
        lv = levels[name]
        same = np.sign(lv) == np.sign(nb)
        best = np.where(same, np.minimum(best, ENTER * np.abs(lv) - np.abs(nb)), best)
    fallback = ENTER * np.min(np.abs(np.stack(list(levels.values()))), axis=0) - np.abs(nb)
    return np.where(np.isfinite(best), best, fallback)


def _lag(
    ctx: Context, p: Params, g: Geometry, level: np.ndarray, drift: np.ndarray
) -> dict[str, np.ndarray]:
    """GW's pair with the blue magnet a cell behind the wooden piece."""
    kind = ctx.sm.kinds["gw"]
    pitch = ctx.sm.pitch_mm
    n = g.front.shape[0]
    gain = _gain(ctx, p, "play")
    scale = _br_scale(p, "play")
    prefix = {m.side: f"play.gw.{i}." for i, m in enumerate(kind.magnets)}
    mag = {m.side: m for m in kind.magnets}

    def pair(front_x: float, back_x: float) -> np.ndarray:
        placed = [
            Placed(mag["front"], prefix["front"], np.full(n, front_x), scale),
            Placed(mag["back"], prefix["back"], np.full(n, back_x), scale),
        ]
        return bz_mt(ctx.sm.sensor.keeper, placed, p, g) * gain

    wood = pair(-pitch, 0.0)  # the wooden piece on this cell, the blue one a cell behind
    blue = pair(0.0, pitch)  # the blue magnet on this cell, the wooden piece gone ahead
    return {
        "lag.wood": wood - ENTER * level - drift,
        "lag.blue": LEAVE * level - blue - drift,
    }


# -- corners and Monte Carlo --------------------------------------------------------------


def worse(name: str) -> Callable[[np.ndarray, np.ndarray], np.ndarray]:
    """``worse(a, b)``: elementwise whether ``a`` is worse than ``b`` for figure ``name``."""
    if name.startswith("saturation."):
        return lambda a, b: a > b
    return lambda a, b: a < b


def _batch(
    sm: SensorMap, rows: list[dict[str, float]], build: Build | None = None
) -> dict[str, np.ndarray]:
    names = [i.name for i in inputs(sm, build)]
    return {k: np.array([r[k] for r in rows], dtype=float) for k in names}


@dataclass(frozen=True)
class Corner:
    """A figure at its worst corner: the value, the nominal, every input's setting there."""

    figure: str
    value: float
    nominal: float
    settings: Mapping[str, float]


def _ends(i: Input) -> tuple[float, float, float]:
    return (i.low, i.nominal, i.high)


def worst_corners(
    sm: SensorMap, refine: bool = True, build: Build | None = None
) -> dict[str, Corner]:
    """Each figure's worst corner: every input at the end that hurts that figure most.

    Each input's effect is found one at a time at both ends of its interval; the
    corner takes the worse end of each (or the nominal where neither end hurts). An
    input whose effect depends on the others (a tilt, an offset) is then tried at its
    other settings one at a time from that corner, and any that makes the figure worse
    is kept, until none does.
    """
    # One cache entry per board and build however it is asked for: the search is the
    # slowest thing here, and ``(sm)`` and ``(sm, build=None)`` are one search.
    return _worst_corners(sm, refine, build or smd(sm.game))


@functools.lru_cache(maxsize=16)
def _worst_corners(sm: SensorMap, refine: bool, build: Build) -> dict[str, Corner]:
    ins = inputs(sm, build)
    nominal = {i.name: i.nominal for i in ins}
    rows = [nominal]
    for i in ins:
        rows.append({**nominal, i.name: i.low})
        rows.append({**nominal, i.name: i.high})
    base = figures(sm, _batch(sm, rows, build), build)
    out = {}
    for key in sorted(base):
        f = base[key]
        bad = worse(key)
        corner = dict(nominal)
        for j, i in enumerate(ins):
            lo, hi = f[1 + 2 * j], f[2 + 2 * j]
            if bad(lo, hi) and bad(lo, f[0]):
                corner[i.name] = i.low
            elif bad(hi, f[0]):
                corner[i.name] = i.high
        value = float(figures(sm, _batch(sm, [corner], build), build, only=key)[key][0])
        for _ in range(len(ins) if refine else 0):
            trials = [{**corner, i.name: v} for i in ins for v in _ends(i) if v != corner[i.name]]
            got = figures(sm, _batch(sm, trials, build), build, only=key)[key]
            k = int(np.argmax(got) if key.startswith("saturation.") else np.argmin(got))
            if not bad(np.array(got[k]), np.array(value)):
                break
            corner, value = trials[k], float(got[k])
        out[key] = Corner(key, value, float(f[0]), corner)
    return out


@functools.lru_cache(maxsize=16)
def monte_carlo(
    sm: SensorMap, samples: int = MC_SAMPLES, seed: int = MC_SEED, build: Build | None = None
) -> dict[str, float]:
    """The worst of each figure over ``samples`` uniform draws of every input (``seed``)."""
    ins = inputs(sm, build)
    rng = np.random.default_rng(seed)
    p = {i.name: rng.uniform(i.low, i.high, samples) for i in ins}
    got = figures(sm, p, build)
    return {
        key: float(np.max(v) if key.startswith("saturation.") else np.min(v))
        for key, v in got.items()
    }


def nominal_figures(sm: SensorMap, build: Build | None = None) -> dict[str, float]:
    """Every figure at the nominal inputs."""
    got = figures(sm, _batch(sm, [{i.name: i.nominal for i in inputs(sm, build)}], build), build)
    return {k: float(v[0]) for k, v in got.items()}


def worst_saturation_fraction(sm: SensorMap, build: Build | None = None) -> float:
    """The highest reading over the sensor's specified range, over every corner."""
    corners = worst_corners(sm, build=build)
    return max(c.value for k, c in corners.items() if k.startswith("saturation."))


def worst_corner_margin_counts(sm: SensorMap, build: Build | None = None) -> float:
    """The smallest detection margin (counts) over every figure's worst corner."""
    corners = worst_corners(sm, build=build)
    return min(c.value for k, c in corners.items() if not k.startswith("saturation."))


def rubber_compression_mm(sm: SensorMap) -> dict[str, float]:
    """How far each rubber-based piece's base squashes (mm) under a player's press and ten
    times its weight: thickness × stress / E over the base's area (``RUBBER_SOURCE``)."""
    out: dict[str, float] = {}
    for name, kind in sm.kinds.items():
        for m in kind.magnets:
            how = m.lift_kind or m.base
            if how not in ("rubber", "rigid"):
                continue
            area = math.pi * (m.footprint_mm / 2) ** 2  # mm²
            force = PRESS_N + 10 * (m.body_g * 1e-3 * 9.81)
            thickness = m.lift_mm if how == "rubber" else RIGID_SKIN_MM
            out[f"{name}.{m.side}"] = thickness * (force / area) / RUBBER_E_MPA
    return out
