"""A table's public game over MQTT, for the hall screen and anything else on the broker.

One table publishes, under ``<prefix>/<table>/`` (see ``docs/HALL.md``):

* ``events``: each public event, exactly as the table screen's stream carried it (QoS 1);
* ``state``: the public state (game, players by name, whose turn, scores, the public
  view the board is drawn from), retained;
* ``health``: what the table screen's health panel says, retained, with a last will;
* ``result``: a finished game's players, scores, winner and length, retained.

The flow goes one way::

    Table ─(a table screen's subscription)─► TablePublisher ─► Outbox ─► Broker ─► broker
                                             (payloads)        (bounded)  (paho, own threads)

:class:`~.publisher.TablePublisher` listens to the table as a table screen does (its
``"table"`` snapshots, so nothing a seat may not know can reach it) and never calls
back into the referee; :class:`~.outbox.Outbox` holds what waits for the broker, the
events bounded (the oldest dropped and counted), the retained topics as their latest
value; :class:`~.broker.Broker` keeps the connection (login, TLS, backoff) on threads
of its own and reports its state to the health panel.
"""

from .broker import Broker, BrokerStatus
from .outbox import Message, Outbox
from .publisher import TablePublisher
from .topics import KINDS, topic

__all__ = ["KINDS", "Broker", "BrokerStatus", "Message", "Outbox", "TablePublisher", "topic"]
