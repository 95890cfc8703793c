"""The ``lawmaster`` command.

Each subcommand lives in its own module under :mod:`lawmaster.host.commands`
and exposes a ``click`` command named ``command``; they are found at start-up so
that adding a command never means editing this file.
"""

from __future__ import annotations

import importlib
import pkgutil

import click

from lawmaster import __version__
from lawmaster.host import commands


class _Commands(click.Group):
    """A group whose subcommands are the modules of :mod:`lawmaster.host.commands`."""

    def _names(self) -> dict[str, str]:
        found = {}
        for info in pkgutil.iter_modules(commands.__path__):
            if not info.name.startswith("_"):
                found[info.name.replace("_", "-")] = info.name
        return found

    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted(self._names())

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        module_name = self._names().get(cmd_name)
        if module_name is None:
            return None
        module = importlib.import_module(f"{commands.__name__}.{module_name}")
        return module.command


@click.command(cls=_Commands)
@click.version_option(__version__, prog_name="lawmaster")
def main() -> None:
    """Lawmaster: an automatic referee for board games played on real boards."""
