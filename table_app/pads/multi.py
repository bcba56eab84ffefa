"""A big table: two or three pad controllers (12 pads each), one table.

Every controller is a backend of its own (the same firmware, board and link as a table of 12:
`SerialPads`, or fake ones in the tests) with twelve jacks. `TablePads` puts them together:
jack j of the controller in slot c is button (c - 1) * 12 + j of the table, and its ring is
ring (c - 1) * 12 + j, so `table-app check` maps seats to buttons and rings as for one
controller, and the settings keep one list of each (`pads.buttons`, `pads.rings`).

Which controller is in which slot goes by its own id (the board's unique id, said in its
hello; `pads.controllers` in the settings, written by the check), never by the USB port it
is plugged into: any controller in any port finds its seats. A controller not yet named takes
the first free slot.

A controller that drops out pauses the game, naming its seats ("(seats 13-24)" at the end
of the reason); the game goes on only when every controller is back.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import replace

from ..clock import Clock
from ..words import spans
from .base import PadBackend, Sink
from .events import PadEdge, PadHeld, PadLevel, PadLink, RawPadEvent
from .rings import Picture

JACKS = 12
#: the seats a controller's reason names, at its end (the table shows them to the host)
SEATS_NOTE = re.compile(r" \(seats ([0-9, -]+)\)$")

Maker = Callable[[int, Sink], PadBackend]


def controllers_for(seats: int) -> int:
    """How many controllers of 12 pads a table of `seats` needs."""
    return max(1, -(-seats // JACKS))


class TablePads(PadBackend):
    """Several controllers' pads as one table's: buttons and rings numbered across them."""

    name = "table"

    def __init__(self, seats: int, sink: Sink, clock: Clock | None = None,
                 make: Maker | None = None, controllers: int | None = None,
                 ids: Sequence[str] = (), ring_size: int = 12) -> None:
        self.ring_size = ring_size
        super().__init__(seats, sink, clock)
        if make is None:
            raise ValueError("TablePads needs a maker of its controllers' backends")
        n = controllers or controllers_for(seats)
        #: the controllers' ids by slot (from the settings); a slot past them is anyone's
        self.ids: list[str] = list(ids)
        self.children: list[PadBackend] = []
        #: child index -> slot (0-based), once known
        self.slot_of: dict[int, int] = {}
        #: controllers down now: child index -> why
        self.out: dict[int, str] = {}
        for k in range(n):
            child = make(k, self._sink_for(k))
            child.ring_size = ring_size
            child.table = self.table
            self.children.append(child)
        self._claim_known()

    def _sink_for(self, k: int) -> Sink:
        def sink(ev: RawPadEvent) -> None:
            self._from(k, ev)
        return sink

    @property
    def inputs(self) -> int:
        """Buttons (and rings) there are: twelve a controller."""
        return JACKS * len(self.children)

    # -- which controller is which --------------------------------------------------------
    def board(self, k: int) -> str | None:
        """Child k's id, if it has said it."""
        return getattr(self.children[k], "board_id", None)

    def _claim_known(self) -> None:
        for k in range(len(self.children)):
            self._claim(k)

    def _claim(self, k: int) -> int | None:
        """Child k's slot: its id's place in `ids`, else the first slot nobody holds or is
        named for (None while it has no id and was never heard)."""
        if k in self.slot_of:
            return self.slot_of[k]
        board = self.board(k)
        if board is None:
            return None
        taken = set(self.slot_of.values())
        if board in self.ids and self.ids.index(board) < len(self.children) \
                and self.ids.index(board) not in taken:
            slot = self.ids.index(board)
        else:
            named = {i for i, b in enumerate(self.ids) if b in self._boards()}
            free = [s for s in range(len(self.children)) if s not in taken and s not in named]
            if not free:
                free = [s for s in range(len(self.children)) if s not in taken]
            if not free:
                return None
            slot = free[0]
        self.slot_of[k] = slot
        self._layout_changed()
        return slot

    def _boards(self) -> set[str]:
        return {b for k in range(len(self.children)) if (b := self.board(k)) is not None}

    def controller_ids(self) -> list[str]:
        """The controllers' ids in slot order (what `pads.controllers` keeps)."""
        by_slot = {slot: self.board(k) for k, slot in self.slot_of.items()}
        return [by_slot.get(s) or "" for s in range(len(self.children))]

    def _child(self, button: int) -> tuple[int, int] | None:
        """(child index, jack) of table button 1..inputs."""
        slot, jack = divmod(button - 1, JACKS)
        for k, s in self.slot_of.items():
            if s == slot:
                return k, jack + 1
        return None

    def seats_of(self, k: int) -> list[int]:
        """The table's seats on child k's pads (its twelve jacks' buttons, as mapped)."""
        slot = self.slot_of.get(k)
        if slot is None:
            return []
        buttons = range(slot * JACKS + 1, slot * JACKS + JACKS + 1)
        seats = [self.seat_of.get(b, b if not self.seat_of else 0) for b in buttons]
        return [s for s in seats if 1 <= s <= self.seats]

    # -- events from the controllers --------------------------------------------------------
    def _from(self, k: int, ev: RawPadEvent) -> None:
        if isinstance(ev, PadLink) and ev.seat == 0:
            self._link(k, ev)
            return
        slot = self._claim(k)
        if slot is None or not isinstance(ev, PadEdge | PadHeld | PadLevel | PadLink):
            return
        button = slot * JACKS + ev.seat
        if isinstance(ev, PadEdge | PadLevel):
            self.down[button] = ev.pressed
        self.sink(replace(ev, seat=button))

    def _link(self, k: int, ev: PadLink) -> None:
        if ev.up:
            self._claim(k)
            self.out.pop(k, None)
            if self.out:
                return          # the game stays paused: another controller is still out
            self._out(ev)
            return
        self.out[k] = ev.reason
        seats = self.seats_of(k)
        slot = self.slot_of.get(k)
        which = (f"seats {spans(seats)}" if seats else
                 f"controller {k + 1} of {len(self.children)}" if slot is None else
                 f"controller {slot + 1}")
        self._out(replace(ev, reason=f"{ev.reason} ({which})"))

    # -- pictures and layout, to the controller each seat is on ------------------------------
    def _where(self, seat: int) -> tuple[PadBackend, int] | None:
        button = self.button_of.get(seat, seat)
        at = self._child(button)
        if at is None:
            return None
        return self.children[at[0]], at[1]

    def _show(self, seat: int, picture: Picture) -> None:
        at = self._where(seat)
        if at is not None:
            at[0].show(at[1], picture)

    def _layout_changed(self) -> None:
        # each controller's jacks: the turn of the seat there, and the ring (its own jack)
        # that seat's pictures go to
        for k, child in enumerate(self.children):
            slot = self.slot_of.get(k)
            turns = [0] * JACKS
            rings = list(range(1, JACKS + 1))
            if slot is not None:
                for seat in range(1, self.seats + 1):
                    button = self.button_of.get(seat, seat)
                    if (button - 1) // JACKS != slot:
                        continue
                    jack = (button - 1) % JACKS
                    turns[jack] = self.rotation.get(seat, 0)
                    ring = self.ring_order[seat - 1] if self.ring_order else button
                    if (ring - 1) // JACKS == slot:
                        rings[jack] = (ring - 1) % JACKS + 1
            if sorted(rings) != list(range(1, JACKS + 1)):
                rings = list(range(1, JACKS + 1))   # a ring on another controller: as wired
            child.set_layout(None, turns, rings)
        super()._layout_changed()

    def set_table(self, players: int) -> None:
        super().set_table(players)
        for child in self.children:
            child.set_table(self.table)

    def set_cap(self, cap: float) -> None:
        super().set_cap(cap)
        for child in self.children:
            child.set_cap(cap)

    def go_quiet(self) -> None:
        super().go_quiet()
        for child in self.children:
            child.quiet = True

    def speak_again(self) -> None:
        for child in self.children:
            child.quiet = False
        super().speak_again()

    def start(self) -> None:
        for child in self.children:
            child.start()

    def poll(self) -> None:
        for child in self.children:
            child.poll()

    def close(self) -> None:
        for child in self.children:
            child.close()

    def wait_connected(self, timeout: float = 5.0) -> bool:
        import time
        end = time.monotonic() + timeout
        ok = True
        for child in self.children:
            wait = getattr(child, "wait_connected", None)
            if wait is not None:
                ok = wait(max(0.0, end - time.monotonic())) and ok
        self._claim_known()
        return ok

    def button_down(self, button: int) -> bool:
        at = self._child(button)
        if at is None:
            return False
        return self.children[at[0]].button_down(at[1])

    def pixels(self, seat: int, now: float | None = None) -> list[tuple[int, int, int]]:
        at = self._where(seat)
        if at is None:
            return super().pixels(seat, now)
        return at[0].pixels(at[1], now)

    def light_ring(self, ring: int, picture: Picture) -> None:
        """Show `picture` on ring `ring` (1..inputs) as wired: the check lights a spare
        jack's ring too, which no seat has."""
        at = self._child(ring)
        if at is not None:
            self.children[at[0]].show(at[1], picture)

    # -- fingers, for tests and bots: a seat's button on whichever controller it is ----------
    def press(self, seat: int, at: float | None = None) -> None:
        self._finger(seat, "press", at)

    def release(self, seat: int, at: float | None = None) -> None:
        self._finger(seat, "release", at)

    def _finger(self, seat: int, how: str, at: float | None) -> None:
        where = self._where(seat)
        if where is None:
            return
        getattr(where[0], how)(where[1], at)
