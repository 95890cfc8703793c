"""``lawmaster hardware``: check the table's electronics and magnetics, regenerate its documents.

``lawmaster hardware check [--board B] [--json]`` prints every budget and margin
of each standard board (or one) and exits 1 when one is not met (the
requirements: :mod:`lawmaster.hardware.checks`). ``lawmaster hardware generate
[--check] [--force]`` rewrites every text file generated from the design
(:mod:`lawmaster.hardware.generate`: ``hardware/BOM.md``, ``wiring.md``,
``hardware/schematic/``, the generated sections of ``hardware/BUILD.md``, the
mechanical drawings and parts list, ``MAGNETICS.md``, ``SENSOR-MAPS.md``'s example,
the templates, the footprint library) and every PCB under ``hardware/pcb/`` whose
sources changed (``--force``: every PCB), or, with ``--check``, exits 1 when a
committed one is out of date.
"""

from __future__ import annotations

import json

import click

BOARDS = ("gw-brott", "judge-dredd", "unamerican-graffiti")

#: (key, label, unit) in the order the human-readable report prints them.
ROWS = (
    ("erc_errors", "ERC errors", ""),
    ("erc_warnings", "ERC warnings", ""),
    ("sensors", "hall sensors", ""),
    ("first_level_muxes", "first-level 74HC4067", ""),
    ("second_level_muxes", "second-level 74HC4067", ""),
    ("supply_worst_a", "sensor rail, worst case", "A"),
    ("supply_capacity_a", "sensor rail, capacity", "A"),
    ("supply_min_margin", "tightest rail of the table, capacity / worst", "×"),
    ("buck_headroom_v", "buck input above output + dropout", "V"),
    ("scan_rate", "scan rate", "/s"),
    ("dwell_us", "dwell per channel", "µs"),
    ("settle_us", "settling to ½ LSB", "µs"),
    ("conversion_us", "ADC conversion", "µs"),
    ("heat_w", "sensor layer dissipation", "W"),
    ("heat_rise_k", "sensor die above room", "K"),
    ("heat_offset_counts", "offset drift over that rise", "counts"),
    ("heat_gain_counts", "gain drift at full swing", "counts"),
    ("rail_drop_mv", "3.3 V copper drop + ground rise, worst sensor", "mV"),
    ("rail_sensor_min_v", "lowest sensor supply (buck at its low end)", "V"),
    ("ground_offset_counts", "ground rise at the worst sensor", "counts"),
    ("parts_fit", "every part fits its PCB face (1 = yes)", ""),
    ("parts_worst_margin_mm", "tightest room over a part", "mm"),
    ("min_margin_counts", "worst classification margin", "counts"),
    ("noise_counts", "noise", "counts"),
    ("ripple_counts_rms", "buck ripple left after the rail filter, worst case (RMS)", "counts"),
    ("noise_with_ripple_counts", "noise and ripple together (margins ≥ 5 ×)", "counts"),
    ("worst_corner_margin_counts", "worst margin at its worst tolerance corner", "counts"),
    ("worst_saturation_fraction", "sensor's range used at the worst corner", "×"),
    ("min_hold_safety", "worst holding safety factor", "×"),
    ("gw_follow_ratio", "blue magnet follows (pull/resist), PTFE low μ", "×"),
    ("gw_follow_ratio_high_friction", "blue magnet follows (pull/resist), PTFE high μ", "×"),
    ("heat_tau_min", "board's thermal time constant", "min"),
    ("z_line_cable_pf", "bus cable on the longest analog line", "pF"),
    ("cost_eur", "one table, every BOM line priced", "EUR"),
    ("cost_estimated_eur", "of which on estimated prices", "EUR"),
)


@click.group()
def command() -> None:
    """The table's hardware design: budgets, margins and generated documents."""


@command.command("check")
@click.option("--board", type=click.Choice(BOARDS), default=None, help="One board (default all).")
@click.option("--json", "as_json", is_flag=True, help="One JSON object: board → figures.")
def check(board: str | None, as_json: bool) -> None:
    """Print every budget and margin; exit 1 when one is not met."""
    # Here, not at the top: the circuits behind the checks import SKiDL, of the optional
    # [hardware] extra, and `lawmaster --help` imports every command's module.
    from lawmaster.hardware.checks import check as figures_of
    from lawmaster.hardware.checks import failures

    boards = (board,) if board else BOARDS
    results = {b: figures_of(b) for b in boards}
    problems = {b: failures(results[b]) for b in boards}
    if as_json:
        click.echo(json.dumps(results, indent=1, sort_keys=True))
    else:
        for b in boards:
            click.echo(b)
            for key, label, unit in ROWS:
                value = results[b].get(key)
                if value is not None:
                    click.echo(f"  {label:<46} {value:10.3f} {unit}")
            for problem in problems[b]:
                click.echo(f"  FAIL: {problem}")
            if not problems[b]:
                click.echo("  every budget and margin is met")
    if any(problems.values()):
        raise SystemExit(1)


@command.command("generate")
@click.option("--check", "only_check", is_flag=True, help="Write nothing; exit 1 if out of date.")
@click.option("--force", is_flag=True, help="Rebuild every PCB, not only those that changed.")
def generate(only_check: bool, force: bool) -> None:
    """Rewrite every file generated from the design (BOM.md, wiring.md, drawings, PCBs)."""
    # Here, not at the top: SKiDL, of the optional [hardware] extra (see check).
    from lawmaster.hardware import generate as gen

    raise SystemExit(gen.main(["--check"] * only_check + ["--force"] * force))
