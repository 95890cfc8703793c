"""Generating a board again gives the same bytes: the committed files are what the code makes
(the smallest kind, rebuilt from scratch; the others are checked by their fingerprints)."""

from __future__ import annotations

import json

import pytest

from lawmaster.hardware.pcb import kicad
from lawmaster.hardware.pcb.generate import ROOT, Target, build

needs_kicad = pytest.mark.skipif(kicad.pcbnew() is None, reason=kicad.MISSING)


@needs_kicad
def test_pcb_rebuilding_a_board_gives_the_committed_bytes(tmp_path):
    target = Target("judge-dredd", "pod")
    committed = json.loads((target.folder() / "manifest.json").read_text("utf-8"))
    (tmp_path / "hardware").mkdir()
    made = build(target, tmp_path)
    assert made["fingerprint"] == committed["fingerprint"]
    assert made["files"] == committed["files"]
    assert (target.folder(tmp_path)).relative_to(tmp_path) == target.folder(ROOT).relative_to(ROOT)
