"""Waitress's connections with two bounds a crowd or a trickle cannot get past.

* **Per client address.** At most :data:`PER_ADDRESS` open connections from one
  address; a connection beyond that is closed the moment it is accepted. A
  tablet's browser keeps at most six connections to a site, so a device at the
  table never comes near it; a laptop opening hundreds cannot fill the server's
  :data:`~.serve.CONNECTION_LIMIT` and shut everyone else out.
* **A deadline for each request.** A request's head (its request line and
  headers) must arrive within :data:`HEAD_SECONDS` of its first byte, and the
  whole request within :data:`REQUEST_SECONDS`, however slowly it trickles: waitress's
  own idle timeout is reset by every byte, so a header line every few seconds
  would hold a connection for ever. An overdue connection is closed.

Connections serving a request (an open event stream, say) are not touched: the
deadline is for what the client still owes, not for what the server sends.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

from waitress.channel import HTTPChannel

#: Open connections allowed from one client address.
PER_ADDRESS = 32
#: Seconds a request's head may take to arrive, from its first byte.
HEAD_SECONDS = 5.0
#: Seconds a whole request (head and body, at most 64 KiB) may take to arrive.
REQUEST_SECONDS = 15.0


class GuardedChannel(HTTPChannel):  # type: ignore[misc]  # waitress has no type hints
    """Waitress's HTTP channel, noting when the request it is reading began."""

    #: When the first byte of the request being read arrived (``None``: none is being read).
    started: float | None = None

    def received(self, data: bytes) -> bool:
        if data and self.request is None and self.started is None:
            self.started = time.monotonic()
        done = bool(super().received(data))
        if self.request is None:
            self.started = None  # every request read so far is whole
        return done

    def overdue(self, now: float) -> bool:
        """Whether the request being read has missed its deadline."""
        started, request = self.started, self.request
        if started is None or request is None:
            return False
        limit = REQUEST_SECONDS if request.headers_finished else HEAD_SECONDS
        return now - started > limit


def guard(server: Any) -> None:
    """Put both bounds on a waitress server made by ``create_server`` (before it runs)."""
    server.channel_class = _accepting(server)
    server.maintenance = _maintaining(server, server.maintenance)


def _accepting(server: Any) -> Callable[..., GuardedChannel | None]:
    def make(server_: Any, sock: Any, addr: Any, adj: Any, map: Any = None) -> Any:
        host = addr[0] if isinstance(addr, tuple) and addr else addr
        same = sum(
            1
            for channel in list(server.active_channels.values())
            if isinstance(channel.addr, tuple) and channel.addr and channel.addr[0] == host
        )
        if same >= PER_ADDRESS:
            # Closed at once: the address already has all the connections it may.
            sock.close()
            return None
        return GuardedChannel(server_, sock, addr, adj, map=map)

    return make


def _maintaining(server: Any, original: Callable[[float], None]) -> Callable[[float], None]:
    def maintenance(now: float) -> None:
        original(now)  # waitress's idle timeout
        clock = time.monotonic()
        for channel in list(server.active_channels.values()):
            if isinstance(channel, GuardedChannel) and channel.overdue(clock):
                channel.will_close = True  # closed by the loop at its next turn

    return maintenance
