"""The setup screen: format, players, language, dealing, and the players' names by seat
(remembered from earlier games)."""

from __future__ import annotations

import json
import unicodedata
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..paths import config_dir
from ..rules import BUILTIN_FORMATS, find_format
from .model import t
from .render import AMBER, BG, DIM, SIZE, TEXT, Button, Painter, _button

LANGS = ("ka", "en", "uz", "ru")


def clean_name(text: str, limit: int = 24) -> str:
    """A player's name as the screen can show it: no control, format (zero-width) or
    surrogate characters, no NUL, at most `limit` characters."""
    kept = "".join(c for c in str(text)
                   if unicodedata.category(c) not in ("Cc", "Cf", "Cs", "Co", "Cn"))
    return " ".join(kept.split())[:limit]


def names_path() -> Path:
    """Where the players' names of earlier games are remembered."""
    return config_dir() / "names.json"


def load_names(path: Path | None = None) -> dict[int, str]:
    """The names remembered from earlier games; anything else in the file is left out (a
    broken file must not stop the table)."""
    try:
        raw = json.loads((path or names_path()).read_text("utf-8"))
    except (OSError, ValueError, RecursionError):     # (brackets nested thousands deep)
        return {}
    if not isinstance(raw, dict):
        return {}
    out: dict[int, str] = {}
    for k, v in raw.items():
        try:
            seat = int(k)
        except ValueError:
            continue
        if 1 <= seat <= 30 and isinstance(v, str) and (name := clean_name(v)):
            out[seat] = name
    return out


def save_names(names: dict[int, str], path: Path | None = None) -> None:
    path = path or names_path()
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps({str(k): v for k, v in sorted(names.items())}, ensure_ascii=False))


@dataclass
class Setup:
    """The choices of a new game, changed by taps and typing."""

    fmt: str = "yakuza"
    players: int = 12
    lang: str = "en"
    deal: str = "app"
    names: dict[int, str] = field(default_factory=dict)
    editing: int | None = None
    done: bool = False
    #: what the host must know about how the table opened: (a text's key, the detail)
    notices: list[tuple[str, str]] = field(default_factory=list)

    def limits(self) -> tuple[int, int]:
        f = find_format(self.fmt)
        return f.min_players, min(12, f.max_players)

    def command(self, cmd: tuple[str, ...]) -> None:
        name = cmd[0]
        if name == "format":
            i = BUILTIN_FORMATS.index(self.fmt)
            self.fmt = BUILTIN_FORMATS[(i + 1) % len(BUILTIN_FORMATS)]
            lo, hi = self.limits()
            self.players = max(lo, min(hi, self.players))
        elif name in ("fewer", "more"):
            lo, hi = self.limits()
            self.players = max(lo, min(hi, self.players + (1 if name == "more" else -1)))
        elif name == "language":
            self.lang = LANGS[(LANGS.index(self.lang) + 1) % len(LANGS)]
        elif name == "dealing":
            self.deal = "cards" if self.deal == "app" else "app"
        elif name == "name":
            self.editing = int(cmd[1])
        elif name == "start":
            self.done = True

    def type(self, key: str) -> None:
        """Typing edits the name of the seat being edited; Enter ends it."""
        if self.editing is None:
            return
        current = self.names.get(self.editing, "")
        if key == "\r":
            self.editing = None
        elif key == "\b":
            self.names[self.editing] = current[:-1]
        elif key and clean_name(key) == key and len(current) < 14:
            self.names[self.editing] = current + key


def draw_setup(p: Painter, surf: Any, s: Setup) -> list[Button]:
    surf.fill(BG)
    lang = s.lang
    p.text(surf, t("setup", lang), (24, 16), 26, TEXT, True, width=440)
    rows = [("format", find_format(s.fmt).title), ("players", str(s.players)),
            ("language", t("lang_" + s.lang, lang)), ("dealing", t("deal_" + s.deal, lang))]
    buttons = []
    for i, (key, value) in enumerate(rows):
        y = 70 + i * 56
        p.text(surf, t(key, lang), (24, y + 10), 18, width=140)
        if key == "players":
            buttons.append(_button(p, surf, (170, y, 44, 40), ("fewer",), "-"))
            p.text(surf, value, (240, y + 8), 22, TEXT, True)
            buttons.append(_button(p, surf, (290, y, 44, 40), ("more",), "+"))
        else:
            buttons.append(_button(p, surf, (170, y, 290, 40), (key,), value))
    for seat in range(1, s.players + 1):
        col, row = divmod(seat - 1, 6)
        x, y = 490 + col * 150, 70 + row * 56
        label = f"{seat}. {s.names.get(seat, '')}" + ("_" if s.editing == seat else "")
        buttons.append(_button(p, surf, (x, y, 140, 40), ("name", str(seat)), label))
    buttons.append(_button(p, surf, (24, SIZE[1] - 70, 200, 50), ("start",), t("start", lang)))
    # below the choices, then beside Start: the room the screen has left
    _notices(p, surf, s.notices, lang, [(24, 292, 436, 98),
                                       (240, 398, SIZE[0] - 240 - 16, SIZE[1] - 398 - 4)])
    return buttons


def _notices(p: Painter, surf: Any, notices: list[tuple[str, str]], lang: str,
             boxes: list[tuple[int, int, int, int]]) -> None:
    """Each notice's headline in the screen's language, its detail (a file, a key) below
    it in small type, wrapped; a notice that does not fit what is left of a box starts the
    next one, and what does not fit in the last is left out."""
    free = list(boxes)
    x, y, w, h = free.pop(0)
    bottom = y + h
    for key, detail in notices:
        parts = ((15, AMBER, t(key, lang), True), (12, DIM, detail, False))
        todo = _lines(p, parts, w)
        if y + sum(line[-1] for line in todo) > bottom and free:
            x, y, w, h = free.pop(0)
            bottom = y + h
            todo = _lines(p, parts, w)
        for size, colour, line, bold, step in todo:
            if y + step > bottom:
                return
            p.text(surf, line, (x, y), size, colour, bold, width=w)
            y += step


def _lines(p: Painter, parts: Any, width: int) -> list[tuple[Any, ...]]:
    """(size, colour, text, bold, line height) of each line the parts wrap into."""
    out = []
    for size, colour, text, bold in parts:
        font = p.font(size, bold)
        words = text.split()
        while words:
            line, words = fit(words, lambda s, f=font: f.size(s)[0], width)
            out.append((size, colour, line, bold, font.get_linesize()))
    return out


def fit(words: list[str], width_of: Any, width: int) -> tuple[str, list[str]]:
    """The first line of `words` no wider than `width` (at least one word: a longer word is
    cut when drawn), and the words left for the next."""
    line = words[0]
    for i, word in enumerate(words[1:], 1):
        if width_of(f"{line} {word}") > width:
            return line, words[i:]
        line = f"{line} {word}"
    return line, []
