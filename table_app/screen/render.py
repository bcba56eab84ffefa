"""Drawing the host's screen and the public view with pygame (800x480, the Pi's display).

A view is drawn only when its model changed (the timer changes once a second), so an idle
table costs almost nothing. Every text comes from the catalogues (`words.t`) in the game's
language; the font is DejaVu Sans (it has Georgian), else pygame's own.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, replace
from functools import lru_cache
from itertools import groupby
from pathlib import Path
from typing import Any

from ..sound.catalogue import role_name
from ..words import known, language, spans
from .model import HostView, PublicState, SeatView, t

SIZE = (800, 480)
BG = (16, 17, 22)
TABLE = (20, 58, 40)
SEAT = (52, 54, 64)
SEAT_OUT = (30, 30, 34)
#: the seat the host tapped (its commands are under the buttons): a host tapped a seat and
#: saw nothing on it change
SEAT_PICKED = (96, 104, 150)
TEXT = (235, 235, 235)
DIM = (140, 140, 150)
#: the host's notes: lighter than DIM, which at 13 px read as grey on the dark
NOTE = (185, 188, 198)
#: a role beside its seat, and an out seat's name: light enough to read on the dark (the
#: grey of DIM at 11 px was unreadable on the 7-inch panel)
ROLE_TEXT = (200, 215, 240)
ROLE_AWAKE = (125, 175, 255)
LABEL_OUT = (175, 175, 185)
AMBER = (235, 170, 40)
GREEN = (60, 200, 90)
BLUE = (70, 120, 255)
ORANGE = (255, 110, 0)
RED = (220, 50, 50)
BUTTON = (60, 64, 80)
#: no text is drawn smaller than this (the 7-inch panel at arm's length: 14 px is about
#: 3 mm), nor is a text fitted to its box shrunk below it; a box that needs smaller is a
#: layout to mend, and the fit test says so (the journeys check every text drawn)
MIN_SIZE = 14
FONTS = ("/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf",
         "/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf")


@dataclass(frozen=True)
class Button:
    """A touch target: its rectangle and the command it sends."""

    rect: tuple[int, int, int, int]
    cmd: tuple[str, ...]
    label: str

    def hit(self, pos: tuple[int, int]) -> bool:
        x, y, w, h = self.rect
        return x <= pos[0] < x + w and y <= pos[1] < y + h


class Painter:
    """Fonts and shapes, shared by both views."""

    def __init__(self, keep: bool = False) -> None:
        import pygame
        pygame.font.init()
        self.pg = pygame
        #: with `keep`, every text drawn, in order (the tests read what a screen says)
        self.drawn: list[str] | None = [] if keep else None
        self._fonts: dict[tuple[int, bool], Any] = {}
        #: texts that did not fit their box even at the smallest size (a test looks here)
        self.overflows: list[tuple[str, int]] = []
        #: texts shrunk below MIN_SIZE to fit their box (text, size drawn, box width)
        self.shrunk: list[tuple[str, int, int]] = []
        #: texts drawn under MIN_SIZE, asked so or shrunk (text, size drawn)
        self.small: list[tuple[str, int]] = []

    def font(self, size: int, bold: bool = False) -> Any:
        key = (size, bold)
        if key not in self._fonts:
            path = FONTS[1 if bold else 0]
            self._fonts[key] = self.pg.font.Font(path if Path(path).exists() else None, size)
        return self._fonts[key]

    def text(self, surf: Any, s: str, pos: tuple[int, int], size: int = 16,
             colour: tuple[int, int, int] = TEXT, bold: bool = False,
             anchor: str = "topleft", width: int | None = None) -> Any:
        """Draw `s`; with a `width`, the text is fitted to it: a smaller size first (down to
        two thirds), then cut with an ellipsis, which counts as an overflow."""
        if self.drawn is not None:
            self.drawn.append(s)
        font = self.font(size, bold)
        if width is not None and font.size(s)[0] > width:
            asked = size
            smallest = max(9, size * 2 // 3)
            while size > smallest and font.size(s)[0] > width:
                size -= 1
                font = self.font(size, bold)
            if size < min(asked, MIN_SIZE):
                self.shrunk.append((s, size, width))
            if font.size(s)[0] > width:
                self.overflows.append((s, width))
                while s and font.size(s + "\u2026")[0] > width:
                    s = s[:-1]
                s += "\u2026"
        if size < MIN_SIZE and s.strip():
            self.small.append((s, size))
        img = font.render(s, True, colour)
        rect = img.get_rect(**{anchor: pos})
        surf.blit(img, rect)
        return rect


def seat_xy(seat: int, n: int, centre: tuple[int, int], radius: tuple[int, int]) -> tuple[int, int]:
    a = -math.pi / 2 + 2 * math.pi * (seat - 1) / n
    return int(centre[0] + radius[0] * math.cos(a)), int(centre[1] + radius[1] * math.sin(a))


#: a name or a role beside a seat at a table of up to 12
LABEL_SIZE = 14
#: a small table's label's width: a row of a name, or a role ("Мирный житель" takes 119 px at
#: 14 px: its short form is drawn)
LABEL_W = 104
#: a big table's label (a name, a role) at LABEL_SIZE: "Любовница" takes 87 px
BIG_LABEL_W = 90
#: a name beside a big table's side seat: the room from the panel's edge to the left side's
#: seats ("Abdulazizbek" takes 95 px; at 90 it broke inside the word)
BIG_SIDE_W = 95
#: a big table's label's line height
BIG_LINE = 17
#: a big table (13-30) is a long table, as a club seats one: three seats at each end, the
#: rest down its two sides, each seat's one label beside it, outwards (on the sides) or
#: over (under) it (at the ends), at LABEL_SIZE. Round, its labels at 14 px ran into each
#: other at the top and the bottom (they were 10 px). The sides stand BIG_HALF_W from the
#: middle, the end rows BIG_END from the area's top and bottom; a label starts BIG_SIDE
#: past a seat's circle (past its awake mark, r + 4). Every size 13-30 in every language
#: was checked with these (tests/test_screen.py)
BIG_HALF_W = 116
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


def big_pitch(n: int, area: tuple[int, int, int, int]) -> float:
    """How far apart a big table's side seats stand (the right side's, the longer)."""
    right = (n - 2 * BIG_ENDS + 1) // 2
    return (area[3] - 2 * BIG_END) / (right + 1)


def big_name(p: Painter, name: str, rows: int, width: int = BIG_LABEL_W) -> list[str]:
    """A name beside a big table's seat, in at most `rows` rows of `width` at 14 px:
    whole where it fits; on one row too wide, its first word and the others' initials
    ("Konstantin N."), or its first word alone, as a club writes a name on a full sheet
    (cut with "..." it named nobody). Only a first word that fits nowhere is cut with
    "..."."""
    font = p.font(LABEL_SIZE)
    if rows >= 2:
        lines = name_lines(p, name, width)
        # (a name of two words cut inside one, "Шахзода Т-" over "ошпулатова", reads as
        # three: its initials are better; only a one-word name is cut over two rows)
        whole = " ".join(lines) == " ".join(name.split()) or len(name.split()) == 1
        if whole and len(lines) <= 2 and all(font.size(line)[0] <= width for line in lines):
            return lines
    if font.size(name)[0] <= width:
        return [name]
    words = name.split()
    for short in (" ".join(words[:1] + [w[0] + "." for w in words[1:]]), words[0]):
        if font.size(short)[0] <= width:
            return [short]
    # a first word no row holds: cut with "..." (drawn whole it shrank to 9 px)
    return [_cut(p, words[0], width)]


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


def seat_role(role: str, lang: str, big: bool) -> str:
    """A role's name beside its seat: at a big table its short form where the language has
    one ("Мирный" for "Мирный житель", too wide between 30 seats), else its name."""
    short = f"short_{role}"
    if big and known(short):
        return t(short, lang)
    return role_name(role, lang)


def _inside(label: str, cx: int, cy: int, r: int,
            centre: tuple[int, int]) -> tuple[tuple[int, int], str]:
    """Where a big table's seat's fouls go: on a side, beside it towards the table's middle
    (its label, anchored `label`, stands on its other side); at an end, to its right (the
    next seat is a gap away); and how they anchor."""
    if label == "midleft" or (not label and cx > centre[0] + r):
        return (cx - r - 6, cy), "midright"
    return (cx + r + 6, cy), "midleft"         # the left side's seat, or an end's


def draw_table(p: Painter, surf: Any, seats: tuple[SeatView, ...], pub: PublicState,
               host: bool, area: tuple[int, int, int, int],
               picked: int | None = None) -> list[Button]:
    """The seats round the table, with the phase and the big timer in the middle."""
    pg = p.pg
    x, y, w, h = area
    centre = (x + w // 2, y + h // 2)
    buttons = []
    n = len(seats)
    big = n > 12
    ring = (w // 2 - 40, h // 2 - 38)
    if big:
        # a long table: its seats' one label each goes outside them (big_places)
        places, r = big_places(n, area)
        placed = big_labels(area, n)
        two_rows = big_pitch(n, area) >= 2 * BIG_LINE + 4
        pg.draw.rect(surf, TABLE, (centre[0] - BIG_HALF_W, y + BIG_END, 2 * BIG_HALF_W,
                                   h - 2 * BIG_END), border_radius=40)
    else:
        # a seat's circle: 30 px up to 12 seats
        r = max(13, min(30, int(math.pi * min(ring) / max(n, 1) * 0.92)))
        pg.draw.ellipse(surf, TABLE, (x + 70, y + 60, w - 140, h - 120))
    k = r / 30
    later: dict[int, list[list[tuple[str, tuple[int, int, int]]]]] = {}
    centres: dict[int, tuple[int, int]] = {}
    for sv in seats:
        cx, cy = places[sv.seat] if big else seat_xy(sv.seat, n, centre, ring)
        centres[sv.seat] = (cx, cy)
        fill = SEAT_PICKED if sv.seat == picked else SEAT if sv.alive else SEAT_OUT
        pg.draw.circle(surf, fill, (cx, cy), r)
        if host and sv.awake:
            pg.draw.circle(surf, BLUE, (cx, cy), r + 4, 4)
        if sv.nominated:
            pg.draw.circle(surf, AMBER, (cx, cy), r + 1, 3)
        if sv.speaking:
            pg.draw.circle(surf, GREEN, (cx, cy), r + 3, 4)
        if sv.pad_fault:
            pg.draw.circle(surf, ORANGE, (cx, cy), r, max(3, int(5 * k)))
        # a small table's seat holds its fouls' marks under its number (beside it, they ran
        # into the next seat's label, and the right-hand seat's into the host's column)
        inner = bool(sv.fouls) and not big
        p.text(surf, str(sv.seat), (cx, cy - 7 if inner else cy), max(14, int(22 * k)),
               TEXT if sv.alive else DIM, True, "center")
        # the name, then the role (the host's), beside the seat (inside the circle a name had
        # 54 px and shrank to 9 px)
        shown = host and bool(sv.role)
        colour = TEXT if sv.alive else LABEL_OUT
        rows = [sv.name] if big else big_name(p, sv.name, 2, LABEL_W)
        labels = [(line, colour) for line in rows] if sv.name else []
        if shown:
            # (its short name: "Мирный житель" at 14 px is wider than the room between seats)
            role = (seat_role(sv.role, pub.lang, True), ROLE_AWAKE if sv.awake else ROLE_TEXT)
            # a big table has room for one line a seat at 14 px (two stood over the next
            # seats' at 30): its name, or while the host sees the roles, its role
            labels = [role] if big else labels + [role]
        if big and labels:              # (a seat with no label has no place: none is made)
            lx, ly, anchor = placed[sv.seat]
            label, colour = labels[0]
            # a name on a side, where the seats stand far enough apart, on two rows; else
            # on one, its first name and initials when whole it is too wide
            label_w = BIG_LABEL_W if anchor == "center" else BIG_SIDE_W
            rows = ([label] if host and sv.role else
                    big_name(p, label, 2 if anchor != "center" and two_rows else 1, label_w))
            for i, row in enumerate(rows):
                p.text(surf, row, (lx, ly + BIG_LINE * (2 * i - len(rows) + 1) // 2),
                       LABEL_SIZE, colour, anchor=anchor, width=label_w)
        if labels and not big:
            # (14 px: at 11 px grey a name was 2 mm high on the 7-inch panel); placed, and
            # drawn, once every seat is: a name over two rows, and its role, reached down to
            # the next seat, and its circle hid them
            later[sv.seat] = [labels]
            # where the room is short, on one row: the name's first word and initials, or
            # its first word; then (while the host sees them) the role alone
            one = [(row, colour) for row in big_name(p, sv.name, 1, LABEL_W)
                   if p.font(LABEL_SIZE).size(row)[0] <= LABEL_W] if sv.name else []
            first = [(row, colour) for row in sv.name.split()[:1]
                     if p.font(LABEL_SIZE).size(row)[0] <= LABEL_W]
            # last, a first word no row holds, cut with "...": only where its two rows
            # find no room (a 20-letter word beside seat 4 of 12: the table's middle)
            cut = [] if one or first or not sv.name else [(_cut(p, sv.name), colour)]
            for fewer in (one + labels[len(rows):], first + labels[len(rows):],
                          cut + labels[len(rows):], labels[len(rows):]):
                if fewer and fewer not in later[sv.seat]:
                    later[sv.seat].append(fewer)
        if not sv.alive:
            d = int(18 * k)
            pg.draw.line(surf, RED, (cx - d, cy - d), (cx + d, cy + d), 3)
        if sv.fouls and big:
            # on the table's side of the seat: its label has the other (they ran into it)
            at, anchor = _inside(placed[sv.seat][2] if sv.seat in placed else "", cx, cy,
                                 r, centre)
            p.text(surf, t("foul_mark", pub.lang) * sv.fouls, at, MIN_SIZE, ORANGE, True,
                   anchor)
        elif sv.fouls:
            p.text(surf, t("foul_mark", pub.lang) * sv.fouls, (cx, cy + 13), MIN_SIZE,
                   ORANGE, True, "center")
        if host and sv.asked:
            # on the circle's edge, up and right (its foot holds the fouls)
            pg.draw.circle(surf, TEXT, (cx + int(21 * k), cy - int(21 * k)), 5)
        buttons.append(Button((cx - r, cy - r, 2 * r, 2 * r), ("seat", str(sv.seat)),
                              str(sv.seat)))
    for left, top, block in small_labels(p, centres, later, r, area).values():
        mid = left + min(LABEL_W, max(p.font(LABEL_SIZE).size(row)[0] for row, _ in block)) // 2
        for i, (row, tint) in enumerate(block):
            p.text(surf, row, (mid, top + LINE // 2 + LINE * i), LABEL_SIZE, tint,
                   anchor="center", width=LABEL_W)
    lang = pub.lang
    title = phase_title(pub)
    # the middle's texts between the seats and their fouls' marks, on two rows where one is
    # too wide (a long table's sides stand closer than the round one's: "Игра окончена" ran
    # over seats 5 and 17 at 20, then over their marks)
    marks = max((p.font(MIN_SIZE, True).size(t("foul_mark", lang) * sv.fouls)[0] + 6
                 for sv in seats if sv.fouls and big and abs(
                     places[sv.seat][1] - centre[1]) < MIDDLE_HALF_H), default=0)
    room = 2 * (BIG_HALF_W - r - 6 - marks) if big else MIDDLE_W
    _middle(p, surf, title, (centre[0], centre[1] - 40), 24, TEXT, room, up=True)
    if pub.paused:
        _middle(p, surf, t("paused", lang), (centre[0], centre[1] + 40), 20, ORANGE, room)
    if pub.seconds_left is not None:
        m, s = divmod(pub.seconds_left, 60)
        colour = RED if pub.seconds_left <= 10 else TEXT
        p.text(surf, f"{m}:{s:02d}", (centre[0], centre[1] + 8), 56, colour, True, "center")
    if pub.winner:
        _middle(p, surf, f"{t('winner', lang)}: {t('win_' + pub.winner, lang)}",
                (centre[0], centre[1] + 40), 20, GREEN, room)
    return buttons


def phase_title(pub: PublicState) -> str:
    """Where the game is, as the middle of the table says it: "Night 2", "Day 1"."""
    if " " in pub.phase:
        kind, num = pub.phase.split()
        return f"{t(kind, pub.lang)} {num}"
    return t(pub.phase, pub.lang)


def clock_line(pub: PublicState) -> str:
    """Where the game is and its timer on one line ("Night 2  0:08"), for the pad
    simulator's pane (at 800x480 it is shown in turns with the host's screen, which has
    the clock: a host trying the pads missed night windows and deal turns)."""
    line = phase_title(pub)
    if pub.seconds_left is not None:
        m, s = divmod(pub.seconds_left, 60)
        line += f"  {m}:{s:02d}"
    return line + (f"  ({t('paused', pub.lang)})" if pub.paused else "")


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


def _grown(b: Box) -> Box:
    """`b` with APART all round."""
    return (b[0] - APART, b[1] - APART, b[2] + 2 * APART, b[3] + 2 * APART)


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


#: how far the middle's texts reach up and down from the table's centre (two rows of the
#: title over it, two of the winner under it)
MIDDLE_HALF_H = 100


def _middle(p: Painter, surf: Any, text: str, at: tuple[int, int], size: int,
            colour: tuple[int, int, int], room: int, up: bool = False) -> None:
    """A text in the table's middle, bold, centred on `at`: on one row, or where that is
    wider than `room` on two, from `at` down (`up`: up to it, clear of the timer); a text
    with a head ("Winner: ...") is broken after it ("Winner: The" over "Mafia" read as
    the Mafia's role)."""
    font = p.font(size, True)
    head, _, rest = text.partition(": ")
    rows = ([text] if font.size(text)[0] <= room else
            [f"{head}:", rest] if rest and max(font.size(f"{head}:")[0], font.size(rest)[0])
            <= room else wrap(p, text, size, room, True)[:2])
    for i, row in enumerate(rows):
        y = at[1] + (size + 4) * (i - (len(rows) - 1 if up else 0))
        p.text(surf, row, (at[0], y), size, colour, True, "center", width=room)


def draw_public(p: Painter, surf: Any, pub: PublicState) -> None:
    """The view for the room: nothing secret was ever given to it."""
    surf.fill(BG)
    draw_table(p, surf, pub.seats, pub, False, (0, 0, 480, 480))
    x = 500
    lang = pub.lang
    w = 800 - x - 10
    p.text(surf, t("public", lang), (x, 16), 14, DIM, width=w)
    y = 50
    if pub.nominees:
        p.text(surf, t("nominees", lang), (x, y), 18, AMBER, True, width=w)
        p.text(surf, ", ".join(map(str, pub.nominees)), (x, y + 26), 22, width=w)
        y += 70
    rule = ballot_rule(pub)
    if rule:
        # the rule the room must know before it votes: where a vote not cast goes
        for row in wrap(p, rule, 18, w, True)[:3]:
            p.text(surf, row, (x, y), 18, AMBER, True, width=w)
            y += 24
        y += 10
    if pub.totals or pub.no_votes:
        p.text(surf, t("votes", lang), (x, y), 18, AMBER, True, width=w)
        for i, (seat, n) in enumerate(by_votes(pub.totals)[:14]):
            p.text(surf, total_text(seat, n, lang), (x + 150 * (i // 7), y + 26 + 24 * (i % 7)), 20)
        if pub.no_votes:
            # a ballot nobody voted in: the room is told that nobody leaves, not left to guess
            for i, row in enumerate(wrap(p, t("no_votes", lang), 20, w)[:3]):
                p.text(surf, row, (x, y + 26 + 24 * i), 20, width=w)
    speaking = [s.seat for s in pub.seats if s.speaking]
    if speaking and pub.phase == "deal":
        # the deal's turn is lit as a speaker is, but nobody speaks ("Speaking: 1" stood
        # over the deal): whose turn it is to look at his role
        rows = wrap(p, f"{t('hold_to_see', lang)}: №{speaking[0]}", 22, w, True)[:2]
        for i, row in enumerate(rows):
            p.text(surf, row, (x, 446 - 28 * (len(rows) - i)), 22, GREEN, True, width=w)
    elif speaking:
        p.text(surf, f"{t('speaking', lang)}: {speaking[0]}", (x, 420), 22, GREEN, True, width=w)


def draw_host(p: Painter, surf: Any, view: HostView, selected: int | None = None,
              acting: int | None = None, confirm: tuple[str, ...] | None = None,
              hide_roles: bool = False, keys: tuple[str, ...] = ()) -> list[Button]:
    """The host's screen: the whole table, roles and choices, and the command buttons; with
    `hide_roles`, nothing says who holds what (a player beside the host can read a 7-inch
    panel): no role, no awake or asked mark on the seats, no night choice, no death before
    the room hears it, no note that tells a role or a choice (a seat's movement at night
    too: a role pressing just after his window was named by it)."""
    surf.fill(BG)
    pub = view.public
    lang = pub.lang
    seats = view.seats
    if hide_roles:
        # who is out as the room knows it: the night's losses are the host's from the last
        # window on, and a crossed-out seat before the morning told the night's kill
        known = {sv.seat: sv.alive for sv in pub.seats}
        seats = tuple(replace(sv, role="", awake=False, asked=False,
                              alive=known.get(sv.seat, sv.alive)) for sv in seats)
        view = replace(view, choices=(), notes=tuple(n for n in view.notes
                                                     if n not in view.secrets))
    buttons = draw_table(p, surf, seats, pub, True, (0, 0, 480, 480),
                         acting if acting is not None else selected)
    x = 496
    y = 12
    w = 800 - x - 8
    # back to the setup screen from a game (a resumed game, or the next game's deal, had no
    # way there): asked twice, as a removal is, and the game is not recorded; a game over
    # is kept already, and goes at once
    buttons.append(_button(p, surf, (x, 4, 130, 30), ("setup",) if pub.phase == "over"
                           else ("confirm", "setup"), t("to_setup", lang), 14))
    # roles are hidden unless the host holds this button (or the R key) down
    buttons.append(_button(p, surf, (800 - 166, 4, 160, 30), ("roles",),
                           t("peek_roles" if hide_roles else "roles_shown", lang), 14))
    y += 26
    y = _host_status(p, surf, view, seats, (x, y, w))
    _host_notes(p, surf, view, (x, y, w))
    buttons += _host_commands(p, surf, view, x)
    buttons += _host_prompt(p, surf, view, seats, (x, w), selected, acting, confirm, keys)
    return buttons


def _host_status(p: Painter, surf: Any, view: HostView, seats: tuple[SeatView, ...],
                 at: tuple[int, int, int]) -> int:
    """The right column's top: who is called or missing, who is awake and what he chose,
    the nominees, the vote, what ends a speech, the season's rating. Returns where it ends."""
    x, y, w = at
    pub = view.public
    lang = pub.lang
    if view.calling:
        # (how many of its cards: a second Yakuza was pressed for where the deck has one)
        cards = f" ×{view.calling_cards}" if view.calling_cards > 1 else ""
        p.text(surf, f"{t('calling', lang)}: {role_name(view.calling, lang)}{cards}", (x, y), 18,
               BLUE, True, width=w)
        y += 26
    elif view.missing:
        p.text(surf, f"{t('missing', lang)}: " + ", ".join(role_name(r, lang)
                                                            for r in view.missing),
               (x, y), 16, ORANGE, True, width=w)
        y += 24
    if view.window:
        p.text(surf, f"{t('awake', lang)}: {t('window_' + view.window, lang)}", (x, y), 18,
               BLUE, True, width=w)
        y += 26
        said = "meet_only" if view.meet_only else "by_rules" if view.by_rules else ""
        for row in wrap(p, t(said, lang), 14, w)[:2] if said else ():
            p.text(surf, row, (x, y), 14, BLUE, width=w)
            y += 18
        for d, target in view.choices:
            # (a hold on "nobody" read "-", as if nothing was chosen yet: a host saw the
            # Mafia's kill "stay -" after the Don had held)
            said = t("chose_nobody", lang) if target == "-" else target
            p.text(surf, f"{t('chose', lang)} ({t('window_' + d, lang)}): {said}", (x, y), 16,
                   width=w)
            y += 22
    if pub.nominees:
        p.text(surf, f"{t('nominees', lang)}: " + ", ".join(map(str, pub.nominees)), (x, y), 16,
               AMBER, True, width=w)
        y += 26
    rule = ballot_rule(pub)
    for row in wrap(p, rule, 14, w)[:2]:                 # what the host tells the table
        p.text(surf, row, (x, y), 14, AMBER, width=w)
        y += 18
    if view.cast is not None:
        living = sum(1 for s in view.seats if s.alive)
        p.text(surf, t("votes_in", lang).format(n=view.cast, of=living), (x, y), 14, TEXT,
               width=w)
        y += 18
    y += 4 if rule else 0
    if pub.totals or pub.no_votes:
        # "№2 — 11", three a line: never "2:11" beside the clock
        p.text(surf, t("votes", lang), (x, y), 16, AMBER, True, width=w)
        y += 22
        if pub.no_votes:
            for row in wrap(p, t("no_votes", lang), 16, w)[:2]:
                p.text(surf, row, (x, y), 16, AMBER, width=w)
                y += 20
        # most votes first (in seat order, nine of them left out the seat that left on 3
        # votes at 20 seats); past nine, "+N more"
        ranked = by_votes(pub.totals)
        for i in range(0, min(len(ranked), 9), 3):
            row = "   ".join(total_text(s, n, lang) for s, n in ranked[i:i + 3])
            more = f"   +{len(ranked) - 9}" if i == 6 and len(ranked) > 9 else ""
            p.text(surf, row + more, (x, y), 16, AMBER, width=w)
            y += 20
        y += 4
    speaker = next((sv.seat for sv in seats if sv.speaking), None)
    if speaker is not None and pub.step in ("speeches", "defence", "tie"):
        # what ends a speech, said where the host reads it (a speaker's own press ended it
        # with nothing on the screen to say so)
        key = ("speech_ends_nominate" if pub.step == "speeches" else "speech_ends"
               ) if view.nominating else "speech_ends_city"
        for said in wrap(p, t(key, lang).format(seat=speaker, skip=t("skip", lang)),
                         14, w)[:4]:
            p.text(surf, said, (x, y), 14, TEXT, width=w)
            y += 18
        y += 4
    if pub.phase == "over" and view.rating:
        # between games: the season's rating from the club's records
        p.text(surf, t("rating", lang), (x, y), 16, BLUE, True, width=w)
        y += 22
        # best first, each with his points ("Nino — 3"): "1. Дмитрий Петров 1" read as
        # seat 1 (he sat at 3); players level on points on one row ("Nino, Lasha +5 — 1"),
        # never some of them left out by the alphabet
        for row in rating_rows(p, view.rating, w)[:5]:
            p.text(surf, row, (x, y), 14, width=w)
            y += 18
    return y


def rating_rows(p: Painter, rating: tuple[tuple[str, float], ...], width: int) -> list[str]:
    """The season's points table as rows no wider than `width` at 14 px, one a score: its
    players' names, as many as fit, "+N" for the rest, then the score."""
    font = p.font(14)
    rows = []
    for score, level in groupby(rating, key=lambda named: named[1]):
        names = [name for name, _ in level]
        for shown in range(len(names), 0, -1):
            more = f" +{len(names) - shown}" if shown < len(names) else ""
            row = f"{', '.join(names[:shown])}{more} — {score:g}"
            if font.size(row)[0] <= width or shown == 1:
                rows.append(row)
                break
    return rows


def _host_notes(p: Painter, surf: Any, view: HostView, at: tuple[int, int, int]) -> None:
    """The table's latest notes, then what the voice just said."""
    x, y, w = at
    # what the voice just said, for a host without sound (or with a noisy room): the last
    # two lines, each over two rows when it must (shrunk, a long one was unreadable)
    # (a margin from the panel's edge: a long line touched it)
    # (in the language's own quotation marks: Georgian's „…“ stood beside “…”)
    opens, closes = language(view.public.lang).quotes
    rows = [r for line in view.captions[-2:]
            for r in wrap(p, opens + line + closes, 14, w - 8)[:2]]
    rows = rows[-4:]
    cy = 334 - 17 * len(rows)
    # the latest notes that fit above them (and above a card deal's role buttons)
    room = (142 if view.missing and not view.calling else cy - 4) - y
    lines: list[tuple[str, bool]] = []
    # the latest first, each over three rows, as many as there is room for (five at most
    # hid a yakuza night's first choice, the Mafia's, from a host peeking at the sixth)
    for note in reversed(view.notes):
        rows_of = [(r, note in view.alerts) for r in wrap(p, note, 14, w)[:3]]
        if 17 * (len(lines) + len(rows_of)) > room:
            break
        lines[:0] = rows_of
    for r, alert in lines:
        p.text(surf, r, (x, y), 14, ORANGE if alert else NOTE, width=w)
        y += 17
    for r in rows:
        p.text(surf, r, (x, cy), 14, TEXT, width=w - 8)
        cy += 17


def _host_commands(p: Painter, surf: Any, view: HostView, x: int) -> list[Button]:
    """The bottom rows' touch buttons."""
    pub = view.public
    lang = pub.lang
    buttons: list[Button] = []
    # commands: the bottom rows are touch buttons, two by two (four in a row left 64 px:
    # "Пропустить", "გამოტოვება" were 10 px); after a game only what still means
    # something (a next game, asked twice: it deals at once; or new players)
    row: list[tuple[str, tuple[str, ...]]] = [
        # seats that never looked at their role: Start asks once more, naming them
        ("start", ("confirm", "begin") if view.unseen else ("start",)),
        ("resume" if pub.paused else "pause", ("resume",) if pub.paused else ("pause",)),
        ("skip", ("skip",)), ("undo", ("undo",))]
    if view.unseen and view.pending == "start":
        # the deal is over and seats never looked: their turn again (a player who missed
        # his 5 s could never see his role), or start past them
        row[1] = ("look_again", ("again",))
    if pub.phase == "over":
        # the game is over and kept: the next one on one tap (it asked again, on a button
        # that appeared elsewhere, and the same button tapped again did nothing)
        row = [("next_game", ("start",)), ("new_players", ("setup",))]
    elif view.pending == "call":
        row = [("call_roles", ("call",))]          # the cards are being dealt: nothing runs
    each = 300 // min(2, len(row))
    for i, (key, cmd) in enumerate(row):
        top = 384 if len(row) <= 2 else 342 + 40 * (i // 2)
        buttons.append(_button(p, surf, (x + (i % 2) * each, top, each - 5, 36), cmd,
                               t(key, lang)))
    return buttons


def _host_prompt(p: Painter, surf: Any, view: HostView, seats: tuple[SeatView, ...],
                 at: tuple[int, int], selected: int | None, acting: int | None,
                 confirm: tuple[str, ...] | None, keys: tuple[str, ...]) -> list[Button]:
    """The bottom's prompt: acting for a pad, a confirmation, a card deal's roles, a command
    half typed, or a tapped seat's commands."""
    x, w = at
    pub = view.public
    lang = pub.lang
    buttons: list[Button] = []
    speaker = next((sv.seat for sv in seats if sv.speaking), None)
    if acting is not None:
        # acting for a broken pad: the next seat tapped is his choice, or nothing (for the
        # speaker: Nothing ends his speech, and the screen says so)
        # (a city speaker nominates nobody: "whom he nominates" sent a host looking for a
        # nomination that the format does not have)
        ask = (t("act_speaker", lang) if view.nominating else t("act_speaker_ends", lang)
               ).format(nothing=t("nothing", lang)) if acting == speaker \
            else t("act_target", lang)
        for i, r in enumerate(wrap(p, f"#{acting}: {ask}", 14, 195, True)[:3]):
            p.text(surf, r, (x, 422 + 17 * i), 14, AMBER, True, width=195)
        buttons.append(_button(p, surf, (x + 200, 428, 100, 40), ("act", str(acting), "-"),
                               t("nothing", lang)))
    elif confirm is not None:
        # a removal, or a new deal, is not undone by a slip of the finger: it asks once more
        sent = confirm
        if confirm[0] == "start":
            ask, label = t("confirm_next", lang), t("next_game", lang)
        elif confirm[0] == "setup":
            ask, label, sent = t("confirm_setup", lang), t("to_setup", lang), ("setup",)
        elif confirm[0] == "begin":
            ask = t("confirm_unseen", lang).format(seats=spans(list(view.unseen)))
            label, sent = t("start", lang), ("start",)
        else:
            ask, label = f"#{confirm[1]}: {t('confirm_remove', lang)}", t("disqualify", lang)
        for i, r in enumerate(wrap(p, ask, 14, 195, True)[:3]):
            p.text(surf, r, (x, 422 + 17 * i), 14, RED, True, width=195)
        buttons.append(_button(p, surf, (x + 200, 428, 100, 40), sent, label))
    elif view.missing and not view.calling:
        # a card deal with roles nobody pressed for: tap a seat, then the role on his card;
        # with no seat tapped, a role's button calls it again. Every role keeps its place
        # (assigned ones stay, dimmed), so the same spot never means another role
        head = f"#{selected}" if selected is not None else t("call_again", lang)
        p.text(surf, head, (x, 144), 14, AMBER, True, width=w)
        for i, role in enumerate(view.deal_roles):
            rect = (x + (i % 3) * 99, 164 + (i // 3) * 34, 94, 30)
            if role not in view.missing:
                p.pg.draw.rect(surf, BUTTON, rect, 1, border_radius=6)
                p.text(surf, role_name(role, lang), (rect[0] + 47, rect[1] + 15), 14, DIM,
                       anchor="center", width=88)
                continue
            cmd: tuple[str, ...] = (("assign", str(selected), role) if selected is not None
                                    else ("call", role))
            buttons.append(_button(p, surf, rect, cmd, role_name(role, lang)))
    elif keys:
        # a command half typed on the keyboard (F, D or A, then Shift and seat keys): what
        # it is so far, and what it waits for
        so_far = t(keys[0], lang) + "".join(f" #{k}" for k in keys[1:])
        # (a big table's seats 13-30 have their simulator's F keys: said there)
        then = t("keys_confirm" if keys[0] == "disqualify" and len(keys) == 2 else
                 "keys_then_big" if len(seats) > 12 else "keys_then", lang)
        # (under the buttons, which end at 420: three rows fit to the panel's foot)
        for i, r in enumerate(wrap(p, f"{so_far}: {then}", 14, w, True)[:3]):
            p.text(surf, r, (x, 424 + 18 * i), 14, AMBER, True, width=w)
    elif selected is not None and pub.phase != "over":     # a finished game has no fouls
        sel = str(selected)
        seat_row: list[tuple[str, tuple[str, ...]]] = [
            ("foul", ("foul", sel)), ("disqualify", ("confirm", "disqualify", sel)),
            ("act", ("act", sel))]
        p.text(surf, f"#{selected}", (x, 436), 16, TEXT, True)
        for i, (key, cmd) in enumerate(seat_row):
            buttons.append(_button(p, surf, (x + 36 + i * 89, 428, 86, 40), cmd, t(key, lang)))
    return buttons


def ballot_rule(pub: PublicState) -> str:
    """The open ballot's rule, as the host reads it out: where a vote not cast goes, or how
    many yes votes remove all the tied; "" with no ballot open."""
    if pub.unused_to:
        return t("unused_vote", pub.lang).format(seat=pub.unused_to)
    if pub.yes_needed:
        return t("removeall_rule", pub.lang).format(n=pub.yes_needed)
    return t("city_vote_rule", pub.lang) if pub.vote_lost else ""


def name_lines(p: Painter, name: str, width: int, keep: int = 0) -> list[str]:
    """A player's name as it fits `width` at the labels' 14 px: one line, or two (broken
    between words, or inside a word too long for one), or, too long for two, shortened;
    never smaller type (a 20-letter name on a small table shrank to 9 px on one line).
    The first `keep` words (a button's seat number) are never shortened."""
    font = p.font(LABEL_SIZE)
    if font.size(name)[0] <= width:
        return [name]
    lines = wrap(p, name, LABEL_SIZE, width)
    if len(lines) <= 2 and all(font.size(line)[0] <= width for line in lines):
        return lines
    # one long word (or three short ones): cut where the first line is full, a hyphen
    # where the cut falls inside a word ("Мухаммада" over "ли Рахимов" read as two names)
    def head(k: int) -> str:
        inside = name[k - 1:k].isalpha() and name[k:k + 1].isalpha()
        return name[:k] + "-" if inside else name[:k].rstrip()
    # (where the two rows are nearest in width: a narrower block finds room beside a seat)
    cuts = [k for k in range(1, len(name)) if font.size(head(k))[0] <= width
            and font.size(name[k:].lstrip())[0] <= width]
    # a name's own hyphen first ("ალექსანდრ-" over "ე-კონსტანტი" broke a double name
    # beside its hyphen)
    cuts = [k for k in cuts if name[k - 1] == "-"] or cuts
    if cuts:
        cut = min(cuts, key=lambda k: max(font.size(head(k))[0],
                                          font.size(name[k:].lstrip())[0]))
        return [head(cut), name[cut:].lstrip()]
    # too long for two rows: as a club writes a long name on a full sheet, its first word
    # and the others' initials ("Константин К."), else its first word alone
    words = name.split()
    mine = keep + 1
    for short in (" ".join(words[:mine] + [w[0] + "." for w in words[mine:]]),
                  " ".join(words[:mine])):
        if short != name and len(name_lines(p, short, width)) <= 2 \
                and all(font.size(row)[0] <= width for row in name_lines(p, short, width)):
            return name_lines(p, short, width)
    # (one word no two rows hold: the first row full, the rest cut with "...")
    cut = max([k for k in range(1, len(name)) if font.size(head(k))[0] <= width] or [1])
    rest = name[cut:].lstrip()
    return [head(cut), rest if font.size(rest)[0] <= width else _cut(p, rest, width)]


def _cut(p: Painter, name: str, width: int = LABEL_W) -> str:
    """`name` cut with "..." to a label's width (what of it one row holds)."""
    font = p.font(LABEL_SIZE)
    k = len(name)
    while k > 1 and font.size(name[:k] + "\u2026")[0] > width:
        k -= 1
    return name[:k] + "\u2026"


def wrap(p: Painter, text: str, size: int, width: int, bold: bool = False) -> list[str]:
    """`text` in lines no wider than `width` at `size` (a word longer than that stays whole
    on its own line, and is fitted when drawn)."""
    font = p.font(size, bold)
    words, lines = text.split(), []
    while words:
        line = words.pop(0)
        while words and font.size(f"{line} {words[0]}")[0] <= width:
            line = f"{line} {words.pop(0)}"
        lines.append(line)
    return lines


def by_votes(totals: tuple[tuple[int, int], ...]) -> list[tuple[int, int]]:
    """A ballot's totals, most votes first (then by seat): the ones that decide are read
    first, and stay on a screen that has room for some."""
    return sorted(totals, key=lambda sn: (-sn[1], sn[0]))


def total_text(seat: int, votes: int, lang: str) -> str:
    """One nominee's total, as a club reads it out: "№2 — 11" (seat 0: the remove-all
    question's yes votes)."""
    return f"{t('in_favour', lang) if seat == 0 else f'№{seat}'} — {votes}"


def _button(p: Painter, surf: Any, rect: tuple[int, int, int, int], cmd: tuple[str, ...],
            label: str, size: int = 14) -> Button:
    p.pg.draw.rect(surf, BUTTON, rect, border_radius=6)
    rows = [label]
    if p.font(size).size(label)[0] > rect[2] - 6 and rect[3] >= 2 * size + 6:
        # two rows at its size rather than one shrunk ("მის ნაცვლად" was 12 px)
        rows = wrap(p, label, size, rect[2] - 6)
        if len(rows) > 2:
            rows = [label]
    mid = rect[1] + rect[3] // 2 - (size + 3) * (len(rows) - 1) // 2
    for i, row in enumerate(rows):
        p.text(surf, row, (rect[0] + rect[2] // 2, mid + (size + 3) * i), size, TEXT,
               anchor="center", width=rect[2] - 6)
    return Button(rect, cmd, label)


class Screen:
    """A view on a surface that redraws only when its model changed (at most 30 fps)."""

    FPS = 30

    def __init__(self, surface: Any, public: bool = False) -> None:
        self.surface = surface
        self.public = public
        self.painter = Painter()
        self.last: Any = None
        self.buttons: list[Button] = []
        self.draws = 0
        self.selected: int | None = None
        self.acting: int | None = None
        self.confirm: tuple[str, ...] | None = None   # a removal waiting for its second tap
        #: a command half typed on the host's keyboard (HostKeys.mode), shown as it goes
        self.keys: tuple[str, ...] = ()
        #: roles (and night choices) hidden unless the host holds his roles button down
        #: (`peek`): a player beside him can read a 7-inch panel; nothing goes to the table
        self.hide_roles = True
        self.peek = False

    def update(self, view: HostView) -> bool:
        """Draw if anything changed; True if it drew."""
        if self.last is not None and not self.public:
            ended = self.last[0].public.phase == "over" if isinstance(self.last[0], HostView) \
                else False
            if ended and view.public.phase != "over":
                # a new game: nothing tapped in the last one carries over (the seat bar
                # "#6 Foul / Disqualify / Act for" stayed up into the next game's deal)
                self.selected = self.acting = self.confirm = None
        model = (view.public if self.public else view, self.selected, self.acting,
                 self.confirm, self.public, self.hidden, self.keys)
        if model == self.last:
            return False
        self.last = model
        self.draws += 1
        if self.public:
            draw_public(self.painter, self.surface, view.public)
            self.buttons = []
        else:
            self.buttons = draw_host(self.painter, self.surface, view, self.selected,
                                     self.acting, self.confirm, self.hidden, self.keys)
        return True

    @property
    def hidden(self) -> bool:
        """Are roles and night choices hidden now (not peeked at)?"""
        return self.hide_roles and not self.peek

    def release(self) -> bool:
        """The finger (or the R key) let go: a peek at the roles ends. True if it did."""
        if not self.peek:
            return False
        self.peek = False
        return True

    def touch(self, pos: tuple[int, int]) -> tuple[str, ...] | None:
        """A tap: the command of the button under it (a seat selects it for its actions)."""
        for b in self.buttons:
            if b.hit(pos):
                if b.cmd[0] == "seat":
                    seat = int(b.cmd[1])
                    if self.acting is not None:          # act for that seat: this target
                        cmd, self.acting = ("act", str(self.acting), str(seat)), None
                        return cmd
                    self.confirm = None
                    self.selected = None if self.selected == seat else seat
                    return None
                if b.cmd[0] == "act" and len(b.cmd) == 2:
                    self.acting = int(b.cmd[1])          # the next seat tapped is the choice
                    self.selected = None
                    return None
                if b.cmd == ("roles",):
                    self.peek = True                  # till the finger lets go
                    return None
                if b.cmd[0] == "confirm":
                    if self.confirm == b.cmd[1:]:      # the same button again: it is meant
                        self.confirm = None
                        return ("start",) if b.cmd[1] == "begin" else b.cmd[1:]
                    self.confirm = b.cmd[1:]          # ask once more
                    self.selected = None
                    return None
                self.acting = None
                self.confirm = None
                if b.cmd[0] in ("foul", "disqualify", "assign"):
                    self.selected = None
                return b.cmd
        return None
