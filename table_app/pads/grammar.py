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

A big choice goes in two steps (`Stages`): at a table of more than 12 seats with 12 or more
seats to choose from, short presses first move over parts of the table (a few neighbouring
eligible seats each) and a hold opens one; then short presses move over its seats and its
"nobody" places, as on a small table, and a hold there chooses. A hold on "nobody" inside a
part goes back to the parts. So any of 30 seats takes at most 12 presses, holds included.

A press shorter than `min_press` is noise (a spike on a long cable, a brushed contact): it
means nothing at all, not even "movement" at night. So a press is announced (`Pressed`, and
`OutOfTurn` for a seat not asked) once it has lasted `min_press`, stamped with its start; a
tap is taken at its release, as before, which is always later than that.
"""

from __future__ import annotations

import math
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
#: a table of more seats than this, choosing among this many or more, chooses in two steps
STAGED_FROM = 12
OUTSIDE = -1           # the parts' own "nobody" place (a question that starts on nobody)


@dataclass(frozen=True)
class Stages:
    """A choice in two steps: first one of `parts` (neighbouring eligible seats), then one of
    its `places` (its seats, then "nobody" to make every part the same length, at least one).
    The cursor starts on part `first` (OUTSIDE: on the parts' own "nobody", for a question
    that starts on nobody; only such a question has it) and, in part i, on place
    `starts[i]`."""

    parts: tuple[tuple[int, ...], ...]
    places: int
    first: int
    starts: tuple[int, ...]

    @property
    def outside(self) -> bool:
        return self.first == OUTSIDE

    def seat_at(self, part: int, place: int) -> int | None:
        seats = self.parts[part]
        return seats[place] if place < len(seats) else None


def staged(eligible: Sequence[int], table: int) -> bool:
    """Does a question at a table of `table` seats choose among `eligible` in two steps?"""
    return table > STAGED_FROM and len(set(eligible)) >= STAGED_FROM


def split_parts(eligible: Sequence[int]) -> tuple[tuple[tuple[int, ...], ...], int]:
    """The parts a big choice is split into, clockwise, and the places each offers.

    As many parts as the square root of the choices (rounded up), their sizes differing by
    one at most, the bigger first; each offers its seats then "nobody" up to the biggest
    part's size plus one. The presses to any place are then at most parts + places: 12 for
    30 choices."""
    seats = sorted(set(eligible))
    count = math.ceil(math.sqrt(len(seats)))
    size, extra = divmod(len(seats), count)
    parts: list[tuple[int, ...]] = []
    at = 0
    for i in range(count):
        n = size + (1 if i < extra else 0)
        parts.append(tuple(seats[at:at + n]))
        at += n
    return tuple(parts), math.ceil(len(seats) / count) + 1


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
    stages: Stages | None = None  # a big choice in two steps
    part: int = OUTSIDE          # the part the cursor is on (or opened)
    opened: bool = False         # a part is open: the cursor is on its places
    place: int = 0               # the place in the open part
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
    def ask(self, seat: int, eligible: Sequence[int], cursor: int | None = None,
            stages: Stages | None = None) -> None:
        """Seat `seat` is now asked to pick one of `eligible` (a press from before counts not),
        its cursor on `cursor`, or in two steps as `stages` says."""
        s = self.seats[seat]
        s.ask += 1
        s.asked = True
        s.eligible = tuple(sorted(eligible))
        s.cursor = None if stages is not None else cursor
        s.choice = None
        s.stages, s.opened, s.place = stages, False, 0
        s.part = stages.first if stages is not None else OUTSIDE

    def stop(self, seat: int | None = None) -> None:
        """The question (for one seat, or all) is over."""
        for i in ([seat] if seat is not None else range(1, self.n + 1)):
            s = self.seats[i]
            s.ask += 1
            s.asked = False
            s.eligible = ()
            s.cursor = None
            s.stages = None

    def asked(self, seat: int) -> bool:
        return self.seats[seat].asked

    def cursor(self, seat: int) -> int | None:
        return self.seats[seat].cursor

    def choice(self, seat: int) -> int | None:
        return self.seats[seat].choice

    def is_down(self, seat: int) -> bool:
        return self.seats[seat].level

    def part(self, seat: int) -> tuple[tuple[int, ...], bool] | None:
        """In a choice of two steps, the seats of the part the cursor is on, and whether it
        is open (None: a choice of one step, or on the parts' own "nobody")."""
        s = self.seats[seat]
        if s.stages is None or s.part == OUTSIDE:
            return None
        return s.stages.parts[s.part], s.opened

    def route(self, seat: int, choice: int | None) -> list[int]:
        """How a player gets from where the seat's cursor is to `choice` (None: nobody): the
        short presses before each hold, one number per hold."""
        s = self.seats[seat]
        if s.stages is None:
            return [presses_to(s.cursor, choice, s.eligible)]
        st = s.stages
        holds: list[int] = []
        part, opened, place = s.part, s.opened, s.place
        want = OUTSIDE if choice is None and st.outside else next(
            (i for i, seats in enumerate(st.parts) if choice in seats), len(st.parts) - 1)
        if opened and (choice is None and not st.outside or part == want and choice is not None):
            return [_steps(place, st.parts[part].index(choice) if choice is not None
                           else len(st.parts[part]), st.places)]
        if opened:              # out of this part: to its first "nobody", and back to the parts
            holds.append(_steps(place, len(st.parts[part]), st.places))
        order = _part_order(st)
        holds.append(_steps(order.index(part), order.index(want), len(order)))
        if want != OUTSIDE:
            target = (st.parts[want].index(choice) if choice is not None
                      else len(st.parts[want]))
            holds.append(_steps(st.starts[want], target, st.places))
        return holds

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
        if s.stages is not None and not (s.opened and s.cursor is not None):
            self._hold_staged(seat, s, s.stages, t, out)
            return
        if self.cfg.mode == COUNT and s.cursor is not None and s.cursor not in s.eligible:
            s.cursor = None           # counted past the eligible seats: start again
            out.append(Confirmed(seat, None, t))
            return
        s.choice = s.cursor
        out.append(Confirmed(seat, s.cursor, t))

    def _hold_staged(self, seat: int, s: _Seat, st: Stages, t: float,
                     out: list[PadEvent]) -> None:
        # a hold in a choice of two steps that is not on a seat: it opens the part it is on,
        # goes back from a part's "nobody" to the parts (choosing nobody when the parts have
        # no "nobody" of their own), or, on the parts' own "nobody", chooses nobody
        if s.opened:
            s.opened = False
            if not st.outside:
                s.choice = None
                out.append(Confirmed(seat, None, t))
                return
        elif s.part != OUTSIDE:
            s.opened, s.place = True, st.starts[s.part]
            s.cursor = st.seat_at(s.part, s.place)
        else:
            s.choice = None
            out.append(Confirmed(seat, None, t))
            return
        out.append(Moved(seat, s.cursor, t))

    def _move(self, seat: int, s: _Seat, t: float, out: list[PadEvent]) -> None:
        if s.stages is not None:
            if s.opened:
                s.place = (s.place + 1) % s.stages.places
                s.cursor = s.stages.seat_at(s.part, s.place)
            else:
                order = _part_order(s.stages)
                s.part = order[(order.index(s.part) + 1) % len(order)]
            out.append(Moved(seat, s.cursor, t))
            return
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


def _part_order(st: Stages) -> list[int]:
    """The places of the first step, in the order short presses visit them."""
    return ([OUTSIDE] if st.outside else []) + list(range(len(st.parts)))


def _steps(start: int, target: int, places: int) -> int:
    """Short presses from place `start` to `target` on a round of `places`."""
    return (target - start) % places
