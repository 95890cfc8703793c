"""``lawmaster hall``: every table's public game on one screen, from the MQTT broker.

Each table publishes (:mod:`lawmaster.host.mqtt`); the hall listens and draws::

    broker ─► Listener (paho) ─► Hall (what each table last said) ─► Flask app (page + SSE)

:mod:`.listener` turns messages into :class:`~.model.Hall` changes; :mod:`.app`
serves the page, its live stream and its JSON; :mod:`.draw` draws a tile from a
table's published state with the game's own board drawing and sentences. Topics and
payloads: ``docs/HALL.md``.
"""

from .app import create_app
from .listener import Listener
from .model import Hall, HallView, TableSeen

__all__ = ["Hall", "HallView", "Listener", "TableSeen", "create_app"]
