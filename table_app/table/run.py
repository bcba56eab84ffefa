"""`table-app` (play): the table with its pads, its voice and the host's keys; and `--demo`.

Without hardware the pads are the pygame simulator. `--demo` plays a whole game with bot
players on fake pads, headless, printing the narration.
"""

from __future__ import annotations

import json
import os
import queue
import sys
import time
from pathlib import Path
from typing import Any

from ..clock import Clock, FakeClock, MonotonicClock
from ..pads import FakePads, GrammarConfig, make_pads
from ..sound.catalogue import text
from .app import TableApp
from .bots import TableBots
from .core import Host, Input, Table

DEFAULT_JOURNAL = Path(os.environ.get("XDG_STATE_HOME", Path.home() / ".local" / "state")) \
    / "table-app" / "game.journal"


class Captions:
    """A voice that prints what it says (the headless demo, a table without speakers)."""

    def __init__(self, lang: str, out: Any = None, clock: Clock | None = None) -> None:
        self.lang = lang
        self.out = out or sys.stdout
        self.clock = clock

    def say(self, line: list[str]) -> None:
        words = " ".join(text(c, self.lang) or c for c in line)
        self.out.write(words + "\n")
        self.out.flush()

    def timer(self, name: str) -> None:
        pass


class ScaledClock:
    """Game time running `speed` times faster than real time (the demo)."""

    def __init__(self, speed: float) -> None:
        self.speed = speed
        self.t0 = time.monotonic()

    def now(self) -> float:
        return 1000.0 + (time.monotonic() - self.t0) * self.speed


def outcome(table: Table) -> dict[str, Any]:
    g = table.game
    return {"format": g.fmt.id, "winner": g.winner, "alive": g.living(),
            "out": [{"seat": o.seat, "phase": o.phase, "by": o.by} for o in g.out],
            "checks": [{"phase": c.phase, "by": c.by, "seat": c.seat, "result": c.result}
                       for c in g.checks]}


def demo(args: Any) -> int:
    """A whole game with bots, headless; prints the narration and the outcome."""
    journal = Path(args.journal or (DEFAULT_JOURNAL.parent / "demo.journal"))
    if args.new:
        journal.unlink(missing_ok=True)
    inbox: queue.Queue[Input] = queue.Queue()
    clock: Clock = FakeClock() if args.fast else ScaledClock(args.speed)
    pads = FakePads(12, inbox.put, clock)
    voice = Captions(args.lang)
    app = TableApp(pads, voice, clock, journal, inbox, GrammarConfig())
    table = app.open(args.format, args.players, args.lang, args.deal, args.seed, args.format_file)
    if args.fast:
        assert isinstance(clock, FakeClock)
        _resumed_fake(app, clock)
    pads.clock = app.clock                   # pads stamp edges with the game's clock
    if app.resumed:
        print(f"(resumed from {journal}, {len(app.entries)} inputs)")
    bots = TableBots(pads, table.cfg.seed)
    if args.fast:
        from .virtual import run_virtual
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
        table = app.table                               # type: ignore[assignment]
    result = outcome(table)
    print("OUTCOME " + json.dumps(result))
    if args.script_out:
        Path(args.script_out).write_text(table.game_script())
    app.close()
    return 0


def _resumed_fake(app: TableApp, clock: FakeClock) -> FakeClock:
    # a resumed game's fake clock starts where the journal stopped
    if app.resumed and app.entries:
        clock.set(max(clock.now(), float(app.entries[-1]["t"])))
        app.clock = clock
    return clock


def play(args: Any) -> int:
    """The table itself: pads (simulated without hardware), voice, host keys on the screen."""
    from ..sound import SoundBoard
    from .host import HostKeys

    journal = Path(args.journal or DEFAULT_JOURNAL)
    if args.new:
        journal.unlink(missing_ok=True)
    inbox: queue.Queue[Input] = queue.Queue()
    clock = MonotonicClock()
    pads = make_pads(args.pads, 12, inbox.put, clock)
    pads.start()
    voice: Any
    if args.silent:
        voice = Captions(args.lang)
    else:
        voice = SoundBoard(args.lang, voice_pack=args.voice_pack)
        voice.start()
    app = TableApp(pads, voice, clock, journal, inbox, GrammarConfig())
    table = app.open(args.format, args.players, args.lang, args.deal, args.seed, args.format_file)
    pads.clock = app.clock
    keys = HostKeys(inbox.put)
    print(f"table-app: {table.cfg.fmt.title}, {table.cfg.players} players, pads: {pads.name}, "
          f"journal: {journal}" + (" (resumed)" if app.resumed else ""))
    print(keys.help())
    shown = 0
    try:
        while not getattr(pads, "closed", False):
            if pads.name == "sim":
                import pygame
                events = pygame.event.get()
                rest = [e for e in events if not keys.handle_pygame(e)]
                pads.poll(rest)           # type: ignore[call-arg]
            app.step(0.02)
            if hasattr(voice, "update"):
                voice.update()
            table = app.table             # type: ignore[assignment]
            for note in table.log[shown:]:
                print(f"  host: {note.text}")
            shown = len(table.log)
    except KeyboardInterrupt:
        pass
    finally:
        app.close()
        pads.close()
    return 0
