"""What every table opens with (its journal's place, its records, the notices of its opening)
and `table-app --demo`: a whole game with bot players on fake pads, headless, printing the
narration. The table on the screen is `window`'s."""

from __future__ import annotations

import json
import queue
import sys
import time
from pathlib import Path
from typing import TYPE_CHECKING, Any

from .clock import Clock, FakeClock
from .pads import FakePads, GrammarConfig
from .paths import state_dir, write_private
from .sound.catalogue import text
from .table.app import TableApp
from .table.config import Host, Input

if TYPE_CHECKING:
    from .table.core import Table

DEFAULT_JOURNAL = state_dir() / "game.journal"


class Captions:
    """A voice that prints what it says (the headless demo, a table without speakers)."""

    def __init__(self, lang: str, out: Any = None) -> None:
        self.lang = lang
        self.out = out or sys.stdout

    def say(self, line: list[str]) -> None:
        words = " ".join(text(c, self.lang) or c for c in line)
        self.out.write(words + "\n")
        self.out.flush()

    def timer(self, name: str) -> None:
        pass

    def set_lang(self, lang: str) -> None:
        self.lang = lang


def host_language(args: Any, app: TableApp) -> None:
    """A resumed game in the language the host asked for on the command line (journaled,
    so the next resume keeps it); one he did not ask for keeps its own."""
    table = app.table
    if (app.resumed and table is not None and getattr(args, "lang_given", False)
            and args.lang != table.cfg.lang):
        app.feed(Host(("lang", args.lang)))


class ScaledClock:
    """Game time running `speed` times faster than real time (the demo)."""

    def __init__(self, speed: float) -> None:
        self.speed = speed
        self.t0 = time.monotonic()

    def now(self) -> float:
        return 1000.0 + (time.monotonic() - self.t0) * self.speed


def caps(args: Any) -> tuple[float, float] | None:
    night, day = getattr(args, "night_cap", None), getattr(args, "day_cap", None)
    return None if night is None or day is None else (night, day)


def outcome(table: Table) -> dict[str, Any]:
    return table.game.outcome().to_json()


def record(args: Any, app: TableApp, names: Any) -> Any:
    """Every game this table finishes goes into the records (unless --no-record)."""
    if getattr(args, "no_record", False):
        return None
    from .records.recorder import Recorder
    s = getattr(args, "records", None)
    recorder = Recorder(
        app, names, host=getattr(s, "host", ""), local=getattr(s, "records_local", "") or None,
        league=getattr(s, "records_url", "") or None, club=getattr(s, "club", ""),
        table_name=getattr(s, "table_name", ""),
        note=lambda text: print(f"table-app: {text}", file=sys.stderr))
    # (attached before the journal is opened: a game that ended before a restart and is
    # not in the records yet is taken the moment the journal is read, before a new game
    # takes its place)
    app.observers.append(recorder)
    app.keepers.append(recorder.keep)
    recorder.resume()                 # games kept aside, and games the league did not get
    return recorder


def tell(notices: list[tuple[str, str]]) -> None:
    """What the host must know about how the table opened, on stderr (the system's log)."""
    from .words import t
    for key, detail in notices:
        print(f"table-app: {t(key, 'en')} ({detail})", file=sys.stderr)


def demo(args: Any) -> int:
    """A whole game with bots, headless; prints the narration and the outcome."""
    journal = Path(args.journal or (DEFAULT_JOURNAL.parent / "demo.journal"))
    inbox: queue.Queue[Input] = queue.Queue()
    clock: Clock = FakeClock() if args.fast else ScaledClock(args.speed)
    # as many pads as the game has players (a table of 12 at the least, as before)
    pads = FakePads(max(12, args.players or 0), inbox.put, clock)
    voice = Captions(args.lang)
    app = TableApp(pads, voice, clock, journal, inbox, GrammarConfig())
    record(args, app, dict)
    table = app.open(args.format, args.players, args.lang, args.deal, args.seed, args.format_file,
                     new=args.new, caps=caps(args))
    tell(app.notices)
    host_language(args, app)
    if args.fast:
        from .table.virtual import follow_journal
        assert isinstance(clock, FakeClock)
        follow_journal(app, clock)
    pads.clock = app.clock                   # pads stamp edges with the game's clock
    if app.resumed:
        print(f"(resumed from {journal}, {len(app.entries)} inputs)")
    from .table.bots import TableBots
    bots = TableBots(pads, table.cfg.seed)
    if args.fast:
        from .table.virtual import run_virtual
        assert isinstance(clock, FakeClock)
        pace = args.pace

        def paced(t: Table) -> None:
            if pace:
                time.sleep(pace)
        app.observers.append(paced)
        table = run_virtual(app, bots, clock)
    else:
        while True:
            now = app.clock.now()
            for cmd in bots.observe(app.table, now):   # type: ignore[arg-type]
                app.feed(Host(cmd))
            bots.fire(now)
            nxt = bots.next_time()
            wait = 0.05 if nxt is None else max(0.0, min(0.05, (nxt - now) / args.speed))
            if not app.step(wait):
                break
        assert app.table is not None                    # the game the run opened
        table = app.table
    result = outcome(table)
    print("OUTCOME " + json.dumps(result))
    if args.script_out:
        write_private(args.script_out, table.game_script())   # every role of the game
    app.close()
    return 0
