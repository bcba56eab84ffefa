"""The press grammar: one button per seat, turned into moves, confirmations and faults.

Used by every backend, in the app's loop. A short press moves the seat's cursor (to the next
eligible seat clockwise on a ring; on a one-LED pad, counting: N presses = seat N); a hold
confirms; a later hold replaces the choice. Edges are debounced eagerly (the first edge counts
at once, the bounces after it are ignored, and a level that settled otherwise is taken when
the guard ends). A button held past `stuck` is a fault and is ignored until released. A question's
cursor starts where the table says (a seat or "nobody", drawn from the game's seed, so the
number of taps tells a watcher nothing); after the last eligible seat it passes "nobody". A press
belongs to the question that was asked when it began: a hold that straddles the end of a
window confirms nothing.

A press shorter than `min_press` is noise (a spike on a long cable, a brushed contact): it
means nothing at all, not even "movement" at night. So a press is announced (`Pressed`, and
`OutOfTurn` for a seat not asked) once it has lasted `min_press`, stamped with its start; a
tap is taken at its release, as before, which is always later than that.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from .events import (
    Confirmed,
    Moved,
    OutOfTurn,
    PadEdge,
    PadEvent,
    PadFault,
    PadHeld,
    PadLevel,
    PadRecovered,
    Pressed,
    RawPadEvent,
    Released,
)

RING = "ring"
COUNT = "count"


@dataclass
class GrammarConfig:
    """Timing of the grammar (seconds)."""

    hold: float = 0.7
    debounce: float = 0.03
    stuck: float = 20.0
    mode: str = RING
    min_press: float = 0.015


@dataclass
class _Seat:
    level: bool = False          # debounced: is the button down
    raw: bool = False            # the last raw level seen
    raw_t: float = 0.0
    guard_until: float = -1.0
    press_t: float = 0.0
    press_ask: int = -1          # which question the current press belongs to
    held: bool = False           # this press already confirmed
    pending: bool = False        # down, but not yet long enough to be more than noise
    noise: int = 0               # presses too short to be anything
    stuck: bool = False
    ask: int = 0                 # bumps on every new question or end of one
    asked: bool = False
    eligible: tuple[int, ...] = ()
    cursor: int | None = None
    choice: int | None = None
    events: list[PadEvent] = field(default_factory=list)


class PressGrammar:
    """Per-seat state machines; `feed` raw events, `tick` the time, read what they meant."""

    def __init__(self, seats: int = 12, config: GrammarConfig | None = None) -> None:
        self.n = seats
        self.cfg = config or GrammarConfig()
        if self.cfg.mode not in (RING, COUNT):
            raise ValueError(f"unknown grammar mode '{self.cfg.mode}'")
        self.seats = [_Seat() for _ in range(seats + 1)]

    # -- questions -----------------------------------------------------------------------
    def ask(self, seat: int, eligible: Sequence[int], cursor: int | None = None) -> None:
        """Seat `seat` is now asked to pick one of `eligible` (a press from before counts not)."""
        s = self.seats[seat]
        s.ask += 1
        s.asked = True
        s.eligible = tuple(sorted(eligible))
        s.cursor = cursor
        s.choice = None

    def stop(self, seat: int | None = None) -> None:
        """The question (for one seat, or all) is over."""
        for i in ([seat] if seat is not None else range(1, self.n + 1)):
            s = self.seats[i]
            s.ask += 1
            s.asked = False
            s.eligible = ()
            s.cursor = None

    def asked(self, seat: int) -> bool:
        return self.seats[seat].asked

    def cursor(self, seat: int) -> int | None:
        return self.seats[seat].cursor

    def choice(self, seat: int) -> int | None:
        return self.seats[seat].choice

    def is_down(self, seat: int) -> bool:
        return self.seats[seat].level

    # -- input ---------------------------------------------------------------------------
    def feed(self, ev: RawPadEvent) -> list[PadEvent]:
        """Take one raw event; return what it meant (often nothing)."""
        if not isinstance(ev, (PadEdge, PadHeld, PadLevel)) or not 1 <= ev.seat <= self.n:
            return []
        out: list[PadEvent] = []
        s = self.seats[ev.seat]
        if isinstance(ev, PadLevel):
            self._level(ev.seat, s, ev.pressed, ev.t, out)
            return out
        self._settle(ev.seat, s, ev.t, out)
        if isinstance(ev, PadHeld):
            self._check_hold(ev.seat, s, ev.t, out)
            return out
        s.raw, s.raw_t = ev.pressed, ev.t
        if ev.t >= s.guard_until and ev.pressed != s.level:
            self._transition(ev.seat, s, ev.pressed, ev.t, out)
        return out

    def tick(self, now: float) -> list[PadEvent]:
        """Let time pass: holds reached, stuck buttons, bounces that settled."""
        out: list[PadEvent] = []
        for i in range(1, self.n + 1):
            s = self.seats[i]
            self._settle(i, s, now, out)
            if s.level:
                self._check_hold(i, s, now, out)
        return out

    def next_deadline(self) -> float | None:
        """The next time `tick` has something to do, for a loop that sleeps until then."""
        times: list[float] = []
        for s in self.seats[1:]:
            if s.raw != s.level:
                times.append(s.guard_until)
            if s.level and s.pending:
                times.append(s.press_t + self.cfg.min_press)
            if s.level and not s.stuck:
                if not s.held:
                    times.append(s.press_t + self.cfg.hold)
                times.append(s.press_t + self.cfg.stuck)
        return min(times) if times else None

    def _level(self, seat: int, s: _Seat, pressed: bool, t: float, out: list[PadEvent]) -> None:
        """The backend says what the button is now. A press already under way (from before a
        restart) counts for nothing: it must be let go and pressed again."""
        s.raw, s.raw_t, s.guard_until = pressed, t, t
        if pressed == s.level:
            if pressed:
                s.held, s.press_ask = True, -1    # whatever it was, it confirms nothing now
            return
        s.level = pressed
        s.pending = False
        if pressed:
            s.press_t, s.press_ask, s.held = t, -1, True
        elif s.stuck:
            s.stuck = False
            out.append(PadRecovered(seat, "stuck", t))

    # -- the machine ---------------------------------------------------------------------
    def _settle(self, seat: int, s: _Seat, now: float, out: list[PadEvent]) -> None:
        # the bounces are over and the level settled otherwise than the first edge said
        if s.raw != s.level and now >= s.guard_until:
            self._transition(seat, s, s.raw, max(s.raw_t, s.guard_until), out)

    def _transition(self, seat: int, s: _Seat, pressed: bool, t: float,
                    out: list[PadEvent]) -> None:
        s.level = pressed
        s.guard_until = t + self.cfg.debounce
        if pressed:
            s.press_t = t
            s.press_ask = s.ask if s.asked else -1
            s.held = False
            s.pending = True             # announced once it outlasts min_press
            return
        if s.pending:
            # let go before min_press: the raw release time says so, however long the
            # debounce guard kept the level down
            if s.raw_t - s.press_t < self.cfg.min_press:
                s.pending = False
                s.noise += 1
                return
            self._announce(seat, s, out)
        duration = t - s.press_t
        if s.stuck:
            s.stuck = False
            out.append(PadRecovered(seat, "stuck", t))
            return
        out.append(Released(seat, t, duration))
        if s.held or s.press_ask != s.ask or not s.asked:
            return
        if duration >= self.cfg.hold:
            self._confirm(seat, s, s.press_t + self.cfg.hold, out)
        else:
            self._move(seat, s, t, out)

    def _announce(self, seat: int, s: _Seat, out: list[PadEvent]) -> None:
        s.pending = False
        out.append(Pressed(seat, s.press_t))
        if s.press_ask == -1:
            out.append(OutOfTurn(seat, s.press_t))

    def _check_hold(self, seat: int, s: _Seat, now: float, out: list[PadEvent]) -> None:
        if not s.level:
            return
        if s.pending:
            if now < s.press_t + self.cfg.min_press:
                return
            if not s.raw and s.raw_t < s.press_t + self.cfg.min_press:
                return                   # already let go: noise, taken so at the settle
            self._announce(seat, s, out)
        # deadlines are compared as next_deadline() computes them (no float drift)
        if not s.stuck and now >= s.press_t + self.cfg.stuck:
            s.stuck = True
            out.append(PadFault(seat, "stuck", s.press_t + self.cfg.stuck))
            return
        if s.stuck or s.held or now < s.press_t + self.cfg.hold:
            return
        if s.asked and s.press_ask == s.ask:
            self._confirm(seat, s, s.press_t + self.cfg.hold, out)
        s.held = True            # this press's hold moment has passed, asked or not

    def _confirm(self, seat: int, s: _Seat, t: float, out: list[PadEvent]) -> None:
        s.held = True
        if self.cfg.mode == COUNT and s.cursor is not None and s.cursor not in s.eligible:
            s.cursor = None           # counted past the eligible seats: start again
            out.append(Confirmed(seat, None, t))
            return
        s.choice = s.cursor
        out.append(Confirmed(seat, s.cursor, t))

    def _move(self, seat: int, s: _Seat, t: float, out: list[PadEvent]) -> None:
        if self.cfg.mode == COUNT:
            s.cursor = 1 if s.cursor is None or s.cursor >= self.n else s.cursor + 1
        else:
            if not s.eligible:
                return
            s.cursor = next_cursor(s.cursor, s.eligible)
        out.append(Moved(seat, s.cursor, t))


def next_cursor(cursor: int | None, eligible: Sequence[int]) -> int | None:
    """Where a short press moves a ring's cursor: to the next eligible seat clockwise, and
    after the last one to "nobody" (no cursor: a hold there confirms nothing), then round."""
    if cursor is None:
        return min(eligible)
    later = [e for e in eligible if e > cursor]
    return min(later) if later else None


def presses_to(cursor: int | None, choice: int | None, eligible: Sequence[int]) -> int:
    """Short presses that take the cursor from `cursor` to `choice` (None: nobody)."""
    n = 0
    while cursor != choice and n <= len(eligible) + 1:
        cursor = next_cursor(cursor, eligible)
        n += 1
    return n
