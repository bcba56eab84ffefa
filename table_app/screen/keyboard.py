"""The setup screen's on-screen keyboard (a club's Pi has a touch panel and no keyboard):
the name being typed, then the keys of its language's layout."""

from __future__ import annotations

from typing import Any, Protocol

from ..limits import NAME_LIMIT
from ..words import language, t
from .paint import AMBER, BG, DIM, SIZE, Button, Painter, button


class Typing(Protocol):
    """What the keyboard reads of the setup screen: whose name is typed, and how."""
    players: int
    lang: str
    names: dict[int, str]
    editing: int | None
    keyboard: str                 # its layout's language ("": the screen's)
    too_long: bool                # a letter past the longest name was refused

#: where the on-screen keyboard begins: the name being typed, then four rows of keys
KEYS_TOP = SIZE[1] - 4 * 48 - 40


def draw_keyboard(p: Painter, surf: Any, s: Typing) -> list[Button]:
    """The on-screen keyboard over the screen's lower half, the name being typed above it."""
    top = KEYS_TOP
    p.pg.draw.rect(surf, BG, (0, top - 6, SIZE[0], SIZE[1] - top + 6))
    name = s.names.get(s.editing or 0, "")
    who = t("host_name", s.lang) + ":" if s.editing == 0 else f"{s.editing}."
    p.text(surf, f"{who} {name}_", (24, top), 20, AMBER, True, width=SIZE[0] - 48 - 300)
    # how long a name may be, always in sight; past it, said (a letter was refused)
    if s.too_long:
        p.text(surf, t("name_limit", s.lang).format(n=NAME_LIMIT), (SIZE[0] - 24, top + 3),
               15, AMBER, True, "topright", width=300)
    else:
        p.text(surf, f"{len(name)}/{NAME_LIMIT}", (SIZE[0] - 24, top + 3), 16, DIM,
               anchor="topright")
    buttons = []
    # the touch panel's keyboard (a club's Pi has no keyboard): its language's layout,
    # letters only (a name needs no more)
    rows = language(s.keyboard or s.lang).keyboard
    for r, keys in enumerate(rows):
        keys = tuple(keys)
        kw = min(64, (SIZE[0] - 16) // len(keys))
        x0 = (SIZE[0] - kw * len(keys)) // 2
        for i, key in enumerate(keys):
            buttons.append(button(p, surf, (x0 + i * kw + 2, top + 34 + r * 48, kw - 4, 44),
                                   ("key", key), key, 22))
    y = top + 34 + 3 * 48
    nxt = s.editing % s.players + 1 if s.editing else 0
    for rect, cmd, label in (((8, y, 150, 44), ("layout",), t("lang_" + (s.keyboard or s.lang),
                                                              s.lang)),
                             ((166, y, 170, 44), ("key", " "), "␣"),
                             # (the host's own name has no next seat)
                             *((((344, y, 72, 44), ("next",), f"{nxt} →"),) if nxt else ()),
                             ((424, y, 110, 44), ("clear",), t("clear_name", s.lang)),
                             ((542, y, 112, 44), ("key", "\b"), "⌫"),
                             ((662, y, 130, 44), ("key", "\r"), "OK")):
        buttons.append(button(p, surf, rect, cmd, label))
    return buttons
