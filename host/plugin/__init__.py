"""The game plugin seam: what a game gives the host, and what the host gives it.

* :class:`Game` — one game: engine, host rules, seat pages, setup, players,
  cards, sensor maps (:mod:`.game`);
* :class:`GameRules` and its decisions :class:`Play`, :class:`Ask`,
  :class:`Wait` and :class:`Question` — how a game's rules read the table's
  inputs and answer the referee (:mod:`.rules`);
* :class:`Players`, :class:`SeatPort` and :class:`Intent` — simulated
  players deciding through the seats' own pages (:mod:`.players`);
* :class:`Problem` — something on the board to put right, in words for the
  tablets (:mod:`.problems`).

Games are found through :mod:`lawmaster.host.games`; ``docs/PLUGINS.md`` shows
how to write one.
"""

from .game import SCORE_WORDS, Game, Readers, Score, Setup, SetupField
from .players import Intent, Players, SeatPort, decision_rng, next_turn, waiting_seats
from .problems import Problem
from .rules import (
    BOARD,
    BUTTON,
    DIGITAL,
    NFC,
    TABLET,
    Accepted,
    Action,
    Answer,
    Ask,
    Completed,
    Decision,
    Expect,
    GameRules,
    Play,
    Prompt,
    Question,
    RulesContext,
    Status,
    Wait,
    prompt,
    refusal,
)

__all__ = [
    "BOARD",
    "BUTTON",
    "DIGITAL",
    "NFC",
    "SCORE_WORDS",
    "TABLET",
    "Accepted",
    "Action",
    "Answer",
    "Ask",
    "Completed",
    "Decision",
    "Expect",
    "Game",
    "GameRules",
    "Intent",
    "Play",
    "Players",
    "Problem",
    "Prompt",
    "Question",
    "Readers",
    "RulesContext",
    "Score",
    "SeatPort",
    "Setup",
    "SetupField",
    "Status",
    "Wait",
    "decision_rng",
    "next_turn",
    "prompt",
    "refusal",
    "waiting_seats",
]
