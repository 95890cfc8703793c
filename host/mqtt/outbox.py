"""What waits for the broker: events in a bounded queue, retained topics as their latest value.

The table's side puts; the broker's sender takes. Putting never waits: an event
that finds the queue full pushes the oldest one out, and :attr:`Outbox.dropped`
counts it (the health panel says so). A retained topic (state, health, result)
holds one payload, the newest; :meth:`Outbox.resend_retained` marks them all to be
sent again, which the sender asks for on every (re)connection, so a broker that
restarted without its retained messages is brought up to date.
"""

from __future__ import annotations

import threading
from collections import deque
from dataclasses import dataclass


@dataclass(frozen=True)
class Message:
    """One publish: events go at QoS 1; retained topics at QoS 0, resent on every
    connection (a QoS 1 copy kept by the client across a reconnection could arrive
    after a newer one and leave a stale retained value)."""

    topic: str
    payload: bytes
    retain: bool = False

    @property
    def qos(self) -> int:
        return 0 if self.retain else 1


class Outbox:
    """See the module docstring. Thread-safe."""

    def __init__(self, limit: int) -> None:
        if limit < 1:
            raise ValueError("an outbox holds at least one event")
        self.limit = limit
        self._cond = threading.Condition()
        self._events: deque[Message] = deque()
        self._retained: dict[str, bytes] = {}
        #: Retained topics to send (a dict as an ordered set).
        self._due: dict[str, None] = {}
        #: Events pushed out of a full queue since the start.
        self.dropped = 0

    def event(self, topic: str, payload: bytes) -> None:
        """Queue one event (QoS 1, not retained); a full queue drops its oldest."""
        with self._cond:
            self._append(Message(topic, payload))
            self._cond.notify_all()

    def retain(self, topic: str, payload: bytes) -> None:
        """The newest value of a retained topic; sent unless it is already what was sent."""
        with self._cond:
            if self._retained.get(topic) == payload:
                return
            self._retained[topic] = payload
            self._due[topic] = None
            self._cond.notify_all()

    def resend_retained(self) -> None:
        """Send every retained topic again (a new connection: the broker may have lost them)."""
        with self._cond:
            for topic in self._retained:
                self._due[topic] = None
            self._cond.notify_all()

    def take(self, timeout: float) -> Message | None:
        """The next message to send (events first, in order), or ``None`` after ``timeout``."""
        with self._cond:
            if not self._events and not self._due:
                self._cond.wait(timeout)
            if self._events:
                return self._events.popleft()
            if self._due:
                topic = next(iter(self._due))
                del self._due[topic]
                return Message(topic, self._retained[topic], retain=True)
            return None

    def give_back(self, message: Message) -> None:
        """A message the client could not take now: first in line again."""
        with self._cond:
            if message.retain:
                self._due[message.topic] = None  # its newest value is sent, whatever it is now
            elif len(self._events) >= self.limit:
                self.dropped += 1  # the oldest of a full queue: what a full queue drops
            else:
                self._events.appendleft(message)

    def empty(self) -> bool:
        """Nothing left to send (no event, no retained topic due)."""
        with self._cond:
            return not self._events and not self._due

    def waiting(self) -> int:
        """Events waiting to be sent."""
        with self._cond:
            return len(self._events)

    def wake(self) -> None:
        """End a :meth:`take` that is waiting (the sender is stopping)."""
        with self._cond:
            self._cond.notify_all()

    def _append(self, message: Message) -> None:
        if len(self._events) >= self.limit:
            self._events.popleft()
            self.dropped += 1
        self._events.append(message)
