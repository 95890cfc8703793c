"""Write (or check) every PCB's files under ``hardware/pcb/``: one folder per kind of PCB.

Each folder holds what a builder uploads to a fab and what KiCad opens:

* ``<name>.kicad_pcb`` and ``<name>.kicad_pro`` (the board and its design rules),
  ``fp-lib-table`` (the project's footprint library, for editing in KiCad);
* ``<name>-gerbers.zip`` (every Gerber and both drill files, ready to upload) and
  the same files unpacked under ``gerbers/``;
* ``<name>-pos.csv``, the pick-and-place file;
* ``<name>-top.png`` and ``<name>-bottom.png``, both faces;
* ``<name>-drc.rpt``, KiCad's own design-rule check of the board;
* ``manifest.json``: the fingerprint of everything the board is made from (its
  layout, its circuit, the generator's code, the footprints it uses) and the
  SHA-256 of every file above.

Routing every kind takes a while, so a folder is rebuilt only when its
fingerprint changed (or with ``force``); ``check`` compares fingerprints and
file hashes and needs no KiCad at all. The scanner board is the same for every
board and is built once.
"""

from __future__ import annotations

import ast
import fcntl
import hashlib
import io
import json
import tempfile
import time
import zipfile
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

from lawmaster.hardware.electronics.circuits import BOARDS
from lawmaster.hardware.electronics.footprints import LIBRARY, fp_lib_table
from lawmaster.hardware.electronics.pieces import kinds

from . import board as board_module
from . import drc, fab, kicad, layout, render, router, supply
from .layout import Layout
from .specs import folder_of, name_of

ROOT = Path(__file__).resolve().parents[2]
#: The modules whose code shapes a board's files: any change to them changes every fingerprint.
GENERATORS = (router, layout, board_module, fab, render, supply)


@dataclass(frozen=True)
class Target:
    """One kind of PCB to generate."""

    board: str  # a board that uses it ("" for the scanner, which every board shares)
    kind: str

    @property
    def name(self) -> str:
        """The stem of its files."""
        return name_of(self.board, self.kind)

    def folder(self, root: Path = ROOT) -> Path:
        """Its folder."""
        return root / folder_of(self.board, self.kind)

    def layout(self) -> Layout:
        """Its layout."""
        return layout.layout(self.board, self.kind)


def targets() -> list[Target]:
    """Every kind of PCB of every board, the scanner first."""
    return [Target("", "scanner")] + [Target(b, k) for b in BOARDS for k in kinds(b)]


def _sha(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def fingerprint(target: Target) -> str:
    """A hash of everything the target's files are made from."""
    lay = target.layout()
    parts = [repr(lay), repr(board_module.RULES)]
    # The generators' code by its syntax tree: reformatting or commenting it changes nothing.
    parts += [ast.dump(ast.parse(Path(m.__file__ or "").read_text("utf-8"))) for m in GENERATORS]
    for name in sorted({p.footprint for p in lay.parts} | {"MountingHole_3.2mm_M3"}):
        parts.append((LIBRARY / f"{name}.kicad_mod").read_text("utf-8"))
    return _sha("\n".join(parts).encode("utf-8"))


def _zip(folder: Path, files: list[Path], target: Path) -> None:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        for path in sorted(files):
            info = zipfile.ZipInfo(path.name, date_time=(1980, 1, 1, 0, 0, 0))
            info.compress_type = zipfile.ZIP_DEFLATED
            info.external_attr = 0o644 << 16
            archive.writestr(info, path.read_bytes())
    target.write_bytes(buffer.getvalue())


def build(target: Target, root: Path = ROOT) -> dict[str, object]:
    """Regenerate one target's folder; returns its manifest."""
    pcbnew = kicad.require()
    folder = target.folder(root)
    folder.mkdir(parents=True, exist_ok=True)
    for old in folder.rglob("*"):
        if old.is_file():
            old.unlink()
    started = time.perf_counter()
    lay = target.layout()
    pcb = folder / f"{target.name}.kicad_pcb"
    board_module.make(lay, pcb, target.name)
    loaded = pcbnew.LoadBoard(str(pcb))
    gerbers = fab.gerbers(loaded, folder / "gerbers")
    _zip(folder, gerbers, folder / f"{target.name}-gerbers.zip")
    (folder / f"{target.name}-pos.csv").write_text(fab.placements(loaded), "utf-8")
    supply.export(pcb, folder / f"{target.name}-supply.json")
    title = f"{target.board + ' ' if target.board else ''}{target.kind}"
    render.draw(pcb, folder / f"{target.name}-top.png", "top", f"{title}: front face")
    render.draw(
        pcb, folder / f"{target.name}-bottom.png", "bottom", f"{title}: back face (seen from below)"
    )
    result = drc.run(pcb, folder / f"{target.name}-drc.rpt")
    depth = len(folder.relative_to(root / "hardware").parts)
    (folder / "fp-lib-table").write_text(
        fp_lib_table("../" * depth + "footprints/" + LIBRARY.name), "utf-8"
    )
    files = {
        p.relative_to(folder).as_posix(): _sha(p.read_bytes())
        for p in sorted(folder.rglob("*"))
        if p.is_file() and p.name != "manifest.json"
    }
    manifest = {
        "name": target.name,
        "fingerprint": fingerprint(target),
        "drc": {
            "errors": result.errors,
            "warnings": result.warnings,
            "unconnected": result.unconnected,
        },
        "files": files,
        "seconds": round(time.perf_counter() - started, 1),
    }
    # The build time is a note for people, not part of what --check compares.
    (folder / "manifest.json").write_text(
        json.dumps(manifest, indent=1, sort_keys=True) + "\n", "utf-8"
    )
    return manifest


def manifest(target: Target, root: Path = ROOT) -> dict[str, object] | None:
    """A target's committed manifest (None: never generated)."""
    path = target.folder(root) / "manifest.json"
    if not path.exists():
        return None
    return json.loads(path.read_text("utf-8"))  # type: ignore[no-any-return]


def problems(target: Target, root: Path = ROOT) -> list[str]:
    """Why a target's committed files are not what the source makes (empty: up to date)."""
    made = manifest(target, root)
    if made is None:
        return [f"{target.name}: not generated"]
    out = []
    if made.get("fingerprint") != fingerprint(target):
        out.append(f"{target.name}: its layout, circuit, footprints or generator changed")
    folder = target.folder(root)
    listed = made.get("files", {})
    assert isinstance(listed, dict)
    for name, digest in listed.items():
        path = folder / name
        if not path.exists():
            out.append(f"{target.name}: {name} is missing")
        elif _sha(path.read_bytes()) != digest:
            out.append(f"{target.name}: {name} differs from what was generated")
    for path in folder.rglob("*"):
        rel = path.relative_to(folder).as_posix()
        if path.is_file() and rel != "manifest.json" and rel not in listed:
            out.append(f"{target.name}: {rel} was not generated")
    return out


def stale(root: Path = ROOT) -> list[str]:
    """Every problem of every target (no KiCad needed)."""
    return [p for t in targets() for p in problems(t, root)]


@contextmanager
def _one_at_a_time(root: Path) -> Iterator[None]:
    """Two generators writing the same board files at once would interleave them."""
    digest = hashlib.sha256(str(root.resolve()).encode()).hexdigest()[:16]
    with open(Path(tempfile.gettempdir()) / f"lawmaster-pcb-{digest}.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(lock, fcntl.LOCK_UN)


def write(root: Path = ROOT, force: bool = False) -> list[str]:
    """Regenerate every target whose files are not up to date; returns their names."""
    if kicad.pcbnew() is None:
        raise RuntimeError(kicad.MISSING)
    with _one_at_a_time(root):
        return _write(root, force)


def _write(root: Path, force: bool) -> list[str]:
    done = []
    failed = []
    for target in targets():
        if force or problems(target, root):
            try:
                build(target, root)
            except router.Unroutable as why:
                failed.append(str(why))
                continue
            done.append(target.name)
    if failed:
        raise RuntimeError("; ".join(failed))
    return done
