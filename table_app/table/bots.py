"""Bot players at the table: they press fake pads like people, for the demo and the tests.

A bot's choice is a pure function of the game's seed and the question it is asked (the
phase, the step, the seat, what is eligible), never of when it is asked or of what it chose
before a restart; so a game killed and resumed plays on exactly as it would have.
"""

from __future__ import annotations

import heapq
import random
from typing import Any

from ..pads import FakePads
from ..pads.grammar import COUNT
from ..rules import deal_from_seed
from ..rules.roles import DECISION
from .core import Table

THINK = 0.6        # seconds before a bot starts pressing
TAP = 0.12         # a short press
GAP = 0.2          # between presses
HOLD = 0.9         # a hold (over the 0.7 s the grammar wants)


class TableBots:
    """Twelve bots and a host who presses start."""

    def __init__(self, pads: FakePads, seed: int, nominate: float = 0.45,
                 vote: float = 0.85) -> None:
        self.pads = pads
        self.seed = seed
        self.p_nominate = nominate
        self.p_vote = vote
        self.plans: dict[int, Any] = {}           # seat -> the question it is planned for
        self.events: list[tuple[float, int, int, bool]] = []   # (t, order, seat, press)
        self.order = 0
        self.down: set[int] = set()
        self.held = False          # the game is paused: nobody presses

    def next_time(self) -> float | None:
        return self.events[0][0] if self.events else None

    def fire(self, now: float) -> None:
        """Press and release whatever is due."""
        while self.events and self.events[0][0] <= now:
            t, _, seat, down = heapq.heappop(self.events)
            (self.down.add if down else self.down.discard)(seat)
            # stamped when it was planned, as a pad stamps its edges: a loop running late
            # (a loaded machine) fired press and release in one pass, stamped alike, and the
            # grammar took the tap for a bounce
            (self.pads.press if down else self.pads.release)(seat, at=t)

    def _schedule(self, t: float, seat: int, down: bool) -> None:
        self.order += 1
        heapq.heappush(self.events, (t, self.order, seat, down))

    def _cancel(self, seat: int, now: float) -> None:
        self.events = [e for e in self.events if e[2] != seat]
        heapq.heapify(self.events)
        if seat in self.down:
            self._schedule(now, seat, False)     # never leave a button held down

    def observe(self, table: Table, now: float) -> list[tuple[str, ...]]:
        """Look at the table; plan presses for new questions. Returns host commands."""
        host: list[tuple[str, ...]] = []
        g = table.game
        if table.stage == "ready" and not table.paused:
            host.append(("start",))
        if table.stage == "deal":
            seat = table.viewer
            key: tuple[object, ...] = ("view", seat)
            if self.plans.get(seat) != key and 1 <= seat <= table.cfg.players:
                self.plans[seat] = key
                self._press_for(seat, now + THINK, HOLD)
        if table.stage == "register" and not table.calls_started:
            host.append(("call",))                # the cards are dealt: call the roles
        if table.stage == "register" and table.registering:
            role = table.registering[0]
            roles = deal_from_seed(table.cfg.fmt, table.cfg.players, self.seed).roles
            for seat, r in enumerate(roles, 1):
                key = ("register", role)
                if r == role and self.plans.get(seat) != key:
                    self.plans[seat] = key
                    self._press_for(seat, now + THINK, TAP)
        if table.stage != "play":
            return host
        if table.paused:
            # people stop pressing when the game is paused (the host, a pad, a full disk),
            # and go on from where their cursor is when it goes on
            if not self.held:
                self.held = True
                for seat in {e[2] for e in self.events}:
                    self._cancel(seat, now)
            return host
        if self.held:
            self.held = False
            self.plans.clear()
        for seat, what in list(table.asked.items()):
            ask = table.panel.asks.get(seat)
            if ask is None:
                continue
            key = (g.phase_label(), g.step, what, ask.eligible, len(g.nominees))
            if self.plans.get(seat) == key:
                continue
            if table.panel.grammar.is_down(seat) and seat not in self.down:
                # held down since before a restart: let it go, then plan from where it is
                if not any(e[2] == seat for e in self.events):
                    self._schedule(now + GAP, seat, False)
                continue
            self.plans[seat] = key
            self._cancel(seat, now)
            choice = self._choose(table, seat, what, ask.eligible, key)
            if choice is False:
                continue
            self._go_to(table, seat, choice, now + THINK)
        return host

    def _rng(self, seat: int, key: Any) -> random.Random:
        return random.Random(f"{self.seed}|{seat}|{key!r}")

    def _choose(self, table: Table, seat: int, what: str, eligible: tuple[int, ...],
                key: Any) -> int | None | bool:
        """The seat to confirm, None to hold with no cursor, False to do nothing."""
        rng = self._rng(seat, key)
        g = table.game
        team_of = g.fmt.team_of
        if what == "speech":
            if eligible == (seat,) or rng.random() > self.p_nominate:
                return None                       # end the speech early
            others = [s for s in eligible if s != seat]
            return rng.choice(others) if others else None
        if what == "ballot":
            if rng.random() > self.p_vote:
                return False                      # abstains
            return rng.choice(eligible)
        if what == "removeall" or what.startswith("mode:"):
            return 1 if rng.random() < 0.6 else 2
        if what == "take":
            return rng.choice(eligible)
        # a night decision: a side does not kill (or order a kill on) its own
        mine = team_of[g.roles[seat]]
        harms = DECISION[what].act.harms
        targets = [s for s in eligible if not harms
                   or team_of[g.roles[s]] != mine] or list(eligible)
        return rng.choice(targets)

    def _go_to(self, table: Table, seat: int, choice: int | None, t: float) -> None:
        """Short presses until the cursor is on `choice`, then a hold (a big choice: twice)."""
        grammar = table.panel.grammar
        if grammar.is_down(seat) or seat in self.down:
            self._schedule(t, seat, False)        # a press left over (or from before a restart)
            t += GAP
        if grammar.cfg.mode == COUNT:
            holds = [0 if choice is None else choice]
        else:
            holds = grammar.route(seat, choice)
        for taps in holds:
            for _ in range(taps):
                self._press_for(seat, t, TAP)
                t += TAP + GAP
            self._press_for(seat, t, HOLD)
            t += HOLD + GAP

    def _press_for(self, seat: int, t: float, length: float) -> None:
        self._schedule(t, seat, True)
        self._schedule(t + length, seat, False)

