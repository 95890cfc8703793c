"""The BOM's section on magnets, polarity, sensor variants and keepers, from the maps.

``hardware/BOM.md`` holds this section between its ``generated: magnets`` markers:
the BOM's generator (``lawmaster hardware generate``) writes it there, and so does
``python -m lawmaster.hardware.magnetics.bomdoc`` on its own, from the sensor maps,
the stack and the margins; a test checks the committed text matches, so the magnets
a builder orders are the ones the figures are computed for.
"""

from __future__ import annotations

from pathlib import Path

from lawmaster.hardware.magnetics import docfile, margins, stack
from lawmaster.hardware.magnetics.data import DRV5055
from lawmaster.hardware.mechanical.parts import PIECES
from lawmaster.hardware.sensor_map import Magnet, SensorMap

DOC = Path(__file__).resolve().parent.parent / "BOM.md"
BEGIN = "<!-- generated: magnets (begin); python -m lawmaster.hardware.magnetics.bomdoc -->"
END = "<!-- generated: magnets (end) -->"
NAMES = {"gw-brott": "GW:s brott", "judge-dredd": "Judge Dredd",
         "unamerican-graffiti": "Unamerican Graffiti"}
PIECE_NAMES = {
    ("gw-brott", "criminal", "front"): "criminal piece",
    ("gw-brott", "gw", "front"): "GW's small blue magnet (criminals' side)",
    ("gw-brott", "gw", "back"): "GW's large wooden piece (GW's side)",
    ("judge-dredd", "judge", "front"): "Judge standee base",
    ("unamerican-graffiti", "scrawler", "front"): "scrawler pawn",
    ("unamerican-graffiti", "judge", "front"): "Judge counter",
}


def _lift(board: str, m: Magnet) -> str:
    how = m.lift_kind or m.base
    if how == "rigid":
        return (f"{m.lift_mm:g} mm up on a rigid lift (a pocket's floor in the piece's hard body,"
                f" 0.5 mm rubber skin), Ø{m.footprint_mm:g} mm base")
    if how == "ptfe":
        return f"{m.lift_mm:g} mm up, on a Ø{m.footprint_mm:g} mm PTFE glide {m.lift_mm:g} mm thick"
    if how == "acrylic":
        return f"{m.lift_mm:g} mm up, in a Ø{m.footprint_mm:g} mm acrylic base"
    where = ", in its cover's spot pocket" if board in stack.SPOT_POCKETS else ""
    return f"{m.lift_mm:g} mm up, Ø{m.footprint_mm:g} mm solid rubber base{where}"


def _orientation(m: Magnet, pair: bool) -> str:
    down = "north" if m.pole == "north" else "south"
    if m.side == "back":
        return f"**{down} towards the board** (it holds the blue magnet through the board)"
    return f"**{down}-down**" + (" (towards the board)" if not pair else "")


def section() -> str:
    """The section's text, markers included."""
    rows = []
    levels: dict[tuple[str, str], float] = {}
    for board in NAMES:
        sm = SensorMap.load(board)
        for r in margins.rows(sm):
            if r.where == "cell":
                levels[(board, r.kind)] = r.centre
        for name, kind in sm.kinds.items():
            pair = len(kind.magnets) > 1
            for m in kind.magnets:
                level = levels[(board, name)]
                sees = f"{'south' if level > 0 else 'north'}: reading"
                sees += f" {'rises' if level > 0 else 'falls'} ~{round(abs(level), -2):.0f} counts"
                if pair and m.side == "front":
                    sees = "— together with the wooden piece:"
                elif pair:
                    sees = f"**strong south**: reading rises ~{round(level, -2):.0f} counts"
                rows.append(
                    f"| {NAMES[board]} | {PIECE_NAMES[(board, name, m.side)]} |"
                    f" {PIECES[board][name]} | Ø{m.diameter_mm:g} × {m.thickness_mm:g} mm |"
                    f" {m.grade} | {_orientation(m, pair)} | {_lift(board, m)} | {sees} |"
                )
    sensors = []
    for board in NAMES:
        sm = SensorMap.load(board)
        v = DRV5055[sm.sensor.part]
        depth = f"{sm.sensor.depth_mm:g} mm"
        if sm.sensor.back_depth_mm is not None:
            depth += f" front, {sm.sensor.back_depth_mm:g} mm back"
        k = sm.sensor.keeper
        keepers = (
            f"one M4 DIN 125 steel washer (Ø{k.outer_mm:g}/Ø{k.inner_mm:g} ×"
            f" {k.thickness_mm:g} mm) per spot, on the criminals' side: {len(sm.spots)}"
            if k is not None else "none"
        )
        sensors.append(
            f"| {NAMES[board]} | {v.part} | {v.sensitivity_mv_per_mt:g} mV/mT"
            f" (±{v.linear_range_mt:g} mT) | {depth} | {keepers} |"
        )
    gw = SensorMap.load("gw-brott")
    ratio = levels[("gw-brott", "gw")] / abs(levels[("gw-brott", "criminal")])
    keeper = gw.sensor.keeper
    assert keeper is not None
    text = [
        BEGIN,
        "## Magnets and polarity of each kind of piece",
        "",
        "All magnets are axially magnetised sintered NdFeB discs, N42, as the sensor maps",
        "(`hardware/maps/*.json`, each kind's `magnets`) give them; the readings are the",
        "magpylib figures of `hardware/MAGNETICS.md` (ADC counts from the baseline, a",
        "piece centred on its spot, nominal remanence). **Polarity is what the sensors use",
        "to tell kinds apart**: \"north-down\" means the north pole faces the board. The",
        "DRV5055's reading rises for a south pole facing its branded face and falls for a",
        "north pole. Mark the north face of every magnet with a compass or a marked",
        "reference magnet before gluing it into a piece. Generated by `lawmaster hardware",
        "generate` (`python -m lawmaster.hardware.magnetics.bomdoc`); the quantities are the",
        "pieces a game has, and `hardware/mechanical/parts.json` adds a spare of each size.",
        "",
        "| game | piece | qty | magnet | grade | orientation | in the piece |"
        " what the sensor sees |",
        "|---|---|---|---|---|---|---|---|",
        *rows,
        "",
        "### Sensor variant and keepers per board",
        "",
        "The magnets and the sensor's sensitivity are chosen together (the map's `sensor`):",
        "",
        "| board | sensor | sensitivity at 3.3 V | Hall element to the surface | keepers |",
        "|---|---|---|---|---|",
        *sensors,
        "",
        "GW:s brott takes the less sensitive A4 because GW's pair gives a strong field",
        "that would drive an A3 into its rail (±88 mT). Its washers are glued into pockets",
        f"milled into the back of the criminals' acrylic, {keeper.gap_mm:g} mm under its face,"
        " centred over",
        "each sensor: they hold a criminal on the vertical board, and the readings and",
        "margins are computed with them in place (`hardware/MAGNETICS.md`, Stack and Holding).",
        "",
        "GW:s brott is a two-sided vertical board: the sensors sit in its middle layer",
        "and see both sides at once — the criminals' pieces and GW's blue magnet on the",
        "criminals' side and GW's wooden piece on GW's side. GW's two magnets face each",
        "other through the board with opposite poles (so they attract), which from the",
        "sensor's point of view means both push the field the same way: the pair reads",
        f"as one strong south, {ratio:.1f} times a criminal's signal and of the opposite",
        "sign. A caught criminal clicks onto the side of GW's blue magnet (a north-down",
        "and a south-down disc side by side attract), which is why the pieces must have",
        "these orientations and no other.",
        END,
    ]
    return "\n".join(text)


def render(text: str) -> str:
    """``text`` (BOM.md) with its magnets section regenerated."""
    head, rest = text.split(BEGIN, 1)
    _, tail = rest.split(END, 1)
    return f"{head}{section()}{tail}"


def main(argv: list[str] | None = None) -> int:
    """Rewrite the section (``--check``: exit 1 if it is out of date instead)."""
    return docfile.rewrite(DOC, render, argv)


if __name__ == "__main__":
    raise SystemExit(main())
