"""What `table-app observe` watches and prints (table_app/tools/observe.py plays the game):
the pads whose rings' actual light is printed as it changes, the voice whose clips are
printed as they start, and the lines put in order and printed as JSON."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

from firmware_bridge import ringdraw as rd
from firmware_bridge.fwconfig import BUDGET_MA

from ..clock import FakeClock
from ..pads import FakePads
from ..pads.multi import JACKS
from ..pads.rings import Countdown, Dark, Fault, Picture, budget_level, render

EPS = 1e-6

Line = dict[str, Any]
Emit = Callable[[Line], None]


# -- the pads and the voice, watched ---------------------------------------------------------
class WatchedPads(FakePads):
    """Fake pads that print every change of a ring's light as it happens."""

    def __init__(self, seats: int, sink: Any, clock: FakeClock, emit: Emit,
                 ring: int = 12, controller_of: dict[int, int] | None = None,
                 budget_ma: int = BUDGET_MA) -> None:
        super().__init__(seats, sink, clock)
        self.emit = emit
        self.ring_size = ring
        #: each seat's controller (0, 1, 2): 12 jacks a controller, seat k on jack k unless
        #: the settings' pads.rings say otherwise
        self.controller_of = controller_of or {s: (s - 1) // JACKS for s in range(1, seats + 1)}
        self.budget_ma = budget_ma
        dark = _hex(render(Dark(), size=ring))
        self.lit: dict[int, list[str]] = {s: list(dark) for s in range(1, seats + 1)}

    def level_of(self, seat: int) -> int:
        """The current budget's level on seat's controller, as its firmware works it out:
        its twelve jacks' allowances (a jack with no pad shows dark), under the cap."""
        mine = self.controller_of[seat]
        shown = [p for s, p in self.pictures.items() if self.controller_of[s] == mine]
        shown += [Dark()] * (JACKS - len(shown))
        assert self.budget_ma is not None
        return budget_level(shown, self.light_cap, self.budget_ma, self.table, self.ring_size)

    def _show(self, seat: int, picture: Picture) -> None:
        super()._show(seat, picture)
        now = self.clock.now()
        # a picture may move its controller's budget, and so every ring on it
        for other in range(1, self.seats + 1):
            if self.controller_of[other] == self.controller_of[seat]:
                self.look(other, now)

    def _cap_changed(self) -> None:
        now = self.clock.now()
        for seat in range(1, self.seats + 1):
            self.look(seat, now)

    def look(self, seat: int, t: float) -> None:
        px = _hex(self.pixels(seat, t))
        if px != self.lit[seat]:
            self.lit[seat] = px
            self.emit({"t": t, "ring": seat, "pixels": px})

    def changes_between(self, t0: float, t1: float) -> list[float]:
        """Times in (t0, t1) when an animated ring's light may change by itself."""
        times: list[float] = []
        for seat, pic in self.pictures.items():
            shown = self.shown_at[seat]
            if isinstance(pic, Countdown):
                ends = shown + pic.left
                total = pic.total or 1.0
                for k in range(13):                      # a pixel goes out
                    times.append(ends - k * total / 12)
                t = max(t0, ends - 10.0)                 # the last 10 s blink every 0.25 s
                start = shown + round((t - shown) / 0.25) * 0.25
                x = start
                while x < min(t1, ends + 0.25):
                    times.append(x)
                    x += 0.25
            elif isinstance(pic, Fault):
                x = shown + round((t0 - shown) / 0.25) * 0.25
                while x < t1:
                    times.append(x)
                    x += 0.25
            elif rd.animated(self.encode(pic), self.ring_size):
                if getattr(pic, "part", False):
                    # a part of a big choice blinks (on, then off, each half a period)
                    half = rd.PART_BLINK / 2
                    x = shown + max(0, int((t0 - shown) / half)) * half
                    while x < t1:
                        times.append(x)
                        x += half
                # seats sharing a light: the mark's flashes, each on and off (ringdraw.flash)
                step = rd.CUE_ON + rd.CUE_GAP
                cycle = shown + max(0, int((t0 - shown) / rd.CUE_CYCLE)) * rd.CUE_CYCLE
                while cycle < t1:
                    for k in range(3):
                        times += [cycle + k * step, cycle + k * step + rd.CUE_ON]
                    cycle += rd.CUE_CYCLE
        return sorted(t + EPS for t in times if t0 < t + EPS < t1)


class WatchedVoice:
    """A voice that prints every clip and timer sound as it starts."""

    def __init__(self, clock: FakeClock, emit: Emit) -> None:
        self.clock = clock
        self.emit = emit

    def say(self, line: list[str]) -> None:
        for clip in line:
            self.emit({"t": self.clock.now(), "sound": clip})

    def timer(self, name: str) -> None:
        self.emit({"t": self.clock.now(), "sound": name})


def _hex(px: list[tuple[int, int, int]]) -> list[str]:
    return [f"{r:02x}{g:02x}{b:02x}" for r, g, b in px]


def in_order(lines: list[Line]) -> list[Line]:
    """Lines in time order, and lines of one instant (the same printed `t`) in a fixed order:
    sounds in the order they started, then rings by seat, then the screen. A ring or the
    screen is printed as it is at the end of the instant: a picture that lasted no time at all
    (a timer at 0 for the instant its window closes, when a press fell on that instant) is
    not something anyone sees. (In the order they happened, a countdown's pixel and the
    public timer that change in one instant came out either way round.)"""
    def key(item: tuple[int, Line]) -> tuple[float, int, int, int]:
        i, line = item
        if "sound" in line:
            return (line["t"], 0, 0, i)
        if "ring" in line:
            return (line["t"], 1, int(line["ring"]), i)
        return (line["t"], 2, 0, i)

    ordered = [line for _, line in sorted(enumerate(lines), key=key)]
    out: list[Line] = []
    shown: dict[Any, Any] = {}          # ring seat or "screen" -> what it shows now
    for k, line in enumerate(ordered):
        if "sound" in line:
            out.append(line)
            continue
        what = line.get("ring", "screen")
        nxt = ordered[k + 1] if k + 1 < len(ordered) else None
        if nxt is not None and nxt["t"] == line["t"] and nxt.get("ring", "screen") == what \
                and "sound" not in nxt:
            continue                    # changed again within the instant: only the last counts
        value = line.get("pixels", line.get("screen"))
        if shown.get(what) != value:
            shown[what] = value
            out.append(line)
    return out


def format_line(line: Line) -> str:
    """One output line: `t` with three decimals first, then the rest as JSON."""
    rest = {k: v for k, v in line.items() if k != "t"}
    body = json.dumps(rest, ensure_ascii=False, separators=(", ", ": "))
    return f'{{"t": {line["t"]:.3f}, {body[1:]}'
