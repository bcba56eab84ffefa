"""The table's one running timer: windows, speeches, votes, the deal's turns, dawn and dusk.

Time is an input (the table is told `now`); nothing here reads a clock. A paused timer keeps
what it had left.
"""

from __future__ import annotations

from dataclasses import dataclass

from .kinds import Timed

TICKS_FROM = 10     # the last seconds of a speech tick


@dataclass
class Timer:
    """One timer: what it times, its length and when it runs out."""

    what: Timed
    seconds: float
    deadline: float
    ticks: bool = False     # tick in the last 10 s, warn at 10 s, buzz at 0
    next_tick: float = 0.0


class Timers:
    """The running timer, with pause and resume."""

    def __init__(self) -> None:
        self.timer: Timer | None = None
        self.paused = False
        self.left_when_paused = 0.0

    def start(self, what: Timed, seconds: float, now: float, ticks: bool = False) -> None:
        self.timer = Timer(what, seconds, now + seconds, ticks,
                           now + max(0.0, seconds - TICKS_FROM))

    def stop(self) -> None:
        self.timer = None

    def pause(self, now: float) -> None:
        if not self.paused:
            self.paused = True
            if self.timer is not None:
                self.left_when_paused = self.timer.deadline - now

    def resume(self, now: float) -> None:
        if not self.paused:
            return
        self.paused = False
        t = self.timer
        if t is not None:
            shift = now + self.left_when_paused - t.deadline
            t.deadline += shift
            t.next_tick += shift

    def left(self, now: float) -> float | None:
        t = self.timer
        if t is None:
            return None
        return self.left_when_paused if self.paused else max(0.0, t.deadline - now)

    def next_deadline(self) -> float | None:
        t = self.timer
        if t is None or self.paused:
            return None
        return min(t.deadline, t.next_tick) if t.ticks and t.next_tick < t.deadline \
            else t.deadline

    def due(self, now: float) -> tuple[str | None, Timer | None]:
        """What is due at `now`: a tick sound to play (and the timer stays), or the timer
        that ran out (and is gone). (None, None) when nothing is."""
        t = self.timer
        if self.paused or t is None:
            return None, None
        if t.ticks and now >= t.next_tick and t.next_tick < t.deadline:
            left = round(t.deadline - t.next_tick)
            t.next_tick += 1.0
            return ("warning" if left == TICKS_FROM else "tick"), None
        if now < t.deadline:
            return None, None
        self.timer = None
        return None, t
