"""The screens' paint: the panel's size and colours, the fonts, text that never goes under
14 px (a box it does not fit is a layout to mend), and the touch buttons."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

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

    def ink(self, s: str, size: int, bold: bool = False) -> tuple[int, int]:
        """How far above and below the middle of its box a text's letters reach (the box
        has room for the font's tallest and deepest letters: "0:25" fills two thirds)."""
        img = self.font(size, bold).render(s, True, TEXT)
        box, h = img.get_bounding_rect(), img.get_height()
        return box.top - h // 2, box.bottom - h // 2

    def text(self, surf: Any, s: str, pos: tuple[int, int], size: int = 16,
             colour: tuple[int, int, int] = TEXT, bold: bool = False,
             anchor: str = "topleft", width: int | None = None,
             smallest: int | None = None) -> Any:
        """Draw `s`; with a `width`, the text is fitted to it: a smaller size first (down to
        `smallest`, else two thirds), then cut with an ellipsis, which counts as an overflow."""
        if self.drawn is not None:
            self.drawn.append(s)
        font = self.font(size, bold)
        if width is not None and font.size(s)[0] > width:
            asked = size
            smallest = smallest or max(9, size * 2 // 3)
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


def button(p: Painter, surf: Any, rect: tuple[int, int, int, int], cmd: tuple[str, ...],
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


def dimmed(p: Painter, surf: Any, rect: tuple[int, int, int, int], label: str) -> None:
    """A button that means nothing now, kept in its place (an outline, its label dim): no
    touch target, and nothing else on the screen moves."""
    p.pg.draw.rect(surf, BUTTON, rect, 1, border_radius=6)
    p.text(surf, label, (rect[0] + rect[2] // 2, rect[1] + rect[3] // 2), 14, DIM,
           anchor="center", width=rect[2] - 6)
