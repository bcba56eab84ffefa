"""Benchmarks: `python -m table_app.bench [rules] [pads]` prints figures; no time is asserted."""

from __future__ import annotations

import argparse
import queue
import random
import statistics
import time
from collections.abc import Callable

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


def bench_rules(seconds: float) -> None:
    print("rules engine: complete random bot games on one core")
    for fmt_id, players in (("yakuza", 12), ("classic", 11), ("city", 8), ("city", 12),
                            ("city", 20), ("city", 30)):
        n, rate = games_per_second(fmt_id, players, seconds)
        target = "  (target 2000)" if fmt_id == "yakuza" else ""
        print(f"  {fmt_id:8} {players:2} seats: {rate:8.0f} games/s ({n} games){target}")


def percentiles(samples: list[float]) -> tuple[float, float]:
    ordered = sorted(samples)
    p99 = ordered[min(len(ordered) - 1, int(round(0.99 * (len(ordered) - 1))))]
    return statistics.median(ordered), p99


def bench_pads(presses: int) -> None:
    from gpiozero.pins.mock import MockFactory, MockPWMPin

    from .pads.events import RawPadEvent
    from .pads.gpio import GpioPads, load_pins

    q: queue.Queue[RawPadEvent] = queue.Queue()
    factory = MockFactory(pin_class=MockPWMPin)
    pins = load_pins(seats=12)
    pads = GpioPads(12, q.put, pins=pins, pin_factory=factory)
    pads.start()
    try:
        samples: list[float] = []
        for i in range(presses):
            seat = 1 + i % 12
            pin = factory.pin(pins.buttons[seat])
            t0 = time.perf_counter()
            pin.drive_low()
            q.get(timeout=1)
            samples.append(time.perf_counter() - t0)
            pin.drive_high()
            q.get(timeout=1)
        med, p99 = percentiles(samples)
        debounce = 30.0
        print(f"pads (gpiozero MockFactory): pin edge -> event on the queue, {presses} presses")
        print(f"  median {med * 1e3:.3f} ms, p99 {p99 * 1e3:.3f} ms "
              f"(target p99 < 2 ms + debounce; the grammar takes the first edge at once, "
              f"so its {debounce:.0f} ms debounce adds nothing)")
    finally:
        pads.close()
        factory.close()


BENCHES: dict[str, Callable[[argparse.Namespace], None]] = {
    "rules": lambda a: bench_rules(a.seconds),
    "pads": lambda a: bench_pads(a.presses),
}


def main() -> None:
    p = argparse.ArgumentParser(prog="python -m table_app.bench")
    p.add_argument("which", nargs="*", choices=list(BENCHES), default=[])
    p.add_argument("--seconds", type=float, default=3.0)
    p.add_argument("--presses", type=int, default=1000)
    args = p.parse_args()
    for name in args.which or list(BENCHES):
        BENCHES[name](args)


if __name__ == "__main__":
    main()
