"""Who may use the dashboard for what: seats bound to one device each, the host, paired screens.

The rule behind all of it: a seat's view goes only to the one device that holds
the seat, for exactly as long as it holds it, and every grant of a seat, of the
host or of a table screen is a deliberate act that the table screen shows.

* **Seats.** A seat's link (its QR code) carries its token. The first device to
  open it *claims* the seat (a long-lived random device cookie); from then on
  the seat opens only on that device. Before a claim nobody sees the seat: to
  see a seat, a device claims it, and every claim is a :class:`Notice` on the
  table screen ("red joined on a new tablet"). Another device that opens the
  code is turned away; it may *ask* for the seat, and the seat moves only when
  the host grants that request. A seat can be released (by its device, or by
  the host).
* **The host.** The device that opened the host link (written where only the
  Pi's own user reads it, see :mod:`lawmaster.host.commands.run`), or one the
  host or the table let in. Its cookie and its grant last :data:`HOST_DAYS`
  days, and the host console can revoke any host device.
* **Table screens.** Seat codes are shown only on a screen the host authorised:
  the host's own device, a screen opened with the screen link (the Pi's own
  screen), or one the host paired. Pairing is asked for and granted like host
  rights, and revoked the same way.
* **Requests.** Asking for a seat, for host rights or for a screen's pairing
  makes a :class:`Request` with a short code, shown on the asking device, on
  every table screen and on the host console. It is granted on the console, or
  at the table by a *long press* of the panel's confirm button while exactly
  one request waits (the table screen then shows its code); a short press is
  the game's (an undo's confirmation) and never grants anything.

Only digests of the cookies are kept (a stolen file opens nothing). Nothing here
knows Flask; :mod:`lawmaster.host.web.guard` applies it to requests. Claims and
grants are kept in a small JSON file beside the journal (mode 0600), so a
restart (a power cut) keeps every tablet bound to its seat; the host and screen
links are new at every start, so a link seen once is no key for ever.
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
from typing import Any

from itsdangerous import BadSignature, URLSafeSerializer

#: How long a waiting request (a seat to move, host rights, a screen) may be granted.
PENDING_SECONDS = 180.0
#: How long host rights and a screen's pairing last: a game night, or a weekend's tournament.
HOST_DAYS = 3
HOST_SECONDS = HOST_DAYS * 24 * 3600
#: How long the panel's confirm button is held to grant the one waiting request.
LONG_PRESS_SECONDS = 3.0
#: Claims, moves and grants kept for the table screen and the console to show.
NOTICES = 8
#: A request's code: letters and digits nobody mistakes for another (no 0/O, 1/I/L, 5/S, 8/B).
CODE_ALPHABET = "ACDEFGHJKMNPQRTUVWXY34679"
CODE_LENGTH = 4

HOST = "host"
SCREEN = "screen"
SEAT = "seat"


def digest(secret: str) -> str:
    """What is kept of a secret: a cookie stolen from the file opens nothing."""
    return hashlib.sha256(secret.encode("utf-8")).hexdigest()


def new_device_id() -> str:
    """A fresh device cookie value."""
    return secrets.token_urlsafe(24)


def new_code() -> str:
    return "".join(secrets.choice(CODE_ALPHABET) for _ in range(CODE_LENGTH))


@dataclass(frozen=True)
class Request:
    """A device waiting for a grant: a seat it does not hold, host rights, or a screen's pairing.

    ``holder`` is the digest of the cookie that is granted (the device cookie for a
    seat, the candidate host or screen cookie otherwise). ``token`` (a seat's) is
    kept in memory only.
    """

    code: str
    kind: str
    holder: str
    at: float
    seat: str | None = None
    token: str | None = None


@dataclass(frozen=True)
class Notice:
    """Something the table screen and the console say: a claim, a move, a grant.

    ``what``: ``joined`` (a seat claimed on a new device), ``moved`` (to another
    device), ``released``, ``host`` (a device became host), ``screen`` (a screen
    was paired), ``revoked`` (host rights or a pairing taken back), ``refused``.
    ``how``: ``link`` (the host or screen link), ``console``, ``panel``, or ``""``.
    """

    number: int
    what: str
    at: float
    seat: str | None = None
    code: str | None = None
    how: str = ""


@dataclass(frozen=True)
class Grant:
    """Host rights or a screen's pairing: whose (a cookie's digest), until when, and its code."""

    holder: str
    kind: str
    code: str
    since: float
    until: float


class Access:
    """The table's claimed seats, host devices and paired screens, kept in ``path``.

    ``clock`` times pending requests (monotonic); ``wall`` dates grants, which
    outlive a restart and so need the calendar.
    """

    def __init__(
        self,
        path: str | Path | None = None,
        clock: Callable[[], float] = time.monotonic,
        wall: Callable[[], float] = time.time,
    ) -> None:
        self._path = Path(path) if path is not None else None
        self._clock = clock
        self._wall = wall
        self._lock = threading.Lock()
        data = self._load()
        self.secret: str = str(data.get("secret") or secrets.token_urlsafe(32))
        #: The host link's secret, new at every start (see the module docstring).
        self.host_token: str = secrets.token_urlsafe(24)
        #: The table screen link's secret: the Pi's own screen pairs itself with it.
        self.screen_token: str = secrets.token_urlsafe(24)
        claims = data.get("claims")
        # The file is ours, but read as any JSON: a hand-edited one must not crash the table.
        self._claims: dict[str, str] = (
            {str(k): str(v) for k, v in claims.items()} if isinstance(claims, dict) else {}
        )
        self._grants: dict[str, Grant] = {}
        kept = data.get("grants")
        for raw in kept if isinstance(kept, list) else []:
            try:
                grant = Grant(str(raw[0]), str(raw[1]), str(raw[2]), float(raw[3]), float(raw[4]))
            except (TypeError, ValueError, IndexError, KeyError):
                continue
            if grant.kind in (HOST, SCREEN):
                self._grants[grant.holder] = grant
        self._requests: list[Request] = []
        self._notices: list[Notice] = []
        self._numbered = 0
        self._forms = URLSafeSerializer(self.secret, salt="lawmaster form")
        self._form_tokens: dict[str, str] = {}
        #: Called (without arguments) after anything the table screen shows changed.
        self.on_change: list[Callable[[], None]] = []
        #: Called with a seat's token when the device holding it changed (claimed,
        #: released, moved): every stream of that seat is closed at once.
        self.on_seat_change: list[Callable[[str], None]] = []
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

    def claim(self, token: str, device: str, seat: str | None = None) -> bool:
        """Bind an unclaimed seat to ``device``; ``True`` when the device holds it now."""
        with self._lock:
            key = digest(token)
            held = self._claims.get(key)
            if held is not None:
                return hmac.compare_digest(held, digest(device))
            self._claims[key] = digest(device)
            self._requests = [r for r in self._requests if r.token != token]
            self._note_locked("joined", seat=seat)
            self._save_locked()
        self._seat_changed(token)
        return True

    def release(self, token: str, seat: str | None = None) -> None:
        """Unbind a seat: its code shows again, and the next device to open it has it."""
        with self._lock:
            key = digest(token)
            if self._claims.pop(key, None) is not None:
                self._note_locked("released", seat=seat)
            self._requests = [r for r in self._requests if r.token != token]
            self._save_locked()
        self._seat_changed(token)

    def ask_for_seat(self, seat: str, token: str, device: str) -> Request:
        """``device`` wants a seat another device holds; the host (or a long press) grants it."""
        holder = digest(device)
        with self._lock:
            self._expire_locked()
            for request in self._requests:
                if request.kind == SEAT and request.token == token and request.holder == holder:
                    return request
            request = Request(self._code_locked(), SEAT, holder, self._clock(), seat, token)
            self._requests.append(request)
        self._changed()
        return request

    # -- the host and the table screens -----------------------------------------
    def host_link_opens(self, token: str) -> bool:
        """Whether ``token`` is the host link's secret (constant time)."""
        return hmac.compare_digest(token.encode("utf-8"), self.host_token.encode("utf-8"))

    def screen_link_opens(self, token: str) -> bool:
        """Whether ``token`` is the table screen link's secret (constant time)."""
        return hmac.compare_digest(token.encode("utf-8"), self.screen_token.encode("utf-8"))

    def open_host_link(self, token: str) -> str | None:
        """The host link was opened: a new host cookie, granted (``None``: not the link)."""
        return self._open_link(token, HOST) if self.host_link_opens(token) else None

    def open_screen_link(self, token: str) -> str | None:
        """The screen link was opened: a new screen cookie, paired (``None``: not the link)."""
        return self._open_link(token, SCREEN) if self.screen_link_opens(token) else None

    def _open_link(self, token: str, kind: str) -> str:
        secret = new_device_id()
        with self._lock:
            grant = self._grant_locked(digest(secret), kind, self._code_locked())
            self._note_locked(kind, code=grant.code, how="link")
            self._save_locked()
        self._changed()
        return secret

    def ask(self, kind: str) -> tuple[str, Request]:
        """A device asks for host rights or a screen's pairing: its candidate cookie and request.

        The cookie opens nothing until the request is granted.
        """
        if kind not in (HOST, SCREEN):
            raise ValueError(f"one asks for {HOST} or {SCREEN}, not {kind!r}")
        secret = new_device_id()
        with self._lock:
            self._expire_locked()
            request = Request(self._code_locked(), kind, digest(secret), self._clock())
            self._requests.append(request)
        self._changed()
        return secret, request

    def is_host(self, secret: str | None) -> bool:
        return self._granted(secret, HOST)

    def is_screen(self, secret: str | None) -> bool:
        """A paired table screen (the host's own devices show the codes too, see guard)."""
        return self._granted(secret, SCREEN)

    def _granted(self, secret: str | None, kind: str) -> bool:
        if not secret:
            return False
        with self._lock:
            grant = self._grants.get(digest(secret))
        return grant is not None and grant.kind == kind and self._wall() < grant.until

    def grant_of(self, secret: str | None) -> Grant | None:
        """The live grant behind a host or screen cookie."""
        if not secret:
            return None
        with self._lock:
            grant = self._grants.get(digest(secret))
        return grant if grant is not None and self._wall() < grant.until else None

    def grants(self) -> list[Grant]:
        """Host devices and paired screens whose grant still runs, oldest first."""
        now = self._wall()
        with self._lock:
            running = [g for g in self._grants.values() if now < g.until]
        return sorted(running, key=lambda g: g.since)

    def revoke(self, code: str) -> Grant | None:
        """Take back the host rights or the pairing with ``code``; what was revoked."""
        with self._lock:
            found = next((g for g in self._grants.values() if g.code == code), None)
            if found is None:
                return None
            del self._grants[found.holder]
            self._note_locked("revoked", code=found.code)
            self._save_locked()
        self._changed()
        return found

    # -- requests ----------------------------------------------------------------
    def requests(self) -> list[Request]:
        """The requests still waiting, oldest first."""
        with self._lock:
            self._expire_locked()
            return list(self._requests)

    def request_of(self, holder_secret: str | None, kind: str, token: str | None = None) -> (
        Request | None
    ):
        """The request still waiting for this cookie (for a seat: that seat's), if any."""
        if not holder_secret:
            return None
        holder = digest(holder_secret)
        with self._lock:
            self._expire_locked()
            for request in self._requests:
                if request.holder == holder and request.kind == kind and request.token == token:
                    return request
        return None

    def grant(self, code: str, how: str = "console") -> Request | None:
        """Grant the waiting request with ``code`` (the host console); what was granted."""
        with self._lock:
            self._expire_locked()
            request = next((r for r in self._requests if r.code == code), None)
            if request is None:
                return None
            self._grant_request_locked(request, how)
        if request.token is not None:
            self._seat_changed(request.token)
        self._changed()
        return request

    def refuse(self, code: str) -> Request | None:
        """Drop the waiting request with ``code``; what was refused."""
        with self._lock:
            request = next((r for r in self._requests if r.code == code), None)
            if request is None:
                return None
            self._requests.remove(request)
            self._note_locked("refused", seat=request.seat, code=request.code)
        self._changed()
        return request

    def long_press(self) -> Request | None:
        """The panel's confirm button held down: grants the one request waiting, if only one.

        With none waiting it does nothing; with several it grants none of them (the
        table screen then says the host chooses on the console), so a request slipped
        in beside a real one never rides on its press.
        """
        with self._lock:
            self._expire_locked()
            if len(self._requests) != 1:
                return None
            request = self._requests[0]
            self._grant_request_locked(request, "panel")
        if request.token is not None:
            self._seat_changed(request.token)
        self._changed()
        return request

    def _grant_request_locked(self, request: Request, how: str) -> None:
        self._requests.remove(request)
        if request.kind == SEAT and request.token is not None:
            key = digest(request.token)
            self._claims[key] = request.holder
            self._requests = [r for r in self._requests if r.token != request.token]
            self._note_locked("moved", seat=request.seat, code=request.code, how=how)
        else:
            self._grant_locked(request.holder, request.kind, request.code)
            self._note_locked(request.kind, code=request.code, how=how)
        self._save_locked()

    def _grant_locked(self, holder: str, kind: str, code: str) -> Grant:
        now = self._wall()
        grant = Grant(holder, kind, code, now, now + HOST_SECONDS)
        self._grants[holder] = grant
        return grant

    def _expire_locked(self) -> None:
        now = self._clock()
        self._requests = [r for r in self._requests if now - r.at <= PENDING_SECONDS]

    def _code_locked(self) -> str:
        taken = {r.code for r in self._requests} | {g.code for g in self._grants.values()}
        while True:
            code = new_code()
            if code not in taken:
                return code

    # -- what the table screen says -------------------------------------------------
    def notices(self) -> list[Notice]:
        """The latest claims, moves and grants, newest first."""
        with self._lock:
            return list(reversed(self._notices))

    def _note_locked(self, what: str, **fields: Any) -> None:
        self._numbered += 1
        self._notices.append(Notice(self._numbered, what, self._wall(), **fields))
        del self._notices[:-NOTICES]

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

    def _seat_changed(self, token: str) -> None:
        for listener in list(self.on_seat_change):
            listener(token)
        self._changed()

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
        now = self._wall()
        data = {
            "secret": self.secret,
            "claims": self._claims,
            "grants": [
                [g.holder, g.kind, g.code, g.since, g.until]
                for g in self._grants.values()
                if now < g.until
            ],
        }
        folder = self._path.parent
        folder.mkdir(parents=True, exist_ok=True)
        # Written whole and renamed, so a power cut leaves the old file or the new one.
        # mkstemp makes the file 0600: it holds the seats' and the host's cookie digests.
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
