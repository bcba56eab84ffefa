"""Run a table on a fake clock: a whole game in milliseconds (tests, `--demo --fast`)."""

from __future__ import annotations

import queue
from collections.abc import Callable
from pathlib import Path

from ..clock import FakeClock
from ..pads import FakePads, GrammarConfig
from .app import TableApp
from .bots import TableBots
from .config import Host, Input, Voice
from .core import Table


class Recorder:
    """A voice that writes down what it would say (clip ids and timer sounds)."""

    def __init__(self) -> None:
        self.said: list[tuple[float, str]] = []
        self.clock: FakeClock | None = None

    def _t(self) -> float:
        return self.clock.now() if self.clock else 0.0

    def say(self, line: list[str]) -> None:
        self.said.append((self._t(), " ".join(line)))

    def timer(self, name: str) -> None:
        self.said.append((self._t(), f"timer:{name}"))


def virtual_table(journal: str | Path, voice: Voice | None = None, seed: int = 1,
                  seats: int = 12, sync: bool = False,
                  attach: Callable[[TableApp], None] | None = None,
                  pads_from: Callable[[Callable[[Input], None], FakeClock], FakePads] | None = None,
                  **game: object) -> tuple[TableApp, TableBots, FakeClock, FakePads]:
    """A table on a fake clock with bots; `attach(app)` runs before the journal is opened
    (a records keeper, as the real table attaches its recorder). `pads_from(sink, clock)`
    gives other pads than the fake ones, with the fake's press(seat, at) and release(seat,
    at) for the bots' fingers (a test plays a game through a real backend's inputs)."""
    clock = FakeClock()
    inbox: queue.Queue[Input] = queue.Queue()
    pads = pads_from(inbox.put, clock) if pads_from else FakePads(seats, inbox.put, clock)
    rec = voice or Recorder()
    if isinstance(rec, Recorder):
        rec.clock = clock
    app = TableApp(pads, rec, clock, journal, inbox, GrammarConfig(), sync=sync)
    if attach is not None:
        attach(app)
    app.open(seed=seed, **game)  # type: ignore[arg-type]
    follow_journal(app, clock)
    bots = TableBots(pads, seed)
    return app, bots, clock, pads


def follow_journal(app: TableApp, clock: FakeClock) -> None:
    """One fake clock for everything, going on from where a resumed journal stopped."""
    if app.resumed and app.entries:
        clock.set(max(clock.now(), float(app.entries[-1]["t"])))
        app.clock = clock


def run_virtual(app: TableApp, bots: TableBots, clock: FakeClock,
                limit: float = 6 * 3600, until: Callable[[Table], bool] | None = None) -> Table:
    """Play until the game is over, `until(table)` holds, or `limit` game seconds pass."""
    table = app.table
    assert table is not None
    start = clock.now()
    while table.stage != "over" and clock.now() - start < limit:
        if until is not None and until(table):
            break
        for cmd in bots.observe(table, clock.now()):
            app.feed(Host(cmd))
        table = app.table
        assert table is not None
        if not app.inbox.empty():
            app.feed(app.inbox.get_nowait())
            continue
        times = [t for t in (table.next_deadline(), bots.next_time()) if t is not None]
        if table.timer is not None:
            times.append(app.last_tick + 1.0)
        if app.full is not None:
            # a full disk: tried again now and then (the table's own deadlines stay in the
            # past until an entry can be journaled)
            times = [t for t in (app.full + 1.0, bots.next_time()) if t is not None]
        if not times:
            raise RuntimeError(f"the table waits for nothing: {table.stage} "
                               f"{table.game.phase_label()} {table.game.step}")
        nxt = min(times)
        if nxt > clock.now():
            clock.set(nxt)
        bots.fire(clock.now())
        if app.inbox.empty():
            app.feed(_tick())
    return table


def _tick() -> Input:
    from .config import Tick
    return Tick()
