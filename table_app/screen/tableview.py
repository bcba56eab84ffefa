"""The table as both screens draw it: the seats round it with their numbers and labels,
its middle's title and clock, and the room's whole view (the public window): what's
happening, the nominees, a ballot's rule and its totals."""

from __future__ import annotations

import math
from typing import Any

from ..sound.catalogue import role_name
from ..words import known
from .labels import (
    BIG_END,
    BIG_END_W,
    BIG_HALF_W,
    BIG_LINE,
    BIG_SIDE_W,
    LABEL_SIZE,
    LABEL_W,
    LINE,
    MIDDLE_W,
    big_labels,
    big_places,
    seat_xy,
    small_labels,
)
from .model import PublicState, SeatView, t
from .names import big_name, cut_name
from .paint import (
    AMBER,
    BG,
    BLUE,
    DIM,
    GREEN,
    LABEL_OUT,
    MIN_SIZE,
    ORANGE,
    RED,
    ROLE_AWAKE,
    ROLE_TEXT,
    SEAT,
    SEAT_OUT,
    SEAT_PICKED,
    TABLE,
    TEXT,
    Button,
    Painter,
    wrap,
)


def seat_role(role: str, lang: str, big: bool) -> str:
    """A role's name beside its seat: at a big table its short form where the language has
    one ("Мирный" for "Мирный житель", too wide between 30 seats), else its name."""
    short = f"short_{role}"
    if big and known(short):
        return t(short, lang)
    return role_name(role, lang)


def foul_marks(fouls: int, lang: str) -> str:
    """A seat's fouls as its marks: one a foul up to three, then their number and one mark
    ("4Ф"): five marks ran out of a seat's circle into its neighbour's side."""
    mark = t("foul_mark", lang)
    return mark * fouls if fouls <= 3 else f"{fouls}{mark}"


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
            # one row a name, whole where it fits, else its first name and initials: one way
            # round the whole table (a side's two rows held "Рустам Каримов" beside a
            # "Светлана А." a row could not hold: a host read two rules)
            label_w = BIG_END_W if anchor == "center" else BIG_SIDE_W
            rows = [label] if host and sv.role else big_name(p, label, 1, label_w)
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
            cut = [] if one or first or not sv.name else [(cut_name(p, sv.name), colour)]
            # and before the role alone, the name cut as narrow as the role: a place for a
            # narrow block of two rows (a long name beside seat 3 of 11 lost its name
            # whenever the roles showed: "Доктор" alone)
            narrow = [(cut_name(p, sv.name, max(40, p.font(LABEL_SIZE).size(role[0])[0])),
                       colour)] if shown and sv.name else []
            rest = labels[len(rows):]
            for fewer in (one + rest, first + rest, cut and cut + rest,
                          narrow and narrow + rest, rest):
                if fewer and fewer not in later[sv.seat]:
                    later[sv.seat].append(fewer)
        if not sv.alive:
            d = int(18 * k)
            pg.draw.line(surf, RED, (cx - d, cy - d), (cx + d, cy + d), 3)
        if sv.fouls and big:
            # on the table's side of the seat: its label has the other (they ran into it)
            at, anchor = _inside(placed[sv.seat][2] if sv.seat in placed else "", cx, cy,
                                 r, centre)
            p.text(surf, foul_marks(sv.fouls, pub.lang), at, MIN_SIZE, ORANGE, True,
                   anchor)
        elif sv.fouls:
            marks = foul_marks(sv.fouls, pub.lang)
            if not sv.alive:
                # on the seat's colour: an out seat's red cross ran through its "5Ф"
                w, h = p.font(MIN_SIZE, True).size(marks)
                pg.draw.rect(surf, fill, (cx - w // 2, cy + 13 - h // 2 + 2, w, h - 4))
            p.text(surf, marks, (cx, cy + 13), MIN_SIZE, ORANGE, True, "center")
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
    def room_at(text: str, y: int, size: int, rows: int = 1) -> int:
        return _room(p, text, (y, size, rows), seats, places, r, lang) if big else MIDDLE_W

    over = centre[1] - 40
    _middle(p, surf, title, (centre[0], over), 24, TEXT, room_at(title, over, 24, -2), up=True)
    under = centre[1] + 40
    if pub.paused:
        paused = t("paused", lang)
        _middle(p, surf, paused, (centre[0], under), 20, ORANGE, room_at(paused, under, 20, 2))
    if pub.seconds_left is not None:
        m, s = divmod(pub.seconds_left, 60)
        colour = RED if pub.seconds_left <= 10 else TEXT
        clock = f"{m}:{s:02d}"
        # (between the fouls' marks: a long table's sides stand close, and three fouls
        # each on its middle seats left the clock some 80 px; smaller, down to 24 px)
        p.text(surf, clock, (centre[0], centre[1] + 8), 56, colour, True, "center",
               width=room_at("0:00", centre[1] + 8, 56), smallest=24)
    if pub.winner:
        won = f"{t('winner', lang)}: {t('win_' + pub.winner, lang)}"
        _middle(p, surf, won, (centre[0], under), 20, GREEN, room_at(won, under, 20, 2))
    return buttons


def _room(p: Painter, text: str, at: tuple[int, int, int], seats: tuple[SeatView, ...],
          places: dict[int, tuple[int, int]], r: int, lang: str) -> int:
    """A big table's middle's width for `text`, bold, at `at` (its row's middle, its size,
    and its rows a row apart: fewer than 0 upwards): between the fouls' marks of the seats
    level with its letters only (a foul at seat 15 of 20, a row below the clock, shrank
    it; two at seat 16 broke "Day 1" in two)."""
    y, size, rows = at
    top, bottom = p.ink(text, size, True)
    ys = [y + (size + 4) * i * (1 if rows > 0 else -1) for i in range(abs(rows))]
    m_top, m_bottom = p.ink(t("foul_mark", lang), MIN_SIZE, True)
    font = p.font(MIN_SIZE, True)
    widest = max((font.size(foul_marks(sv.fouls, lang))[0] + 6 for sv in seats if sv.fouls
                  and any(places[sv.seat][1] + m_bottom > row + top - 2
                          and places[sv.seat][1] + m_top < row + bottom + 2 for row in ys)),
                 default=0)
    return 2 * (BIG_HALF_W - r - 6 - widest)


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
        ranked = by_votes(pub.totals)
        # two columns of seven; past fourteen, the last row says what the rest got
        shown = ranked if len(ranked) <= 14 else ranked[:12]
        for i, (seat, n) in enumerate(shown):
            p.text(surf, total_text(seat, n, lang), (x + 150 * (i % 2), y + 26 + 24 * (i // 2)),
                   20)
        if len(shown) < len(ranked):
            p.text(surf, more_totals(ranked[12:], lang), (x, y + 26 + 24 * 6), 20, width=w)
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


def ballot_rule(pub: PublicState) -> str:
    """The open ballot's rule, as the host reads it out: where a vote not cast goes, or how
    many yes votes remove all the tied; "" with no ballot open."""
    if pub.unused_to:
        return t("unused_vote", pub.lang).format(seat=pub.unused_to)
    if pub.yes_needed:
        return t("removeall_rule", pub.lang).format(n=pub.yes_needed)
    return t("city_vote_rule", pub.lang) if pub.vote_lost else ""


def by_votes(totals: tuple[tuple[int, int], ...]) -> list[tuple[int, int]]:
    """A ballot's totals, most votes first (then by seat): the ones that decide are read
    first, and stay on a screen that has room for some."""
    return sorted(totals, key=lambda sn: (-sn[1], sn[0]))


def more_totals(rest: list[tuple[int, int]], lang: str) -> str:
    """The totals a screen has no room for, in words: how many, and the most any of them
    got (a bare "+2" at the end of the host's totals left him guessing whose they were)."""
    return t("more_totals", lang).format(n=len(rest), most=max(n for _, n in rest))


def total_text(seat: int, votes: int, lang: str) -> str:
    """One nominee's total, as a club reads it out: "№2 — 11" (seat 0: the remove-all
    question's yes votes)."""
    return f"{t('in_favour', lang) if seat == 0 else f'№{seat}'} — {votes}"
