"""Ring pictures as data, and how a 12-pixel ring draws them.

A ring is a map of the table: pixel k points at seat k+1 (a pad's `rotation` says how its
ring is turned where it sits). Every backend shows the same pictures: the simulator draws
them, the pad controller's firmware renders them from a short command, a one-LED pad turns
them into blinks. Check results differ by pattern as well as colour (solid red, dashed
black-as-blue), so a colour-blind player reads them too.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

RGB = tuple[int, int, int]
OFF: RGB = (0, 0, 0)

# colours: chosen for a dark room, and to differ in brightness as well as hue
DIM: RGB = (64, 64, 64)          # an eligible seat
CURSOR: RGB = (255, 255, 255)    # where the cursor is
CHOSEN: RGB = (0, 200, 60)       # a confirmed choice
CANDIDATE: RGB = (90, 60, 0)     # a seat one may vote for
RED: RGB = (220, 0, 0)
BLACK_AS: RGB = (40, 60, 255)    # "black" cannot be lit: blue, in a dashed pattern
COUNTDOWN: RGB = (0, 120, 200)
FAULT: RGB = (255, 90, 0)
YES: RGB = (0, 200, 60)
NO: RGB = (200, 0, 0)
ROLE: dict[str, RGB] = {
    "city": (200, 180, 120), "mafia": (40, 60, 255), "yakuza": (200, 0, 160),
    "maniac": (255, 120, 0), "killer": (255, 120, 0),
}


@dataclass(frozen=True, slots=True)
class Dark:
    """Nothing lit: every seat that is not acting looks like this."""


@dataclass(frozen=True, slots=True)
class Pick:
    """Choosing a seat: eligible seats dim, the cursor bright, a confirmed choice green."""

    eligible: frozenset[int]
    cursor: int | None = None
    chosen: int | None = None


@dataclass(frozen=True, slots=True)
class Vote:
    """The blind vote: candidates amber, the cursor bright, the ballot cast green."""

    candidates: frozenset[int]
    cursor: int | None = None
    chosen: int | None = None


@dataclass(frozen=True, slots=True)
class YesNo:
    """A yes/no question (remove all?): cursor on seat 1 means yes, seat 2 no."""

    cursor: int | None = None
    chosen: int | None = None


@dataclass(frozen=True, slots=True)
class CheckShown:
    """A check's answer on the checker's ring: `result` black/red, or detective/no."""

    target: int
    result: str


@dataclass(frozen=True, slots=True)
class Countdown:
    """A speech's countdown: `left` of `total` seconds; the last 10 s blink."""

    left: float
    total: float


@dataclass(frozen=True, slots=True)
class RoleCard:
    """A player's own role while he holds his button (side colour, role pattern)."""

    side: str
    pattern: int         # how many pixels are lit: tells roles of one side apart


@dataclass(frozen=True, slots=True)
class Fault:
    """This pad is faulty (stuck button, lost link)."""


Picture = Dark | Pick | Vote | YesNo | CheckShown | Countdown | RoleCard | Fault


def _blink(t: float, period: float = 0.5) -> bool:
    return (t % period) < period / 2


def render(picture: Picture, t: float = 0.0, seats: int = 12, size: int = 12,
           rotation: int = 0, cap: float = 1.0) -> list[RGB]:
    """The ring's pixels at time `t` (for animation), turned by `rotation`, capped."""
    px: list[RGB] = [OFF] * size

    def seat(s: int, colour: RGB) -> None:
        if 1 <= s <= size:
            px[s - 1] = colour

    if isinstance(picture, Pick | Vote):
        base = DIM if isinstance(picture, Pick) else CANDIDATE
        pool = picture.eligible if isinstance(picture, Pick) else picture.candidates
        for s in pool:
            seat(s, base)
        if picture.chosen is not None:
            seat(picture.chosen, CHOSEN)
        if picture.cursor is not None:
            seat(picture.cursor, CURSOR)
    elif isinstance(picture, YesNo):
        seat(1, YES)
        seat(2, NO)
        if picture.chosen is not None:
            px = [YES if picture.chosen == 1 else NO] * size
        if picture.cursor is not None:
            seat(picture.cursor, CURSOR)
    elif isinstance(picture, CheckShown):
        if picture.result == "red":
            px = [RED] * size                                  # solid
        elif picture.result == "black":
            px = [BLACK_AS if i % 2 == 0 else OFF for i in range(size)]   # dashed
        elif picture.result == "detective":
            px = [CHOSEN] * size                               # solid green: found
        else:
            px = [OFF if i % 3 else DIM for i in range(size)]  # sparse: not found
        seat(picture.target, CURSOR)
    elif isinstance(picture, Countdown):
        lit = 0 if picture.total <= 0 else math.ceil(size * max(0.0, picture.left) / picture.total)
        on = picture.left > 10 or _blink(t)
        px = [COUNTDOWN if i < lit and on else OFF for i in range(size)]
    elif isinstance(picture, RoleCard):
        colour = ROLE.get(picture.side, CURSOR)
        step = max(1, size // max(1, picture.pattern))
        px = [colour if i % step == 0 and i // step < picture.pattern else OFF
              for i in range(size)]
    elif isinstance(picture, Fault):
        px = [FAULT if (i % 2 == 0) == _blink(t) else OFF for i in range(size)]
    if rotation:
        r = rotation % size
        px = px[-r:] + px[:-r]
    if cap < 1.0:
        px = [(int(r * cap), int(g * cap), int(b * cap)) for r, g, b in px]
    return px


def led_level(picture: Picture, t: float = 0.0, cap: float = 1.0) -> float:
    """A one-LED pad's brightness at time `t`: the counting grammar's picture of a ring.

    A cursor on seat N blinks N times then pauses; a confirmed choice is steady; a red check
    is steady, a black one fast-blinking; a countdown glows while time is left.
    """
    level = 0.0
    if isinstance(picture, Pick | Vote | YesNo):
        if picture.chosen is not None and picture.cursor in (None, picture.chosen):
            level = 1.0
        elif picture.cursor is not None:
            level = 1.0 if _count_phase(picture.cursor, t) else 0.0
        else:
            level = 0.1                 # asked, nothing chosen yet: a faint glow
    elif isinstance(picture, CheckShown):
        level = 1.0 if picture.result in ("red", "detective") else (1.0 if _blink(t, 0.2) else 0)
    elif isinstance(picture, Countdown):
        level = 0.3 if picture.left > 10 else (0.3 if _blink(t) else 0.0)
    elif isinstance(picture, RoleCard):
        level = 1.0 if _count_phase(picture.pattern, t) else 0.0
    elif isinstance(picture, Fault):
        level = 1.0 if _blink(t, 0.2) else 0.0
    return level * cap


def _count_phase(n: int, t: float, on: float = 0.2, off: float = 0.3, pause: float = 1.2) -> bool:
    """Blink n times (on/off), pause, repeat: is the LED on at time t?"""
    cycle = n * (on + off) + pause
    x = t % cycle
    if x >= n * (on + off):
        return False
    return (x % (on + off)) < on
