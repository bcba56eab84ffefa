"""The balance simulator: many seeded bot games of one format, and what each side wins.

It doubles as the engine's soak test: a game that raises or never ends is counted and shown.
"""

from __future__ import annotations

import os
import random
import sys
import time
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import TextIO

from ..records.interval import wilson
from ..rules import Format, RulesError
from ..rules.bots import play
from ..rules.errors import GameTooLong


@dataclass
class SimResult:
    """What K games of one format gave."""

    fmt: str
    players: int
    policy: str
    games: int = 0
    wins: Counter[str] = field(default_factory=Counter)
    days: int = 0
    nights: int = 0
    errors: list[str] = field(default_factory=list)
    seconds: float = 0.0

    def rate(self, team: str) -> tuple[float, float, float]:
        """Win rate and its 95 % Wilson interval."""
        return wilson(self.wins[team], self.games)


def _play_seeds(fmt: Format, players: int, policy: str, seeds: list[int]) -> SimResult:
    """Play one game per seed, in order; what they gave."""
    res = SimResult(fmt.id, players, policy)
    for game_seed in seeds:
        try:
            g = play(fmt, players, random.Random(game_seed), policy)
        except (RulesError, GameTooLong, AssertionError, KeyError, IndexError, ValueError) as exc:
            res.errors.append(f"game seed {game_seed}: {type(exc).__name__}: {exc}")
            continue
        res.games += 1
        res.wins[g.winner or "none"] += 1
        res.days += g.day_no
        res.nights += g.night_no
    return res


def _chunk(job: tuple[Format, int, str, list[int]]) -> SimResult:
    return _play_seeds(*job)


def _add(total: SimResult, part: SimResult) -> None:
    total.games += part.games
    total.wins.update(part.wins)
    total.days += part.days
    total.nights += part.nights
    total.errors += part.errors


def simulate(fmt: Format, players: int, games: int, seed: int = 0, policy: str = "random",
             progress: TextIO | None = None, jobs: int = 1) -> SimResult:
    """`games` seeded bot games. The game seeds come from `seed` alone and the parts are
    added in seed order, so `jobs` processes give the same result as one."""
    res = SimResult(fmt.id, players, policy)
    rng = random.Random(seed)
    seeds = [rng.getrandbits(64) for _ in range(games)]
    start = time.perf_counter()
    jobs = max(1, min(jobs, games // 50 or 1))       # a process is worth ~50 games or more
    size = max(1, min(500, games // (jobs * 8) or 1))
    parts = [(fmt, players, policy, seeds[k:k + size]) for k in range(0, games, size)]
    done = 0
    if jobs == 1:
        results: Iterable[SimResult] = map(_chunk, parts)
        pool = None
    else:
        import multiprocessing

        pool = multiprocessing.get_context("spawn").Pool(jobs)
        results = pool.imap(_chunk, parts)
    try:
        for part, (_, _, _, chunk) in zip(results, parts, strict=True):
            _add(res, part)
            done += len(chunk)
            if progress is not None:
                _bar(progress, done, games, time.perf_counter() - start)
    finally:
        if pool is not None:
            pool.close()
            pool.join()
    res.seconds = time.perf_counter() - start
    if progress is not None:
        progress.write("\n")
    return res


def _bar(out: TextIO, done: int, total: int, elapsed: float) -> None:
    width = 30
    filled = width * done // total
    rate = done / elapsed if elapsed > 0 else 0.0
    out.write(f"\r[{'#' * filled}{'.' * (width - filled)}] {done}/{total} games, "
              f"{rate:.0f}/s")
    out.flush()


def report(res: SimResult, fmt: Format) -> str:
    lines = [f"{fmt.title}: {res.players} players, {res.games} games, {res.policy} bots"]
    for team in fmt.teams:
        p, lo, hi = res.rate(team)
        lines.append(f"  {team:8} {100 * p:5.1f} %   (95 % CI {100 * lo:5.1f} - {100 * hi:5.1f})")
    if res.games:
        lines.append(f"  mean length: {res.nights / res.games:.2f} nights, "
                     f"{res.days / res.games:.2f} days")
    lines.append(f"  {res.games / res.seconds if res.seconds else 0:.0f} games/s")
    if res.errors:
        lines.append(f"  ERRORS: {len(res.errors)} games failed; first: {res.errors[0]}")
    return "\n".join(lines)


def main(fmt: Format, players: int, games: int, seed: int, policy: str,
         show_progress: bool | None = None, jobs: int | None = None) -> int:
    if games < 1:
        print("table-app: simulate needs --games 1 or more", file=sys.stderr)
        return 2
    if show_progress is None:
        show_progress = sys.stderr.isatty() and games >= 500
    jobs = jobs or os.cpu_count() or 1
    res = simulate(fmt, players, games, seed, policy, sys.stderr if show_progress else None,
                   jobs=jobs)
    print(report(res, fmt))
    return 1 if res.errors else 0
