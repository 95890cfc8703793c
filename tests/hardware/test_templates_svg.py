"""The 1:1 SVG templates: committed files match the generator, sizes in mm match the board."""

import re
import xml.etree.ElementTree as ET

import pytest

from lawmaster.hardware import templates
from lawmaster.hardware.sensor_map import SensorMap


@pytest.mark.parametrize("game", templates.BOARDS)
def test_committed_template_matches_generator(game):
    assert templates.path_of(game).read_text("utf-8") == templates.render(SensorMap.load(game))


@pytest.mark.parametrize("game", templates.BOARDS)
def test_physical_size_is_the_board_s(game):
    sm = SensorMap.load(game)
    root = ET.fromstring(templates.path_of(game).read_text("utf-8"))
    w, h = (float(re.fullmatch(r"([\d.]+)mm", root.get(k)).group(1)) for k in ("width", "height"))
    assert (w, h) == sm.size_mm
    assert [float(v) for v in root.get("viewBox").split()] == [0, 0, w, h]
    # Every sensor is drawn, inside the board.
    crosses = [e for e in root.iter() if e.tag.endswith("path")]
    assert len(crosses) == len(sm.spots)
    assert all(0 < s.x < w and 0 < s.y < h for s in sm.spots)
