"""The example in ``hardware/SENSOR-MAPS.md`` is the shipped GW:s brott map, abridged.

``python -m lawmaster.hardware.magnetics.mapsdoc`` rewrites the block between the
``generated: example`` markers from ``maps/gw-brott-standard.json`` (every key but
the notes, the kinds' descriptions and all but the first spot); a test checks the
committed file matches, so the doc cannot show a magnet the design no longer uses.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from lawmaster.hardware.magnetics import docfile
from lawmaster.hardware.sensor_map import shipped_map

DOC = Path(__file__).resolve().parent.parent / "SENSOR-MAPS.md"
BEGIN = "<!-- generated: example (begin); `python -m lawmaster.hardware.magnetics.mapsdoc` -->"
END = "<!-- generated: example (end) -->"


def _compact(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False, separators=(", ", ": "))


def example() -> str:
    """The abridged map as a fenced JSON block."""
    data = json.loads(shipped_map("gw-brott").read_text("utf-8"))
    lines = ["```json", "{"]
    top = ", ".join(
        f'"{k}": {_compact(data[k])}' for k in ("game", "board", "pitch_mm", "size_mm", "jail")
    )
    lines.append(f" {top},")
    lines.append(f' "clicks": {_compact(data["clicks"])},')
    sensor = dict(data["sensor"])
    keeper = sensor.pop("keeper", None)
    lines.append(f' "sensor": {{{_compact(sensor)[1:-1]},')
    lines.append(f'            "keeper": {_compact(keeper)}}},')
    lines.append(' "kinds": {')
    kinds = list(data["kinds"].items())
    for n, (name, kind) in enumerate(kinds):
        head = {k: v for k, v in kind.items() if k not in ("description", "magnets")}
        lines.append(f'  "{name}": {{{_compact(head)[1:-1]}, "description": "...", "magnets": [')
        for i, m in enumerate(kind["magnets"]):
            comma = "," if i < len(kind["magnets"]) - 1 else ""
            lines.append(f"   {_compact(m)}{comma}")
        lines.append("  ]}" + ("," if n < len(kinds) - 1 else ""))
    lines.append(" },")
    lines.append(f' "spots": [{_compact(data["spots"][0])}, ...]')
    lines += ["}", "```"]
    return "\n".join(lines)


def render(text: str) -> str:
    """``text`` (the doc) with its example block regenerated."""
    head, rest = text.split(BEGIN, 1)
    _, tail = rest.split(END, 1)
    return f"{head}{BEGIN}\n{example()}\n{END}{tail}"


def main(argv: list[str] | None = None) -> int:
    """Rewrite the doc's example (``--check``: exit 1 if it is out of date instead)."""
    return docfile.rewrite(DOC, render, argv)


if __name__ == "__main__":
    raise SystemExit(main())
