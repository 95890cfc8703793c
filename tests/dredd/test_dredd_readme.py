"""The rules README's hand-written scenario and the shipped example replay as documented."""

from __future__ import annotations

from importlib import resources
from pathlib import Path

from lawmaster.host.games import engine_for
from lawmaster.rules.core.replay import replay

REPO = Path(__file__).resolve().parents[2]


def test_dredd_readme_scenario_gives_the_card_example_total():
    text = resources.files("lawmaster.rules.judge_dredd").joinpath("README.md").read_text()
    block = text.split("## A scenario by hand")[1].split("```")[1]
    out = list(replay(block.splitlines(), engines=engine_for))
    assert all(r.get("ok") for r in out[:-1])
    result = next(e for e in out[-2]["events"] if e["type"] == "combat_result")
    assert result["strengths"] == [10] and result["perp_strength"] == 11


def test_dredd_example_round_replays_with_only_its_one_deliberate_refusal():
    path = REPO / "examples" / "judge-dredd" / "first-round.jsonl"
    out = list(replay(path.read_text().splitlines(), engines=engine_for))
    refused = [r for r in out[:-1] if not r.get("ok")]
    assert len(refused) == 1 and "at most 2" in refused[0]["error"]
    summary = out[-1]["summary"]
    assert summary["round"] == 2 and summary["starting_player"] == "anderson"
    assert summary["judges"]["anderson"]["score"] == 3
    assert summary["judges"]["dredd"]["sector"] == "justice-department-hospital"
