"""KiCad's own design-rule check of a board, and the boards' pads against the circuit.

:func:`run` loads a board file with ``pcbnew`` and writes KiCad's DRC report
(``WriteDRCReport``: clearances, hole sizes and gaps, courtyards, silkscreen,
unconnected items, against the design rules the board carries), with its date
line fixed so the committed report changes only with the board, and counts its
errors, warnings and unconnected items.

:func:`netlist_mismatches` checks the other way round: that every net of the
board's circuit (the KiCad netlist written from the SKiDL circuit,
``hardware/schematic/scanner-<board>.net``) is on the PCBs. Each piece's pads,
named through the piece's references and nets on the board
(:func:`lawmaster.hardware.electronics.pieces.global_ref` and
``global_net``), must carry exactly the circuit's net; every part of the
circuit must sit on one PCB; every cable must join pins of one net.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

from lawmaster.hardware.electronics.pieces import (
    cables,
    global_net,
    global_ref,
    kind_circuit,
    plan,
    scanner_kind,
)

from . import kicad
from .specs import folder_of, name_of

ROOT = Path(__file__).resolve().parents[2]


@dataclass(frozen=True)
class DrcResult:
    """Counts of one DRC report."""

    errors: int
    warnings: int
    unconnected: int
    report: str


def parse(report: str) -> DrcResult:
    """Count a KiCad 6 DRC report's errors, warnings and unconnected items."""
    errors = len(re.findall(r"Severity: error", report))
    warnings = len(re.findall(r"Severity: warning", report))
    found = re.search(r"\*\* Found (\d+) unconnected pads \*\*", report)
    return DrcResult(errors, warnings, int(found.group(1)) if found else -1, report)


def run(pcb: Path, report: Path) -> DrcResult:
    """Run KiCad's DRC on ``pcb``, write the report to ``report``, return its counts."""
    pcbnew = kicad.require()
    board = pcbnew.LoadBoard(str(pcb))
    report.parent.mkdir(parents=True, exist_ok=True)
    pcbnew.WriteDRCReport(board, str(report), pcbnew.EDA_UNITS_MILLIMETRES, True)
    text = report.read_text("utf-8")
    text = re.sub(r"^\*\* Drc report for .*$", f"** Drc report for {pcb.name} **", text, flags=re.M)
    text = re.sub(
        r"^\*\* Created on .*$", "** Created by lawmaster hardware generate **", text, flags=re.M
    )
    report.write_text(text, "utf-8")
    return parse(text)


# -- the circuit's netlist against the boards' pads ------------------------------------------


def _sexpr(text: str) -> list[object]:
    """A KiCad S-expression as nested lists of strings."""
    tokens = re.findall(r'\(|\)|"(?:[^"\\]|\\.)*"|[^\s()"]+', text)
    stack: list[list[object]] = [[]]
    for token in tokens:
        if token == "(":
            stack.append([])
        elif token == ")":
            done = stack.pop()
            stack[-1].append(done)
        else:
            stack[-1].append(token[1:-1] if token.startswith('"') else token)
    return stack[0]


def _field(node: list[object], key: str) -> object:
    return next(item[1] for item in node if isinstance(item, list) and item and item[0] == key)


def netlist_nodes(path: Path) -> dict[tuple[str, str], str]:
    """(ref, pin) → net of a KiCad netlist file (SKiDL's KiCad 8 format)."""
    (root,) = _sexpr(path.read_text("utf-8"))
    assert isinstance(root, list)
    nets = next(item for item in root if isinstance(item, list) and item[0] == "nets")
    nodes: dict[tuple[str, str], str] = {}
    for net in nets[1:]:
        assert isinstance(net, list)
        name = str(_field(net, "name"))
        for node in net:
            if isinstance(node, list) and node and node[0] == "node":
                nodes[(str(_field(node, "ref")), str(_field(node, "pin")))] = name
    return nodes


def pcb_pads(pcb: Path) -> dict[tuple[str, str], str]:
    """(ref, pad) → net of every connected pad of a board file."""
    pcbnew = kicad.require()
    board = pcbnew.LoadBoard(str(pcb))
    out: dict[tuple[str, str], str] = {}
    for fp in board.GetFootprints():
        for pad in fp.Pads():
            net = pad.GetNetname()
            if net:
                out[(fp.GetReference(), pad.GetNumber())] = net
    return out


def netlist_mismatches(board: str, root: Path = ROOT) -> list[str]:
    """Where the board's PCBs and its circuit's netlist disagree (empty: every net is there)."""
    made = plan(board)
    netlist = netlist_nodes(root / "hardware" / "schematic" / f"scanner-{board}.net")
    # The scanner's NC pins carry SKiDL's no-connect net; they are no net on a PCB.
    netlist = {k: v for k, v in netlist.items() if not v.startswith("__NOCONNECT")}
    found: dict[tuple[str, str], str] = {}
    out = []
    kinds_seen: dict[str, dict[tuple[str, str], str]] = {}

    def pads_of(kind: str) -> dict[tuple[str, str], str]:
        if kind not in kinds_seen:
            folder = root / folder_of(board, kind)
            kinds_seen[kind] = pcb_pads(folder / f"{name_of(board, kind)}.kicad_pcb")
        return kinds_seen[kind]

    instances = [(None, "scanner")] + [(p, p.kind) for p in made.pieces]
    for piece, kind in instances:
        circuit = scanner_kind() if kind == "scanner" else kind_circuit(board, kind)
        where = piece.name if piece else "scanner"
        for (ref, pad), net in pads_of(kind).items():
            try:
                part = circuit.part(ref)
            except StopIteration:
                out.append(f"{where}: {ref} is on the PCB but not in the kind's circuit")
                continue
            if pad not in dict(part.pins):
                out.append(f"{where}: {ref} pad {pad} carries {net}, its part has no such pin")
                continue
            key = (global_ref(made, piece, ref), pad)
            wanted = global_net(made, piece, net)
            if key in found:
                out.append(f"{where}: {key[0]} pin {pad} is on two PCBs")
            found[key] = wanted
            if netlist.get(key) != wanted:
                out.append(
                    f"{where}: {ref} pad {pad} ({key[0]}) carries {wanted}, the netlist says"
                    f" {netlist.get(key)}"
                )
    for key, net in netlist.items():
        if key not in found:
            out.append(f"{key[0]} pin {key[1]} ({net}) is on no PCB")
    # A cable joins pin k of one connector to pin k of the other: both must be one net.
    for cable in cables(made):
        ends = []
        for piece_name, ref in (cable.a, cable.b):
            piece = made.piece(piece_name) if piece_name else None
            ends.append(global_ref(made, piece, ref))
        for k in range(1, cable.ways + 1):
            a, b = netlist.get((ends[0], str(k))), netlist.get((ends[1], str(k)))
            if a != b:
                out.append(f"cable {ends[0]}–{ends[1]} pin {k}: {a} on one end, {b} on the other")
    return out
