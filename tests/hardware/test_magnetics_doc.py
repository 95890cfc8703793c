"""The committed hardware/MAGNETICS.md is what the code computes."""

from lawmaster.hardware.magnetics import report


def test_committed_doc_matches_the_computation():
    assert report.DOC.read_text("utf-8") == report.render(), (
        "regenerate with: python -m lawmaster.hardware.magnetics.report"
    )
