"""Where a seat's labels go round the table (its name, its role, read as its own seat's
and no other's): a big table's by rule, beside its seats; a small table's searched for, seat
by seat, the least sure moved to surer places."""

from __future__ import annotations

import math
from functools import lru_cache
from typing import Any

from .paint import Painter


def seat_xy(seat: int, n: int, centre: tuple[int, int], radius: tuple[int, int]) -> tuple[int, int]:
    a = -math.pi / 2 + 2 * math.pi * (seat - 1) / n
    return int(centre[0] + radius[0] * math.cos(a)), int(centre[1] + radius[1] * math.sin(a))


#: a name or a role beside a seat at a table of up to 12
LABEL_SIZE = 14


#: a small table's label's width: a row of a name, or a role ("Мирный житель" takes 119 px at
#: 14 px: its short form is drawn)
LABEL_W = 104


#: a name beside a big table's side seat: the room from the panel's edge to the left side's
#: seats ("Abdulazizbek" takes 95 px; at 90 it broke inside the word; "Константин К." 106:
#: at 95 it lost its initial, and two Alexanders at one table read alike)
BIG_SIDE_W = 107


#: a name over (under) a big table's end seat: the middle seat's label is on the table's
#: side, so an outer one has the room over its neighbour too
BIG_END_W = 125


#: a big table's label's line height
BIG_LINE = 17


#: a big table (13-30) is a long table, as a club seats one: three seats at each end, the
#: rest down its two sides, each seat's one label beside it, outwards (on the sides) or
#: over (under) it (at the ends), at LABEL_SIZE. Round, its labels at 14 px ran into each
#: other at the top and the bottom (they were 10 px). The sides stand BIG_HALF_W from the
#: middle, the end rows BIG_END from the area's top and bottom; a label starts BIG_SIDE
#: past a seat's circle (past its awake mark, r + 4). Every size 13-30 in every language
#: was checked with these (tests/test_screen.py)
BIG_HALF_W = 104


BIG_END = 46


BIG_SIDE = 7


BIG_ENDS = 3


BIG_MAX_R = 18


def big_places(n: int, area: tuple[int, int, int, int]) -> tuple[dict[int, tuple[int, int]], int]:
    """A big table's seats (seat -> its centre), clockwise from the top's left, seat 1 in
    the top's middle, and their circles' radius."""
    x, y, w, h = area
    mid = x + w // 2
    top, bottom = y + BIG_END, y + h - BIG_END
    side = n - 2 * BIG_ENDS
    right, left = (side + 1) // 2, side // 2
    step = (bottom - top) / (right + 1)
    gap = 90
    order: list[tuple[int, int]] = []
    order += [(int(mid + (i - 1) * gap), top) for i in range(BIG_ENDS)]
    order += [(mid + BIG_HALF_W, int(top + (j + 1) * step)) for j in range(right)]
    order += [(int(mid + (1 - i) * gap), bottom) for i in range(BIG_ENDS)]
    lstep = (bottom - top) / (left + 1)
    order += [(mid - BIG_HALF_W, int(bottom - (j + 1) * lstep)) for j in range(left)]
    r = max(12, min(BIG_MAX_R, int(step * 0.42)))
    return {(k - 1) % n + 1: at for k, at in enumerate(order)}, r


@lru_cache(maxsize=32)
def big_labels(area: tuple[int, int, int, int], n: int) -> dict[int, tuple[int, int, str]]:
    """Where a big table's labels go, seat -> the point of its label and how it anchors it:
    the ends' seats' over (under) them, the sides' outwards from their circles' edges."""
    places, r = big_places(n, area)
    ends = {y for _, y in places.values()}
    top, bottom = min(ends), max(ends)
    mid = area[0] + area[2] // 2
    out: dict[int, tuple[int, int, str]] = {}
    for seat, (cx, cy) in places.items():
        d = r + BIG_SIDE
        # (an end's middle seat's label on the table's side of it: over it, beside its
        # neighbours' at the same height, "Александра" and "Константин" read as one word)
        if cx == mid and cy in (top, bottom):
            out[seat] = (cx, cy + (d + BIG_LINE // 2) * (1 if cy == top else -1), "center")
        elif cy == top and cx != mid - BIG_HALF_W and cx != mid + BIG_HALF_W:
            out[seat] = (cx, cy - d - BIG_LINE // 2, "center")
        elif cy == bottom and cx != mid - BIG_HALF_W and cx != mid + BIG_HALF_W:
            out[seat] = (cx, cy + d + BIG_LINE // 2, "center")
        elif cx > mid:
            out[seat] = (cx + d, cy, "midleft")
        else:
            out[seat] = (cx - d, cy, "midright")
    return out


#: a small table's label's line height
LINE = 17


#: the room of the table's middle texts (its title, the winner) at a small table, kept
#: clear of its labels
MIDDLE_W = 180


Rows = list[tuple[str, tuple[int, int, int]]]


def small_labels(p: Painter, centres: dict[int, tuple[int, int]],
                 labels: dict[int, list[Rows]], r: int, area: tuple[int, int, int, int]
                 ) -> dict[int, tuple[int, int, Rows]]:
    """Where a small table's seats' labels go, and which of each seat's labels (the first
    that has room: its whole name and role, or fewer rows): seat -> its block's top left and
    its rows. Each under its seat, at 12 seats 20-letter names (two rows, or one and the
    role) ran into the next seat and its label: `arrange` finds each a place."""
    # (the blocks' widths are their widest rows', so a short name takes little room)
    font = p.font(LABEL_SIZE)
    blocks = tuple((seat, tuple((min(LABEL_W, max(font.size(row)[0] for row, _ in rows)),
                                 LINE * len(rows)) for rows in each))
                   for seat, each in sorted(labels.items()))
    picked = arrange(tuple(sorted(centres.items())), blocks, r, area)
    return {seat: (b[0], b[1], labels[seat][k])
            for (seat, _), (k, b) in zip(blocks, picked, strict=True)}


Box = tuple[int, int, int, int]


@lru_cache(maxsize=64)
def arrange(centres: tuple[tuple[int, tuple[int, int]], ...],
            blocks: tuple[tuple[int, tuple[tuple[int, int], ...]], ...], r: int,
            area: tuple[int, int, int, int]) -> tuple[tuple[int, Box], ...]:
    """For each seat's blocks (its labels' widths and heights, the one it would rather
    have first), which one and where, on the table's part of the panel: from its places in
    the order a reader looks for it (on its inner side, straight: under a top seat, over a
    bottom one, beside a side one; then the other of those, moved towards the middle, or
    beside it outwards), clear of every seat (with its awake mark) and of the middle's
    texts, read as its own (`_owned`); and, looked for seat by seat, going back when one has
    none left, APART from each other: every seat's whole label first, fewer rows only
    where they cannot all fit. A seat with no such place takes the first clear of the rest
    (or, with none, its first block by it); where nothing fits together (tried a few
    thousand ways), each the first place clear of those before it."""
    x, y, w, h = area
    cx0, cy0 = x + w // 2, y + h // 2
    # the middle's title (two rows up to its centre, 40 px over the table's), its timer
    # (56 px, "0:10" 139 px wide) and the winner or "paused" (two rows, 40 px under)
    half = MIDDLE_W // 2
    middle = [(cx0 - half, cy0 - 84, 2 * half, 58), (cx0 - 72, cy0 - 26, 144, 70),
              (cx0 - half, cy0 + 26, 2 * half, 52)]
    seats = [at for _, at in centres]
    where = dict(centres)
    options: list[list[tuple[int, Box]]] = []
    for seat, sizes in blocks:
        cx, cy = where[seat]
        side = 1 if cx < cx0 else -1          # towards the middle
        d = r + 6                             # clear of its awake mark (r + 4)
        found: list[tuple[int, Box]] = []
        spare: list[tuple[int, Box]] = []
        bw, bh = sizes[0]
        first = (min(max(cx - bw // 2, x + 4), x + w - 4 - bw),
                 cy + d if cy + d + bh <= y + h else cy - d - bh, bw, bh)
        for k, (bw, bh) in enumerate(sizes):
            beside = d + 1 + bw // 2
            # on the seat's inner side first, straight (a label there is read as its own:
            # one over a side seat stood beside the next seat, one set off on a slant
            # floated between two): under a seat of the top, over one of the bottom, beside
            # one of the sides
            under, over = (cx, cy + d), (cx, cy - d - bh)
            inner = (cx + side * beside, cy - bh // 2)
            upright = abs(cy - cy0) > 0.8 * abs(cx - cx0)
            spots = ([under, over] if cy <= cy0 else [over, under])
            spots = [spots[0], inner, spots[1]] if upright else [inner, *spots]
            spots += [(cx + side * m, cy + d if v > 0 else cy - d - bh)
                      for m in (20, 40) for v in (1, -1)]
            spots.append((cx - side * beside, cy - bh // 2))
            # (its middle, and its top), kept on the panel
            boxes = [(min(max(sx - bw // 2, x + 4), x + w - 4 - bw), top, bw, bh)
                     for sx, top in spots if y <= top and top + bh <= y + h]
            clear = [b for b in boxes if all(_apart(b, at, r + 5) for at in seats)
                     and not any(_meet(_less(b), m) for m in middle)]
            found += [(k, b) for b in clear if _owned(b, (cx, cy), seats, r)]
            # (where none is read as its own, the first place clear of the rest)
            spare = spare or [(k, b) for b in clear]
        options.append(found or spare[:1] or [(0, first)])
    # every seat its whole label first; only where they cannot all fit, fewer rows (one
    # seat's degraded label let the next one keep its whole: "Aleksandre" went, for his
    # role alone, though a place for both was there)
    for most in range(max((len(sizes) for _, sizes in blocks), default=1)):
        # (a seat with no such label: its best one that has a place)
        level = [[o for o in found if o[0] <= most]
                 or [o for o in found if o[0] == found[0][0]] for found in options]
        fitted = _fit(level)
        if fitted is not None:
            return _surer(list(fitted), level, [where[seat] for seat, _ in blocks], seats)
    # nothing fits together: seat by seat, the first place clear of those before
    chosen: list[tuple[int, Box]] = []
    for found in options:
        chosen.append(next((o for o in found if not any(
            _meet(_grown(o[1]), c) for _, c in chosen)), found[0]))
    return tuple(chosen)


#: how much nearer its own seat a label stands than any other (from the seat's centre to
#: the label's nearest point): at about the same distance from two, a name over a side
#: seat was read as the next seat's
OWN = 1.25


def _owned(b: Box, own: tuple[int, int], seats: list[tuple[int, int]], r: int) -> bool:
    """Whether `b` is read as `own`'s: every other seat OWN times as far from it, and no
    other seat has it level beside it (seat 8's label over seat 8 stood level with seat 9,
    on 9's inner side, and was read as 9's; seat 9's under 9, level with 8, as 8's)."""
    # (straight under or over its own seat, a label is its: seat 1's under seat 1)
    straight = abs(b[0] + b[2] / 2 - own[0]) <= r / 2
    return _owning(b, own, seats) >= OWN and (straight or not any(
        _level(b, at, r) for at in seats if at != own))


#: how far from a seat's circle a label level with it reads as its own
LEVEL_REACH = 40


def _level(b: Box, at: tuple[int, int], r: int) -> bool:
    """Whether `b` stands beside the seat at `at`, level with it (half its height or more
    within the circle's) and within LEVEL_REACH of its edge."""
    beside = b[0] >= at[0] + r or b[0] + b[2] <= at[0] - r
    level = min(b[1] + b[3], at[1] + r) - max(b[1], at[1] - r) >= b[3] / 2
    return beside and level and _gap(b, at) < r + LEVEL_REACH


def _owning(b: Box, own: tuple[int, int], seats: list[tuple[int, int]]) -> float:
    """How surely `b` reads as `own`'s: the next nearest seat's distance over its own's."""
    mine = max(_gap(b, own), 1.0)
    return min((_gap(b, at) / mine for at in seats if at != own), default=math.inf)


#: how much nearer its own seat than any other a label needs be to stay where it is
SURE = 1.5


def _surer(chosen: list[tuple[int, Box]], options: list[list[tuple[int, Box]]],
           owns: list[tuple[int, int]], seats: list[tuple[int, int]]
           ) -> tuple[tuple[int, Box], ...]:
    """`_fit`'s places, the label read least surely as its own moved to a surer place of
    its (the first in its order), moving one label in its way to another of its places if
    it must, while that makes the least sure one surer: first fit, seat by seat, set seat
    8's name over it between seats 8 and 9, and seat 9's under 9 beside 8."""
    def clear(o: tuple[int, Box], skip: tuple[int, ...]) -> bool:
        return not any(_meet(_grown(o[1]), c) for m, (_, c) in enumerate(chosen)
                       if m not in skip)

    # (each move makes the labels' sureness, least sure first, greater: it ends)
    for _ in range(4 * len(chosen)):
        sure = [_owning(b, own, seats) for (_, b), own in zip(chosen, owns, strict=True)]
        move: dict[int, tuple[int, Box]] = {}
        for i in sorted(range(len(chosen)), key=sure.__getitem__):
            if sure[i] >= SURE:
                break                      # (sure enough: a reader's first look finds it)
            move = _surer_one(i, sure[i], chosen, options, owns, seats, clear)
            if move:
                break
        if not move:
            break
        for k, o in move.items():
            chosen[k] = o
    return tuple(chosen)


def _surer_one(i: int, worst: float, chosen: list[tuple[int, Box]],
               options: list[list[tuple[int, Box]]], owns: list[tuple[int, int]],
               seats: list[tuple[int, int]], clear: Any) -> dict[int, tuple[int, Box]]:
    """A surer place for label `i` (the first in its order), with one label in its way
    moved to a place of its own that is surer than `worst` too; {} where there is none."""
    # (a place for the same label, or a fuller one: never fewer rows for a surer place)
    for o in options[i]:
        if o[0] > chosen[i][0] or _owning(o[1], owns[i], seats) <= worst:
            continue
        if clear(o, (i,)):
            return {i: o}
        way = [j for j, (_, c) in enumerate(chosen) if j != i and _meet(_grown(o[1]), c)]
        if len(way) > 1:
            continue
        j = way[0]
        o2 = next((o2 for o2 in options[j] if o2[0] <= chosen[j][0]
                   and _owning(o2[1], owns[j], seats) > worst
                   and clear(o2, (i, j)) and not _meet(_grown(o2[1]), o[1])), None)
        if o2 is not None:
            return {i: o, j: o2}
    return {}


def _fit(options: list[list[tuple[int, Box]]]) -> tuple[tuple[int, Box], ...] | None:
    """One of each seat's options, no two meeting, looked for seat by seat and going back
    when one has none left; None when there is none (or after a few thousand tries: a
    table's worth is a few hundred)."""
    chosen: list[tuple[int, Box]] = []
    tries = [5000]

    def fit(i: int) -> bool:
        if i == len(options):
            return True
        for k, b in options[i]:
            tries[0] -= 1
            if tries[0] > 0 and not any(_meet(_grown(b), c) for _, c in chosen):
                chosen.append((k, b))
                if fit(i + 1):
                    return True
                chosen.pop()
        return False
    return tuple(chosen) if fit(0) else None


#: the room between two seats' labels: touching, seat 2's role and seat 3's name and role
#: read as one block of three rows
APART = 5


#: ... and over and under: two seats' labels a line apart read as one column (trial 17:
#: seat 12's role stood over seat 11's, and seat 11 seemed to hold two)
APART_OVER = 17


def _grown(b: Box) -> Box:
    """`b` with APART beside it and APART_OVER over and under it."""
    return (b[0] - APART, b[1] - APART_OVER, b[2] + 2 * APART, b[3] + 2 * APART_OVER)


def _less(b: Box) -> Box:
    """`b` less a pixel all round (a pixel's touch is no overlap)."""
    return (b[0] + 1, b[1] + 1, b[2] - 2, b[3] - 2)


def _gap(box: Box, at: tuple[int, int]) -> float:
    """How far the point `at` (a seat's centre) is from `box`'s nearest point."""
    nx = min(max(at[0], box[0]), box[0] + box[2])
    ny = min(max(at[1], box[1]), box[1] + box[3])
    return math.hypot(nx - at[0], ny - at[1])


def _apart(box: Box, at: tuple[int, int], reach: float) -> bool:
    """Whether `box` stays farther than `reach` from the point `at` (a seat's centre)."""
    return _gap(box, at) > reach


def _meet(a: tuple[int, int, int, int], b: tuple[int, int, int, int]) -> bool:
    return a[0] < b[0] + b[2] and b[0] < a[0] + a[2] and a[1] < b[1] + b[3] and b[1] < a[1] + a[3]
