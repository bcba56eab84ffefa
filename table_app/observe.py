"""`table-app observe FILE`: what the room perceives of a game, line by line, with times.

The real table (its core, event loop, narration and public view) plays a game script on a fake
clock with fake pads, pressed as players would. Every sound that starts, every change of a
ring's actual light (after the brightness caps) and every change of the public view is printed
as one JSON object a line. Two games that differ in one secret must print the same lines,
apart from the rings of the seats that hold that secret: that is the table's promise, made
testable from outside.

How the script is played (the project's own description of it is in docs/observe.md):
- each night decision on its role's pad: short presses to the target, then a hold, starting
  `press_at` seconds after its window opens (a second question of the same seat in the same
  window, the City Don's search, starts when it is asked); `ROLE -` holds on "nobody";
  `timeout ROLE` presses nothing;
- `nominate S T` 3 s into S's speech; every speech runs its full time;
- ballots (`vote`, `revote`, `removeall`) and `take` 3 s into their window;
- `foul`, `disqualify`: host commands, given at a point of the game that no press time moves:
  once every statement before them in their phase is over (a night decision or timeout when
  its window has closed, a day statement when it was pressed), and a command first in its
  phase `HOST_AT` seconds into it;
- the deal is the script's; each seat holds his button for 2 s of his turn to see his role.
"""

from __future__ import annotations

import dataclasses
import heapq
import json
import os
import queue
import tempfile
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from firmware_bridge import ringdraw as rd
from firmware_bridge.fwconfig import BUDGET_MA

from .clock import FakeClock
from .pads import FakePads, GrammarConfig
from .pads.multi import JACKS
from .pads.rings import Countdown, Dark, Fault, Picture, budget_level, render
from .rules import BUILTIN_FORMATS, Format, find_format, formats_beside, run_script
from .rules.script import HouseFormats, Replay
from .screen.model import public_state
from .settings import ENV as SETTINGS_ENV
from .settings import Settings, SettingsError, load_settings
from .table.app import TableApp
from .table.config import Host, Input, Tick
from .table.core import Table

TAP = 0.12          # a short press
GAP = 0.2           # between presses
HOLD = 0.9          # a hold (over the grammar's 0.7 s)
DAY_PRESS = 3.0     # nominations and ballots: seconds into the speech or the vote
HOST_AT = 3.0       # a host command first in its phase: seconds into the phase (never --press-at)
VIEW_AT = 1.0       # the deal: seconds into his turn a player holds his button, and how long
VIEW_FOR = 2.0
EPS = 1e-6

Line = dict[str, Any]
Emit = Callable[[Line], None]


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


# -- the pads and the voice, watched ---------------------------------------------------------
class WatchedPads(FakePads):
    """Fake pads that print every change of a ring's light as it happens."""

    def __init__(self, seats: int, sink: Any, clock: FakeClock, emit: Emit,
                 ring: int = 12, controller_of: dict[int, int] | None = None,
                 budget_ma: int = BUDGET_MA) -> None:
        super().__init__(seats, sink, clock)
        self.emit = emit
        self.ring_size = ring
        #: each seat's controller (0, 1, 2): 12 jacks a controller, seat k on jack k unless
        #: the settings' pads.rings say otherwise
        self.controller_of = controller_of or {s: (s - 1) // JACKS for s in range(1, seats + 1)}
        self.budget_ma = budget_ma
        dark = _hex(render(Dark(), size=ring))
        self.lit: dict[int, list[str]] = {s: list(dark) for s in range(1, seats + 1)}

    def level_of(self, seat: int) -> int:
        """The current budget's level on seat's controller, as its firmware works it out:
        its twelve jacks' allowances (a jack with no pad shows dark), under the cap."""
        mine = self.controller_of[seat]
        shown = [p for s, p in self.pictures.items() if self.controller_of[s] == mine]
        shown += [Dark()] * (JACKS - len(shown))
        assert self.budget_ma is not None
        return budget_level(shown, self.light_cap, self.budget_ma, self.table, self.ring_size)

    def _show(self, seat: int, picture: Picture) -> None:
        super()._show(seat, picture)
        now = self.clock.now()
        # a picture may move its controller's budget, and so every ring on it
        for other in range(1, self.seats + 1):
            if self.controller_of[other] == self.controller_of[seat]:
                self.look(other, now)

    def _cap_changed(self) -> None:
        now = self.clock.now()
        for seat in range(1, self.seats + 1):
            self.look(seat, now)

    def look(self, seat: int, t: float) -> None:
        px = _hex(self.pixels(seat, t))
        if px != self.lit[seat]:
            self.lit[seat] = px
            self.emit({"t": t, "ring": seat, "pixels": px})

    def changes_between(self, t0: float, t1: float) -> list[float]:
        """Times in (t0, t1) when an animated ring's light may change by itself."""
        times: list[float] = []
        for seat, pic in self.pictures.items():
            shown = self.shown_at[seat]
            if isinstance(pic, Countdown):
                ends = shown + pic.left
                total = pic.total or 1.0
                for k in range(13):                      # a pixel goes out
                    times.append(ends - k * total / 12)
                t = max(t0, ends - 10.0)                 # the last 10 s blink every 0.25 s
                start = shown + round((t - shown) / 0.25) * 0.25
                x = start
                while x < min(t1, ends + 0.25):
                    times.append(x)
                    x += 0.25
            elif isinstance(pic, Fault):
                x = shown + round((t0 - shown) / 0.25) * 0.25
                while x < t1:
                    times.append(x)
                    x += 0.25
            elif rd.animated(self.encode(pic), self.ring_size):
                if getattr(pic, "part", False):
                    # a part of a big choice blinks (on, then off, each half a period)
                    half = rd.PART_BLINK / 2
                    x = shown + max(0, int((t0 - shown) / half)) * half
                    while x < t1:
                        times.append(x)
                        x += half
                # seats sharing a light: the mark's flashes, each on and off (ringdraw.flash)
                step = rd.CUE_ON + rd.CUE_GAP
                cycle = shown + max(0, int((t0 - shown) / rd.CUE_CYCLE)) * rd.CUE_CYCLE
                while cycle < t1:
                    for k in range(3):
                        times += [cycle + k * step, cycle + k * step + rd.CUE_ON]
                    cycle += rd.CUE_CYCLE
        return sorted(t + EPS for t in times if t0 < t + EPS < t1)


class WatchedVoice:
    """A voice that prints every clip and timer sound as it starts."""

    def __init__(self, clock: FakeClock, emit: Emit) -> None:
        self.clock = clock
        self.emit = emit

    def say(self, line: list[str]) -> None:
        for clip in line:
            self.emit({"t": self.clock.now(), "sound": clip})

    def timer(self, name: str) -> None:
        self.emit({"t": self.clock.now(), "sound": name})


def _hex(px: list[tuple[int, int, int]]) -> list[str]:
    return [f"{r:02x}{g:02x}{b:02x}" for r, g, b in px]


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


# -- the run ----------------------------------------------------------------------------------
def table_settings() -> Settings:
    """The table's settings as observe plays them: the defaults, but for a settings file
    named by TABLE_APP_SETTINGS (its light caps, its pads' seats, ring and controllers);
    never the user's own settings file, so a run is the same on every machine."""
    path = os.environ.get(SETTINGS_ENV)
    return load_settings(Path(path)) if path else Settings()


def _controllers(settings: Settings, n: int) -> dict[int, int]:
    """Each seat's controller: seat k's ring is jack `pads.rings[k-1]` (or k), 12 a
    controller."""
    rings = settings.rings or []
    return {s: ((rings[s - 1] if s <= len(rings) else s) - 1) // JACKS for s in range(1, n + 1)}


def _builtin(fmt: Format) -> bool:
    """Whether `fmt` is a built-in format (a house file may reuse a built-in's id)."""
    return fmt.id in BUILTIN_FORMATS and find_format(fmt.id) is fmt


def observe(text: str, press_at: float = 3.0, seed: int = 0, lang: str = "en",
            limit: float = 12 * 3600, house: HouseFormats | None = None) -> list[Line]:
    """Play a game script at a virtual table; return what the room perceives, in order."""
    return play(text, press_at, seed, lang, limit, house)[0]


def play(text: str, press_at: float = 3.0, seed: int = 0, lang: str = "en",
         limit: float = 12 * 3600,
         house: HouseFormats | None = None) -> tuple[list[Line], Table]:
    """Play a game script at a virtual table: what the room perceived, and the table. `house`
    reads a house format file the script names (`formats_beside` its folder)."""
    replay = run_script(text, house)    # a script the rules reject fails as `replay` does
    fmt = replay.game.fmt
    lines: list[Line] = []
    emit = lines.append
    clock = FakeClock()
    inbox: queue.Queue[Input] = queue.Queue()
    n = replay.game.n
    settings = table_settings()
    pads = WatchedPads(n, inbox.put, clock, emit, settings.ring, _controllers(settings, n))
    voice = WatchedVoice(clock, emit)
    with tempfile.TemporaryDirectory() as d:
        app = TableApp(pads, voice, clock, Path(d) / "observe.journal", inbox,
                       GrammarConfig(), sync=False)
        table = app.open(fmt.id, n, lang, "app",
                         replay.seed if replay.seed is not None else seed,
                         format_file=None if _builtin(fmt) else fmt.source,
                         roles=replay.dealt, options=replay.options,
                         caps=(settings.night_cap, settings.day_cap))
        run = _Run(app, table, pads, ScriptPlayers(pads, plan_phases(replay), press_at),
                   clock, inbox, emit)
        start = clock.now()
        run.look_screen(start)
        last = _last_phase(replay)
        while clock.now() - start < limit and run.step(last):
            pass
        app.close()
    for line in lines:
        line["t"] = round(line["t"] - start, 3)
    return in_order(lines), table


class _Run:
    """The virtual table's loop on the fake clock: the script's players press, the host gives
    his commands, time runs to the next thing that happens, and what the room perceives is
    emitted as it changes."""

    def __init__(self, app: TableApp, table: Table, pads: WatchedPads,
                 players: ScriptPlayers, clock: FakeClock, inbox: queue.Queue[Input],
                 emit: Emit) -> None:
        self.app, self.table, self.pads, self.players = app, table, pads, players
        self.clock, self.inbox, self.emit = clock, inbox, emit
        self.screen: dict[str, Any] = {}
        self.ended: float | None = None
        self.ticked: tuple[float, float] | None = None

    def look_screen(self, t: float) -> None:
        view = dataclasses.asdict(public_state(self.table, now=t))
        if view != self.screen:
            self.screen = view
            self.emit({"t": t, "screen": view})

    def feed(self, inp: Input) -> None:
        self.app.feed(inp)
        self.look_screen(self.clock.now())

    def step(self, last: str) -> bool:
        """One turn of the loop; False once the script's game has run its course."""
        table, players, now = self.table, self.players, self.clock.now()
        if table.stage == "play" and table.game.phase_label() == last \
                and table.game.step == "done" and players.next_time() is None:
            return False        # the script ends here: its last phase has run out
        for cmd in players.look(table, now):
            self.feed(Host(cmd))
        if not self.inbox.empty():
            self.feed(self.inbox.get_nowait())
            return True
        if table.stage == "over":
            self.ended = self.ended if self.ended is not None else now
            if now - self.ended >= 1.0 and players.next_time() is None:
                return False
        due = table.next_deadline()
        if due is not None and due <= now + EPS and self.ticked != (now, due):
            # a deadline met by a press at (or a rounding error before) the same instant:
            # the press went first, and the deadline is kept now, not at whatever comes
            # next (a window would last longer when someone pressed at its very end)
            self.ticked = (now, due)
            self.clock.set(max(now, due))
            self.feed(Tick())
            return True
        self._run_to(now, self._next(now))
        return True

    def _next(self, now: float) -> float:
        """When something next happens: a deadline, a press, a host command, a tick."""
        table, players = self.table, self.players
        times = [t for t in (table.next_deadline(), players.next_time(),
                             players.next_host_time(players.phases.get(
                                 table.game.phase_label()))) if t is not None and
                 t > now + EPS]
        if table.timer is not None:
            times.append(self.app.last_tick + 1.0)
        if table.stage == "over":
            times.append(self.ended + 1.0 if self.ended is not None else now + 1.0)
        if not times:
            raise RuntimeError(f"observe: the table waits for nothing ({table.stage}, "
                               f"{table.game.phase_label()} {table.game.step})")
        return min(times)

    def _run_to(self, now: float, nxt: float) -> None:
        """Time runs to `nxt`: the rings and the public timer that change by themselves on
        the way are looked at as they do, then the presses due are made."""
        pads = self.pads
        for t in sorted(pads.changes_between(now, nxt) + _timer_changes(self.table, now, nxt)):
            if t < nxt:
                self.clock.set(t)
                for seat in range(1, pads.seats + 1):
                    pads.look(seat, t)
                self.look_screen(t)
        self.clock.set(max(now, nxt))
        self.players.fire(self.clock.now())
        if self.inbox.empty():
            self.feed(Tick())


def in_order(lines: list[Line]) -> list[Line]:
    """Lines in time order, and lines of one instant (the same printed `t`) in a fixed order:
    sounds in the order they started, then rings by seat, then the screen. A ring or the
    screen is printed as it is at the end of the instant: a picture that lasted no time at all
    (a timer at 0 for the instant its window closes, when a press fell on that instant) is
    not something anyone sees. (In the order they happened, a countdown's pixel and the
    public timer that change in one instant came out either way round.)"""
    def key(item: tuple[int, Line]) -> tuple[float, int, int, int]:
        i, line = item
        if "sound" in line:
            return (line["t"], 0, 0, i)
        if "ring" in line:
            return (line["t"], 1, int(line["ring"]), i)
        return (line["t"], 2, 0, i)

    ordered = [line for _, line in sorted(enumerate(lines), key=key)]
    out: list[Line] = []
    shown: dict[Any, Any] = {}          # ring seat or "screen" -> what it shows now
    for k, line in enumerate(ordered):
        if "sound" in line:
            out.append(line)
            continue
        what = line.get("ring", "screen")
        nxt = ordered[k + 1] if k + 1 < len(ordered) else None
        if nxt is not None and nxt["t"] == line["t"] and nxt.get("ring", "screen") == what \
                and "sound" not in nxt:
            continue                    # changed again within the instant: only the last counts
        value = line.get("pixels", line.get("screen"))
        if shown.get(what) != value:
            shown[what] = value
            out.append(line)
    return out


def format_line(line: Line) -> str:
    """One output line: `t` with three decimals first, then the rest as JSON."""
    rest = {k: v for k, v in line.items() if k != "t"}
    body = json.dumps(rest, ensure_ascii=False, separators=(", ", ": "))
    return f'{{"t": {line["t"]:.3f}, {body[1:]}'



def _last_phase(replay: Replay) -> str:
    counts = {"night": 0, "day": 0}
    label = ""
    for _, words in replay.statements:
        if words[0] in counts:
            counts[words[0]] += 1
            label = f"{words[0]} {counts[words[0]]}"
    return label


def _timer_changes(table: Table, t0: float, t1: float) -> list[float]:
    """Times in (t0, t1) when the public timer's whole seconds change."""
    t = table.timer
    if t is None or table.paused:
        return []
    out = []
    k = int(t.deadline - t1)
    while True:
        x = t.deadline - k
        if x <= t0:
            break
        if x < t1:
            out.append(x + EPS)
        k += 1
    return sorted(out)


def main(path: str, press_at: float, seed: int, lang: str) -> int:
    """The command: print the lines, or the script's error as `replay` does."""
    import sys

    from .rules import ScriptError

    try:
        text = Path(path).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        print(f"table-app: cannot read {path}: {exc}", file=sys.stderr)
        return 2
    try:
        lines = observe(text, press_at, seed, lang, house=formats_beside(Path(path).parent))
    except (ScriptError, SettingsError) as exc:
        print(str(exc), file=sys.stderr)
        return 2
    sys.stdout.write("".join(format_line(line) + "\n" for line in lines))
    return 0

