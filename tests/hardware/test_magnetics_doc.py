"""The committed hardware/MAGNETICS.md is what the code computes."""

from lawmaster.hardware.magnetics import report


def test_committed_doc_matches_the_computation():
    assert report.DOC.read_text("utf-8") == report.render(), (
        "regenerate with: python -m lawmaster.hardware.magnetics.report"
    )


def test_sensor_maps_doc_shows_the_shipped_map():
    from lawmaster.hardware.magnetics import mapsdoc

    text = mapsdoc.DOC.read_text("utf-8")
    assert text == mapsdoc.render(text), (
        "regenerate with: python -m lawmaster.hardware.magnetics.mapsdoc"
    )
    # The wooden piece's magnet the issue found stale (Ø20 × 4) is gone; today's is shown.
    assert '"diameter_mm": 20, "thickness_mm": 4' not in text
    assert '"diameter_mm": 12, "thickness_mm": 8' in text


def test_bom_magnets_section_is_the_maps():
    from lawmaster.hardware.magnetics import bomdoc

    text = bomdoc.DOC.read_text("utf-8")
    assert text == bomdoc.render(text), (
        "regenerate with: python -m lawmaster.hardware.magnetics.bomdoc"
    )
