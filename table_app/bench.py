"""Benchmarks: `python -m table_app.bench` prints figures; nothing here asserts a time."""

from __future__ import annotations

import argparse
import random
import time

from .rules import find_format
from .rules.bots import play


def games_per_second(fmt_id: str, players: int, seconds: float,
                     policy: str = "random") -> tuple[int, float]:
    fmt = find_format(fmt_id)
    rng = random.Random(1)
    n = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        play(fmt, players, rng, policy)
        n += 1
    return n, n / (time.perf_counter() - start)


def main() -> None:
    p = argparse.ArgumentParser(prog="python -m table_app.bench")
    p.add_argument("--seconds", type=float, default=3.0)
    args = p.parse_args()
    print("rules engine: complete random games on one core")
    for fmt_id, players in (("yakuza", 12), ("classic", 11), ("city", 8), ("city", 12),
                            ("city", 20), ("city", 30)):
        n, rate = games_per_second(fmt_id, players, args.seconds)
        target = "  (target 2000)" if fmt_id == "yakuza" else ""
        print(f"  {fmt_id:8} {players:2} seats: {rate:8.0f} games/s ({n} games){target}")


if __name__ == "__main__":
    main()
