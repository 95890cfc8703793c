"""Judge Dredd's engine speaks English ids and reasons; the pages say each in words, in
English and Swedish. These checks read the engine's own source, so a new event or a
changed reason in ``rules/judge_dredd`` fails here until ``host/games/judge_dredd/words.py``
has a sentence for it and the Swedish catalogue translates that sentence.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest
from flask_babel import force_locale

from lawmaster.host.games.judge_dredd import words
from lawmaster.host.web import create_app

RULES = Path(words.__file__).resolve().parents[3] / "rules" / "judge_dredd"


def _calls(name: str) -> list[ast.Call]:
    found = []
    for source in sorted(RULES.glob("*.py")):
        for node in ast.walk(ast.parse(source.read_text(), str(source))):
            if isinstance(node, ast.Call) and getattr(node.func, "id", None) == name:
                found.append(node)
    return found


def engine_event_types() -> set[str]:
    """Every event type the engine makes: ``public("type", ...)``, ``private(seat, "type",
    ...)``."""
    types = set()
    for call in _calls("public"):
        if call.args and isinstance(call.args[0], ast.Constant):
            types.add(call.args[0].value)
    for call in _calls("private"):
        if len(call.args) > 1 and isinstance(call.args[1], ast.Constant):
            types.add(call.args[1].value)
    return types


def engine_reasons() -> set[str]:
    """Every reason the engine gives for what it asks (``add(seats, act, why)`` and the
    ``why = "..."`` it passes), with a formatted one's value filled in each way it can."""
    reasons: set[str] = set()
    views = ast.parse((RULES / "views.py").read_text())
    for node in ast.walk(views):
        if isinstance(node, ast.Call) and getattr(node.func, "id", None) == "add":
            why = node.args[2]
            if isinstance(why, ast.Constant):
                reasons.add(why.value)
            elif isinstance(why, ast.JoinedStr):
                template = "".join(
                    p.value if isinstance(p, ast.Constant) else "{}" for p in why.values
                )
                if template.startswith("accept the {}"):
                    reasons |= {template.format(kind) for kind in ("barney", "boing")}
                else:
                    reasons |= {template.format(n) for n in (1, 2, 3, 4)}
        elif (
            isinstance(node, ast.Assign)
            and isinstance(node.value, ast.Constant)
            and any(getattr(t, "id", None) == "why" for t in node.targets)
        ):
            reasons.add(node.value.value)
    return reasons


@pytest.fixture(scope="module")
def app():
    return create_app(None)


def test_web_dredd_words_every_event_of_the_engine_has_a_sentence_in_both_languages(app):
    types = engine_event_types()
    assert "action_deck_reshuffled" in types and len(types) > 30  # the scan found them
    missing = sorted(types - set(words._SAY))
    assert missing == [], f"events without a sentence in words.py: {missing}"
    event = {"type": "action_deck_reshuffled", "size": 37}
    with app.test_request_context():
        with force_locale("en"):
            english = words.describe(event)
        with force_locale("sv"):
            swedish = words.describe(event)
    assert english == (
        "The Action deck ran out: the discarded Action cards are shuffled into a new deck of 37."
    )
    assert "37" in swedish and swedish != english


def test_web_dredd_words_every_reason_the_engine_asks_with_is_said_in_swedish(app):
    reasons = engine_reasons()
    assert "reveal the cards" in reasons and len(reasons) > 20  # the scan found them
    untranslated = []
    with app.test_request_context():
        for reason in sorted(reasons):
            with force_locale("en"):
                english = words.why(reason)
            with force_locale("sv"):
                swedish = words.why(reason)
            if swedish == english:
                untranslated.append(reason)
    assert untranslated == [], f"reasons with no Swedish in words.WHY: {untranslated}"
