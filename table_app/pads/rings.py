"""Ring pictures as data, and how a ring (12, 16 or 24 pixels) draws them.

A ring is a map of the table: pixel k points at seat k+1 (a pad's `rotation` says how its
ring is turned where it sits). Every backend shows the same pictures: the simulator draws
them, the pad controller's firmware renders them from a short command, a one-LED pad turns
them into blinks. Check results differ by pattern as well as colour (solid red, dashed
black-as-blue), so a colour-blind player reads them too.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from firmware_bridge import ringdraw as rd

from .answers import answer

RGB = tuple[int, int, int]
# the colours live with the one drawing code every backend shares (firmware included)
OFF: RGB = rd.OFF
DIM: RGB = rd.DIM
CURSOR: RGB = rd.CURSOR
CHOSEN: RGB = rd.CHOSEN
CANDIDATE: RGB = rd.CANDIDATE
RED: RGB = rd.RED
BLACK_AS: RGB = rd.BLACK_AS
SIDES = ("city", "mafia", "yakuza", "maniac", "killer")


@dataclass(frozen=True, slots=True)
class Dark:
    """Nothing lit: every seat that is not acting looks like this."""


@dataclass(frozen=True, slots=True)
class Pick:
    """Choosing a seat: eligible seats dim, the cursor bright, a confirmed choice green."""

    eligible: frozenset[int]
    cursor: int | None = None
    chosen: int | None = None
    part: bool = False      # the seats are a part of a big choice, offered whole: they blink


@dataclass(frozen=True, slots=True)
class Vote:
    """The blind vote: candidates amber, the cursor bright, the ballot cast green."""

    candidates: frozenset[int]
    cursor: int | None = None
    chosen: int | None = None
    part: bool = False


@dataclass(frozen=True, slots=True)
class YesNo:
    """A yes/no question (remove all?): cursor on seat 1 means yes, seat 2 no."""

    cursor: int | None = None
    chosen: int | None = None


@dataclass(frozen=True, slots=True)
class CheckShown:
    """An answer on the asker's ring: `result` is a word of the answers' registry
    (answers.py: a check's red or black, a search's detective or no, the Hobo's came or
    nobody_came)."""

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


def wide(table: int, size: int = 12) -> bool:
    """Does a table of `table` seats need the wide pictures on rings of `size` pixels (more
    seats than the narrow mask's 16, or than the ring's pixels, some sharing a light)?"""
    return table > 16 or table > size


def encode(picture: Picture, table: int = 12, size: int = 12) -> bytes:
    """The picture as the few bytes the pad controller is sent (see ringdraw.py), for a
    table of `table` seats on rings of `size` pixels."""
    if isinstance(picture, Pick | Vote) and (wide(table, size) or picture.part):
        pool = picture.eligible if isinstance(picture, Pick) else picture.candidates
        mask = 0
        for s in pool:
            if 1 <= s <= rd.MAX_SEATS:
                mask |= 1 << (s - 1)
        kind = rd.PICK_WIDE if isinstance(picture, Pick) else rd.VOTE_WIDE
        return bytes([kind, min(table, rd.MAX_SEATS), (mask >> 24) & 0xFF, (mask >> 16) & 0xFF,
                      (mask >> 8) & 0xFF, mask & 0xFF, _seat(picture.cursor),
                      _seat(picture.chosen)] + ([rd.PART] if picture.part else []))
    if isinstance(picture, CheckShown) and table > size:
        return bytes([rd.CHECK, _seat(picture.target), answer(picture.result).light,
                      min(table, rd.MAX_SEATS)])
    if isinstance(picture, Pick | Vote):
        pool = picture.eligible if isinstance(picture, Pick) else picture.candidates
        mask = 0
        for s in pool:
            if 1 <= s <= 16:
                mask |= 1 << (s - 1)
        kind = rd.PICK if isinstance(picture, Pick) else rd.VOTE
        return bytes([kind, mask >> 8, mask & 0xFF, _seat(picture.cursor), _seat(picture.chosen)])
    if isinstance(picture, YesNo):
        return bytes([rd.YESNO, _seat(picture.cursor), _seat(picture.chosen)])
    if isinstance(picture, CheckShown):
        return bytes([rd.CHECK, _seat(picture.target), answer(picture.result).light])
    if isinstance(picture, Countdown):
        left = max(0, min(65535, round(picture.left * 10)))
        total = max(0, min(65535, round(picture.total * 10)))
        return bytes([rd.COUNTDOWN, left >> 8, left & 0xFF, total >> 8, total & 0xFF])
    if isinstance(picture, RoleCard):
        side = SIDES.index(picture.side) if picture.side in SIDES else 255
        return bytes([rd.ROLE, side, max(1, min(12, picture.pattern))])
    if isinstance(picture, Fault):
        return bytes([rd.FAULT])
    return bytes([rd.DARK])


def _seat(s: int | None) -> int:
    return s if s is not None and 0 < s < 256 else 0


def render(picture: Picture, t: float = 0.0, size: int = 12, rotation: int = 0,
           cap: float = 1.0, table: int = 12, level: int = 256) -> list[RGB]:
    """The ring's pixels `t` seconds after the picture was shown, turned by `rotation`, at
    a table of `table` seats, under the cap and its controller's budget `level` (0-256)."""
    return rd.render(encode(picture, table, size), t, size, rotation, cap, level)


def budget_level(pictures: list[Picture], cap: float, budget_ma: int, table: int = 12,
                 size: int = 12) -> int:
    """The level (0-256) a controller whose rings show `pictures` (one a jack, Dark where
    no pad is) dims every ring to under `cap`, as its firmware works it out: from each
    ring's allowance (ringdraw.allowance), never from what a private picture shows."""
    total = sum(rd.allowance(encode(p, table, size), size) for p in pictures)
    return rd.budget_level(total * rd.cap_byte(cap) // 255, budget_ma)


#: a blink's half (ringdraw.blink: on for a quarter of a second, off for one)
BLINK_HALF = 0.25


def changes_in(picture: Picture, age: float, table: int = 12, size: int = 12) -> float | None:
    """Seconds until a ring showing `picture` for `age` s looks different by itself (None:
    never, till another picture comes): a countdown when its next pixel goes out or, in its
    last 10 s, at each half of its blink; every other animation (a shared light's flashes, a
    fault) within a tenth of a second. The simulator sleeps that long (ten looks a second
    through a whole speech cost more than the rest of the table at rest)."""
    pic = encode(picture, table, size)
    if not rd.animated(pic, size):
        return None
    if pic[0] != rd.COUNTDOWN:
        return 0.1
    total = ((pic[3] << 8) | pic[4]) / 10
    left = rd.countdown_left(pic, age)
    if left <= 0 or total <= 0:
        return None
    if left <= 10:
        return BLINK_HALF - age % BLINK_HALF
    step = total / size                  # a pixel goes out each time `left` passes k * step
    to_pixel = left - step * math.floor(left / step) or step
    return min(to_pixel, left - 10)


def led_level(picture: Picture, t: float = 0.0, cap: float = 1.0) -> float:
    """A one-LED pad's brightness `t` seconds after the picture was shown.

    A cursor on seat N blinks N times then pauses; a confirmed choice is steady; a red check
    is steady, a black one fast-blinking; a countdown glows, blinking its last 10 s.
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
        level = 1.0 if answer(picture.result).steady else (
            1.0 if rd.blink(t, 0.2) else 0.0)
    elif isinstance(picture, Countdown):
        left = picture.left - t
        level = 0.0 if left <= 0 else (0.3 if left > 10 or rd.blink(t) else 0.0)
    elif isinstance(picture, RoleCard):
        level = 1.0 if _count_phase(picture.pattern, t) else 0.0
    elif isinstance(picture, Fault):
        level = 1.0 if rd.blink(t, 0.2) else 0.0
    return level * cap


def _count_phase(n: int, t: float, on: float = 0.2, off: float = 0.3, pause: float = 1.2) -> bool:
    """Blink n times (on/off), pause, repeat: is the LED on at time t?"""
    cycle = n * (on + off) + pause
    x = t % cycle
    if x >= n * (on + off):
        return False
    return (x % (on + off)) < on
