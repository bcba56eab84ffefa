"""The pad interface the rest of the app uses, and the scripted fake (the backends are
chosen by name in factory.py).

A backend reads buttons and shows ring pictures. Its driver side (a gpiozero callback, a
serial reader thread, the pygame event pump) only stamps edges with the clock and hands them
to `sink` (the app's queue); the press grammar and the rules run in the app's loop.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace

from ..clock import Clock, MonotonicClock
from .events import (
    Confirmed,
    Moved,
    PadEdge,
    PadEvent,
    PadFault,
    PadHeld,
    PadLink,
    PadRecovered,
    RawPadEvent,
)
from .grammar import RING, GrammarConfig, PressGrammar, Stages
from .rings import Dark, Fault, Pick, Picture, Vote, YesNo

Sink = Callable[[RawPadEvent], None]


class PadError(Exception):
    """A pad backend cannot start: bad pin map, no device, wrong seat count."""


class PadBackend:
    """Buttons in, ring pictures out. Subclasses drive real or simulated hardware."""

    name = "base"
    grammar_mode = RING
    #: pixels a ring (12, 16 or 24: `pads.ring` in the settings, as the rings were built)
    ring_size = 12

    def __init__(self, seats: int, sink: Sink, clock: Clock | None = None) -> None:
        self.seats = seats
        #: the seats the rings map (the game's players; the pads' number until a game says)
        self.table = seats
        self._out = sink
        self.clock: Clock = clock or MonotonicClock()
        #: which button input belongs to each seat's ring, and how each ring is turned
        #: (`table-app check` finds both): button k is seat k, unturned, until told
        self.seat_of: dict[int, int] = {}
        self.button_of: dict[int, int] = {}
        self.rotation: dict[int, int] = {}
        self.ring_order: list[int] = []
        self.pictures: dict[int, Picture] = {s: Dark() for s in range(1, seats + 1)}
        self.shown_at: dict[int, float] = dict.fromkeys(self.pictures, 0.0)
        self.shows = 0
        #: the brightness cap in force (0-1): the table lowers it at night and in the vote
        self.light_cap = 1.0
        #: each button's last known level (backends that can read a pin override is_down)
        self.down: dict[int, bool] = {}

    def sink(self, ev: RawPadEvent) -> None:
        """Hand an event on, its button turned into the seat it belongs to."""
        if self.seat_of and ev.seat in self.seat_of:
            ev = replace(ev, seat=self.seat_of[ev.seat])
        self._out(ev)

    def set_layout(self, buttons: Sequence[int] | None = None,
                   rotation: Sequence[int] | None = None,
                   rings: Sequence[int] | None = None) -> None:
        """Seat k's pad: its button input `buttons[k-1]`, its ring `rings[k-1]` (the ring
        pin, or place in a chain: 1-12 on the first controller, 13-24 on the second...), and
        `rotation[k-1]`, the pixel of that ring that points at seat 1. As `table-app check`
        found them; None: as wired, unturned."""
        self.ring_order = list(rings) if rings else []
        if buttons:
            self.button_of = {k: b for k, b in enumerate(buttons, 1)}
            self.seat_of = {b: k for k, b in self.button_of.items()}
        else:
            self.button_of, self.seat_of = {}, {}
        self.rotation = {k: r % self.ring_size for k, r in enumerate(rotation or (), 1)
                         if r % self.ring_size}
        self._layout_changed()

    def set_table(self, players: int) -> None:
        """The game's players: what the rings are a map of (seat k of `players`; a table of
        more players than a ring has pixels shares lights between neighbours)."""
        players = max(1, min(30, players))
        if players != self.table:
            self.table = players
            if not self.quiet:
                for seat in range(1, self.seats + 1):
                    self._show(seat, self.pictures[seat])

    def _layout_changed(self) -> None:
        """Turned rings are drawn anew (the controller is told)."""
        if not self.quiet:
            for seat in range(1, self.seats + 1):
                self._show(seat, self.pictures[seat])

    @property
    def inputs(self) -> int:
        """Button inputs (and rings) the hardware has: a big table's controllers have more
        jacks than it has seats."""
        return self.seats

    def start(self) -> None:
        """Open the hardware (a no-op for backends that need nothing)."""

    def poll(self) -> None:
        """Pump events where the backend must be pumped from the main thread (pygame)."""

    def show(self, seat: int, picture: Picture) -> None:
        """Show `picture` on `seat`'s ring (a repeat of what is shown costs nothing). A picture
        the rings cannot draw (an answer word the drawing does not know) is refused here,
        with ValueError, by every backend alike: the pad controller's encoding refuses it,
        and a fake or a ring board that drew it later, or never, hid that."""
        if self.pictures.get(seat) == picture:
            return
        self.encode(picture)
        self.pictures[seat] = picture
        self.shown_at[seat] = self.clock.now()
        if self.quiet:
            return                   # rebuilding: remembered, sent when the table is back
        self.shows += 1
        self._show(seat, picture)

    #: while True, pictures are remembered but not sent (the table is being rebuilt)
    quiet = False

    def go_quiet(self) -> None:
        """Every ring dark, then silence: a table rebuilt from its journal replays every
        past picture, and none of them (a role card, a check) may flash on a ring."""
        for seat in range(1, self.seats + 1):
            self._show(seat, Dark())
        self.quiet = True

    def speak_again(self) -> None:
        """The table is back: each ring gets its current picture, once."""
        self.quiet = False
        for seat in range(1, self.seats + 1):
            if self.pictures[seat] != Dark():
                self.shows += 1
                self._show(seat, self.pictures[seat])

    def set_cap(self, cap: float) -> None:
        """Cap every ring's brightness at `cap` (0-1), on whatever the hardware is."""
        cap = max(0.0, min(1.0, cap))
        if cap != self.light_cap:
            self.light_cap = cap
            self._cap_changed()

    def _cap_changed(self) -> None:
        pass

    #: the most current (mA) its rings may draw together, where the hardware dims them to a
    #: budget (the pad controller, the Pi's ring board); None: no budget
    budget_ma: int | None = None

    def level_of(self, seat: int) -> int:
        """The budget's level (0-256) seat's ring is dimmed to now, as the hardware works it
        out: from every ring's allowance (rings.budget_level), never from a private
        picture's pixels. A jack with no seat counts as a dark ring."""
        if self.budget_ma is None:
            return 256
        from .rings import budget_level
        shown: list[Picture] = [self.pictures[s] for s in range(1, self.seats + 1)]
        shown += [Dark()] * (self.inputs - self.seats)
        return budget_level(shown, self.light_cap, self.budget_ma, self.table, self.ring_size)

    def pixels(self, seat: int, now: float | None = None) -> list[tuple[int, int, int]]:
        """The light seat's ring gives now: its picture, animated, after the cap and the
        budget."""
        from .rings import render
        return render(self.pictures[seat], self.age(seat, now), self.ring_size,
                      self.rotation.get(seat, 0), self.light_cap, self.table,
                      self.level_of(seat))

    def encode(self, picture: Picture) -> bytes:
        """The picture's bytes as this table's rings draw them (see rings.encode)."""
        from .rings import encode
        return encode(picture, self.table, self.ring_size)

    def age(self, seat: int, now: float | None = None) -> float:
        """Seconds since the seat's picture was shown (what animations count from)."""
        return (self.clock.now() if now is None else now) - self.shown_at[seat]

    def _show(self, seat: int, picture: Picture) -> None:
        pass

    def close(self) -> None:
        """Release the hardware."""

    def _edge(self, seat: int, pressed: bool, at: float | None = None) -> None:
        self.down[seat] = pressed
        self.sink(PadEdge(seat, pressed, self.clock.now() if at is None else at))

    def is_down(self, seat: int) -> bool:
        """Is the seat's button down now, as far as the hardware says?"""
        return self.button_down(self.button_of.get(seat, seat))

    def button_down(self, button: int) -> bool:
        """Is button input `button` down now (before any mapping to seats)?"""
        return self.down.get(button, False)


class FakePads(PadBackend):
    """Scripted pads: a test (or a bot) presses and releases; the latest pictures are kept
    (`history`, at most 2 * HISTORY of them: a night of demo games showed some 200 KB of
    pictures a game, all kept)."""

    name = "fake"
    HISTORY = 2000

    def __init__(self, seats: int, sink: Sink, clock: Clock | None = None,
                 mode: str = RING) -> None:
        super().__init__(seats, sink, clock)
        self.grammar_mode = mode
        self.history: list[tuple[int, Picture]] = []

    def _show(self, seat: int, picture: Picture) -> None:
        self.history.append((seat, picture))
        if len(self.history) > 2 * self.HISTORY:
            del self.history[:self.HISTORY]        # the oldest half, now and then

    def press(self, seat: int, at: float | None = None) -> None:
        """The seat's button goes down, now or at the pad-clock time `at` (a bot's planned
        moment, whenever its loop gets to it)."""
        self._edge(seat, True, at)

    def release(self, seat: int, at: float | None = None) -> None:
        self._edge(seat, False, at)

    def held(self, seat: int) -> None:
        self.sink(PadHeld(seat, self.clock.now()))

    def link(self, seat: int, up: bool, reason: str = "") -> None:
        self.sink(PadLink(seat, up, reason, self.clock.now()))


@dataclass
class Ask:
    """What a seat is asked: the picture kind and the seats it may pick."""

    kind: str                      # pick, vote, yesno
    eligible: tuple[int, ...]


class PadPanel:
    """The pad layer the table talks to: asks seats, shows pictures, runs the grammar.

    Only a seat that is asked something ever sees its ring answer a press; an out-of-turn
    press changes nothing on that ring.
    """

    def __init__(self, backend: PadBackend, config: GrammarConfig | None = None) -> None:
        cfg = replace(config or GrammarConfig(), mode=backend.grammar_mode)
        self.backend = backend
        self.grammar = PressGrammar(backend.seats, cfg)
        self.asks: dict[int, Ask] = {}

    def ask(self, seat: int, eligible: Sequence[int], kind: str = "pick",
            picture: Picture | None = None, cursor: int | None = None,
            stages: Stages | None = None) -> None:
        """Ask a seat to pick; its ring shows the choice (or `picture` until it first moves).
        The cursor starts at `cursor` (None: on nobody), or the choice goes in two steps
        as `stages` says."""
        self.asks[seat] = Ask(kind, tuple(eligible))
        self.grammar.ask(seat, eligible, cursor, stages)
        self.backend.show(seat, picture or self._picture(seat, self.grammar.cursor(seat),
                                                         None))

    def set_cap(self, cap: float) -> None:
        self.backend.set_cap(cap)

    def stop(self, seat: int | None = None) -> None:
        seats = [seat] if seat is not None else list(range(1, self.backend.seats + 1))
        for s in seats:
            self.asks.pop(s, None)
            self.grammar.stop(s)
            self.backend.show(s, Dark())

    def show(self, seat: int, picture: Picture) -> None:
        self.backend.show(seat, picture)

    def _picture(self, seat: int, cursor: int | None, chosen: int | None) -> Picture:
        ask = self.asks[seat]
        if ask.kind == "yesno":
            return YesNo(cursor, chosen)
        # a choice in two steps shows the part the cursor is on: whole (blinking) while the
        # parts are gone through, its seats once it is open
        pool, whole = frozenset(ask.eligible), False
        part = self.grammar.part(seat)
        if part is not None:
            pool, whole = frozenset(part[0]), not part[1]
        if ask.kind == "vote":
            return Vote(pool, cursor, chosen, whole)
        return Pick(pool, cursor, chosen, whole)

    def handle(self, raw: RawPadEvent) -> list[PadEvent]:
        """One raw event from the queue: run the grammar, answer on the ring, say what it meant."""
        if isinstance(raw, PadLink):
            return self._link(raw)
        return self._answer(self.grammar.feed(raw))

    def tick(self, now: float) -> list[PadEvent]:
        return self._answer(self.grammar.tick(now))

    def _link(self, raw: PadLink) -> list[PadEvent]:
        if raw.up:
            return [PadRecovered(raw.seat, raw.reason or "link", raw.t)]
        return [PadFault(raw.seat, raw.reason or "link", raw.t)]

    def _answer(self, events: list[PadEvent]) -> list[PadEvent]:
        for ev in events:
            if isinstance(ev, Moved | Confirmed) and ev.seat in self.asks:
                g = self.grammar
                self.backend.show(ev.seat, self._picture(ev.seat, g.cursor(ev.seat),
                                                         g.choice(ev.seat)))
            elif isinstance(ev, PadFault) and ev.seat:
                self.backend.show(ev.seat, Fault())
            elif isinstance(ev, PadRecovered) and ev.seat:
                if ev.seat in self.asks:
                    g = self.grammar
                    self.backend.show(ev.seat, self._picture(ev.seat, g.cursor(ev.seat),
                                                             g.choice(ev.seat)))
                else:
                    self.backend.show(ev.seat, Dark())
        return events
