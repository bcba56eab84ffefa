"""queue_to_ring (see bench_path.py's docstring): a pad event put on the table's queue until
the ring's answer goes out, with the journal durable on this machine's disk, beside the same
with the journal on tmpfs."""

from __future__ import annotations

import tempfile
import threading
import time
from pathlib import Path
from typing import Any

from .bench_path import _figure, percentiles


def queue_to_ring(presses: int, reps: int = 5) -> list[dict[str, Any]]:
    """Figure: queue_to_ring_p99 (and p50), the journal on disk beside the journal on tmpfs."""
    disk_dir = tempfile.TemporaryDirectory(dir=str(Path.home()))
    ram_root = "/dev/shm" if Path("/dev/shm").is_dir() else None
    ram_dir = tempfile.TemporaryDirectory(dir=ram_root)
    tables = []
    try:
        for d in (ram_dir.name, disk_dir.name):
            tables.append(_TablePath(_first_speech_on_real_clock(Path(d) / "bench.journal")))
        per = max(10, presses // reps)
        runs: dict[str, list[list[float]]] = {"ram": [], "disk": []}
        for _ in range(reps):
            for key, t in zip(("ram", "disk"), tables, strict=True):
                runs[key].append([t.press() for _ in range(per)])
    finally:
        for t in tables:
            t.close()
        disk_dir.cleanup()
        ram_dir.cleanup()
    disk = [percentiles(r) for r in runs["disk"]]
    ram = [percentiles(r) for r in runs["ram"]]
    return [_figure("queue_to_ring_p50", "ms", [a * 1e3 for a, _ in disk],
                    [a * 1e3 for a, _ in ram]),
            _figure("queue_to_ring_p99", "ms", [b * 1e3 for _, b in disk],
                    [b * 1e3 for _, b in ram])]


class _TablePath:
    """A table at day 1's first speech on the real clock, its loop in a thread; `press`
    times a short press from the queue to its ring's answer going out."""

    def __init__(self, parts: tuple[Any, Any, Any, Any]) -> None:
        self.app, self.pads, table, _ = parts
        self.speaker = next(iter(table.asked))
        if table.timer is not None:          # hold the speech open for the whole run
            table.timer.deadline += 3600
            table.timer.next_tick += 3600
        self.shown = threading.Event()
        self.stamp = 0.0
        original = self.pads._show

        def show(seat: int, picture: object) -> None:
            original(seat, picture)
            if seat == self.speaker:
                self.stamp = time.perf_counter()
                self.shown.set()
        self.pads._show = show
        self.stop = threading.Event()
        self.worker = threading.Thread(target=self._loop, daemon=True)
        self.worker.start()

    def _loop(self) -> None:
        while not self.stop.is_set():
            self.app.step(0.002)

    def press(self) -> float:
        self.pads.press(self.speaker)
        time.sleep(0.04)                     # past the debounce guard
        self.shown.clear()
        t0 = time.perf_counter()
        self.pads.release(self.speaker)      # a short press: the cursor moves on his ring
        if not self.shown.wait(1.0):
            raise RuntimeError("the ring did not answer")
        took = self.stamp - t0
        time.sleep(0.05)
        return took

    def close(self) -> None:
        self.stop.set()
        self.worker.join()
        self.app.close()


def _first_speech_on_real_clock(journal: Any) -> tuple[Any, Any, Any, Any]:
    """Bots play a yakuza game on a fake clock up to day 1's first speech; from there the
    table runs on the real clock, as at a club. Returns (app, pads, table, clock)."""
    from ..clock import MonotonicClock
    from ..table.app import ResumedClock
    from ..table.virtual import run_virtual, virtual_table

    app, bots, clock, pads = virtual_table(journal, seed=3, sync=True)
    table = run_virtual(app, bots, clock,
                        until=lambda t: t.game.phase == "day" and bool(t.asked))
    real = ResumedClock(MonotonicClock(), clock.now())
    app.clock = real
    pads.clock = real
    return app, pads, table, real
