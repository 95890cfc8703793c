"""The table's TOML configuration: the shipped example loads; mistakes are named."""

from __future__ import annotations

from pathlib import Path

import pytest

from lawmaster.host.config import ConfigError, load, parse
from lawmaster.host.games import engine_for
from lawmaster.host.nfc.transport import readers_from_config
from lawmaster.rules.core.replay import Game

EXAMPLE = Path(__file__).resolve().parents[2] / "deploy" / "table.toml"


def test_table_config_example_loads_and_its_game_and_readers_are_valid():
    config = load(EXAMPLE)
    assert config.scanner.port == "/dev/lawmaster-scanner"
    assert config.panel.buttons == {"undo": 5, "confirm": 6, "end_turn": 13}
    assert config.settings() == {"digital_dice": False, "seed": None, "board": True}
    # The real engine accepts the example's header.
    game, _ = Game.start(dict(config.game), engine_for)
    assert game.engine.seats(game.state) == ["gw", "red", "green"]
    readers = readers_from_config(config.nfc)
    assert [r.transport for r in readers] == ["uart"]


def test_table_config_defaults_when_empty():
    config = parse({})
    assert config.board is True and config.nfc == () and config.web.port == 8080


@pytest.mark.parametrize(
    ("data", "words"),
    [
        ({"tabel": {}}, "unknown key(s) tabel"),
        ({"table": {"seed": "7"}}, "table.seed must be int"),
        ({"table": {"board": 1}}, "table.board must be bool"),
        ({"web": {"port": True}}, "web.port must be int"),
        ({"nfc": [{"name": "a", "interface": "spi"}]}, 'must be "uart" or "i2c"'),
        ({"panel": {"led": {"red": "17"}}}, "panel.led must map names to GPIO numbers"),
        ({"game": "gw-brott"}, "[game] must be a table"),
    ],
)
def test_table_config_mistakes_are_named(data, words):
    with pytest.raises(ConfigError) as caught:
        parse(data)
    assert words in str(caught.value)


def test_table_config_unreadable_file_is_a_config_error(tmp_path):
    with pytest.raises(ConfigError, match="cannot read"):
        load(tmp_path / "missing.toml")
    bad = tmp_path / "bad.toml"
    bad.write_text("[table\n")
    with pytest.raises(ConfigError, match="not valid TOML"):
        load(bad)
