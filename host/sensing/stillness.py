"""How long a slide crossing a sensor looks still: what the long window must outlast.

A magnet slid over a spot makes the reading rise to its level and fall again. At
the top the field is flat (the magnet is wider than the sensor, and the keeper
spreads it further), so for a while every reading lies within the tight still
spread of :class:`~lawmaster.host.sensing.sensing.Sensing` and, with the creep
allowance, looks like a magnet at rest. The long window (``LONG_STILL_MS``) has
to outlast that time for the slowest careful slide, or the tracker reports the
slide as stopping on a cell it only passed.

:func:`crossing_still_ms` computes that time from the same magpylib field tables
the simulator reads (``lawmaster.hardware.magnetics.fields``), for a pass straight
over the centre (the longest chord through the flat top), noise-free but with the
still spread the sensing allows a channel of the board's noise figure (the
DRV5055's noise and the RP2040 ADC's ENOB, ``hardware.magnetics.margins.noise``,
the figure the simulator runs at): a noisier channel is allowed a wider spread,
so a slide looks still for longer.
"""

from __future__ import annotations

from lawmaster.hardware.magnetics.fields import field_table
from lawmaster.hardware.magnetics.margins import noise as board_noise
from lawmaster.hardware.sensor_map import SensorMap
from lawmaster.host.sensing.sensing import creep_counts, still_spread

#: The slowest a careful hand carries a piece over a cell it passes mid-slide: the
#: simulated hands' careful slide (55-60 mm/s over three cells, minimum-jerk, as
#: ``tests/sensing/test_tracker_observations.py`` plays it) crosses its middle cells
#: at 64 mm/s and more; 60 keeps a margin below that.
CAREFUL_CROSSING_MM_S = 60.0
_STEP_MM = 0.01


def _reading(sensor_map: SensorMap, kind: str, rho_mm: float) -> float:
    """|reading − baseline| in counts with a ``kind`` magnet ``rho_mm`` off the centre."""
    spec = sensor_map.sensor
    counts_per_mt = spec.sensitivity_mv_per_mt / (spec.supply_v * 1000) * 65536
    mt = sum(m.sign * field_table(m, spec).bz(rho_mm) for m in sensor_map.kinds[kind].magnets)
    return abs(mt * counts_per_mt)


def still_half_chord_mm(sensor_map: SensorMap, kind: str, noise: float | None = None) -> float:
    """How far from the centre a pass over it still looks still, on each side (mm).

    The window centred on the peak holds readings from the level down to the reading
    at the chord's ends; it looks still while that spread is within the still spread
    plus the creep allowance (reckoned on the window's mean, as the sensing does).
    """
    height = _reading(sensor_map, kind, 0.0)
    tol = still_spread(board_noise(sensor_map) if noise is None else noise, height)
    d = 0.0
    while d < sensor_map.pitch_mm / 2:
        nd = d + _STEP_MM
        samples = [_reading(sensor_map, kind, nd * i / 40) for i in range(41)]
        below = height - sum(samples) / len(samples)
        if height - samples[-1] > tol + creep_counts(height, below):
            break
        d = nd
    return d


def curvature(sensor_map: SensorMap, kind: str) -> float:
    """``a`` of ``level − reading ≈ a·level·d²`` near the centre (per mm², from 1 mm off)."""
    height = _reading(sensor_map, kind, 0.0)
    return (height - _reading(sensor_map, kind, 1.0)) / height


def kind_crossing_still_ms(
    sensor_map: SensorMap,
    kind: str,
    *,
    noise: float | None = None,
    speed_mm_s: float = CAREFUL_CROSSING_MM_S,
) -> float:
    """How long a slide of ``kind`` at ``speed_mm_s`` looks still crossing a spot (ms):
    what that kind's long window (``Kind.long_still_ms``) must outlast."""
    return 2 * still_half_chord_mm(sensor_map, kind, noise) / speed_mm_s * 1000


def crossing_still_ms(
    sensor_map: SensorMap,
    *,
    noise: float | None = None,
    speed_mm_s: float = CAREFUL_CROSSING_MM_S,
) -> float:
    """The longest a slide at ``speed_mm_s`` looks still crossing a spot, over the kinds."""
    return max(
        kind_crossing_still_ms(sensor_map, kind, noise=noise, speed_mm_s=speed_mm_s)
        for kind in sensor_map.kinds
    )
