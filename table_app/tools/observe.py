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
import os
import queue
import tempfile
from pathlib import Path
from typing import Any

from ..clock import FakeClock
from ..pads import GrammarConfig
from ..pads.multi import JACKS
from ..rules import BUILTIN_FORMATS, Format, find_format, formats_beside, run_script
from ..rules.script import HouseFormats, Replay
from ..screen.model import public_state
from ..settings import ENV as SETTINGS_ENV
from ..settings import Settings, SettingsError, load_settings
from ..table.app import TableApp
from ..table.config import Host, Input, Tick
from ..table.core import Table
from .observe_players import ScriptPlayers, plan_phases
from .observe_room import EPS, Emit, Line, WatchedPads, WatchedVoice, format_line, in_order


# -- the run ----------------------------------------------------------------------------------
def table_settings() -> Settings:
    """The table's settings as observe plays them: the defaults, but for a settings file
    named by TABLE_APP_SETTINGS (its light caps, its pads' seats, ring and controllers, and
    the host's language when the command names none);
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


def main(path: str, press_at: float, seed: int, lang: str | None) -> int:
    """The command: print the lines, or the script's error as `replay` does. With no
    `lang`, the host's language of the TABLE_APP_SETTINGS file (what the room hears and the
    public screen shows is his choice, as the light is), else English."""
    import sys

    from ..rules import ScriptError

    try:
        text = Path(path).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        print(f"table-app: cannot read {path}: {exc}", file=sys.stderr)
        return 2
    try:
        lang = lang or table_settings().lang or "en"
        lines = observe(text, press_at, seed, lang, house=formats_beside(Path(path).parent))
    except (ScriptError, SettingsError) as exc:
        print(str(exc), file=sys.stderr)
        return 2
    sys.stdout.write("".join(format_line(line) + "\n" for line in lines))
    return 0

