"""``check(board)``: the magnetic figures ``lawmaster hardware check`` reports."""

from __future__ import annotations

from lawmaster.hardware.magnetics import holding, margins
from lawmaster.hardware.sensor_map import SensorMap


def check(board: str) -> dict[str, float]:
    """The magnetic margins and holding safety of a standard board.

    ``board`` is the slug :meth:`SensorMap.load` takes (``"gw-brott"``,
    ``"judge-dredd"``, ``"unamerican-graffiti"``). Keys:

    * ``min_margin_counts`` — the worst classification or saturation margin in ADC
      counts over every kind and placement (``margins.min_margin``);
    * ``noise_counts`` — RMS noise of one reading (sensor and ADC, counts);
    * ``min_hold_safety`` — the worst holding safety factor (``holding.holds``);
    * ``level_<kind>_counts`` — each kind's reading on a spot's centre;
    * ``gw_follow_ratio``, ``gw_follow_ratio_high_friction`` (GW:s brott) — how well
      GW's blue magnet follows the wooden piece (``holding.gw_follow``, its PTFE glide
      at the low and the high end of its friction range; below 1 it stays behind).
      Reported, not part of the pass rule below.

    The design passes when ``min_margin_counts >= 5 * noise_counts`` and
    ``min_hold_safety >= 2``.
    """
    sensor_map = SensorMap.load(board)
    out = {
        "min_margin_counts": float(margins.min_margin(sensor_map)),
        "noise_counts": float(margins.noise(sensor_map)),
        "min_hold_safety": float(min(h.safety for h in holding.holds(sensor_map))),
    }
    for row in margins.rows(sensor_map):
        if row.where == "cell":
            out[f"level_{row.kind}_counts"] = float(row.centre)
    follow = holding.gw_follow(sensor_map)
    if follow is not None:
        out["gw_follow_ratio"] = float(follow)
        out["gw_follow_ratio_high_friction"] = float(holding.gw_follow(sensor_map, "high"))
    return out
