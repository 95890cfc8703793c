"""``lawmaster enroll GAME``: teach the card registry which sticker is on which card."""

from __future__ import annotations

import contextlib
import queue
import random
import sys
import tempfile
from pathlib import Path
from typing import Any

import click

from lawmaster.host.config import ConfigError, load
from lawmaster.host.nfc.cards import Card, NoCardList, card_list, game_name
from lawmaster.host.nfc.emulator import Ntag213, PN532Emulator
from lawmaster.host.nfc.enroll import Enrollment, EnrollmentTimeout, Prompt, prompts_for
from lawmaster.host.nfc.events import ReaderEvent, TagRemoved, TagTapped
from lawmaster.host.nfc.reader import TagReader
from lawmaster.host.nfc.registry import CardRegistry, default_path
from lawmaster.host.nfc.table import CardResolver
from lawmaster.host.nfc.transport import ReaderConfig


@click.command("enroll")
@click.argument("game")
@click.option(
    "--db",
    type=click.Path(dir_okay=False),
    help="Card registry (SQLite); default: the config's table.cards, else "
    "~/.local/share/lawmaster/cards.sqlite.",
)
@click.option("--port", default=None, help="Serial port of the PN532 (uart).")
@click.option("--transport", type=click.Choice(["uart", "i2c"]), default="uart")
@click.option(
    "--config",
    "config_path",
    type=click.Path(dir_okay=False),
    default=None,
    help="Table config (TOML): use its NFC reader.",
)
@click.option("--reader", "reader_name", default=None, help="Which [[nfc]] reader of --config.")
@click.option(
    "--card",
    "only",
    multiple=True,
    help="Enrol only this card id (repeatable); re-enrols it if its sticker was replaced.",
)
@click.option("--all", "redo_all", is_flag=True, help="Prompt for already enrolled cards too.")
@click.option(
    "--write-tags/--no-write-tags",
    default=True,
    help="Also write the card id into each tag's memory (default: yes).",
)
@click.option(
    "--simulated",
    is_flag=True,
    help="Run against the PN532 emulator, tapping "
    "fresh virtual stickers, then check the deck by tapping every card.",
)
@click.option("--seed", type=int, default=None, help="Seed of the simulated stickers' UIDs.")
def command(
    game: str,
    db: str | None,
    port: str | None,
    transport: str,
    config_path: str | None,
    reader_name: str | None,
    only: tuple[str, ...],
    redo_all: bool,
    write_tags: bool,
    simulated: bool,
    seed: int | None,
) -> None:
    """Enrol GAME's cards (gw-brott, judge-dredd): tap each card when asked."""
    game = game_name(game)
    try:
        cards = card_list(game)
    except NoCardList as exc:
        raise click.ClickException(str(exc)) from None
    with contextlib.ExitStack() as stack:
        if db is None:
            if simulated:
                db = str(Path(stack.enter_context(tempfile.TemporaryDirectory())) / "cards.sqlite")
            elif config_path is not None:
                db = _table_config(config_path).cards  # the registry the table will read
            else:
                db = str(default_path())
        registry = stack.enter_context(CardRegistry(db))
        try:
            prompts = prompts_for(cards, only or None)
        except KeyError as exc:
            raise click.ClickException(str(exc.args[0])) from None
        if not only and not redo_all:
            done = registry.enrolled(game)
            prompts = [p for p in prompts if p.card.id not in done]
            prompts = [
                Prompt(p.card, p.number, p.of, i, len(prompts))
                for i, p in enumerate(prompts, start=1)
            ]
        click.echo(
            f"registry {db}: {len(registry.enrolled(game))} of {len(cards)} "
            f"{game} cards enrolled; {len(prompts)} to go"
        )
        if not prompts:
            return
        if simulated:
            _simulated(registry, game, cards, prompts, write_tags, seed, stack)
        else:
            config = _reader_config(port, transport, config_path, reader_name)
            events: queue.Queue[ReaderEvent] = queue.Queue()
            reader = stack.enter_context(TagReader(config, events.put))
            click.echo(
                f"reader {config.name} on {config.port if transport == 'uart' else 'i2c'}"
                " (Ctrl-C stops; what is enrolled stays enrolled)"
            )
            if write_tags:
                click.echo("hold each card on the reader until its line says it was written")
            try:
                Enrollment(
                    registry, game, reader, events, say=click.echo, write_tags=write_tags
                ).run(prompts)
            except KeyboardInterrupt:
                click.echo("\nstopped")
                sys.exit(130)
        click.echo(f"done: {len(registry.enrolled(game))} of {len(cards)} {game} cards enrolled")


def _table_config(path: str) -> Any:
    """The table config at ``path`` (``lawmaster.host.config``), or a clean CLI error."""
    try:
        return load(path)
    except ConfigError as exc:
        raise click.ClickException(str(exc)) from None


def _reader_config(
    port: str | None, transport: str, config_path: str | None, reader_name: str | None
) -> ReaderConfig:
    if config_path is not None:
        try:
            readers = [ReaderConfig.from_object(r) for r in _table_config(config_path).nfc]
        except ValueError as exc:
            raise click.ClickException(str(exc)) from None
        chosen = [r for r in readers if reader_name in (None, r.name)]
        if not chosen:
            raise click.ClickException(f"no NFC reader {reader_name or ''} in {config_path}")
        return chosen[0]
    if transport == "uart" and port is None:
        raise click.UsageError("give --port (or --config, or --simulated)")
    return ReaderConfig(name="enrol", transport=transport, port=port or "")


def _simulated(
    registry: CardRegistry,
    game: str,
    cards: list[Card],
    prompts: list[Prompt],
    write_tags: bool,
    seed: int | None,
    stack: contextlib.ExitStack,
) -> None:
    """Enrol with virtual stickers on the emulator, then tap every card to check it."""
    rng = random.Random(seed)
    emulator = stack.enter_context(PN532Emulator())
    resolver = CardResolver(registry, game, cards)
    events: queue.Queue[ReaderEvent] = queue.Queue()
    # A short wait per poll: the emulator answers at once, and lifts are noticed sooner.
    config = ReaderConfig(name="simulated", port=emulator.port, poll_timeout=0.05)
    reader = stack.enter_context(TagReader(config, events.put, wants_tag_id=resolver.needs_tag_id))
    click.echo(f"simulated PN532 on {emulator.port}")
    stickers: dict[str, Ntag213] = {}

    def hand(prompt: Prompt) -> None:
        emulator.remove()
        stickers[prompt.card.id] = tag = Ntag213.random(rng)
        emulator.present(tag)

    enrollment = Enrollment(
        registry,
        game,
        reader,
        events,
        say=click.echo,
        on_prompt=hand,
        write_tags=write_tags,
        tap_timeout=5,
    )
    try:
        enrollment.run(prompts)
    except EnrollmentTimeout as exc:
        raise click.ClickException(str(exc)) from None
    _lift(emulator, events)
    click.echo("check: tapping every enrolled card, then a stranger's sticker")
    ok = 0
    for card_id, tag in [*stickers.items(), ("(stranger)", Ntag213.random(rng))]:
        resolved = resolver.resolve(_tap(emulator, events, tag))
        name = getattr(getattr(resolved, "card", None), "id", None)
        if name == card_id:
            ok += 1
        elif card_id == "(stranger)":
            click.echo(f"    stranger: {getattr(resolved, 'message', resolved)}")
        else:
            click.echo(f"    {card_id}: MISMATCH {resolved}")
    click.echo(f"    {ok} of {len(stickers)} enrolled cards recognised")


def _wait_for(events: queue.Queue[ReaderEvent], kind: type, uid: str) -> ReaderEvent:
    """The next reader event of ``kind`` about ``uid``."""
    try:
        while True:
            event = events.get(timeout=5)
            if isinstance(event, kind) and getattr(event, "uid", None) == uid:
                return event
    except queue.Empty:
        raise click.ClickException(f"the simulated reader did not report {uid}") from None


def _lift(emulator: PN532Emulator, events: queue.Queue[ReaderEvent]) -> None:
    """Take the tag off the reader and wait until the reader has seen it go."""
    tag = emulator.tag
    emulator.remove()
    if tag is not None:
        _wait_for(events, TagRemoved, tag.uid_hex)


def _tap(emulator: PN532Emulator, events: queue.Queue[ReaderEvent], tag: Ntag213) -> TagTapped:
    """Lay ``tag`` on the reader, lift it again, and return its tap event."""
    emulator.present(tag)
    event = _wait_for(events, TagTapped, tag.uid_hex)
    _lift(emulator, events)
    assert isinstance(event, TagTapped)
    return event
