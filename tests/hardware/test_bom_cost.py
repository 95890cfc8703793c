"""The BOM you can order: every line has a price that says where it came from, every price
is used (or says what it is kept for), the cost per table adds up, the PCBs are priced by
the fabs' published models from explicit specs, and the mechanical parts the BOM prices
(``hardware/mechanical/parts.json``, generated from the mechanical design) are the
design's: sheets of the drawings' size, a keeper per sensor, a standoff per support."""

from __future__ import annotations

import copy
import json
import math
from types import SimpleNamespace

import pytest

from lawmaster.hardware.electronics import prices as prices_mod
from lawmaster.hardware.electronics.cost import (
    LONGEST_LEAD_MM,
    OFF_SCHEMATIC,
    Unpriced,
    bill,
    cable_parts,
    card_count,
    order_number,
)
from lawmaster.hardware.electronics.generate import host_design, scanner_design
from lawmaster.hardware.electronics.mechanical import PARTS, BadPriceUnit, MechPart
from lawmaster.hardware.electronics.mechanical import parts as mechanical_parts
from lawmaster.hardware.electronics.parts import spec_of
from lawmaster.hardware.electronics.pcb_cost import PcbSpec, fab_cost, quote, specs_for
from lawmaster.hardware.magnetics import stack
from lawmaster.hardware.mechanical.parts import PIECES, magnet_price
from lawmaster.hardware.mechanical.supports import off_piece_points, outline, support_points
from lawmaster.hardware.pcb import cables, pcbs
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
            spec = spec_of(key)
            if not spec.bought:
                continue  # a bare test pad: copper of the PCB
            number = order_number(key, value)
            assert prices.for_mpn(number) is not None, f"no price for {number}"
            for _, item, example in spec.extras:
                assert prices.for_mpn(example) is not None, f"no price for {item}"
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
    with pytest.raises(Unpriced, match="keeper-washer"):
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
    # Sheet by the square metre; an offcut has its least size.
    assert math.isclose(prices.cost("acrylic-xt-2mm", 0.075)[0], 0.075 * 45.0)
    assert math.isclose(prices.cost("acrylic-5mm", 0.001)[0], 0.01 * 110.0)


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


@pytest.fixture(scope="module")
def bills():
    return {
        board: bill(board, [scanner_design(board), host_design("i2c")], specs_for(board))
        for board in BOARDS
    }


def test_every_price_is_used_by_a_bill_or_says_what_it_is_kept_for(bills):
    used = {line.price_key for b in bills.values() for line in b.lines}
    for key, price in prices_mod.load().prices.items():
        if price.reserved_for is None:
            assert key in used, f"{key}: no board's bill uses it (drop it, or say reserved_for)"
        else:
            assert key not in used, f"{key} is in use now: drop its reserved_for"


def _by_id(board: str) -> dict[str, MechPart]:
    return {p.id: p for p in mechanical_parts(board)}


@pytest.mark.parametrize("board", BOARDS)
def test_mechanical_parts_are_the_design_s(board):
    prices = prices_mod.load()
    sm = SensorMap.load(board)
    parts = _by_id(board)
    sheet = outline(board).sheet
    # Every part is priced, in a unit its price can take.
    for part in parts.values():
        assert part.amount(prices.prices[part.price].unit) > 0, part.id
    # The sheets a builder cuts are the drawings' size, at least the board's, as thick as
    # their stack layer.
    covers = ["front-cover", "back-cover"] if stack.two_sided(board) else ["cover", "base"]
    for cid in covers:
        w, h, t = parts[cid].size_mm
        assert (w, h) == pytest.approx(sheet), cid
        assert w >= sm.size_mm[0] and h >= sm.size_mm[1], cid
    if stack.two_sided(board):
        assert parts["front-cover"].size_mm[2] == stack.layer(board, "front_cover").thickness_mm
        assert parts["back-cover"].size_mm[2] == stack.layer(board, "back_cover").thickness_mm
        assert parts["transfer-film"].qty == pytest.approx(2 * sheet[0] * sheet[1] * 1e-6, abs=5e-4)
    else:
        pockets = stack.SPOT_POCKETS.get(board)
        cover_t = pockets.sheet_mm if pockets else stack.layer(board, "front_cover").thickness_mm
        assert parts["cover"].size_mm[2] == cover_t
    # The print is the playing area 1:1, one per face.
    assert parts["print"].size_mm[:2] == tuple(sm.size_mm)
    assert parts["print"].qty == (2 if stack.two_sided(board) else 1)
    # A standoff, and the screws that clamp it, at every support point.
    n_sup = len(support_points(board))
    assert parts["standoff"].qty == n_sup
    assert parts["standoff"].size_mm[1] == pytest.approx(
        stack.layer(board, "front_spacer" if stack.two_sided(board) else "back_spacer").thickness_mm
    )
    screws = [p for p in parts.values() if p.id.startswith("screw-")]
    assert len(screws) == 2 and all(p.qty == n_sup for p in screws)
    if not stack.two_sided(board):
        # One pad per support, and a second where a support stands off the PCB pieces.
        assert parts["spacer-pad"].qty == n_sup + len(off_piece_points(board))
        assert parts["spacer-pad"].size_mm[1] == stack.layer(board, "front_spacer").thickness_mm
    # Every magnet size of the map: the pieces' count plus a spare, at its own price.
    count: dict[str, int] = {}
    for name, kind in sm.kinds.items():
        for m in kind.magnets:
            key = magnet_price(m.diameter_mm, m.thickness_mm)
            count[key] = count.get(key, 0) + PIECES[board][name]
    for key, n in count.items():
        part = parts[key]
        assert part.price == key and part.qty == n + 1, key


def test_mechanical_gw_s_keepers_and_stand():
    parts = _by_id("gw-brott")
    sm = SensorMap.load("gw-brott")
    assert parts["keeper-washer"].qty == len(sm.spots)
    keeper = sm.sensor.keeper
    assert parts["keeper-washer"].size_mm == (keeper.outer_mm, keeper.inner_mm, keeper.thickness_mm)
    assert parts["keeper-washer"].price == "washer-m4"


def test_mechanical_pricing_buys_sheet_by_area_strip_by_length_and_shares_a_pack(bills):
    prices = prices_mod.load()
    parts = _by_id("judge-dredd")
    cover = parts["cover"]
    assert cover.amount("m2") == pytest.approx(cover.size_mm[0] * cover.size_mm[1] * 1e-6)
    rim = parts["rim"]
    assert rim.amount("m") == pytest.approx(rim.size_mm[0] / 1000)
    pad = parts["spacer-pad"]  # discs cut from sheet: the square each is cut from
    assert pad.amount("m2") == pytest.approx(pad.qty * pad.size_mm[0] ** 2 * 1e-6)
    assert parts["standoff"].amount("pack") == parts["standoff"].qty
    film = _by_id("gw-brott")["transfer-film"]
    assert film.amount("m2") == film.qty
    with pytest.raises(BadPriceUnit):
        film.amount("each")
    # Graffiti's two kinds of piece share one rubber sheet: bought once, at its least size.
    graffiti = [p for p in mechanical_parts("unamerican-graffiti") if p.price == "rubber-sheet-2mm"]
    assert len(graffiti) == 2
    lines = [ln for ln in bills["unamerican-graffiti"].lines if ln.price_key == "rubber-sheet-2mm"]
    assert len(lines) == 1
    need = sum(p.amount("m2") for p in graffiti)
    assert lines[0].amount == pytest.approx(need)
    assert lines[0].eur == pytest.approx(prices.cost("rubber-sheet-2mm", need)[0])
    # The mechanical section is the sum of its lines, one per price key.
    for board, priced in bills.items():
        mech = [ln for ln in priced.lines if ln.section == "mechanical"]
        assert len({ln.price_key for ln in mech}) == len(mech)
        assert {ln.price_key for ln in mech} == {p.price for p in mechanical_parts(board)}


def test_mechanical_parts_file_rejects_a_repeated_id(tmp_path):
    data = json.loads(PARTS.read_text("utf-8"))
    data["boards"]["gw-brott"].append(copy.deepcopy(data["boards"]["gw-brott"][0]))
    path = tmp_path / "parts.json"
    path.write_text(json.dumps(data), "utf-8")
    with pytest.raises(ValueError, match="repeat"):
        mechanical_parts("gw-brott", path)


def test_mechanical_parts_file_of_another_format_is_refused(tmp_path):
    data = json.loads(PARTS.read_text("utf-8"))
    data["version"] = 0
    path = tmp_path / "parts.json"
    path.write_text(json.dumps(data), "utf-8")
    with pytest.raises(ValueError, match="regenerate"):
        mechanical_parts("gw-brott", path)


@pytest.mark.parametrize("board", BOARDS)
def test_bom_pcbs_are_the_generated_boards_and_every_cable_is_priced(board, bills):
    priced = bills[board]
    # The PCBs priced are the generated boards' own list: the scanner and every kind of piece.
    assert specs_for(board) == [PcbSpec.of(record) for record in pcbs(board)]
    assert [s.name for s in specs_for(board)][0] == "scanner"
    assert all(s.width_mm <= 100 and s.height_mm <= 100 for s in specs_for(board))
    (pcb_line,) = [ln for ln in priced.lines if ln.section == "PCBs"]
    assert pcb_line.amount == sum(s.quantity for s in specs_for(board))
    # Every cable between them: two SH housings, a pre-crimped lead per way (two spliced
    # past the longest lead sold).
    need: dict[str, float] = {}
    for cable in cables(board):
        for number, count in cable_parts(cable):
            need[number] = need.get(number, 0) + count
        housing, leads = cable_parts(cable)
        assert housing == (f"JST SHR-{cable.ways:02d}V-S-B", 2)
        assert leads[1] == cable.ways * -(-cable.length_mm // LONGEST_LEAD_MM)
    lines = {ln.order_number: ln for ln in priced.lines if ln.section == "cables"}
    assert {n: ln.amount for n, ln in lines.items()} == need
    assert priced.by_section()["cables"] > 0


def test_bom_prices_what_the_circuit_really_carries(bills):
    numbers = {ln.order_number for b in bills.values() for ln in b.lines}
    # The input protection the scanner board carries, the rail filter, the Pico H and
    # its sockets; nothing of the old one-PCB design.
    for number in (
        "Littelfuse 0466001.NR",
        "Vishay SS14-E3/61T",
        "Littelfuse SMAJ15A",
        "Bourns SRR1210A-100M",
        "Raspberry Pi SC0917 (Pico H)",
        "Samtec SSW-120-01-T-S",
        "Nexperia 74HC4067PW,118",
    ):
        assert number in numbers, number
    words = " ".join(ln.item for b in bills.values() for ln in b.lines)
    assert "the size of the board" not in words and "PTC" not in words
    assert not any("sensor PCB" in row.item for row in OFF_SCHEMATIC)
    # The Pico takes two 1 × 20 sockets.
    sockets = [
        ln for ln in bills["gw-brott"].lines if ln.order_number == "Samtec SSW-120-01-T-S"
    ]
    assert [ln.amount for ln in sockets] == [2]
