"""``lawmaster bench --json [GROUP...]``: measured figures as one JSON object."""

from __future__ import annotations

import json

import click

from lawmaster.host.bench import GroupUnavailable, available_groups, plan, run_groups


def _help() -> str:
    return (
        "Measure speed and print the figures; GROUPS default to all of them (a group this"
        " machine cannot run is then left out, its reason under \"skipped\").\n\n"
        f"Groups: {', '.join(available_groups())}."
    )


@click.command("bench", help=_help())
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object (the default).")
@click.argument("groups", nargs=-1)
def command(as_json: bool, groups: tuple[str, ...]) -> None:
    known = available_groups()
    unknown = [g for g in groups if g not in known]
    if unknown:
        raise click.UsageError(
            f"unknown bench group(s) {', '.join(unknown)}; known: {', '.join(known)}"
        )
    try:
        to_run, skipped = plan(groups)
    except GroupUnavailable as exc:
        raise click.ClickException(str(exc)) from None
    figures: dict[str, object] = dict(run_groups(to_run))
    if skipped:
        figures["skipped"] = skipped
    if as_json:
        click.echo(json.dumps(figures, sort_keys=True))
    else:
        for key, value in sorted(figures.items()):
            click.echo(f"{key:40} {value}")
