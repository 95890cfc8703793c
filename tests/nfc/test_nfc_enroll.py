"""Enrolment: prompts, the tap-by-tap flow on the emulator, re-enrolment, the CLI."""

from __future__ import annotations

import queue

import pytest
from click.testing import CliRunner

from lawmaster.host.commands.enroll import command
from lawmaster.host.nfc import tagdata
from lawmaster.host.nfc.cards import Card, NoCardList, card_list
from lawmaster.host.nfc.emulator import Ntag213, PN532Emulator
from lawmaster.host.nfc.enroll import Enrollment, EnrollmentTimeout, prompts_for
from lawmaster.host.nfc.reader import TagReader
from lawmaster.host.nfc.registry import CardRegistry
from lawmaster.host.nfc.tagdata import TagCardId
from lawmaster.host.nfc.transport import ReaderConfig

CARDS = [
    Card("judge-death", "Judge Death", "perp"),
    Card("mutant-attack", "Mutant Attack", "crime"),
    Card("judge-fear", "Judge Fear", "perp"),
]


def test_nfc_prompts_count_within_each_kind():
    texts = [p.text for p in prompts_for(CARDS)]
    assert texts == [
        "tap Perp 1 of 2: Judge Death",
        "tap Crime 1 of 1: Mutant Attack",
        "tap Perp 2 of 2: Judge Fear",
    ]
    only = prompts_for(CARDS, ["judge-fear"])
    assert [(p.text, p.position, p.total) for p in only] == [("tap Perp 2 of 2: Judge Fear", 1, 1)]
    with pytest.raises(KeyError):
        prompts_for(CARDS, ["judge-dread"])


@pytest.fixture
def bench():
    with PN532Emulator() as emulator, CardRegistry(":memory:") as registry:
        events: queue.Queue = queue.Queue()
        with TagReader(ReaderConfig(port=emulator.port), events.put) as reader:
            yield emulator, registry, reader, events


def run(bench, prompts, hand, write_tags=True):
    _, registry, reader, events = bench
    lines: list[str] = []
    enrollment = Enrollment(
        registry,
        "judge-dredd",
        reader,
        events,
        say=lines.append,
        on_prompt=hand,
        write_tags=write_tags,
        tap_timeout=5,
    )
    return enrollment.run(prompts), lines


def test_nfc_enrolment_round_trip_binds_and_writes_every_card(bench):
    emulator, registry, _, _ = bench
    stickers: dict[str, Ntag213] = {}

    def hand(prompt):
        emulator.remove()
        stickers[prompt.card.id] = tag = Ntag213.random()
        emulator.present(tag)

    result, lines = run(bench, prompts_for(CARDS), hand)
    assert registry.enrolled("judge-dredd") == {k: t.uid_hex for k, t in stickers.items()}
    assert sorted(result.written) == sorted(stickers) and not result.write_failed
    for card_id, tag in stickers.items():
        assert tagdata.decode(bytes(tag.pages[16:])) == TagCardId("judge-dredd", card_id)
    assert lines[0] == "[1/3] tap Perp 1 of 2: Judge Death"


def test_nfc_re_enrolment_forgets_the_old_sticker(bench):
    emulator, registry, _, _ = bench
    old, new = Ntag213.random(), Ntag213.random()
    registry.enroll("judge-dredd", CARDS[0], old.uid)

    def hand(prompt):
        emulator.present(new)

    result, lines = run(bench, prompts_for(CARDS, ["judge-death"]), hand, write_tags=False)
    assert result.replaced == {"judge-death": old.uid_hex}
    assert registry.card_for("judge-dredd", old.uid) is None
    assert registry.uid_for("judge-dredd", "judge-death") == new.uid_hex
    assert "now forgotten" in lines[-1]


def test_nfc_a_sticker_of_another_card_is_refused_until_a_fresh_one_comes(bench):
    emulator, registry, reader, events = bench
    taken, fresh = Ntag213.random(), Ntag213.random()
    registry.enroll("judge-dredd", CARDS[0], taken.uid)
    lines: list[str] = []

    def say(line):
        lines.append(line)
        if "already Judge Death" in line:
            emulator.swap(fresh)  # the person picks up the right card

    enrollment = Enrollment(
        registry,
        "judge-dredd",
        reader,
        events,
        say=say,
        on_prompt=lambda prompt: emulator.present(taken),
        tap_timeout=5,
    )
    result = enrollment.run(prompts_for(CARDS, ["judge-fear"]))
    assert result.enrolled == {"judge-fear": fresh.uid_hex}
    assert registry.card_for("judge-dredd", taken.uid) == CARDS[0]
    assert any("tap the sticker of Judge Fear" in line for line in lines)


def test_nfc_enrolment_gives_up_when_nobody_taps(bench):
    emulator, registry, reader, events = bench
    enrollment = Enrollment(
        registry, "judge-dredd", reader, events, say=lambda line: None, tap_timeout=0.3
    )
    with pytest.raises(EnrollmentTimeout):
        enrollment.run(prompts_for(CARDS))
    assert registry.enrolled("judge-dredd") == {}


def real_cards(game):
    try:
        return card_list(game)
    except NoCardList as exc:
        pytest.skip(f"the engine's card list is not there yet: {exc}")


@pytest.mark.parametrize("game", ["gw-brott", "judge-dredd"])
def test_nfc_the_engines_card_lists_load_and_prompt(game):
    cards = real_cards(game)
    assert cards and len({c.id for c in cards}) == len(cards)
    prompts = prompts_for(cards)
    kinds = {c.kind for c in cards}
    assert kinds <= {"criminal", "evidence", "trump", "perp", "crime", "sector", "action"}
    for prompt in prompts:
        assert 1 <= prompt.number <= prompt.of
        assert prompt.text.endswith(f": {prompt.card.name}")
        assert len(tagdata.encode(TagCardId(game, prompt.card.id))) <= tagdata.USER_BYTES


def test_nfc_judge_death_is_prompted_as_a_perp():
    cards = real_cards("judge-dredd")
    if "judge-death" not in {c.id for c in cards}:
        pytest.skip("the Judge Dredd list has no judge-death card")
    (prompt,) = prompts_for(cards, ["judge-death"])
    perps = sum(c.kind == "perp" for c in cards)
    assert prompt.text.startswith("tap Perp ") and prompt.text.endswith(f" of {perps}: Judge Death")


def test_nfc_enroll_command_simulated_enrols_and_recognises_the_deck(tmp_path):
    cards = real_cards("gw-brott")
    db = str(tmp_path / "cards.sqlite")
    runner = CliRunner()
    result = runner.invoke(command, ["gw-brott", "--simulated", "--db", db, "--seed", "1"])
    assert result.exit_code == 0, result.output
    assert f"{len(cards)} of {len(cards)} enrolled cards recognised" in result.output
    assert "not enrolled for gw-brott" in result.output  # the stranger's sticker
    with CardRegistry(db) as registry:
        assert len(registry.enrolled("gw-brott")) == len(cards)
    first = cards[0].id
    again = runner.invoke(
        command, ["gw-brott", "--simulated", "--db", db, "--card", first, "--seed", "2"]
    )
    assert again.exit_code == 0, again.output
    assert "now forgotten" in again.output and "1 of 1 enrolled cards recognised" in again.output


def test_nfc_enroll_command_refuses_a_game_without_cards():
    result = CliRunner().invoke(command, ["unamerican-graffiti", "--simulated"])
    assert result.exit_code != 0 and "no NFC cards" in result.output


def test_nfc_enroll_command_on_a_serial_port(tmp_path):
    import threading
    import time

    cards = real_cards("gw-brott")[:2]
    db = str(tmp_path / "cards.sqlite")
    stickers = [Ntag213.random(), Ntag213.random()]
    with PN532Emulator() as emulator:

        def hand():
            with CardRegistry(db) as registry:
                for tag in stickers:
                    emulator.present(tag)
                    deadline = time.monotonic() + 10
                    # Hold the card until it is enrolled and its id written, as a person would.
                    while time.monotonic() < deadline and not (
                        registry.knows("gw-brott", tag.uid)
                        and tagdata.decode(bytes(tag.pages[16:]))
                    ):
                        time.sleep(0.01)
                    emulator.remove()

        registry = CardRegistry(db)  # create the file before the hand opens it
        registry.close()
        helper = threading.Thread(target=hand)
        helper.start()
        args = ["gw-brott", "--db", db, "--port", emulator.port]
        for card in cards:
            args += ["--card", card.id]
        result = CliRunner().invoke(command, args)
        helper.join()
    assert result.exit_code == 0, result.output
    assert "[1/2] tap Criminal 1 of" in result.output
    with CardRegistry(db) as registry:
        assert registry.enrolled("gw-brott") == {
            card.id: tag.uid_hex for card, tag in zip(cards, stickers, strict=True)
        }
    for tag, card in zip(stickers, cards, strict=True):
        assert tagdata.decode(bytes(tag.pages[16:])) == TagCardId("gw-brott", card.id)
