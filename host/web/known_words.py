"""Words the shipped games give the host's pages as data (setup labels, hints), listed
so the extractor puts them in the catalogue; the setup page looks each one up
(``known`` in :mod:`.i18n`) and shows a word it cannot find as the game wrote it.
A game from another distribution brings its own words untranslated.
"""

from __future__ import annotations


def N_(text: str) -> str:
    """Marks ``text`` for the catalogue and returns it unchanged."""
    return text


SETUP_WORDS = (
    # GW:s brott
    N_("Criminal pieces, in turn order"),
    N_("Board"),
    N_("Two players (one criminal with two pieces)"),
    N_("GW moves"),
    N_("up to the steps rolled"),
    N_("exactly the steps rolled"),
    N_("GW's special move catches criminals"),
    N_("the evidence cards, the criminal cards and GW's trumps"),
    # Judge Dredd
    N_("Players, clockwise"),
    # Unamerican Graffiti
    N_("the Dredd roll"),
    N_("No names needed: the seats are chopper and phantom."),
)
