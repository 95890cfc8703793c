"""Every figure ``lawmaster hardware check`` reports for a board, and which fail.

The electrical figures come from :mod:`lawmaster.hardware.electronics` (ERC of
the SKiDL circuits, the supply, settling and heat budgets); the magnetic ones
(classification margin, noise, holding safety) from
:func:`lawmaster.hardware.magnetics.check`. A figure fails when it misses its
requirement:

============================= ======================================
``erc_errors``                 == 0
``supply_capacity_a``          ≥ 1.25 × ``supply_worst_a``
``supply_min_margin``          ≥ 1.25 (every rail of the table)
``buck_headroom_v``            > 0 (input above output + dropout)
``settle_us``                  ≤ ``dwell_us`` / 2
``min_margin_counts``          ≥ 5 × ``noise_counts``
``min_hold_safety``            ≥ 2
``rail_sensor_min_v``          ≥ ``rail_sensor_vcc_min_v`` (the
                               DRV5055's lowest supply, after the
                               copper's drop at the buck's low end)
``parts_fit``                  true (every part fits the room on its
                               PCB face; no lead into a glued face)
============================= ======================================
"""

from __future__ import annotations

import math

from lawmaster.hardware import magnetics
from lawmaster.hardware.electronics.budget import figures as electrical
from lawmaster.hardware.electronics.generate import board_erc
from lawmaster.hardware.pcb import fit

SUPPLY_MARGIN = 1.25
MAGNETIC_KEYS = ("min_margin_counts", "noise_counts", "min_hold_safety")


def check(board: str) -> dict[str, float]:
    """All figures of one standard board (``"gw-brott"``…)."""
    result = board_erc(board)
    figures = {"erc_errors": float(result.errors), "erc_warnings": float(result.warnings)}
    figures.update(electrical(board))
    figures.update(fit.figures(board))
    magnetic = magnetics.check(board)
    for key in MAGNETIC_KEYS:
        value = float(magnetic[key])
        if not math.isfinite(value):
            raise ValueError(f"magnetics.check({board!r}) gave {key} = {value}")
        figures[key] = value
    if "gw_follow_ratio" in magnetic:
        # GW's pair only works if the wooden piece can drag the blue magnet (and a
        # caught criminal with it) across the front: more pull than the blue one's grip,
        # all the way from one keeper to the next, even at the sticky end of its glide.
        figures["gw_follow_ratio"] = float(magnetic["gw_follow_ratio"])
        figures["gw_follow_ratio_high_friction"] = float(
            magnetic["gw_follow_ratio_high_friction"]
        )
    return figures


def failures(figures: dict[str, float]) -> list[str]:
    """What a board's figures miss, in words (empty: every budget and margin is met)."""
    out = []
    if figures["erc_errors"] != 0:
        out.append(f"ERC reports {figures['erc_errors']:.0f} error(s)")
    if figures["supply_capacity_a"] < SUPPLY_MARGIN * figures["supply_worst_a"]:
        out.append(
            f"the sensor supply gives {figures['supply_capacity_a']:.2f} A for a worst case of"
            f" {figures['supply_worst_a']:.2f} A (needs {SUPPLY_MARGIN} ×)"
        )
    if figures["supply_min_margin"] < SUPPLY_MARGIN:
        out.append(f"a supply rail has only {figures['supply_min_margin']:.2f} × its worst case")
    if figures["buck_headroom_v"] <= 0:
        out.append("the buck's input is below its output plus its dropout")
    if figures["settle_us"] > figures["dwell_us"] / 2:
        out.append(
            f"settling takes {figures['settle_us']:.2f} µs, more than half the"
            f" {figures['dwell_us']:.2f} µs dwell"
        )
    if figures["min_margin_counts"] < 5 * figures["noise_counts"]:
        out.append(
            f"the worst classification margin, {figures['min_margin_counts']:.0f} counts, is"
            f" under 5 × the noise ({figures['noise_counts']:.1f} counts)"
        )
    if figures.get("rail_sensor_min_v", 99.0) < figures.get("rail_sensor_vcc_min_v", 0.0):
        out.append(
            f"the farthest sensor gets {figures['rail_sensor_min_v']:.3f} V, under the"
            f" DRV5055's {figures['rail_sensor_vcc_min_v']:.2f} V"
            f" ({figures['rail_drop_mv']:.0f} mV lost in the copper)"
        )
    if not figures.get("parts_fit", True):
        out.append("a part does not fit the room on its PCB face (see lawmaster.hardware.pcb.fit)")
    if figures["min_hold_safety"] < 2:
        out.append(f"the worst holding safety factor is {figures['min_hold_safety']:.2f} (< 2)")
    follow = min(
        figures.get("gw_follow_ratio", math.inf),
        figures.get("gw_follow_ratio_high_friction", math.inf),
    )
    if follow < 1:
        out.append(
            f"GW's blue magnet does not follow the wooden piece: the pull along the board is"
            f" {follow:.2f} × what holds it back (needs at least 1 at either end of its"
            " glide's friction)"
        )
    return out
