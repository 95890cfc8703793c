"""The scanner's self-test as a builder reads it: each sensor's idle voltage against its window.

A new board's first question is whether every sensor is fitted, alive and wired to
the channel the map says. The scanner answers it at boot and on request
(:meth:`lawmaster.host.link.Link.selftest`): with no magnet near, it reads every
channel 32 times and reports each one's mean and a verdict, judged against the
window a good DRV5055 idles in. That window is computed once, by
:func:`lawmaster.hardware.electronics.bringup.idle_window_counts` (VCC/2 within
the sensor's quiescent spread, its drift over temperature and the Earth's field),
and the host sends it to the scanner at every handshake.

:func:`rows` pairs each channel with the map's space and its voltage; :func:`table`
is the text ``lawmaster selftest`` prints; :func:`meaning` says in plain words what
an OUT channel usually means; :func:`out` is the sensors that are OUT.

Channels follow the board's pieces (16 × multiplexer + input), so some inputs of a
fitted multiplexer carry no sensor: the board ties them to ground and the scanner
reads them at the low rail. They are listed as such and not judged.

The readings are a ratio of the rail (the sensors and the ADC's reference share
the 3.3 V supply), so a voltage here is the reading at a nominal 3.3 V rail: what a
meter shows on the sensor's output when the rail is at exactly 3.3 V.
"""

from __future__ import annotations

import textwrap
from dataclasses import dataclass

from lawmaster.firmware import protocol
from lawmaster.firmware.app import SELFTEST_SCANS
from lawmaster.hardware.electronics.bringup import idle_window_counts
from lawmaster.hardware.electronics.budget import COUNTS, VCC
from lawmaster.hardware.sensor_map import SensorMap
from lawmaster.host.link import MAP_INPUTS as MUX_INPUTS
from lawmaster.host.link import SelfTestReport

#: Columns the printed text wraps at.
WIDTH = 88

#: An OUT reading closer than this to its window's edge (V) is "just outside": a
#: sensor at the edge of its tolerance or a magnet some way off, not a fault in the
#: build. 50 mV is about a quarter of the window's half-width (~94 mV).
NEAR_V = 0.050

_RAIL_HIGH = (
    "stuck at the 3.3 V rail: no DRV5055 drives its output that high (it stays 0.2 V"
    " inside either rail). Its output is shorted to +3V3 (look for a solder bridge"
    " between the sensor's VCC and OUT pins), or the part there is not a DRV5055."
)
_RAIL_LOW = (
    "stuck at 0 V: nothing drives this input. The sensor is missing, dead or unpowered"
    " (its VCC or GND pin not soldered), its output is shorted to ground, or the trace"
    " from it to its multiplexer is broken."
)
_FROZEN = (
    f"the same value in all {SELFTEST_SCANS} scans: a live sensor and the ADC always"
    " wobble by a few counts, so nothing live drives this input. A sensor missing or"
    " not soldered leaves it floating, holding whatever charge it last had; a select"
    " line stuck high or low makes several channels read the same sensor."
)
# DRV5055 (TI SBAS640, "Field Direction Definition"): a south pole towards the
# package's marked side raises the output above VCC/2, a north pole lowers it.
_ABOVE = (
    "a south pole near this sensor: a magnet or piece left on or near this spot (a few"
    " centimetres away is enough), or a magnetised tool or screw close by. With every"
    " magnet well away, a reading that stays out means a different part fitted or a"
    " damaged sensor."
)
# DRV5056 (TI SBAS644): the unipolar sibling, quiescent output 0.6 V; easily
# mistaken for the DRV5055 on a reel or in a bag of SOT-23s.
_BELOW = (
    "a north pole near this sensor: a magnet or piece left on or near this spot (a few"
    " centimetres away is enough), or a magnetised tool or screw close by. With every"
    " magnet well away, a reading that stays out means a different part fitted (the"
    " unipolar DRV5056 idles near 0.6 V, not half the supply) or a damaged sensor."
)
_NEAR = (
    " It is just outside: a sensor at the edge of its tolerance (very warm or cold), or"
    " a magnet some way off. Test again with every magnet away; if it stays out, replace"
    " the sensor."
)
_WHOLE_MUX = (
    " suspect that multiplexer before sixteen sensors: its supply or ground, its enable"
    " pin (tied low), its output to the second level, or a select line to it."
)
_EVERY_MUX = (
    "every multiplexer's channels are OUT: suspect what they share before any sensor: the"
    " sensor rail (TP5), the second-level multiplexer, the select lines, the line into"
    " GP26 (TP4)."
)
CANNOT_SEE = (
    "What this test cannot see: the DRV5055's sensitivity variants (A1 to A4) all idle"
    " at half the supply, so a wrong variant passes here; the calibration's magnet"
    " levels (lawmaster calibrate) show it."
)


def volts(counts: float) -> float:
    """A ``read_u16`` reading as volts at a nominal 3.3 V rail."""
    return counts / COUNTS * VCC


@dataclass(frozen=True)
class IdleRow:
    """One channel of a self-test: where it is, what it read, and the scanner's verdict."""

    channel: int
    space: str | None
    reading: int
    code: int
    window: tuple[int, int]

    @property
    def ok(self) -> bool:
        """True when the scanner found nothing wrong with the channel."""
        return self.code == protocol.FAULT_NONE

    @property
    def sensor(self) -> bool:
        """True when a sensor sits on this channel (the map gives it a space); the others
        are multiplexer inputs tied to ground, not judged."""
        return self.space is not None

    @property
    def volts(self) -> float:
        """The mean idle reading in volts (nominal rail)."""
        return volts(self.reading)

    @property
    def outside_v(self) -> float:
        """How far the reading lies outside the window, in volts (0 inside; negative below)."""
        low, high = self.window
        if self.reading > high:
            return volts(self.reading - high)
        if self.reading < low:
            return -volts(low - self.reading)
        return 0.0


def rows(report: SelfTestReport, sensor_map: SensorMap) -> list[IdleRow]:
    """Every channel of ``report``, with the space ``sensor_map`` puts over it."""
    spaces = sensor_map.space_of_channel()
    return [
        IdleRow(
            channel,
            spaces[channel] if channel < len(spaces) else None,
            reading,
            report.codes[channel],
            report.window,
        )
        for channel, reading in enumerate(report.readings)
    ]


def out(report: SelfTestReport, sensor_map: SensorMap) -> list[IdleRow]:
    """The sensors the self-test found OUT (channels with no sensor are not judged)."""
    return [row for row in rows(report, sensor_map) if row.sensor and not row.ok]


def meaning(row: IdleRow) -> str:
    """What an OUT channel usually means, in plain words ("" for a good one)."""
    if row.ok:
        return ""
    if row.code == protocol.FAULT_HIGH_RAIL:
        return _RAIL_HIGH
    if row.code == protocol.FAULT_LOW_RAIL:
        return _RAIL_LOW
    if row.code == protocol.FAULT_NO_NOISE:
        return _FROZEN
    off = row.outside_v
    text = ("above the window: " + _ABOVE) if off > 0 else ("below the window: " + _BELOW)
    return text + (_NEAR if abs(off) < NEAR_V else "")


def whole_multiplexers(found: list[IdleRow], inputs: int = MUX_INPUTS) -> list[int]:
    """First-level multiplexers all of whose channels are OUT (channel // inputs)."""
    by_mux: dict[int, list[IdleRow]] = {}
    for row in found:
        by_mux.setdefault(row.channel // inputs, []).append(row)
    return [mux for mux, group in sorted(by_mux.items()) if not any(r.ok for r in group)]


def _short(row: IdleRow) -> str:
    if not row.sensor:
        return "no sensor: input tied to ground" + (
            "" if row.code == protocol.FAULT_LOW_RAIL else " (yet it does not read 0 V)"
        )
    if row.ok:
        return "OK"
    if row.code == protocol.FAULT_OFFSET:
        off = row.outside_v
        return f"OUT  {abs(off) * 1000:.0f} mV {'above' if off > 0 else 'below'}"
    return "OUT  " + protocol.FAULT_NAMES.get(row.code, f"fault {row.code}")


def _window_text(window: tuple[int, int]) -> str:
    return f"{volts(window[0]):.3f}-{volts(window[1]):.3f} V"


def _para(text: str, indent: str = "") -> str:
    return textwrap.fill(text, WIDTH, initial_indent=indent, subsequent_indent=" " * len(indent))


def _name(row: IdleRow) -> str:
    return f"{row.channel} ({row.space})" if row.space else f"{row.channel} (no space)"


def table(report: SelfTestReport, sensor_map: SensorMap, *, only_out: bool = False) -> str:
    """The self-test as ``lawmaster selftest`` prints it: a header, one line per channel
    (channel, space, idle volts, expected window, OK/OUT), then what the OUT channels
    usually mean. ``only_out`` leaves the good channels' lines out."""
    expected = idle_window_counts(sensor_map)
    every = rows(report, sensor_map)
    found = [row for row in every if row.sensor]
    bad = [row for row in found if not row.ok]
    lines = [
        _para(
            f"Self-test of {sensor_map.game} ({sensor_map.board}, {sensor_map.sensor.part}):"
            f" {len(found)} sensors on {report.channels} channels, each read {SELFTEST_SCANS}"
            " times with every magnet off the board."
        ),
        _para(
            f"Expected idle voltage: {_window_text(report.window)}"
            f" ({report.window[0]}-{report.window[1]} counts), VCC/2 within the DRV5055's"
            " quiescent spread, its drift over temperature and the Earth's field. Volts are"
            " at a 3.3 V rail: the readings are a ratio of it."
        ),
    ]
    if report.window != expected:
        lines.append(
            _para(
                f"! The scanner judged by {report.window[0]}-{report.window[1]} counts, not"
                f" this board's {expected[0]}-{expected[1]}: it did not take the host's"
                " window (older firmware?)."
            )
        )
    width = max([5, *(len(row.space or "-") for row in found)])
    lines += ["", f"channel  {'space':<{width}}  idle V  expected V     result"]
    for row in every:
        if only_out and (row.ok or not row.sensor):
            continue
        lines.append(
            f"{row.channel:>7}  {row.space or '-':<{width}}  {row.volts:6.3f}"
            f"  {_window_text(row.window):<13}  {_short(row)}"
        )
    lines.append("")
    if not bad:
        lines.append(f"All {len(found)} sensors idle inside the window.")
    else:
        lines.append(
            f"{len(found) - len(bad)} of {len(found)} sensors OK, {len(bad)} OUT."
            " What that usually means:"
        )
        muxes = whole_multiplexers(found)
        if len(muxes) > 1 and len(muxes) == len({row.channel // MUX_INPUTS for row in found}):
            lines.append(_para(_EVERY_MUX, "* "))
        for mux in muxes:
            first = mux * MUX_INPUTS
            last = min(first + MUX_INPUTS, report.channels) - 1
            lines.append(
                _para(
                    f"every sensor of first-level multiplexer {mux} ({first}-{last}) is OUT:"
                    + _WHOLE_MUX,
                    "* ",
                )
            )
        groups: dict[str, list[IdleRow]] = {}
        for row in bad:
            groups.setdefault(meaning(row), []).append(row)
        for text, group in groups.items():
            names = ", ".join(_name(row) for row in group)
            lines.append(_para(f"channel{'s' if len(group) > 1 else ''} {names}: {text}", "- "))
    lines += ["", _para(CANNOT_SEE)]
    return "\n".join(lines)
