"""The table config refuses PN532 readers that cannot work side by side, and takes a reset pin."""

from __future__ import annotations

import pytest

from lawmaster.host.config import ConfigError, parse
from lawmaster.host.nfc.transport import readers_from_config


def test_electronics_config_two_i2c_readers_at_the_fixed_address_are_refused():
    data = {"nfc": [{"name": "a", "interface": "i2c"}, {"name": "b", "interface": "i2c"}]}
    with pytest.raises(
        ConfigError, match=r"nfc\[1\] and nfc\[0\] are both I2C PN532s at address 0x24"
    ):
        parse(data)


def test_electronics_config_two_readers_on_one_port_are_refused():
    data = {"nfc": [{"name": "a", "port": "/dev/ttyUSB0"}, {"name": "b", "port": "/dev/ttyUSB0"}]}
    with pytest.raises(ConfigError, match=r"nfc\[1\] and nfc\[0\] are both on port /dev/ttyUSB0"):
        parse(data)


def test_electronics_config_an_i2c_reader_and_uart_readers_on_their_own_ports_coexist():
    data = {
        "nfc": [
            {"name": "table", "interface": "i2c", "reset_pin": 4},
            {"name": "dredd", "port": "/dev/ttyUSB0", "seat": "dredd", "reset_pin": 23},
            {"name": "hershey", "port": "/dev/ttyUSB1", "seat": "hershey"},
        ]
    }
    config = parse(data)
    assert [r.reset_pin for r in config.nfc] == [4, 23, None]
    readers = readers_from_config(config.nfc)
    assert [r.reset_pin for r in readers] == [4, 23, None]


@pytest.mark.parametrize(
    ("readers", "panel", "message"),
    [
        ([{"name": "a", "reset_pin": 4}, {"name": "b", "port": "/dev/x", "reset_pin": 4}], {},
         r"nfc\[1\].reset_pin GPIO4 is already nfc\[0\]'s pin"),
        ([{"name": "a", "reset_pin": 13}], {}, r"GPIO13 is already the panel's end_turn's pin"),
        ([{"name": "a", "reset_pin": 20}], {"buzzer": 20}, r"GPIO20 is already the panel's buzzer"),
        ([{"name": "a", "interface": "i2c", "reset_pin": 3}], {}, r"GPIO3 is already the I2C bus"),
    ],
)  # fmt: skip
def test_electronics_config_a_reset_pin_already_in_use_is_refused(readers, panel, message):
    with pytest.raises(ConfigError, match=message):
        parse({"nfc": readers, "panel": panel})


def test_electronics_config_a_reset_pin_must_be_a_whole_number():
    with pytest.raises(ConfigError, match=r"nfc\[0\].reset_pin must be int"):
        parse({"nfc": [{"name": "a", "reset_pin": "GPIO4"}]})
