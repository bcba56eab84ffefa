"""What a win rule looks at: who is alive by side, and which sides can still kill.

A module of its own so that the compiled engine makes it (a win check runs after every
elimination) while the formats' hooks, which a club may change, stay plain Python.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping


class Tally:
    """Who is alive, by side, and which sides can still kill at night: what a win rule
    looks at. `armed` is worked out only when a rule asks for it."""

    def __init__(self, alive: int, count: Mapping[str, int],
                 armed: frozenset[str] | Callable[[], frozenset[str]]) -> None:
        self.alive = alive
        self.count = count
        self._armed = armed if isinstance(armed, frozenset) else None
        self._find_armed = None if isinstance(armed, frozenset) else armed

    @property
    def armed(self) -> frozenset[str]:
        if self._armed is None:
            assert self._find_armed is not None
            self._armed = self._find_armed()
        return self._armed

    def __getitem__(self, side: str) -> int:
        return self.count.get(side, 0)
