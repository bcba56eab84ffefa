"""The players of `table-app observe` (table_app/tools/observe.py plays the game): what a
game script asks for, phase by phase, and the presses and host commands that carry it out
on the table's pads, at the times its description gives (see observe.py's docstring)."""

from __future__ import annotations

import heapq
from dataclasses import dataclass, field

from ..pads import FakePads
from ..rules.script import Replay
from ..table.core import Table
from .observe_room import EPS

TAP = 0.12          # a short press
GAP = 0.2           # between presses
HOLD = 0.9          # a hold (over the grammar's 0.7 s)
DAY_PRESS = 3.0     # nominations and ballots: seconds into the speech or the vote
HOST_AT = 3.0       # a host command first in its phase: seconds into the phase (never --press-at)
VIEW_AT = 1.0       # the deal: seconds into his turn a player holds his button, and how long
VIEW_FOR = 2.0


# -- what the script asks for, phase by phase ---------------------------------------------------
@dataclass
class Item:
    """One statement of a phase, and when the table carried it out."""

    words: list[str]
    done: float | None = None
    night: str = ""            # a night decision or timeout: its decision (over with its window)


@dataclass
class PhasePlan:
    """One night's or day's statements."""

    items: list[Item] = field(default_factory=list)
    decisions: dict[str, tuple[int | None, str, Item]] = field(default_factory=dict)
    nominations: dict[int, tuple[int, Item]] = field(default_factory=dict)
    ballots: dict[str, dict[int, tuple[int, Item]]] = field(default_factory=dict)
    removeall: dict[int, Item] = field(default_factory=dict)
    takes: dict[int, tuple[int, Item]] = field(default_factory=dict)
    started: float | None = None


def plan_phases(replay: Replay) -> dict[str, PhasePlan]:
    """The script's statements grouped by phase label (`night 1`, `day 1`, ...)."""
    phases: dict[str, PhasePlan] = {}
    counts = {"night": 0, "day": 0}
    cur: PhasePlan | None = None
    for _, words in replay.statements:
        kw, args = words[0].rstrip(":"), words[1:]      # `removeall:` is the removeall line
        if kw in ("night", "day"):
            counts[kw] += 1
            cur = phases.setdefault(f"{kw} {counts[kw]}", PhasePlan())
            continue
        if cur is None:
            continue
        item = Item(words)
        cur.items.append(item)
        if kw == "timeout":
            item.done = -1.0                       # nothing to press: carried out at once
            item.night = args[0]
        elif kw == "nominate":
            cur.nominations[int(args[0])] = (int(args[1]), item)
        elif kw in ("vote", "revote", "removeall"):
            # `vote T: S S` (the nominee's colon attached), `removeall: S S`
            head = args[0].rstrip(":") if kw != "removeall" else ""
            seats = [int(w) for w in (args if kw == "removeall" else args[1:])]
            if not seats:
                item.done = -1.0
            for s in seats:
                if kw == "removeall":
                    cur.removeall[s] = item
                else:
                    cur.ballots.setdefault(kw, {})[s] = (int(head), item)
        elif kw == "take":
            cur.takes[int(args[0])] = (int(args[1]), item)
        elif kw in ("foul", "disqualify"):
            pass
        else:
            mode = args[0] if len(args) == 2 else ""
            target = None if args[-1] == "-" else int(args[-1])
            cur.decisions[kw] = (target, mode, item)
            item.night = kw
    return phases


# -- the players ------------------------------------------------------------------------------
class ScriptPlayers:
    """Presses the pads and gives the host's commands as the script says."""

    def __init__(self, pads: FakePads, phases: dict[str, PhasePlan], press_at: float) -> None:
        self.pads = pads
        self.phases = phases
        self.press_at = press_at
        self.events: list[tuple[float, int, int, bool]] = []
        self.order = 0
        self.free: dict[int, float] = {}       # seat -> when his last planned press ends
        self.seen: dict[int, int] = {}          # seat -> serial of the question planned for
        self.window: tuple[str, int] = ("", -1)  # the night window open, and since when
        self.window_at = 0.0
        self.viewed = 0
        self.started = False

    def next_time(self) -> float | None:
        return self.events[0][0] if self.events else None

    def fire(self, now: float) -> None:
        while self.events and self.events[0][0] <= now + EPS:
            _, _, seat, down = heapq.heappop(self.events)
            (self.pads.press if down else self.pads.release)(seat)

    def _press(self, seat: int, t: float, length: float) -> float:
        for down, at in ((True, t), (False, t + length)):
            self.order += 1
            heapq.heappush(self.events, (at, self.order, seat, down))
        self.free[seat] = max(self.free.get(seat, 0.0), t + length)
        return t + length

    def _go(self, table: Table, seat: int, choice: int | None, t: float) -> float:
        """Short presses to `choice`, then a hold (a big choice: a part, a hold, a seat in it, a
        hold); returns when the last hold is let go. A player
        lets go of his last press before he presses again: a question asked while his hold
        is still down (the Commissar's target, once his "shoot" is confirmed) is answered a
        gap after that release (a first tap planned at the release's own instant was taken
        as part of the hold, and the pick landed one seat short)."""
        t = max(t, self.free.get(seat, -GAP) + GAP)
        holds = table.panel.grammar.route(seat, choice)
        for i, taps in enumerate(holds):
            for _ in range(taps):
                t = self._press(seat, t, TAP) + GAP
            t = self._press(seat, t, HOLD)
            if i < len(holds) - 1:
                t += GAP
        return t

    def look(self, table: Table, now: float) -> list[tuple[str, ...]]:
        """Plan presses for new questions; return the host commands due now."""
        host: list[tuple[str, ...]] = []
        if table.stage == "deal" and table.viewer > self.viewed:
            self.viewed = table.viewer
            self._press(table.viewer, now + VIEW_AT, VIEW_FOR)
        if table.stage == "ready" and not self.started:
            self.started = True
            host.append(("start",))
        if table.stage != "play":
            return host
        g = table.game
        label = g.phase_label()
        plan = self.phases.get(label)
        if plan is not None and plan.started is None:
            plan.started = now
        if g.phase == "night" and g.step == "windows":
            w = (label, g.window_i)
            if w != self.window:
                self.window, self.window_at = w, now
        for seat, q in list(table.questions.now.items()):
            serial = table.questions.serial.get(seat, 0)
            if self.seen.get(seat) == serial or seat not in table.panel.asks:
                continue
            self.seen[seat] = serial
            if plan is not None:
                self._answer(table, plan, seat, q.what, now)
        if plan is not None:
            host += self._host_due(plan, now, table)
        return host

    def _answer(self, table: Table, plan: PhasePlan, seat: int, what: str, now: float) -> None:
        g = table.game
        if what.startswith("mode:"):
            d = what[5:]
            got = plan.decisions.get(d)
            modes = g.modes(d)
            if got is not None and got[1] in modes:
                start = max(now + GAP, self.window_at + self.press_at)
                self._go(table, seat, modes.index(got[1]) + 1, start)
            return
        if what == "speech":
            nom = plan.nominations.get(seat)
            if nom is not None and nom[1].done is None:
                nom[1].done = self._go(table, seat, nom[0], now + DAY_PRESS)
            return
        if what == "ballot":
            got_b = plan.ballots.get(g.step, {}).get(seat)
            if got_b is not None:
                self._done(got_b[1], self._go(table, seat, got_b[0], now + DAY_PRESS))
            return
        if what == "removeall":
            item = plan.removeall.get(seat)
            if item is not None:
                self._done(item, self._go(table, seat, 1, now + DAY_PRESS))
            return
        if what == "take":
            got_t = plan.takes.get(seat)
            if got_t is not None:
                got_t[1].done = self._go(table, seat, got_t[0], now + DAY_PRESS)
            return
        got_d = plan.decisions.get(what)
        later = any(q.what in plan.decisions for q in table.questions.waiting.get(seat, ()))
        if got_d is None:
            if later and what in g.passes:      # to reach his next question, he passes this
                self._go(table, seat, None, max(now + GAP, self.window_at + self.press_at))
            return
        start = max(now + GAP, self.window_at + self.press_at)
        got_d[2].done = self._go(table, seat, got_d[0], start)

    @staticmethod
    def _done(item: Item, t: float) -> None:
        item.done = t if item.done is None else max(item.done, t)

    @staticmethod
    def _over(item: Item, now: float, table: Table) -> bool:
        """Whether a statement is over at a point no press time moves: a night decision (or
        timeout) when its window has closed, anything else when it was carried out."""
        if item.night:
            g = table.game
            return not (g.phase == "night" and g.step == "windows"
                        and g.window_i <= g.window_of.get(item.night, -1))
        return item.done is not None and item.done <= now + EPS

    def _host_due(self, plan: PhasePlan, now: float, table: Table) -> list[tuple[str, ...]]:
        out: list[tuple[str, ...]] = []
        before: list[Item] = []
        for item in plan.items:
            kw = item.words[0]
            if kw in ("foul", "disqualify"):
                if item.done is None and all(self._over(b, now, table) for b in before):
                    if not before and plan.started is not None \
                            and now + EPS < plan.started + HOST_AT:
                        break
                    item.done = now
                    out.append(tuple(item.words))
                if item.done is None:
                    break                  # a later command waits for this one
            before.append(item)
        return out

    def next_host_time(self, plan: PhasePlan | None) -> float | None:
        """When a host command of the phase may next become due by time alone."""
        if plan is None:
            return None
        times = [i.done for i in plan.items if i.done is not None and i.done > 0]
        if plan.started is not None:
            times.append(plan.started + HOST_AT)
        return min((t for t in times), default=None)
