"""Who may use the dashboard for what: seats bound to one device each, and the host.

A seat's link carries its token. The table screen shows the link as a QR code
until a device *claims* the seat (``/join/<token>``); from then on the seat opens
only on that device, recognised by a long-lived random cookie, and its code is
gone from the table screen. Another device that scans the code is turned away
and its request waits for the host's consent (the host console, or the
confirm button on the table's panel); a seat can also be released.

The *host* is the device that opened the host link printed on the Pi's own
console when the table started (or one the host let in by pressing confirm on
the panel). Only the host sets up, switches or ends games, undoes, calibrates,
enrols cards and opens the referee console.

Nothing here knows Flask; :mod:`lawmaster.host.web.guard` applies it to requests.
The record is a small JSON file beside the journal, so a restart (a power cut)
keeps every tablet bound to its seat and the host its console.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import os
import secrets
import tempfile
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from itsdangerous import BadSignature, URLSafeSerializer

#: How long a waiting request (a seat to move, a device wanting to be host) may be granted.
PENDING_SECONDS = 120.0


def digest(secret: str) -> str:
    """What is kept of a secret: a cookie stolen from the file opens nothing."""
    return hashlib.sha256(secret.encode("utf-8")).hexdigest()


def new_device_id() -> str:
    """A fresh device cookie value."""
    return secrets.token_urlsafe(24)


@dataclass(frozen=True)
class MoveRequest:
    """A device that scanned an already claimed seat and asks to take it over."""

    seat: str
    token_digest: str
    device_digest: str
    at: float


class Access:
    """The table's claimed seats and its host, kept in ``path`` (or in memory when ``None``)."""

    def __init__(
        self, path: str | Path | None = None, clock: Callable[[], float] = time.monotonic
    ) -> None:
        self._path = Path(path) if path is not None else None
        self._clock = clock
        self._lock = threading.Lock()
        data = self._load()
        self.secret: str = str(data.get("secret") or secrets.token_urlsafe(32))
        #: The host link's secret, shown on the Pi's console only.
        self.host_token: str = str(data.get("host_token") or secrets.token_urlsafe(24))
        claims, hosts = data.get("claims"), data.get("hosts")
        # The file is ours, but read as any JSON: a hand-edited one must not crash the table.
        self._claims: dict[str, str] = (
            {str(k): str(v) for k, v in claims.items()} if isinstance(claims, dict) else {}
        )
        self._hosts: set[str] = {str(h) for h in hosts} if isinstance(hosts, list) else set()
        self._moves: list[MoveRequest] = []
        self._host_asks: dict[str, float] = {}
        self._forms = URLSafeSerializer(self.secret, salt="lawmaster form")
        self._form_tokens: dict[str, str] = {}
        #: Called (without arguments) after a claim changes, so open table screens redraw.
        self.on_change: list[Callable[[], None]] = []
        self._save()

    # -- seats ----------------------------------------------------------------
    def is_claimed(self, token: str) -> bool:
        with self._lock:
            return digest(token) in self._claims

    def holds(self, token: str, device: str | None) -> bool:
        """Whether ``device`` (its cookie) is the one the seat is bound to."""
        if not device:
            return False
        with self._lock:
            held = self._claims.get(digest(token))
        return held is not None and hmac.compare_digest(held, digest(device))

    def claim(self, token: str, device: str) -> bool:
        """Bind an unclaimed seat to ``device``; ``True`` when the device holds it now."""
        with self._lock:
            key = digest(token)
            held = self._claims.get(key)
            if held is not None:
                return hmac.compare_digest(held, digest(device))
            self._claims[key] = digest(device)
            self._moves = [m for m in self._moves if m.token_digest != key]
            self._save_locked()
        self._changed()
        return True

    def release(self, token: str) -> None:
        """Unbind a seat: its code shows again, and the next device to scan it has it."""
        with self._lock:
            key = digest(token)
            self._claims.pop(key, None)
            self._moves = [m for m in self._moves if m.token_digest != key]
            self._save_locked()
        self._changed()

    def ask_to_move(self, seat: str, token: str, device: str) -> None:
        """``device`` wants a seat another device holds; the host may grant it."""
        request = MoveRequest(seat, digest(token), digest(device), self._clock())
        with self._lock:
            self._moves = [m for m in self._moves if m.token_digest != request.token_digest]
            self._moves.append(request)
        self._changed()

    def move_requests(self) -> list[MoveRequest]:
        """The requests still waiting, oldest first."""
        now = self._clock()
        with self._lock:
            self._moves = [m for m in self._moves if now - m.at <= PENDING_SECONDS]
            return list(self._moves)

    def grant_move(self, token: str) -> bool:
        """Move the seat to the device that asked for it; ``False`` if nobody is waiting."""
        key = digest(token)
        waiting = [m for m in self.move_requests() if m.token_digest == key]
        if not waiting:
            return False
        with self._lock:
            self._claims[key] = waiting[-1].device_digest
            self._moves = [m for m in self._moves if m.token_digest != key]
            self._save_locked()
        self._changed()
        return True

    # -- the host -------------------------------------------------------------
    def is_host(self, device: str | None) -> bool:
        if not device:
            return False
        with self._lock:
            return digest(device) in self._hosts

    def make_host(self, device: str) -> None:
        with self._lock:
            self._hosts.add(digest(device))
            self._host_asks.pop(digest(device), None)
            self._save_locked()

    def host_link_opens(self, token: str) -> bool:
        """Whether ``token`` is the host link's secret (constant time)."""
        return hmac.compare_digest(token.encode("utf-8"), self.host_token.encode("utf-8"))

    def ask_for_host(self, device: str) -> None:
        """``device`` asks to be host; a press of the panel's confirm button grants it."""
        with self._lock:
            self._host_asks[digest(device)] = self._clock()

    def confirm_pressed(self) -> bool:
        """The panel's confirm button: grants what waits (host requests, then seat moves).

        Someone standing at the table is trusted the way the host is; ``True``
        when the press granted something, so it is not also taken as a game input.
        """
        now = self._clock()
        granted = False
        with self._lock:
            asks = [d for d, at in self._host_asks.items() if now - at <= PENDING_SECONDS]
            self._host_asks.clear()
            if asks:
                self._hosts.update(asks)
                self._save_locked()
                granted = True
        moves = self.move_requests()
        if moves:
            newest = moves[-1]
            with self._lock:
                self._claims[newest.token_digest] = newest.device_digest
                self._moves.remove(newest)
                self._save_locked()
            granted = True
        if granted:
            self._changed()
        return granted

    # -- forms without scripts ------------------------------------------------
    def form_token(self, scope: str) -> str:
        """A hidden form field proving the form came from one of our pages for ``scope``."""
        found = self._form_tokens.get(scope)
        if found is None:
            # The same for every page of the scope: computed once, not per form drawn.
            found = self._form_tokens[scope] = str(self._forms.dumps(digest(scope)))
        return found

    def form_token_valid(self, value: str, scope: str) -> bool:
        try:
            signed = self._forms.loads(value)
        except BadSignature:
            return False
        return isinstance(signed, str) and hmac.compare_digest(signed, digest(scope))

    # -- the file -------------------------------------------------------------
    def _changed(self) -> None:
        for listener in list(self.on_change):
            listener()

    def _load(self) -> dict[str, object]:
        if self._path is None or not self._path.exists():
            return {}
        try:
            data = json.loads(self._path.read_text("utf-8"))
        except (OSError, ValueError):
            return {}  # unreadable: start afresh (seats are claimed again)
        return data if isinstance(data, dict) else {}

    def _save(self) -> None:
        with self._lock:
            self._save_locked()

    def _save_locked(self) -> None:
        if self._path is None:
            return
        data = {
            "secret": self.secret,
            "host_token": self.host_token,
            "claims": self._claims,
            "hosts": sorted(self._hosts),
        }
        folder = self._path.parent
        folder.mkdir(parents=True, exist_ok=True)
        # Written whole and renamed, so a power cut leaves the old file or the new one.
        handle, name = tempfile.mkstemp(dir=folder, prefix=self._path.name, suffix=".tmp")
        try:
            with os.fdopen(handle, "w", encoding="utf-8") as out:
                json.dump(data, out)
                out.flush()
                os.fsync(out.fileno())
            os.chmod(name, 0o600)
            os.replace(name, self._path)
        except BaseException:
            Path(name).unlink(missing_ok=True)
            raise
