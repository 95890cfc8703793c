"""Something on the board that must be put right before play goes on.

Host rules that read a board keep these by piece and show their words on every
tablet until the board is right again (their ``board_status``).
"""

from __future__ import annotations

from dataclasses import dataclass

from lawmaster.host.ui.text import told


@dataclass(frozen=True)
class Problem:
    """A board problem: what to do (``text``), and why when the board broke a rule.

    ``kind`` is the game's own grouping, for games that tell some problems in
    public and keep others to the seats who may read them.
    """

    piece: str | None
    text: str
    reason: str = ""
    kind: str = ""

    def words(self) -> str:
        """Why, then what to do, as the tablets show it."""
        if self.reason:
            return told("%(reason)s: %(fix)s", reason=self.reason, fix=self.text)
        return self.text
