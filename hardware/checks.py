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
``min_margin_counts``          ≥ 5 × ``noise_with_ripple_counts``
``worst_corner_margin_counts`` ≥ 5 × ``noise_with_ripple_counts`` (at every
                               tolerance corner)
``worst_saturation_fraction``  ≤ 0.9 (at every tolerance corner)
``min_hold_safety``            ≥ 2
``rail_sensor_min_v``          ≥ ``rail_sensor_vcc_min_v`` (the
                               DRV5055's lowest supply, after the
                               copper's drop at the buck's low end)
``parts_fit``                  true (every part fits the room on its
                               PCB face; no lead into a glued face)
============================= ======================================

``noise_with_ripple_counts`` is a reading's noise (``noise_counts``, the ADC's and
the sensor's own) and the supply ripple left in it after the rail filter
(``ripple_counts_rms``, :func:`lawmaster.hardware.electronics.budget.ripple`) added
as independent noise: a design without the filter leaves ~177 counts of ripple and
fails here.

``cost_eur`` (what one table costs, ``hardware/BOM.md``) and the part of it resting
on estimated prices, ``cost_estimated_eur``, are reported, not judged.
"""

from __future__ import annotations

import math

from lawmaster.hardware.electronics.budget import combined_noise
from lawmaster.hardware.electronics.budget import figures as electrical
from lawmaster.hardware.electronics.cost import bill
from lawmaster.hardware.electronics.generate import board_erc, host_design, scanner_design
from lawmaster.hardware.electronics.pcb_cost import specs_for
from lawmaster.hardware.magnetics.check import check as magnetic_check
from lawmaster.hardware.magnetics.tolerance import SATURATION_LIMIT
from lawmaster.hardware.pcb import fit

SUPPLY_MARGIN = 1.25
MAGNETIC_KEYS = (
    "min_margin_counts",
    "noise_counts",
    "min_hold_safety",
    "worst_saturation_fraction",
    "worst_corner_margin_counts",
)


def check(board: str) -> dict[str, float]:
    """All figures of one standard board (``"gw-brott"``…)."""
    result = board_erc(board)
    figures = {"erc_errors": float(result.errors), "erc_warnings": float(result.warnings)}
    figures.update(electrical(board))
    figures.update(fit.figures(board))
    # What one table costs, every line priced from hardware/prices.json (BOM.md's table).
    priced = bill(board, [scanner_design(board), host_design("i2c")], specs_for(board))
    figures["cost_eur"] = priced.total_eur
    figures["cost_estimated_eur"] = priced.estimate_eur
    magnetic = magnetic_check(board)
    for key in MAGNETIC_KEYS:
        value = float(magnetic[key])
        if not math.isfinite(value):
            raise ValueError(f"magnetic_check({board!r}) gave {key} = {value}")
        figures[key] = value
    figures["noise_with_ripple_counts"] = combined_noise(
        figures["noise_counts"], figures["ripple_counts_rms"]
    )
    if "gw_follow_ratio" in magnetic:
        # GW's pair only works if the wooden piece can drag the blue magnet (and a
        # caught criminal with it) across the front: more pull than the blue one's grip,
        # all the way from one keeper to the next, even at the sticky end of its glide.
        figures["gw_follow_ratio"] = float(magnetic["gw_follow_ratio"])
        figures["gw_follow_ratio_high_friction"] = float(magnetic["gw_follow_ratio_high_friction"])
    return figures


def _noise(figures: dict[str, float]) -> float:
    """The noise a margin is judged against: the reading's own and the ripple left in it."""
    return combined_noise(figures["noise_counts"], figures.get("ripple_counts_rms", 0.0))


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
    noise = _noise(figures)
    if figures["min_margin_counts"] < 5 * noise:
        out.append(
            f"the worst classification margin, {figures['min_margin_counts']:.0f} counts, is"
            f" under 5 × the noise with the supply ripple ({noise:.1f} counts)"
        )
    if "worst_corner_margin_counts" in figures and (
        figures["worst_corner_margin_counts"] < 5 * noise
    ):
        out.append(
            f"at its worst tolerance corner a margin is {figures['worst_corner_margin_counts']:.0f}"
            f" counts, under 5 × the noise with the supply ripple ({noise:.1f} counts)"
        )
    if figures.get("worst_saturation_fraction", 0.0) > SATURATION_LIMIT:
        out.append(
            "at its worst tolerance corner a sensor reads"
            f" {figures['worst_saturation_fraction']:.0%} of its specified range"
            f" (at most {SATURATION_LIMIT:.0%})"
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
