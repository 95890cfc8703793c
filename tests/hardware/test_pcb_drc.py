"""Every committed PCB passes KiCad's own design-rule check: no error, no warning, nothing
unconnected (KiCad 6's ``pcbnew``; CI installs it through ``scripts/dev-setup``)."""

from __future__ import annotations

import pytest

from lawmaster.hardware.pcb import drc, kicad
from lawmaster.hardware.pcb.generate import targets

needs_kicad = pytest.mark.skipif(kicad.pcbnew() is None, reason=kicad.MISSING)


@needs_kicad
@pytest.mark.parametrize("target", targets(), ids=lambda t: t.name)
def test_pcb_passes_kicads_drc_with_nothing_unconnected(target, tmp_path):
    pcb = target.folder() / f"{target.name}.kicad_pcb"
    result = drc.run(pcb, tmp_path / "drc.rpt")
    assert (result.errors, result.unconnected) == (0, 0), result.report
    assert result.warnings == 0, result.report


def test_pcb_drc_report_counts_are_read_from_kicads_text():
    report = (
        "** Found 2 DRC violations **\n"
        "[clearance]: Clearance violation\n    Local override; Severity: error\n"
        "[silk_overlap]: Silkscreen overlap\n    Rule: silk; Severity: warning\n"
        "** Found 1 unconnected pads **\n"
        "[unconnected_items]: Missing connection\n    Local override; Severity: error\n"
    )
    result = drc.parse(report)
    assert (result.errors, result.warnings, result.unconnected) == (2, 1, 1)
