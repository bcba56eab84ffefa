"""Benchmarks: `python -m table_app.bench [rules] [firmware] [table] [bigtable] [idle] [--json]`.

Every figure is printed beside its floor, measured in the same run and interleaved with it,
and their ratio: each repetition's own ratio (a figure and its floor measured one after the
other), their median and spread. What a figure costs beyond the least the same path can cost
on this machine, now. Nothing here is asserted by the tests.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import time
from collections.abc import Callable
from typing import Any

from .. import ENGINE_BUILD
from ..rules import find_format
from ..rules.bots import play


class _Recorder(random.Random):
    """A Random that writes down every draw the bots make: -1 for random(), -2 for
    getrandbits(), n >= 0 for a choice among n."""

    def __init__(self, seed: int) -> None:
        super().__init__(seed)
        self.draws: list[int] = []
        self._inside = False

    def random(self) -> float:
        self.draws.append(-1)
        return super().random()

    def getrandbits(self, k: int) -> int:
        if not self._inside:
            self.draws.append(-2)
        return super().getrandbits(k)

    def choice(self, seq: Any) -> Any:
        self.draws.append(len(seq))
        self._inside = True
        try:
            return super().choice(seq)
        finally:
            self._inside = False


def _floor_game(seed: int, draws: list[int], roles: list[str]) -> None:
    """The no-rules floor: the same random draws as one bot game (the deal's shuffle, every
    choice among as many seats, every coin), with no rules between them."""
    random.Random(seed).shuffle(roles)
    rng = random.Random(seed)
    seats = list(range(1, 64))
    for d in draws:
        if d == -1:
            rng.random()
        elif d == -2:
            rng.getrandbits(32)
        else:
            rng.choice(seats[:d])


#: the floor is ~10-30 times quicker than the engine: it runs this many times over, so both
#: timings of a pair are long enough to read
_FLOOR_TIMES = 10


def rules_figures(fmt_id: str, players: int, games: int, reps: int) -> dict[str, Any]:
    """Bot games per CPU-second beside the no-rules floor, in `reps` interleaved pairs: a
    batch of games, then the floor of the same games, then the next pair. The ratio is the
    median of the pairs' own ratios, so a machine that speeds up or slows down (a shared
    host does) moves both sides of each pair alike."""
    fmt = find_format(fmt_id)
    seeds = list(range(games))
    draws = []
    for s in seeds:
        rec = _Recorder(s)
        play(fmt, players, rec)
        draws.append(rec.draws)
    roles = fmt.roles_for(players)
    engine_runs: list[float] = []
    floor_runs: list[float] = []
    ratios: list[float] = []
    for _ in range(reps):
        t = time.process_time()
        for s in seeds:
            play(fmt, players, random.Random(s))
        engine = games / max(1e-9, time.process_time() - t)
        t = time.process_time()
        for _ in range(_FLOOR_TIMES):
            for s, d in zip(seeds, draws, strict=True):
                _floor_game(s, d, list(roles))
        floor = _FLOOR_TIMES * games / max(1e-9, time.process_time() - t)
        engine_runs.append(engine)
        floor_runs.append(floor)
        ratios.append(floor / engine)
    return {"name": f"rules_{fmt_id}_{players}", "unit": "games per CPU-second",
            "value": round(statistics.median(engine_runs), 1),
            "floor": round(statistics.median(floor_runs), 1),
            "ratio": round(statistics.median(ratios), 2),
            "runs": [round(v, 1) for v in engine_runs],
            "floor_runs": [round(v, 1) for v in floor_runs],
            "ratios": [round(r, 2) for r in ratios],
            "engine": ENGINE_BUILD}

RULES_TABLES = (("yakuza", 12), ("classic", 11), ("city", 12), ("city", 30))


def bench_rules(seconds: float, as_json: bool = False) -> list[dict[str, Any]]:
    figures = []
    if not as_json:
        print(f"rules engine ({ENGINE_BUILD}): seeded random bot games, CPU time, beside the "
              "no-rules floor")
        print("  (floor: the same random draws, deal shuffle included, with no rules between;"
              " ratio: the median of 15 interleaved pairs)")
    for fmt_id, players in RULES_TABLES:
        # 15 pairs of about 0.03 s of games and as long of floor each, per second asked
        games = max(20, int(seconds * (12 if players > 12 else 30)))
        f = rules_figures(fmt_id, players, games, reps=15)
        figures.append(f)
        if as_json:
            print(json.dumps(f))
        else:
            spread = f"{min(f['ratios']):.1f}-{max(f['ratios']):.1f}"
            print(f"  {fmt_id:8} {players:2} seats: {f['value']:8.0f} games/s, floor "
                  f"{f['floor']:8.0f}/s, ratio {f['ratio']:5.2f} (pairs {spread}; target <= 8)")
    return figures


def _show(figs: list[dict[str, Any]], as_json: bool, title: str, floor: str,
          targets: dict[str, str]) -> None:
    if as_json:
        for f in figs:
            print(json.dumps(f))
        return
    print(title)
    print(f"  (floor: {floor})")
    for f in figs:
        spread = f"{min(f['runs']):.3g}-{max(f['runs']):.3g}"
        ratios = f.get("ratios") or [0]
        print(f"  {f['name']:24} {f['value']:9.3f} {f['unit']} (runs {spread}), floor "
              f"{f['floor']:9.3f} {f['unit']}, ratio {f['ratio']} "
              f"(repetitions {min(ratios):.2f}-{max(ratios):.2f})"
              + (f" ({targets[f['name']]})" if f["name"] in targets else "")
              + (f" (target: {f['target']})" if f.get("target") else ""))


def bench_firmware(presses: int, as_json: bool = False) -> list[dict[str, Any]]:
    """The controller on the Pico's own MicroPython in emulated time (bench_pico), then
    press to ring through the whole path with the firmware in MicroPython's unix port,
    beside the zero-work pipe over the same path (what the Pi's side costs)."""
    from .bench_path import press_to_ring
    from .bench_pico_taps import bench_firmware_emulated
    from .bench_replay import firmware_replay

    try:
        emulated = bench_firmware_emulated()
    except RuntimeError as e:
        emulated = []
        print(f"(no emulated Pico: {e})", file=sys.stderr)
    _show(emulated, as_json, "pad controller on MicroPython v1.25.0's rp2 build, emulated "
          "RP2040, emulated microseconds (the same in every run)",
          "each figure's own, in its line", {})
    figs = press_to_ring(presses)
    figs.insert(3, firmware_replay())
    _show(figs, as_json, "press -> ring through the firmware in MicroPython's unix port, "
          "ptys, reader thread, queue, grammar and sender (wall time)",
          "a zero-work pipe over the same ptys, relay, FIFOs and threads; the firmware's "
          "work beside that pipe's own time in its turns, system calls apart in both",
          {"press_to_ring_p50": "target: ratio at most 2",
           "press_to_ring_p99": "target: ratio at most 1.5",
           "firmware_work_replayed": "the same taps back to back in one process: caches "
                                     "warm; floor: the floor loop's moments, the same way",
           "unixport_work_per_press": "the unix port on this machine's CPU, not the Pico's",
           "firmware_link_per_press": "the link's system calls, apart from the work"})
    return emulated + figs


def bench_big_table(as_json: bool = False) -> list[dict[str, Any]]:
    """Tap to ring at a table of 30 on three emulated controllers (bench_pico), beside the
    same taps on one controller in the same run."""
    from .bench_pico_taps import bench_big_table_emulated

    try:
        figs = bench_big_table_emulated()
    except RuntimeError as e:
        print(f"(no emulated Pico: {e})", file=sys.stderr)
        return []
    _show(figs, as_json, "a table of 30 on three pad controllers (MicroPython v1.25.0's rp2 "
          "build on three emulated RP2040s, one link each, the Pi's SerialPads and "
          "TablePads), tap to ring in emulated milliseconds",
          "the same taps on the first controller alone, linked as a table of 12, in the same "
          "run with the same three boards running", {})
    return figs


def bench_table(presses: int, as_json: bool = False) -> list[dict[str, Any]]:
    """A pad event on the table's queue to its ring's answer going out, the journal durable
    on this machine's disk, beside the same with the journal on tmpfs."""
    from .bench_queue import queue_to_ring

    figs = queue_to_ring(min(presses, 500))
    _show(figs, as_json, "table: pad event on the queue -> ring answer out (journal written "
          "and made durable, grammar, table, picture)",
          "the same table with its journal on tmpfs",
          {"queue_to_ring_p99": "target: at most 2 ms"})
    return figs


def bench_idle(seconds: float, as_json: bool = False) -> list[dict[str, Any]]:
    """The table at rest on three screens, and its start, beside a bare pygame window
    (bench_idle.py)."""
    from .bench_idle import measure

    figs = measure(seconds)
    _show(figs, as_json, "idle: the table's start to READY, then its CPU share and wakeups "
          "on its setup screen, a city night window and a speech, nobody pressing",
          "a bare pygame window of the same size, waiting on its events with a one-second "
          "tick, started and measured beside it", {})
    return figs


BENCHES: dict[str, Callable[[argparse.Namespace], object]] = {
    "rules": lambda a: bench_rules(a.seconds, a.json),
    "firmware": lambda a: bench_firmware(a.presses, a.json),
    "table": lambda a: bench_table(a.presses, a.json),
    "bigtable": lambda a: bench_big_table(a.json),
    "idle": lambda a: bench_idle(max(6.0, a.seconds), a.json),
}


def parse(argv: list[str] | None = None) -> argparse.Namespace:
    """The command line; no bench named means every one."""
    p = argparse.ArgumentParser(prog="python -m table_app.bench")
    # (no `choices` here: argparse checks an empty list's default against them and fails)
    p.add_argument("which", nargs="*", metavar="|".join(BENCHES),
                   help="the benches to run (all when none is named)")
    p.add_argument("--seconds", type=float, default=3.0)
    p.add_argument("--presses", type=int, default=1000)
    p.add_argument("--json", action="store_true", help="one JSON object a figure")
    args = p.parse_args(argv)
    unknown = [w for w in args.which if w not in BENCHES]
    if unknown:
        p.error(f"no bench '{unknown[0]}' (one of {', '.join(BENCHES)})")
    args.which = args.which or list(BENCHES)
    return args


def main(argv: list[str] | None = None) -> None:
    args = parse(argv)
    for name in args.which:
        BENCHES[name](args)


if __name__ == "__main__":
    main()
