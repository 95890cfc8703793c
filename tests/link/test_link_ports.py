"""Finding the table's devices: the Pi's UART per model, udev rules, the sensor map by path."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from lawmaster.hardware.sensor_map import SensorMap
from lawmaster.host import config
from lawmaster.host.serial_ports import pi_model, primary_uart
from lawmaster.host.udev import parse_properties, rule


@pytest.mark.parametrize(
    ("model", "uart"),
    [
        ("Raspberry Pi 5 Model B Rev 1.0", "/dev/ttyAMA0"),
        ("Raspberry Pi 4 Model B Rev 1.4", "/dev/ttyS0"),
        ("Raspberry Pi 3 Model B Plus Rev 1.3", "/dev/ttyS0"),
        ("Raspberry Pi Zero 2 W Rev 1.0", "/dev/ttyS0"),
        ("Raspberry Pi Zero W Rev 1.1", "/dev/ttyS0"),
        ("Raspberry Pi 2 Model B Rev 1.1", "/dev/ttyAMA0"),
        ("Raspberry Pi Zero Rev 1.3", "/dev/ttyAMA0"),
        ("", "/dev/ttyS0"),
    ],
)
def test_the_primary_uart_is_named_per_pi_model(model: str, uart: str) -> None:
    assert primary_uart(model, exists=lambda path: False) == uart
    # /dev/serial0 points at the primary UART on every model: it wins when present.
    assert primary_uart(model, exists=lambda path: path == "/dev/serial0") == "/dev/serial0"


def test_pi_model_reads_the_device_tree(tmp_path: Path) -> None:
    (tmp_path / "model").write_bytes(b"Raspberry Pi 5 Model B Rev 1.0\x00")
    assert pi_model(str(tmp_path / "model")) == "Raspberry Pi 5 Model B Rev 1.0"
    assert pi_model(str(tmp_path / "missing")) == ""


def test_a_reader_port_of_auto_is_resolved_and_others_kept() -> None:
    parsed = config.parse({"nfc": [{"name": "a"}, {"name": "b", "port": "/dev/ttyUSB3"}]})
    assert parsed.nfc[0].port == primary_uart()
    assert parsed.nfc[1].port == "/dev/ttyUSB3"


PICO = """DEVNAME=/dev/ttyACM0
ID_VENDOR_ID=2e8a
ID_MODEL_ID=0005
ID_SERIAL_SHORT=E6605838833A2F2C
ID_PATH=platform-xhci-hcd.0-usb-0:2:1.0
"""
CH340 = """DEVNAME=/dev/ttyUSB0
ID_VENDOR_ID=1a86
ID_MODEL_ID=7523
ID_PATH=platform-xhci-hcd.0-usb-0:1:1.0
"""


def test_udev_rules_key_on_the_serial_number_else_on_the_port_path() -> None:
    pico = rule(parse_properties(PICO), "lawmaster-scanner")
    assert 'ATTRS{serial}=="E6605838833A2F2C"' in pico and "ID_PATH" not in pico
    assert 'SYMLINK+="lawmaster-scanner"' in pico
    ch340 = rule(parse_properties(CH340), "lawmaster-nfc-dredd")
    assert 'ENV{ID_PATH}=="platform-xhci-hcd.0-usb-0:1:1.0"' in ch340
    assert "serial" not in ch340 and 'ATTRS{idVendor}=="1a86"' in ch340
    with pytest.raises(ValueError):
        rule({"ID_VENDOR_ID": "1a86", "ID_MODEL_ID": "7523"}, "x")


def test_board_map_in_the_configuration_overrides_the_shipped_map(tmp_path: Path) -> None:
    shipped = SensorMap.load("gw-brott")
    data = json.loads(
        (Path(__file__).parents[2] / "hardware/maps/gw-brott-standard.json").read_text()
    )
    data["spots"] = data["spots"][:100]  # an owner's smaller board
    path = tmp_path / "mine.json"
    path.write_text(json.dumps(data))
    parsed = config.parse({"board": {"map": str(path)}})
    assert parsed.board_map == str(path)
    mine = SensorMap.for_game("gw-brott", parsed.board_map)
    assert mine.channels == 100 != shipped.channels
    assert SensorMap.for_game("gw-brott", "").channels == shipped.channels
    with pytest.raises(ValueError, match="not of judge-dredd"):
        SensorMap.for_game("judge-dredd", path)
    with pytest.raises(config.ConfigError):
        config.parse({"board": {"mapp": "x"}})
