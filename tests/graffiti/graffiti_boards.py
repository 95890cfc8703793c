"""Tiny inline boards for Unamerican Graffiti scenarios, drawn as pictures."""

from __future__ import annotations

KINDS = {
    ".": "street",
    "g": "street",
    "B": "city-block",
    "L": "landmark",
    "S": "sector-house",
    "X": "statue",
}


def board(rows: list[str], starts=("L0", "L1"), pairs=()) -> dict:
    """An inline board from offset rows (column c = q + r // 2).

    Landmarks are called L0, L1, ... in reading order, Sector Houses S1..S6,
    City Blocks B1.., the Statue X; other hexes are called "q,r".
    """
    hexes = []
    counts = {"L": 0, "S": 0, "B": 0}
    for r, row in enumerate(rows):
        for c, ch in enumerate(row):
            if ch == " ":
                continue
            h = {"q": c - r // 2, "r": r, "kind": KINDS[ch]}
            if ch == "L":
                h["id"] = f"L{counts['L']}"
                counts["L"] += 1
            elif ch == "S":
                counts["S"] += 1
                h["id"] = f"S{counts['S']}"
            elif ch == "B":
                counts["B"] += 1
                h["id"] = f"B{counts['B']}"
            elif ch == "X":
                h["id"] = "X"
            hexes.append(h)
    return {
        "hexes": hexes,
        "sector_house_pairs": [list(p) for p in pairs],
        "chopper_start": starts[0],
        "phantom_start": starts[1],
    }


# Row 0 (q = c):      L0 .  .  .  .  .  .  .  L1
# Row 1 (q = c):      S1 g  S2 .  B1 .  S3 g  S4
# Row 2 (q = c - 1):  .  L2 .  .  X  .  .  L3 .
# Row 3 (q = c - 1):  L4 .  .  S5 g  S6 .  .  L5
SMALL = board(
    ["L.......L", "SgS.B.SgS", ".L..X..L.", "L..SgS..L"],
    pairs=(("S1", "S2"), ("S3", "S4"), ("S5", "S6")),
)


def with_starts(base: dict, chopper=None, phantom=None, drop=None) -> dict:
    """``base`` with a pawn starting on another hex, which becomes a landmark (its id kept).

    The rulebook starts both pawns on landmarks ("Each player scrawls at this location
    (by writing on the board), scores 3 points of prestige and places his pawn there"),
    and a board has six: the landmarks in ``drop`` (by default the starts given up)
    become streets.
    """
    moved = {"chopper_start": chopper, "phantom_start": phantom}
    new_starts = {k: v for k, v in moved.items() if v is not None}
    if drop is None:
        drop = [base[k] for k in new_starts]
    hexes = []
    for h in base["hexes"]:
        name = h.get("id") or f"{h['q']},{h['r']}"
        if name in new_starts.values():
            h = {**h, "kind": "landmark", "id": name}
        elif name in drop:
            h = {k: v for k, v in h.items() if k != "id"} | {"kind": "street"}
        hexes.append(h)
    return {**base, **new_starts, "hexes": hexes}
