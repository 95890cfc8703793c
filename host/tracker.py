"""Occupancy changes + what the referee expects → observations ("c1 went C7→C9").

The tracker is game-agnostic: it knows spaces by name (from the sensor map),
kinds of magnet, and the pieces the referee tells it about in an
:class:`Expectation` (where each piece stands, which may move now, which must go
to jail, which kinds capture which). It is fed the sensing layer's events
(:class:`~lawmaster.host.sensing.Occupancy`, :class:`~lawmaster.host.sensing.Settled`)
once per frame and returns observations. It never guesses: when the readings
fit more than one story it returns :class:`Ambiguous` with every story.

Usage::

    tracker = Tracker(sensor_map)
    tracker.expect(Expectation(kinds={...}, positions={...}, movers={"c1"}), t)
    for frame in frames:
        for obs in tracker.feed(sensing.feed(frame.readings, t), t):
            referee.observe(obs)          # obs.to_json() for the journal

Observations (frozen dataclasses; ``to_json()`` gives ``{"type": ..., fields}``
with ``from_`` spelled ``"from"``; every one has ``t``, the frame time in seconds):

``Moved`` (type ``"moved"``) — a piece that may move came to rest on a new space.
    ``piece``, ``from_`` (its space in the Expectation), ``to``, ``path`` (spaces the
    magnet was seen on since it left, in order, ending with ``to``; for a lifted
    piece just ``[to]``), ``how`` (``"slid"`` or ``"lifted"``), ``revision`` (0 for
    the first report; a piece that moves on before the referee sets a new
    Expectation is reported again from the same ``from_`` with the longer path and
    ``revision`` + 1 — the latest revision is the move).
``InHand`` (``"in_hand"``) — a piece that may move has been off the board for a
    moment (lifted, not yet put down). ``piece``, ``from_``.
``Captured`` (``"captured"``) — a piece's magnet was taken by a capturing piece
    (GW:s brott: the criminal's magnet clicks onto GW's pair; the sensors see the
    criminal's polarity vanish where GW's pair arrives). ``piece``, ``at`` (the
    space), ``by`` (the capturing piece). Reported right after the capturer's
    ``Moved``.
``Jailed`` (``"jailed"``) — a captured piece, or one the Expectation lists in
    ``to_jail``, was put into the jail space. ``piece``, ``jail``.
``Anomaly`` (``"anomaly"``) — the board differs from what is expected and must
    be put right. ``problem``: ``"wrong_piece"`` (a piece that may not move was
    moved or lifted), ``"bumped"`` (a piece that may not move was knocked while
    another was being moved), ``"not_in_jail"`` (a captured piece was put
    somewhere other than the jail), ``"unexpected"`` (a magnet no piece explains);
    ``piece`` (``None`` when only the kind is known), ``kind``, ``put_back`` (the
    space it belongs on, or ``None``: take it off the board), ``found`` (where the
    sensors see it now, ``None``: nowhere). ``text`` is the instruction for people.
``Restored`` (``"restored"``) — an anomaly or a lifted piece was put right: the
    piece stands on its Expectation space again (``piece``, ``at``), or an
    unexpected magnet was taken off (``piece`` ``None``, ``at`` where it was).
``Ambiguous`` (``"ambiguous"``) — the readings fit several observations;
    ``readings`` lists them (each a full observation). The referee asks the table.

Timing: a ``Moved`` comes when the magnet has settled: sensing's debounce plus
its stillness window (5 scans within the *landed* spread for a piece put down
from above, which tolerates the bob of a piece just set down; ``LONG_STILL_MS``,
65 ms, of steady scans (27 at 400/s; a kind's own window where its map gives one,
GW's pair 45 ms; creeping under 0.25 mm allowed) for one that arrived
sliding — left its last space less than ``slide_gap``, 0.35 s, before — since
a slow slide can look still for a few scans as it crosses a
sensor's centre): ~5-65 ms after the piece stops, at the 400 scans/s of the
GW:s brott board (``lawmaster.host.sensing.rate``). Should noise
deny the long window, a sliding magnet that stays ``slide_confirm`` (0.25 s)
after a short one counts as at rest. Slides slower than ~50 mm/s may still be
reported on a cell they pass and then revised (see ``Moved.revision``).
``InHand`` comes after ``hand_delay`` (0.25 s) off the board (a very slow slide
between two sensors can show one too); anomalies after ``anomaly_delay`` (0.3 s),
so a piece knocked and at once put back, or a magnet crossing a space
mid-slide, is not reported.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field, fields
from typing import Any, ClassVar

from lawmaster.hardware.sensor_map import SensorMap
from lawmaster.host.sensing import Occupancy, SensingEvent, Settled


# ----------------------------------------------------------------- observations
@dataclass(frozen=True)
class Observation:
    """Base of all observations: ``t`` is the frame time (s) it was made at."""

    TYPE: ClassVar[str] = ""

    def to_json(self) -> dict[str, Any]:
        """``{"type": ..., field: value, ...}``; ``from_`` is written ``"from"``."""
        out: dict[str, Any] = {"type": self.TYPE}
        for f in fields(self):
            value = getattr(self, f.name)
            if isinstance(value, tuple):
                value = [v.to_json() if isinstance(v, Observation) else v for v in value]
            out["from" if f.name == "from_" else f.name] = value
        return out


@dataclass(frozen=True)
class Moved(Observation):
    """A piece that may move came to rest on ``to`` (see the module docstring)."""

    TYPE: ClassVar[str] = "moved"
    piece: str
    from_: str | None
    to: str
    path: tuple[str, ...]
    how: str
    revision: int = 0
    t: float = 0.0


@dataclass(frozen=True)
class InHand(Observation):
    """A piece that may move is off the board: lifted, not yet put down."""

    TYPE: ClassVar[str] = "in_hand"
    piece: str
    from_: str | None
    t: float = 0.0


@dataclass(frozen=True)
class Captured(Observation):
    """``piece``'s magnet was taken by ``by`` on ``at``."""

    TYPE: ClassVar[str] = "captured"
    piece: str
    at: str
    by: str
    t: float = 0.0


@dataclass(frozen=True)
class Jailed(Observation):
    """A captured (or ``to_jail``) piece was put into the jail."""

    TYPE: ClassVar[str] = "jailed"
    piece: str
    jail: str
    t: float = 0.0


@dataclass(frozen=True)
class Anomaly(Observation):
    """The board differs from the Expectation; ``text`` says how to put it right."""

    TYPE: ClassVar[str] = "anomaly"
    problem: str
    piece: str | None
    kind: str
    put_back: str | None
    found: str | None
    t: float = 0.0

    @property
    def text(self) -> str:
        """What the table should do, in words."""
        who = self.piece or f"the {self.kind}"
        if self.put_back is None:
            return f"Take {who} off {self.found}"
        if self.found is None:
            return f"Put {who} back on {self.put_back}"
        return f"Move {who} from {self.found} back to {self.put_back}"

    def to_json(self) -> dict[str, Any]:
        return {**super().to_json(), "text": self.text}


@dataclass(frozen=True)
class Restored(Observation):
    """A piece is back on its Expectation space, or a stray magnet was taken off."""

    TYPE: ClassVar[str] = "restored"
    piece: str | None
    at: str
    t: float = 0.0


@dataclass(frozen=True)
class Ambiguous(Observation):
    """The readings fit each of ``readings``; the table must say which."""

    TYPE: ClassVar[str] = "ambiguous"
    readings: tuple[Observation, ...]
    t: float = 0.0


# ----------------------------------------------------------------- expectation
@dataclass(frozen=True)
class Expectation:
    """What the referee expects of the board now.

    ``kinds``: piece → kind of magnet; ``positions``: piece → space it stands on
    (``None``: not on the board); ``movers``: pieces that may move now;
    ``to_jail``: pieces that must now be put into ``jail``; ``captures``: pairs
    (capturing kind, captured kind) — a captured-kind magnet vanishing where a
    capturing-kind magnet arrives is a capture. ``turn`` is informational.
    """

    kinds: Mapping[str, str] = field(hash=False)
    positions: Mapping[str, str | None] = field(hash=False)
    movers: frozenset[str] = frozenset()
    jail: str | None = None
    to_jail: frozenset[str] = frozenset()
    captures: frozenset[tuple[str, str]] = frozenset()
    turn: str | None = None

    def __post_init__(self) -> None:
        object.__setattr__(self, "movers", frozenset(self.movers))
        object.__setattr__(self, "to_jail", frozenset(self.to_jail))
        object.__setattr__(self, "captures", frozenset(self.captures))
        unknown = (set(self.positions) | self.movers | self.to_jail) - set(self.kinds)
        if unknown:
            raise ValueError(f"pieces without a kind: {sorted(unknown)}")


# ----------------------------------------------------------------- tracking state
@dataclass
class _Track:
    piece: str
    kind: str
    origin: str | None
    at: str | None
    mover: bool
    to_jail: bool = False
    captured_by: str | None = None
    away_since: float = 0.0
    left_origin_t: float | None = None
    last_space: str | None = None
    trail: list[str] = field(default_factory=list)
    moving: bool = False
    settled_t: float = 0.0
    rivals: tuple[str, ...] = ()
    leave_rivals: tuple[str, ...] = ()
    anonymous: bool = False
    arrived_t: float = 0.0
    short_settled_t: float | None = None
    victims: list[tuple[str, str]] = field(default_factory=list)
    revision: int = 0
    reported: str = ""  # "in_hand", "moved:<to>", "anomaly:<found>", "ambiguous:<to>"
    anomaly_open: bool = False
    bumped: bool = False


@dataclass
class _Unknown:
    space: str
    kind: str
    since: float
    settled: bool = False
    reported: bool = False


class Tracker:
    """Turns occupancy changes into observations, given the referee's :class:`Expectation`."""

    def __init__(
        self,
        sensor_map: SensorMap,
        *,
        hand_delay: float = 0.25,
        anomaly_delay: float = 0.3,
        capture_window: float = 0.6,
        slide_gap: float = 0.35,
        bump_window: float = 1.0,
        slide_still_frames: int = 8,
        slide_confirm: float = 0.25,
    ) -> None:
        self.map = sensor_map
        self.hand_delay = hand_delay
        self.anomaly_delay = anomaly_delay
        self.capture_window = capture_window
        self.slide_gap = slide_gap
        self.bump_window = bump_window
        self.slide_still_frames = slide_still_frames
        self.slide_confirm = slide_confirm
        self.expectation = Expectation({}, {})
        self.seen: dict[str, dict[str, int]] = {s: {} for s in sensor_map.spaces}
        self._centres = {s: sensor_map.centre(s) for s in sensor_map.spaces}
        self._tracks: dict[str, _Track] = {}
        self._unknown: list[_Unknown] = []
        self._mover_active = float("-inf")

    # -- the referee's side ------------------------------------------------
    def expect(self, expectation: Expectation, t: float = 0.0) -> None:
        """Set what is expected from now on; pieces are matched to what the sensors see."""
        old = self._tracks
        self.expectation = expectation
        self._tracks = {}
        self._unknown = []
        seen = {s: dict(c) for s, c in self.seen.items()}
        for piece in sorted(expectation.kinds):
            kind = expectation.kinds[piece]
            origin = expectation.positions.get(piece)
            track = _Track(
                piece,
                kind,
                origin,
                None,
                piece in expectation.movers,
                piece in expectation.to_jail,
                away_since=t,
            )
            prev = old.get(piece)
            if prev is not None and prev.captured_by and prev.at is None:
                track.captured_by = prev.captured_by  # still riding on its captor
            if origin is not None and seen.get(origin, {}).get(kind, 0) > 0:
                seen[origin][kind] -= 1
                track.at = origin
                track.last_space = origin
            self._tracks[piece] = track
        for space, counts in seen.items():
            for kind, n in counts.items():
                self._unknown.extend(_Unknown(space, kind, t, settled=True) for _ in range(n))

    # -- the frame loop ----------------------------------------------------
    def feed(self, events: Iterable[SensingEvent], t: float) -> list[Observation]:
        """Take one frame's sensing events (maybe none) at time ``t``; return observations."""
        out: list[Observation] = []
        for event in events:
            if isinstance(event, Occupancy):
                self._occupancy(event, out)
            elif isinstance(event, Settled):
                self._settled(event, out)
        if self._unknown or any(
            tr.at != tr.origin or tr.moving or tr.to_jail for tr in self._tracks.values()
        ):
            self._timers(t, out)
        return out

    def _occupancy(self, event: Occupancy, out: list[Observation]) -> None:
        before = self.seen.setdefault(event.space, {})
        after = dict(event.counts)
        self.seen[event.space] = after
        for kind in sorted(set(before) | set(after)):
            for _ in range(before.get(kind, 0) - after.get(kind, 0)):
                self._leave(event.space, kind, event.t, out)
        for kind in sorted(set(before) | set(after)):
            for _ in range(after.get(kind, 0) - before.get(kind, 0)):
                self._arrive(event.space, kind, event.t)

    def _leave(self, space: str, kind: str, t: float, out: list[Observation]) -> None:
        for unknown in self._unknown:
            if unknown.space == space and unknown.kind == kind:
                self._unknown.remove(unknown)
                if unknown.reported:
                    out.append(Restored(None, space, t))
                return
        here = [tr for tr in self._tracks.values() if tr.kind == kind and tr.at == space]
        if not here:
            return
        movers = [tr for tr in here if tr.mover]
        track = (movers or here)[0]
        # Two pieces that may both move, on one space: which one left is unknown.
        track.leave_rivals = tuple(tr.piece for tr in movers[1:])
        # Pieces that may not move, several on one space: say only the kind.
        track.anonymous = not movers and len(here) > 1
        track.at = None
        track.away_since = t
        track.last_space = space
        track.moving = True
        if space == track.origin:
            track.left_origin_t = t
            track.trail = []
        if track.mover:
            self._mover_active = t
        elif t - self._mover_active <= self.bump_window:
            track.bumped = True

    def _arrive(self, space: str, kind: str, t: float) -> None:
        victims: list[_Track] = []
        for capturer, victim_kind in self.expectation.captures:
            if capturer == kind:
                victims += [
                    tr
                    for tr in self._tracks.values()
                    if tr.kind == victim_kind
                    and tr.at is None
                    and tr.captured_by is None
                    and tr.last_space == space
                    and t - tr.away_since <= self.capture_window
                ]
        away = [
            tr
            for tr in self._tracks.values()
            if tr.kind == kind and tr.at is None and tr not in victims
        ]
        if space == self.expectation.jail:
            preferred = [tr for tr in away if tr.captured_by or tr.to_jail]
        else:
            preferred = [tr for tr in away if not tr.captured_by]
        pool = preferred or away
        if not pool:
            self._unknown.append(_Unknown(space, kind, t))
            return
        track = pool[0]
        track.rivals = track.leave_rivals + tuple(tr.piece for tr in pool[1:])
        track.at = space
        track.arrived_t = t
        track.short_settled_t = None
        track.moving = True
        if not track.trail or track.trail[-1] != space:
            track.trail.append(space)
        if track.mover:
            self._mover_active = t
        for victim in victims:
            victim.captured_by = track.piece
            track.victims.append((victim.piece, space))

    def _settled(self, event: Settled, out: list[Observation]) -> None:
        space, t = event.space, event.t
        moving = [
            tr
            for tr in self._tracks.values()
            if tr.at == space and tr.kind == event.kind and tr.moving
        ]
        if not moving:
            for unknown in self._unknown:
                if unknown.space == space and unknown.kind == event.kind and not unknown.settled:
                    unknown.settled = True
                    unknown.since = t
                    break
            return
        track = moving[0]
        if event.frames < self.slide_still_frames and self._slid(track):
            # A sliding magnet can look still as it crosses a sensor: wait for the long
            # window (or, should noise deny it, for the magnet to stay slide_confirm).
            if track.short_settled_t is None:
                track.short_settled_t = t
            return
        self._rest(track, space, t, out)

    def _rest(self, track: _Track, space: str, t: float, out: list[Observation]) -> None:
        """The magnet of ``track`` has come to rest on ``space``: say what that means."""
        track.moving = False
        track.settled_t = t
        track.short_settled_t = None
        jail = self.expectation.jail
        if track.rivals:
            readings = [self._reading_for(self._tracks[p], space, t) for p in track.rivals]
            key = f"ambiguous:{space}"
            if track.reported != key:
                track.reported = key
                out.append(Ambiguous((self._reading_for(track, space, t), *readings), t))
            return
        if track.captured_by or track.to_jail:
            # A captured piece belongs in the jail and nowhere else.
            track.captured_by = None
            track.to_jail = True
            if space == jail and track.reported != "jailed":
                track.reported = "jailed"
                track.anomaly_open = False
                out.append(Jailed(track.piece, space, t))
            return
        if space == track.origin:
            if (
                track.anomaly_open
                or track.reported == "in_hand"
                or track.reported.startswith("moved:")
            ):
                out.append(Restored(None if track.anonymous else track.piece, space, t))
            track.anomaly_open = False
            track.reported = ""
            track.trail = []
            track.bumped = False
            return
        if track.mover:
            key = f"moved:{space}"
            if track.reported != key:
                track.reported = key
                out.append(self._reading_for(track, space, t))
                track.revision += 1
            for victim, at in track.victims:
                out.append(Captured(victim, at, track.piece, t))
            track.victims.clear()

    def _slid(self, track: _Track) -> bool:
        """Whether the magnet slid here: it was seen on the way, or it arrived soon after
        leaving a space next to this one (a lifted piece is gone longer, or lands far)."""
        if len(track.trail) > 1:
            return True
        if not track.trail or track.last_space is None:
            return False
        a, b = self._centres.get(track.last_space), self._centres.get(track.trail[-1])
        if a is None or b is None or math.dist(a, b) > 1.6 * self.map.pitch_mm:
            return False
        left = track.left_origin_t if track.left_origin_t is not None else track.arrived_t
        return track.arrived_t - left < self.slide_gap

    def _reading_for(self, track: _Track, space: str, t: float) -> Observation:
        if (track.captured_by or track.to_jail) and space == self.expectation.jail:
            return Jailed(track.piece, space, t)
        slid = self._slid(track)
        path = tuple(track.trail) if slid else (space,)
        return Moved(
            track.piece,
            track.origin,
            space,
            path or (space,),
            "slid" if slid else "lifted",
            track.revision,
            t,
        )

    def _timers(self, t: float, out: list[Observation]) -> None:
        jail = self.expectation.jail
        for track in list(self._tracks.values()):
            if (
                track.moving
                and track.at is not None
                and track.short_settled_t is not None
                and t - track.short_settled_t >= self.slide_confirm
            ):
                self._rest(track, track.at, t, out)
            if track.captured_by or track.rivals or track.moving and track.at is not None:
                continue
            if track.at is None:
                if track.to_jail:
                    continue  # on its way to the jail
                waited = t - track.away_since
                if track.mover:
                    if waited >= self.hand_delay and track.reported != "in_hand":
                        track.reported = "in_hand"
                        out.append(InHand(track.piece, track.origin, t))
                elif waited >= self.anomaly_delay and not track.anomaly_open:
                    # (an open anomaly is not repeated while the piece is being put right)
                    track.reported = "anomaly:"
                    track.anomaly_open = True
                    out.append(self._anomaly(track, None, t))
                continue
            misplaced = (track.to_jail and track.at != jail) or (
                not track.to_jail and not track.mover and track.at != track.origin
            )
            if misplaced and t - track.settled_t >= self.anomaly_delay:
                key = f"anomaly:{track.at}"
                if track.reported != key:
                    track.reported = key
                    track.anomaly_open = True
                    out.append(self._anomaly(track, track.at, t))
        for unknown in self._unknown:
            if unknown.settled and not unknown.reported and t - unknown.since >= self.anomaly_delay:
                unknown.reported = True
                out.append(Anomaly("unexpected", None, unknown.kind, None, unknown.space, t))

    def _anomaly(self, track: _Track, found: str | None, t: float) -> Anomaly:
        if track.to_jail:
            problem, put_back = "not_in_jail", self.expectation.jail
        else:
            problem = "bumped" if track.bumped else "wrong_piece"
            put_back = track.origin
        piece = None if track.anonymous else track.piece
        return Anomaly(problem, piece, track.kind, put_back, found, t)
