"""NFC-tagged cards: PN532 readers, the card registry, enrolment, an emulator.

For the referee:

- :class:`~lawmaster.host.nfc.table.TableReaders` ``(readers, registry, game,
  on_event)`` runs a background thread per reader and calls ``on_event`` with
  :class:`~lawmaster.host.nfc.events.CardTapped`,
  :class:`~lawmaster.host.nfc.events.CardRemoved`,
  :class:`~lawmaster.host.nfc.events.UnknownTag` or
  :class:`~lawmaster.host.nfc.events.ReaderStatus`; each carries the ``seat`` of
  the reader that saw it (``None`` for a shared reader).
- :class:`~lawmaster.host.nfc.registry.CardRegistry`: sticker UID ↔ card per game.
- :class:`~lawmaster.host.nfc.simulated.SimulatedNfc`: the same on emulated readers.

Modules: ``transport`` (config, ports, driver), ``reader`` (one reader's
thread), ``table`` (taps → cards), ``registry``, ``cards`` (engines' card
lists), ``tagdata`` (card id in tag memory), ``enroll``, ``emulator``,
``simulated``.
"""

from lawmaster.host.nfc.cards import Card
from lawmaster.host.nfc.events import (
    CardRemoved,
    CardTapped,
    ReaderStatus,
    TagRemoved,
    TagTapped,
    UnknownTag,
)
from lawmaster.host.nfc.registry import CardRegistry
from lawmaster.host.nfc.table import CardResolver, TableReaders
from lawmaster.host.nfc.transport import ReaderConfig, readers_from_config

__all__ = [
    "Card",
    "CardRegistry",
    "CardRemoved",
    "CardResolver",
    "CardTapped",
    "ReaderConfig",
    "ReaderStatus",
    "TableReaders",
    "TagRemoved",
    "TagTapped",
    "UnknownTag",
    "readers_from_config",
]
