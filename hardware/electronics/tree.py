"""The multiplexer tree of a board, from its sensor map.

Channel ``c`` is input ``Y(c % 16)`` of first-level multiplexer ``c // 16``
(the convention of the sensor maps, the SCAN frames and ``firmware/config.py``).
With up to three first-level multiplexers each goes straight into an ADC pin
(GP26-GP28); with more, a second-level multiplexer on each ADC pin chooses
among up to sixteen of them (multiplexer ``m`` is input ``m % 16`` of the
second-level multiplexer on ADC pin ``m // 16``), as the firmware's
``bank_select_pins`` layout does.
"""

from __future__ import annotations

from dataclasses import dataclass

from lawmaster.hardware.sensor_map import SensorMap

INPUTS = 16
ADC_PINS = (26, 27, 28)
#: Pico GPIOs of the shared first-level select lines S0-S3 and the second-level ones.
SELECT_GPIO = (2, 3, 4, 5)
BANK_GPIO = (6, 7, 8, 9)
SAFE_MODE_GPIO = 22


@dataclass(frozen=True)
class MuxTree:
    """How many multiplexers a board needs and where each channel goes."""

    board: str
    channels: int
    used: frozenset[int]
    first_level: int
    second_level: int

    @property
    def adc_pins(self) -> tuple[int, ...]:
        """The Pico GPIOs used as ADC inputs."""
        count = self.second_level or self.first_level
        return ADC_PINS[:count]

    @property
    def sensors(self) -> int:
        """How many hall sensors are fitted (one per spot of the map)."""
        return len(self.used)

    def place(self, channel: int) -> tuple[int, int]:
        """(first-level multiplexer, its input) of a channel; both from 0."""
        return divmod(channel, INPUTS)

    def upstream(self, mux: int) -> tuple[int, int] | None:
        """(second-level multiplexer, its input) that a first-level one feeds; None if direct."""
        if not self.second_level:
            return None
        return divmod(mux, INPUTS)


def tree_for(board: str) -> MuxTree:
    """The tree of a standard board (``"gw-brott"``…), sized by its sensor map."""
    return tree_of(board, SensorMap.load(board))


def tree_of(board: str, sensor_map: SensorMap) -> MuxTree:
    """The tree a sensor map needs."""
    used = frozenset(spot.channel for spot in sensor_map.spots)
    channels = sensor_map.channels
    first = -(-channels // INPUTS)
    if first <= len(ADC_PINS):
        second = 0
    else:
        second = -(-first // INPUTS)
        if second > len(ADC_PINS):
            raise ValueError(f"{board}: {channels} channels need more than three ADC pins")
    return MuxTree(board, channels, used, first, second)
