"""The shipped sensor maps agree with the engines' boards and with themselves."""

import json
import math
from importlib import resources

import pytest

from lawmaster.hardware.sensor_map import SensorMap
from lawmaster.rules.gw_brott.board import Board

GAMES = ("gw-brott", "judge-dredd", "unamerican-graffiti")


@pytest.mark.parametrize("game", GAMES)
def test_map_loads_with_unique_channels_and_separate_spots(game):
    sensor_map = SensorMap.load(game)
    channels = [s.channel for s in sensor_map.spots]
    # Unique and from 0; gaps are allowed where a multiplexer input has no sensor (the
    # channels follow the sensor pieces, tests/hardware/test_pcb_plan.py checks they agree).
    assert len(set(channels)) == len(channels) and min(channels) == 0
    assert max(channels) == sensor_map.channels - 1
    points = [(s.x, s.y) for s in sensor_map.spots]
    closest = min(math.dist(a, b) for i, a in enumerate(points) for b in points[i + 1 :])
    assert closest >= 12.0  # a magnet is seen within ~5 mm: spots never share one
    assert sensor_map.channels <= 256
    for kind in sensor_map.kinds.values():
        assert kind.polarity in ("north", "south")


def test_gw_map_has_every_cell_and_a_jail_with_a_slot_per_criminal():
    board = Board.load("standard")
    sensor_map = SensorMap.load("gw-brott")
    cells = {board.name_of(c) for c in range(board.size) if c not in board.jail_cells}
    assert set(sensor_map.spaces) == cells | {"jail"}
    assert len(sensor_map.spots_of("jail")) == 4
    assert {sensor_map.kinds[k].polarity for k in ("criminal", "gw")} == {"north", "south"}


def _rules_data(game: str) -> dict:
    path = resources.files("lawmaster.rules").joinpath(game, "data", "board-standard.json")
    return json.loads(path.read_text("utf-8"))


def test_judge_dredd_map_uses_the_engine_sector_ids():
    ids = {s["id"] for s in _rules_data("judge_dredd")["sectors"]}
    sensor_map = SensorMap.load("judge-dredd")
    assert set(sensor_map.spaces) == ids and len(ids) == 28
    assert all(len(sensor_map.spots_of(s)) >= 4 for s in ids)


def test_graffiti_map_has_one_spot_per_engine_hex():
    hexes = {h.get("id", f"{h['q']},{h['r']}") for h in _rules_data("unamerican_graffiti")["hexes"]}
    sensor_map = SensorMap.load("unamerican-graffiti")
    assert set(sensor_map.spaces) == hexes
    assert len(sensor_map.spots) == len(hexes)
    assert {k.polarity for k in sensor_map.kinds.values()} == {"north", "south"}


def test_a_map_whose_magnets_contradict_its_polarity_is_refused():
    data = json.loads(
        resources.files("lawmaster.hardware").joinpath("maps", "gw-brott-standard.json").read_text()
    )
    data["kinds"]["criminal"]["polarity"] = "south"
    with pytest.raises(ValueError, match="criminal"):
        SensorMap.from_data(data)
    data["kinds"]["criminal"]["polarity"] = "north"
    data["spots"][1]["channel"] = 0
    with pytest.raises(ValueError, match="twice"):
        SensorMap.from_data(data)
