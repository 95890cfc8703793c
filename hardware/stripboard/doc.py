"""``hardware/STRIPBOARD.md`` and the strip plans' SVGs, generated.

:func:`outputs` gives every file of the route (``lawmaster hardware generate`` writes
them, its ``--check`` compares them): the document, and for every board the route
suits its strip plan seen from both faces (``hardware/stripboard/plans/``). A board
the route does not suit gets its figures and the reasons, and no plan.
"""

from __future__ import annotations

from pathlib import Path

from lawmaster.hardware.electronics.pieces import INPUTS
from lawmaster.hardware.magnetics import stack, tolerance
from lawmaster.hardware.sensor_map import SensorMap

from . import margins, parts, svg
from .plan import BOARDS, GND, VCC, BoardPlan, PiecePlan, board_plan

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]
DOC = ROOT / "hardware" / "STRIPBOARD.md"
PLANS = HERE / "plans"
NAMES = {
    "gw-brott": "GW:s brott",
    "judge-dredd": "Judge Dredd",
    "unamerican-graffiti": "Unamerican Graffiti",
}
SIDES = ("component", "copper")


def plan_path(board: str, side: str) -> Path:
    """Where a board's strip plan seen from ``side`` is written."""
    return PLANS / f"{board}-{side}.svg"


def _n(v: float, digits: int = 2) -> str:
    return f"{v:.{digits}f}".rstrip("0").rstrip(".")


def _verdicts() -> dict[str, margins.Verdict]:
    return {b: margins.verdict(b) for b in BOARDS}


def _summary(verdicts: dict[str, margins.Verdict]) -> list[str]:
    out = [
        "| board | Hall element to the front face, mm (SMD → stripboard) | to the back face |"
        " sensor off its spot, mm (SMD → stripboard) | worst saturation (SMD → stripboard),"
        f" limit {margins.SATURATION_LIMIT} | worst-corner margin, counts (SMD → stripboard) |"
        " 5 × noise, counts | worst figure | suitable |",
        "|---|---|---|---|---|---|---|---|---|",
    ]
    for b, v in verdicts.items():
        back = (
            f"{_n(v.smd_back_depth_mm or 0)} → {_n(v.back_depth_mm or 0)}"
            if v.back_depth_mm is not None
            else "—"
        )
        out.append(
            f"| {NAMES[b]} | {_n(v.smd_front_depth_mm)} → {_n(v.front_depth_mm)} | {back} |"
            f" {_n(tolerance.SENSOR_OFFSET_MM)} → {_n(v.sensor_offset_mm)} |"
            f" {v.smd_saturation:.3f} → {v.saturation:.3f} |"
            f" {v.smd_margin_counts:.0f} → **{v.margin_counts:.0f}** | {v.limit_counts:.0f} |"
            f" `{v.margin_figure}` | **{'yes' if v.suitable else 'no'}** |"
        )
    return out


def _layers(board: str) -> list[str]:
    out = ["| side | layer | mm | ± mm | source |", "|---|---|---|---|---|"]
    for la in margins.layers(board):
        out.append(
            f"| {la.side} | {la.what} | {_n(la.thickness_mm)} | {_n(la.tol_mm)} | {la.source} |"
        )
    out.append(
        f"| front | Hall element's height over the stripboard's component face (subtracted)"
        f" | {_n(parts.ELEMENT_HEIGHT_MM)} | {_n(parts.ELEMENT_HEIGHT_TOL_MM)} |"
        f" {parts.ELEMENT_SOURCE}; {parts.BODY_SOURCE}; {parts.LIFT_SOURCE} |"
    )
    return out


def _piece_table(bp: PiecePlan) -> list[str]:
    out = [
        f"**{bp.name}** ({len(bp.sensors)} sensors, {len(bp.cuts)} track cuts, strips 0-"
        f"{bp.strips - 1}):",
        "",
        "| space | channel (multiplexer / input) | lead column | strips VCC / GND / OUT |"
        " body towards | output wire at |",
        "|---|---|---|---|---|---|",
    ]
    for s in bp.sensors:
        d = s.d
        mux, inp = divmod(s.channel, INPUTS)
        out.append(
            f"| {s.spot.space} | {s.channel} ({mux} / {inp}) | {s.col} |"
            f" {s.strip - d} / {s.strip} / {s.strip + d} | {'right' if d > 0 else 'left'} |"
            f" column {s.col - d}, strip {s.strip + d} |"
        )
    cuts: dict[int, list[int]] = {}
    for c, j in bp.cuts:
        cuts.setdefault(j, []).append(c)
    out.append("")
    out.append(
        "Cut: "
        + "; ".join(
            f"strip {j} at column{'s' if len(cs) > 1 else ''} {', '.join(map(str, cs))}"
            for j, cs in sorted(cuts.items())
        )
        + "."
    )
    wires = []
    for bus in bp.buses:
        strips = ", ".join(str(j) for _, j in bus.points)
        wires.append(f"{bus.net} down column {bus.points[0][0]}, soldered on strips {strips}")
    out.append("Bus wires: " + "; ".join(wires) + ".")
    if bp.severed:
        out.append(
            "The mounting holes cut strips "
            + ", ".join(sorted({str(j) for _, j in bp.severed}, key=int))
            + " (already allowed for)."
        )
    out.append("")
    return out


def _board_section(board: str, bp: BoardPlan, v: margins.Verdict) -> list[str]:
    sm = SensorMap.load(board)
    comp, copper = (plan_path(board, s).relative_to(DOC.parent).as_posix() for s in SIDES)
    two = stack.two_sided(board)
    wires_side = (
        "on the component side (the copper side has only the 1.25 mm under GW's face)"
        if two
        else "on the copper side (11.6 mm under the tiles; the front has only"
        f" {_n(v.front_room_mm)} mm)"
    )
    out = [
        f"## Building {NAMES[board]} on stripboard",
        "",
        f"The plan at 1:1: [component side]({comp}) (parts) and [copper side]({copper})"
        " (the same turned over, for cutting the strips). Print at 100 % and check the 100 mm"
        " scale bar.",
        "",
        f"- Sensors: {len(bp.sensors)} × DRV5055 in TO-92 ({sm.sensor.part}, TI's LPG package,"
        f" e.g. {sm.sensor.part}QLPG; check the orderable), {len(bp.sensors)} × 100 nF radial"
        " MLCC, 2.54 mm lead spacing, at most 2.3 mm thick; 30 AWG wire-wrap wire for the bus"
        " and output wires.",
        f"- Stripboard: {len(bp.pieces)} pieces, each cut to its PCB piece's outline (the"
        " drawn black outline) and drilled Ø3.2 mm at its mounting holes, the PCB's (so the"
        " supports, the cover and the cables of the mechanical drawings are unchanged). Cut"
        " the piece so its holes fall on the drawn grid.",
        f"- The cover stands on {_n(margins.FLAT_SPACER_MM)} mm M3 round brass spacers at the"
        " supports instead of the 1.6 mm FR-4 pads (room over the parts:"
        f" {_n(v.front_room_mm)} mm; the lying TO-92 stands {_n(parts.SENSOR_TOP_MAX_MM)} mm,"
        f" the capacitor {_n(parts.CAP_THICK_MAX_MM)} mm at most)."
        if not two
        else "",
        "",
        "Order of work, per piece:",
        "",
        "1. Cut every track at a red cross (a 3 mm drill turned by hand in the hole, from the"
        " copper side: the copper-side plan), and check each cut with a meter.",
        "2. Bend each DRV5055's leads 90° 1 mm from its body, the outer two spread to 2.54 mm,"
        " and lay it flat **branded face up** over the drawn body, its pins in the drawn holes"
        " (pin 1 VCC, 2 GND, 3 OUT: the drawing numbers them; a sensor whose body points left"
        " has pin 1 on the lower strip). A dot of glue under the body; solder; clip the leads"
        f" to {_n(parts.COPPER_SIDE_MAX_MM)} mm at most.",
        "3. Fit each 100 nF in the two holes beside its sensor's VCC and GND pins, laid flat"
        " away from the sensor.",
        f"4. The bus wires {wires_side}: one per drawn column, bared and soldered at each dot"
        f" only; every `{VCC} in` and `{GND} in` end goes to the supply and ground of the"
        " piece's bus cable.",
        "5. The output wires: from each blue ring (`chN`) to the multiplexer input of channel N"
        f" (multiplexer N // {INPUTS}, input N % {INPUTS}: the same channels as the PCBs and"
        " the sensor map, so the firmware and the map are unchanged).",
        f"6. Before powering: no continuity between {VCC} and {GND}, nor between any two"
        " outputs, nor from an output to either rail; then the first-power checks of"
        " [`BUILD.md`](BUILD.md).",
        "",
        "The multiplexers, the bus between the pieces and the scanner board are the SMD"
        " route's (their PCBs, or your own wiring of the same circuit: a 74HC4067 breakout"
        " module per multiplexer wired from [`../wiring.md`](../wiring.md)); this plan covers"
        " the sensor layer only.",
        "",
        "### The pieces",
        "",
        "Columns count from the leftmost hole seen from the component side (0), strips from"
        " the top (0); the drawing numbers every fifth.",
        "",
    ]
    for p in bp.pieces:
        out += _piece_table(p)
    return [line for line in out if line is not None]


def render() -> str:
    """The text of ``hardware/STRIPBOARD.md``."""
    verdicts = _verdicts()
    lines = [
        "# Stripboard: the no-fab, through-hole route",
        "",
        "Generated by `lawmaster hardware generate` from the sensor maps, the PCB pieces and"
        " the code in `hardware/stripboard/` (the margins by `hardware/magnetics/tolerance.py`,"
        " the same code and limits as the SMD route); a test checks this file matches.",
        "",
        "Instead of the fab-made sensor PCBs, a builder who prefers through-hole parts can put"
        " the DRV5055 in its TO-92 package on stripboard, **where that keeps the margins**."
        " This page says for which boards it does, and for those how to build it.",
        "",
        "## How the sensor is mounted, and why",
        "",
        "The DRV5055 senses the field perpendicular to the top of its package: on the SOT-23"
        " that face lies on the PCB, on the TO-92 it is the branded flat face, which stands"
        " upright when the part stands on its leads. Standing, it would read the field along"
        " the board: zero under a centred piece, changing sign across the spot. So each"
        " TO-92 lies **flat, branded face up** (towards the front playing face, like the"
        " SOT-23), its leads bent 90° down 1 mm from the body into one column of holes across"
        " three strips (VCC, GND, OUT). Face up keeps the SMD route's polarity (firmware,"
        " calibration and maps unchanged) and the element nearer the front face.",
        "",
        "Lying flat puts the Hall element"
        f" {_n(parts.ELEMENT_HEIGHT_MM)} ± {_n(parts.ELEMENT_HEIGHT_TOL_MM)} mm over the"
        " stripboard's face (the SOT-23's is"
        f" {_n(stack.ELEMENT_HEIGHT_MM)} ± {_n(stack.ELEMENT_HEIGHT_TOL_MM)} mm over the PCB),"
        " the parts stand"
        f" up to {_n(max(parts.SENSOR_TOP_MAX_MM, parts.CAP_THICK_MAX_MM))} mm (so the flat"
        f" boards' cover needs {_n(margins.FLAT_SPACER_MM)} mm spacers instead of 1.6 mm),"
        " the copper side carries joints and clipped leads (so GW:s brott's back face cannot"
        f" be glued to it: GW's acrylic stands {_n(margins.GW_BACK_GAP_MM)} mm off it), and the"
        " 2.54 mm grid puts each element up to the board's worst snap off its spot, on top of"
        f" {_n(parts.HAND_OFFSET_MM)} mm for mounting by hand. The margins are computed with"
        " all of that at every tolerance corner the SMD route uses.",
        "",
        "## Values used and where they come from",
        "",
        f"- TO-92 body: {parts.BODY_SOURCE}.",
        f"- Hall element in the TO-92: {parts.ELEMENT_SOURCE}. **Reconstructed**: measure a"
        " part or re-read the current data sheet before relying on the figures.",
        f"- Lying body: {parts.LIFT_SOURCE}; leads bent {_n(parts.BEND_FROM_BODY_MM)} mm from"
        " the body (assumption).",
        f"- Capacitor: {parts.CAP_SOURCE}.",
        f"- Stripboard: {parts.BOARD_SOURCE}.",
        f"- Copper side: {parts.COPPER_SIDE_SOURCE}.",
        f"- Sensor off its spot: {parts.HAND_OFFSET_SOURCE}.",
        "- Everything else (covers, magnets, pieces, sensor spread, room temperature,"
        " thresholds, limits) is the SMD route's: [`MAGNETICS.md`](MAGNETICS.md). No"
        " threshold or limit was changed for these figures.",
        "",
        "## Does it keep the margins?",
        "",
        "Each figure at its own worst tolerance corner (`tolerance.worst_corners`), SMD route"
        " first; the route suits a board when the worst saturation is at most"
        f" {margins.SATURATION_LIMIT} of the sensor's range and the worst-corner margin at"
        " least 5 × the noise of one reading (`lawmaster hardware check`'s limits).",
        "",
        *_summary(verdicts),
        "",
    ]
    for b, v in verdicts.items():
        if not v.suitable:
            lines.append(
                f"- **{NAMES[b]}: not suitable.** "
                + "; ".join(v.reasons())
                + f" (figure `{v.margin_figure}`). Build it with the PCBs"
                " ([`pcb/README.md`](pcb/README.md))."
            )
        else:
            lines.append(
                f"- **{NAMES[b]}: suitable**, margin {v.margin_counts:.0f} counts ≥"
                f" {v.limit_counts:.0f}, saturation {v.saturation:.3f} ≤"
                f" {margins.SATURATION_LIMIT}: the plan is below."
            )
    lines += [
        "",
        "Figure names: `enter.<kind>.cell` a piece at the worst placement in its space against"
        " entering, `neighbour.<kind>.cell` a piece on the next spot against entering this"
        " one, `lag.blue` GW's blue magnet a cell behind the wooden piece against letting its"
        " cell go (`hardware/magnetics/tolerance.py`).",
        "",
    ]
    for b in BOARDS:
        lines += [f"### Stack of {NAMES[b]} on stripboard", "", *_layers(b), ""]
    for b, v in verdicts.items():
        if v.suitable:
            lines += _board_section(b, board_plan(b), v)
    return "\n".join(lines).rstrip("\n") + "\n"


def outputs() -> dict[Path, str]:
    """Every file of the route: the document and the suitable boards' plans."""
    files = {DOC: render()}
    for b in BOARDS:
        if margins.verdict(b).suitable:
            for side in SIDES:
                files[plan_path(b, side)] = svg.render(board_plan(b), side)
    return files


def main() -> int:
    """Write the route's files (``lawmaster hardware generate`` does this with the rest)."""
    for path, text in outputs().items():
        path.parent.mkdir(parents=True, exist_ok=True)
        if not path.exists() or path.read_text("utf-8") != text:
            path.write_text(text, "utf-8")
            print(f"wrote {path.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
