"""The BOM you can order: every line has a price that says where it came from, the cost per
table adds up, the PCBs are priced by the fabs' published models from explicit specs, and
the first mechanical parts list agrees with the stack and the maps."""

from __future__ import annotations

import copy
import json
import math
from types import SimpleNamespace

import pytest

from lawmaster.hardware.electronics import prices as prices_mod
from lawmaster.hardware.electronics.cost import (
    OFF_SCHEMATIC,
    Unpriced,
    bill,
    card_count,
    order_number,
)
from lawmaster.hardware.electronics.generate import host_design, scanner_design
from lawmaster.hardware.electronics.mechanical import PARTS
from lawmaster.hardware.electronics.mechanical import parts as mechanical_parts
from lawmaster.hardware.electronics.pcb_cost import PcbSpec, fab_cost, quote, specs_for
from lawmaster.hardware.magnetics.stack import STACKS
from lawmaster.hardware.sensor_map import SensorMap

BOARDS = ("gw-brott", "judge-dredd", "unamerican-graffiti")


def _raw() -> dict:
    return json.loads(prices_mod.PRICES.read_text("utf-8"))


@pytest.mark.parametrize("board", BOARDS)
def test_bom_every_line_of_a_board_has_a_price(board):
    prices = prices_mod.load()
    designs = [scanner_design(board), host_design("i2c")]
    for design in designs:
        for key, value in set(design.parts.values()):
            number = order_number(key, value)
            assert prices.for_mpn(number) is not None, f"no price for {number}"
    for row in OFF_SCHEMATIC:
        assert row.price in prices.prices, row.item
    for part in mechanical_parts(board):
        assert part.price in prices.prices, part.id
    priced = bill(board, designs, specs_for(board), prices)
    assert priced.total_eur > 0
    assert math.isclose(priced.total_eur, sum(priced.by_section().values()))
    assert 0 <= priced.estimate_eur <= priced.total_eur


def test_bom_a_line_without_a_price_fails():
    data = _raw()
    data["prices"].pop("drv5055a4")
    without = prices_mod.parse(data)
    designs = [scanner_design("gw-brott"), host_design("i2c")]
    with pytest.raises(Unpriced, match="DRV5055A4"):
        bill("gw-brott", designs, specs_for("gw-brott"), without)
    data = _raw()
    data["prices"].pop("washer-m4")
    with pytest.raises(Unpriced, match="keepers"):
        bill("gw-brott", designs, specs_for("gw-brott"), prices_mod.parse(data))


def test_bom_every_price_says_where_and_when_or_that_it_is_an_estimate():
    prices = prices_mod.load()
    things = [*prices.prices.values(), *prices.fabs.values()]
    for thing in things:
        source = thing.source
        if source.read is not None:
            assert source.read["source"] and source.read["read_on"], thing.key
        else:
            assert source.estimate, thing.key
    for price in prices.prices.values():
        assert price.supplier and price.currency and price.breaks, price.key
    # Both, or neither, is refused.
    for change in ({"read": {"source": "x", "read_on": "2026-01-01"}}, {"estimate": None}):
        data = _raw()
        entry = data["prices"]["jack"]
        entry.update(change)
        with pytest.raises(ValueError, match="exactly one"):
            prices_mod.parse(data)
    data = _raw()
    data["prices"]["jack"] = {**data["prices"]["jack"], "currency": "SEK"}
    with pytest.raises(ValueError, match="exchange rate"):
        prices_mod.parse(data)


def test_bom_quantity_breaks_minimum_orders_and_packs():
    data = _raw()
    data["fx"]["USD"]["eur"] = 1.0
    prices = prices_mod.parse(data)
    # DRV5055: 0.77 from 10, 0.55 from 100.
    assert math.isclose(prices.cost("drv5055a3", 99)[0], 99 * 0.77)
    assert math.isclose(prices.cost("drv5055a3", 100)[0], 100 * 0.55)
    # NTAG213 stickers are sold from 10: three cards still buy ten.
    assert math.isclose(prices.cost("ntag213", 3)[0], 10 * 0.30)
    # Washers come by the hundred: 122 buys two packs.
    assert math.isclose(prices.cost("washer-m4", 122)[0], 2 * 3.0)
    # Sheet by the square metre.
    assert math.isclose(prices.cost("acrylic-2mm", 0.075)[0], 0.075 * 60.0)


def test_bom_pcbs_are_priced_from_explicit_specs_by_the_published_models():
    data = _raw()
    data["fx"]["USD"]["eur"] = 1.0
    prices = prices_mod.parse(data)
    osh, run, jlc = (
        prices.fabs[k] for k in ("oshpark-2layer", "oshpark-medium-run", "jlcpcb-small")
    )
    tile = PcbSpec("tile", 100.0, 100.0, 2, 3)
    square_in = 100 * 100 / 25.4**2
    # OSH Park: $5 a square inch for three copies.
    assert math.isclose(fab_cost(osh, [tile]), 5 * square_in)
    assert math.isclose(fab_cost(osh, [PcbSpec("tile", 100, 100, 2, 4)]), 2 * 5 * square_in)
    # Medium run: multiples of ten, 100 square inches at least.
    assert math.isclose(fab_cost(run, [tile]), max(10 * square_in, 100))
    assert math.isclose(fab_cost(run, [PcbSpec("s", 20, 20, 2, 10)]), 100)
    # JLCPCB's small-board price: $2 for five, nothing larger than 100 × 100 mm.
    assert fab_cost(jlc, [tile, PcbSpec("scanner", 60, 90, 2, 1)]) == 4
    assert fab_cost(jlc, [PcbSpec("big", 101, 50, 2, 1)]) is None
    assert fab_cost(osh, [PcbSpec("four", 50, 50, 4, 1)]) is None  # 2-layer models only
    best = quote(prices, [tile, PcbSpec("scanner", 60, 90, 2, 1)])
    assert best.fab.key == "jlcpcb-small" and best.eur == 4
    assert quote(prices, [PcbSpec("whole", 250, 300, 2, 1)]).fab.key == "oshpark-2layer"
    # Any record with the same fields (the boards generator's) becomes a spec.
    record = SimpleNamespace(name="x", width_mm=80, height_mm=40, layers=2, quantity=6)
    assert PcbSpec.of(record) == PcbSpec("x", 80.0, 40.0, 2, 6)


def test_bom_cost_grows_with_what_a_table_needs():
    prices = prices_mod.load()
    designs = [scanner_design("gw-brott"), host_design("i2c")]
    one = bill("gw-brott", designs, [PcbSpec("tile", 100, 100, 2, 3)], prices)
    more = bill("gw-brott", designs, [PcbSpec("tile", 100, 100, 2, 6)], prices)
    assert more.by_section()["PCBs"] > one.by_section()["PCBs"]
    assert more.by_section()["scanner"] == one.by_section()["scanner"]
    # Stickers follow the game's own card list; a game without cards buys none.
    assert card_count("judge-dredd") > card_count("gw-brott") > 0
    assert card_count("unamerican-graffiti") == 0


def test_mechanical_parts_agree_with_the_stack_and_the_maps():
    for board in BOARDS:
        sensor_map = SensorMap.load(board)
        stack = STACKS[board]
        found = mechanical_parts(board)
        by_layer: dict[int, float] = {}
        for part in found:
            if part.stack_layer is not None:
                by_layer[part.stack_layer] = by_layer.get(part.stack_layer, 0) + part.thickness_mm
        assert by_layer, board
        # The parts that make a layer add up to its thickness.
        for index, thickness in by_layer.items():
            assert thickness == pytest.approx(stack[index].thickness_mm), (board, index)
        for part in found:
            if part.measure == "area" and part.raw.get("stack_layer") == 0:
                assert part.size_mm == tuple(sensor_map.size_mm), (board, part.id)
    keepers = next(p for p in mechanical_parts("gw-brott") if p.id == "keepers")
    assert keepers.quantity == len(SensorMap.load("gw-brott").spots)


def test_mechanical_parts_file_rejects_a_repeated_id(tmp_path):
    data = json.loads(PARTS.read_text("utf-8"))
    data["boards"]["gw-brott"].append(copy.deepcopy(data["boards"]["gw-brott"][0]))
    path = tmp_path / "parts.json"
    path.write_text(json.dumps(data), "utf-8")
    with pytest.raises(ValueError, match="repeat"):
        mechanical_parts("gw-brott", path)
