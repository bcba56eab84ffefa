"""Time for everything outside the rules: a real monotonic clock, or a fake one for tests."""

from __future__ import annotations

import threading
import time
from typing import Protocol


class Clock(Protocol):
    """What the app asks of time: a monotonic 'now' in seconds."""

    def now(self) -> float: ...


class MonotonicClock:
    """The real clock."""

    def now(self) -> float:
        return time.monotonic()


class FakeClock:
    """A clock that moves only when a test says so (so a whole game runs in milliseconds)."""

    def __init__(self, start: float = 1000.0) -> None:
        self._t = start
        self._lock = threading.Lock()

    def now(self) -> float:
        with self._lock:
            return self._t

    def advance(self, seconds: float) -> float:
        if seconds < 0:
            raise ValueError("a clock does not go back")
        with self._lock:
            self._t += seconds
            return self._t

    def set(self, t: float) -> None:
        with self._lock:
            if t < self._t:
                raise ValueError("a clock does not go back")
            self._t = t
