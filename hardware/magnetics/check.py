"""``check(board)``: the magnetic figures ``lawmaster hardware check`` reports."""

from __future__ import annotations

from lawmaster.hardware.magnetics import holding, margins, tolerance
from lawmaster.hardware.sensor_map import SensorMap


def check(board: str) -> dict[str, float]:
    """The magnetic margins and holding safety of a standard board.

    ``board`` is the slug :meth:`SensorMap.load` takes (``"gw-brott"``,
    ``"judge-dredd"``, ``"unamerican-graffiti"``). Keys:

    * ``min_margin_counts`` — the worst classification or saturation margin in ADC
      counts over every kind and placement (``margins.min_margin``);
    * ``noise_counts`` — RMS noise of one reading (sensor and ADC, counts);
    * ``min_hold_safety`` — the worst holding safety factor (``holding.holds``);
    * ``worst_saturation_fraction`` — the highest reading over the DRV5055's specified
      range over every tolerance corner (``tolerance.worst_saturation_fraction``);
    * ``worst_corner_margin_counts`` — the smallest detection margin in counts, each
      margin taken at its own worst tolerance corner
      (``tolerance.worst_corner_margin_counts``);
    * ``level_<kind>_counts`` — each kind's reading on a spot's centre;
    * ``gw_follow_ratio``, ``gw_follow_ratio_high_friction`` (GW:s brott) — how well
      GW's blue magnet follows the wooden piece (``holding.gw_follow``, its PTFE glide
      at the low and the high end of its friction range; below 1 it stays behind).
      Reported, not part of the pass rule below.

    The design passes when ``min_margin_counts`` and ``worst_corner_margin_counts`` are
    both at least ``5 * noise_counts``, ``worst_saturation_fraction <= 0.9`` and
    ``min_hold_safety >= 2``.
    """
    sensor_map = SensorMap.load(board)
    out = {
        "min_margin_counts": float(margins.min_margin(sensor_map)),
        "noise_counts": float(margins.noise(sensor_map)),
        "min_hold_safety": float(min(h.safety for h in holding.holds(sensor_map))),
        "worst_saturation_fraction": float(tolerance.worst_saturation_fraction(sensor_map)),
        "worst_corner_margin_counts": float(tolerance.worst_corner_margin_counts(sensor_map)),
    }
    for row in margins.rows(sensor_map):
        if row.where == "cell":
            out[f"level_{row.kind}_counts"] = float(row.centre)
    follow = holding.gw_follow(sensor_map)
    if follow is not None:
        out["gw_follow_ratio"] = float(follow)
        out["gw_follow_ratio_high_friction"] = float(holding.gw_follow(sensor_map, "high"))
    return out
