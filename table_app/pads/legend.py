"""The ring legend: every picture a player may see on his ring, drawn as the rings draw it,
for the printable page in docs/ring-legend.md (a test renders it)."""

from __future__ import annotations

from typing import Any

from .rings import CheckShown, Countdown, Dark, Fault, Pick, Picture, RoleCard, Vote, YesNo, render

#: (picture, what it says), in the order a player meets them. The asker sits at seat 1.
LEGEND: tuple[tuple[Picture, str], ...] = (
    (Dark(), "Dark: you are asked nothing (most of the night, for most seats)."),
    (RoleCard("city", 2), "Your role (hold the button on your turn): side colour on top, "
                          "a white mark for the role."),
    (Pick(frozenset({2, 5, 9}), cursor=5), "Asked to choose: the seats you may choose glow "
                                           "dim; the white one is where your cursor is."),
    (Pick(frozenset({2, 5, 9}), cursor=9, chosen=5), "Chosen (green) while the cursor moves "
                                                     "on: a new hold changes your choice."),
    (Pick(frozenset({2, 5, 9}), cursor=5, chosen=5), "Chosen and the cursor on it: green."),
    (Pick(frozenset(range(1, 13))), "The whole ring dim, none white: any seat may be "
                                    "chosen, and your cursor is on nobody; press to move it."),
    (Pick(frozenset({2, 5, 9})), "Cursor on nobody (past the last seat): a hold here "
                                 "chooses nothing."),
    (Vote(frozenset({4, 7}), cursor=4), "The blind vote: the nominees glow amber; white is "
                                        "your cursor."),
    (Vote(frozenset({4, 7}), cursor=4, chosen=7), "Your ballot is cast (green)."),
    (YesNo(cursor=1), "A yes/no question: green is yes, red is no; white is your cursor."),
    (YesNo(cursor=2, chosen=1), "You answered yes."),
    (CheckShown(8, "red"), "A check: seat 8 is red (the city)."),
    (CheckShown(8, "black"), "A check: seat 8 is black (blue light)."),
    (CheckShown(8, "detective"), "The Don's search: found him at seat 8 (green). The "
                                 "Hobo's morning: seat 8 came to kill where he went."),
    (CheckShown(8, "no"), "The Don's search: not at seat 8 (amber). The Hobo's morning: "
                          "nobody came to kill at seat 8, where he went."),
    (Countdown(40, 60), "Your speech: the ring counts your time down (blinks in the last "
                        "10 s)."),
    (Fault(), "This pad is faulty (a stuck button, a lost cable): tell the host."),
)


#: a big table's rings (more seats than pixels): (picture, seats, the moment drawn, what it
#: says); the asker at seat 1, rings of 12 pixels at a table of 30
BIG_TABLE: tuple[tuple[Picture, int, float, str], ...] = (
    (Pick(frozenset(range(1, 31)), cursor=1), 30, 0.1,
     "A big table: two or three neighbours share a light. Your cursor flashes its seat's "
     "place in it, clockwise: once for the first seat, twice for the second, three times "
     "for the third; a light of one seat stays steady."),
    (Pick(frozenset(range(1, 31)), cursor=2, chosen=1), 30, 0.1,
     "Your cursor (white, flashing twice: seat 2) beside your choice (green: seat 1) on one "
     "light: both show."),
    (Pick(frozenset(range(11, 16)), part=True), 30, 0.1,
     "Many seats to choose from at a big table: two steps. First a part of the table: its "
     "seats blink; a short press moves to the next part, a hold opens it."),
    (Pick(frozenset(range(11, 16)), cursor=12), 30, 0.5,
     "The part is open: its seats glow, your cursor is white; choose as usual. Past its last "
     "seat is nobody: a hold there chooses nobody and goes back to the parts."),
)


def draw(surface: Any, size: tuple[int, int] = (900, 1200)) -> None:
    """The legend on a pygame surface: a ring and a line of text for each picture."""
    import math

    import pygame
    pygame.font.init()
    font = pygame.font.Font(None, 24)
    surface.fill((250, 250, 250))
    rows = [(pic, 12, 0.0, words) for pic, words in LEGEND] + list(BIG_TABLE)
    row = size[1] // len(rows)
    for i, (pic, table, t, words) in enumerate(rows):
        cx, cy = 60, i * row + row // 2
        pygame.draw.circle(surface, (40, 42, 50), (cx, cy), row // 2 - 4)
        for k, lit in enumerate(render(pic, t, table=table)):
            # as an eye sees a lit pixel: a dim seat (64 of 255) reads as a grey glow, not
            # as dark as the ring's case (on paper it was lost in it)
            colour = tuple(round(255 * (c / 255) ** 0.5) for c in lit)
            a = -math.pi / 2 + 2 * math.pi * k / 12
            x = cx + int((row // 2 - 14) * math.cos(a))
            y = cy + int((row // 2 - 14) * math.sin(a))
            pygame.draw.circle(surface, colour if colour != (0, 0, 0) else (22, 22, 26),
                               (x, y), 5)
        lines = _wrap(words, 95)
        for n, line in enumerate(lines):
            surface.blit(font.render(line, True, (20, 20, 20)),
                         (130, cy - 9 * len(lines) + 18 * n))


def _wrap(words: str, width: int) -> list[str]:
    out = [""]
    for w in words.split():
        if out[-1] and len(out[-1]) + 1 + len(w) > width:
            out.append(w)
        else:
            out[-1] = f"{out[-1]} {w}".strip()
    return out
