"""The setup screen: format, players, language, dealing, and the players' names by seat
(remembered from earlier games)."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from .. import limits
from ..paths import config_dir, write_private
from ..rules import BUILTIN_FORMATS, Format, find_format
from ..words import LANGS, known, language, t
from .keyboard import KEYS_TOP, draw_keyboard
from .names import capitals, clean_name, name_lines
from .paint import AMBER, BG, BUTTON, DIM, SIZE, TEXT, Button, Painter, button

#: the longest name a seat takes (a letter past it is refused, and the setup screen says so
#: as he types: "КонстантинКонс" went onto a protocol sheet unannounced);
#: the records' commands take the same (table_app.limits)
NAME_LIMIT = limits.NAME_LIMIT
#: name buttons on one page of the setup screen
NAMES_PAGE = 12


def choices_path() -> Path:
    """Where the setup screen's last choices are remembered (format, players, language,
    dealing): a club plays the same game night after night."""
    return config_dir() / "last-game.json"


def load_choices(path: Path | None = None) -> dict[str, str | int]:
    """The last game's choices, each only if it is one the screen can offer (a broken or
    old file must not stop the table: what is wrong in it is left out)."""
    try:
        raw = json.loads((path or choices_path()).read_text("utf-8"))
    except (OSError, ValueError, RecursionError):
        return {}
    if not isinstance(raw, dict):
        return {}
    out: dict[str, str | int] = {}
    if isinstance(raw.get("format"), str):
        out["format"] = raw["format"]
    if isinstance(raw.get("players"), int) and 1 <= raw["players"] <= 30:
        out["players"] = raw["players"]
    if raw.get("lang") in LANGS:
        out["lang"] = raw["lang"]
    if raw.get("deal") in ("app", "cards"):
        out["deal"] = raw["deal"]
    return out


def save_choices(setup: Setup, path: Path | None = None) -> None:
    write_private(path or choices_path(), json.dumps(
        {"format": setup.fmt, "players": setup.players, "lang": setup.lang,
         "deal": setup.deal}))


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
        # (seat 0: the host's own name, for the protocol sheet)
        if 0 <= seat <= 30 and isinstance(v, str) and (name := clean_name(v)):
            out[seat] = name
    return out


def save_names(names: dict[int, str], path: Path | None = None) -> None:
    write_private(path or names_path(),
                  json.dumps({str(k): v for k, v in sorted(names.items())}, ensure_ascii=False))


@dataclass
class Setup:
    """The choices of a new game, changed by taps and typing."""

    fmt: str = "yakuza"
    players: int = 12
    lang: str = "en"
    deal: str = "app"
    names: dict[int, str] = field(default_factory=dict)
    editing: int | None = None
    keyboard: str = ""          # the on-screen keyboard's layout ("" until a name is edited)
    done: bool = False
    check: bool = False         # the host asked for the table's check, not a game
    #: what the host must know about how the table opened: (a text's key, the detail)
    notices: list[tuple[str, str]] = field(default_factory=list)
    #: the table's pads (12 a controller): no game of more players can start
    seats: int = 12
    #: which twelve seats' names show (a big table's are on pages: 30 touch-sized name
    #: buttons do not fit a 7-inch panel)
    page: int = 0
    #: the name being typed reached NAME_LIMIT and a letter was refused (the screen says so)
    too_long: bool = False
    #: the club's own formats (its formats folder's), offered after the built-in ones
    house: dict[str, Format] = field(default_factory=dict)

    def format(self) -> Format:
        """The format chosen (a built-in one, or the club's own)."""
        return self.house[self.fmt] if self.fmt in self.house else find_format(self.fmt)

    def formats(self) -> list[str]:
        """The formats the Format button goes through, in turn."""
        return list(BUILTIN_FORMATS) + sorted(set(self.house) - set(BUILTIN_FORMATS))

    def limits(self) -> tuple[int, int]:
        f = self.format()
        return f.min_players, min(self.seats, f.max_players)

    def command(self, cmd: tuple[str, ...]) -> None:
        name = cmd[0]
        if name == "format":
            ids = self.formats()
            i = ids.index(self.fmt) if self.fmt in ids else -1
            self.fmt = ids[(i + 1) % len(ids)]
            lo, hi = self.limits()
            self.players = max(lo, min(hi, self.players))
        elif name in ("fewer", "more"):
            lo, hi = self.limits()
            self.players = max(lo, min(hi, self.players + (1 if name == "more" else -1)))
        elif name == "page":
            self.page = int(cmd[1])
        elif name == "language":
            self.lang = LANGS[(LANGS.index(self.lang) + 1) % len(LANGS)]
        elif name == "dealing":
            self.deal = "cards" if self.deal == "app" else "app"
        elif name in ("name", "host"):
            self.end_name()
            self.editing = int(cmd[1]) if name == "name" else 0      # 0: the host's
            self.keyboard = self.keyboard or self.lang
        elif name == "key":
            self.tap_key(cmd[1])
        elif name == "layout":
            self.keyboard = LANGS[(LANGS.index(self.keyboard or self.lang) + 1) % len(LANGS)]
        elif name == "next" and self.editing:
            # the name done, the next seat's at once: twenty names were twenty taps on
            # their seats between the keyboard's OKs
            seat = self.editing % self.players + 1
            self.end_name()
            self.editing = seat
            self.page = (seat - 1) // NAMES_PAGE
        elif name == "clear" and self.editing is not None:
            # last week's name gone at one tap (it took a ⌫ a letter)
            self.names[self.editing] = ""
            self.too_long = False
        elif name == "start":
            # two seats of one name would be one player in the records (his games, wins
            # and points counted twice): the screen asks for them told apart first
            self.done = not self.name_twins()
        elif name == "check":
            self.check = self.done = True
        # a page past the players there are now shows the last one
        self.page = max(0, min(self.page, (self.players - 1) // NAMES_PAGE))

    def name_twins(self) -> bool:
        """Name the seats that share a name in a notice, first on the screen (none: no
        notice); whether there are any."""
        self.notices = [n for n in self.notices if n[0] != "same_names"]
        twins = self.twins()
        if twins:
            self.notices.insert(0, ("same_names", "; ".join(
                f"{', '.join(map(str, seats))}: {self.names[seats[0]]}" for seats in twins)))
        return bool(twins)

    def twins(self) -> list[list[int]]:
        """The seats in play that share a name (letter case and spaces aside), each group
        in seat order."""
        seats: dict[str, list[int]] = {}
        for seat in range(1, self.players + 1):
            name = " ".join(self.names.get(seat, "").split()).casefold()
            if name:
                seats.setdefault(name, []).append(seat)
        return [group for group in seats.values() if len(group) > 1]

    def type(self, key: str) -> None:
        """Typing edits the name of the seat being edited; Enter ends it. `key` is a
        character, or the text an input method composed (SDL's text input: Georgian or
        Cyrillic typed through one arrives there, not as key presses)."""
        if self.editing is None:
            return
        current = self.names.get(self.editing, "")
        if key == "\r":
            self.end_name()
        elif key == "\b":
            self.names[self.editing] = current[:-1]
            self.too_long = False
        elif key and clean_name(key.replace(" ", "x"), len(key)) == key.replace(" ", "x"):
            # a space between words (the keyboard's, the touch keyboard's), never two in a
            # row or one first
            text = " ".join((current + key).split()) + (" " if key.endswith(" ") else "")
            text = text.lstrip()
            self.too_long = len(text.rstrip()) > NAME_LIMIT
            self.names[self.editing] = text[:NAME_LIMIT]

    def end_name(self) -> None:
        """The name being typed is done: without a space at its end (none: no name)."""
        if self.editing is not None:
            name = capitals(clean_name(self.names.get(self.editing, ""), NAME_LIMIT))
            if name:
                self.names[self.editing] = name
            else:
                self.names.pop(self.editing, None)
            if any(n[0] == "same_names" for n in self.notices):
                # a notice of twins told apart stayed on the screen until the next Start
                self.name_twins()
        self.editing = None
        self.too_long = False

    def tap_key(self, key: str) -> None:
        """A key of the on-screen keyboard: a name's words begin with a capital, in a
        language that has them (not Georgian: str.upper would give Mtavruli)."""
        current = self.names.get(self.editing, "") if self.editing is not None else ""
        # (a double name's second part too: "Анна-мария" could not be typed otherwise, the
        # keyboard has no Shift)
        if len(key) and key not in ("\r", "\b", " ") and language(self.keyboard).capitals and (
                not current or current.endswith((" ", "-"))):
            key = key[:1].upper() + key[1:]
        self.type(key)


def format_title(fmt_id: str, lang: str, house: dict[str, Format] | None = None) -> str:
    """A format's name in the screen's language (a club's own format: its file's title)."""
    if house and fmt_id in house:
        return house[fmt_id].title
    key = f"format_{fmt_id}"
    return t(key, lang) if known(key) else find_format(fmt_id).title


def draw_setup(p: Painter, surf: Any, s: Setup) -> list[Button]:
    surf.fill(BG)
    lang = s.lang
    p.text(surf, t("setup", lang), (24, 16), 26, TEXT, True, width=440)
    rows = [("format", format_title(s.fmt, lang, s.house)), ("players", str(s.players)),
            ("language", t("lang_" + s.lang, lang)), ("dealing", t("deal_" + s.deal, lang)),
            ("host_name", s.names.get(0, "") + ("_" if s.editing == 0 else ""))]
    buttons = []
    for i, (key, value) in enumerate(rows):
        y = 70 + i * 48
        p.text(surf, t(key, lang), (24, y + 10), 18, width=140)
        if key == "host_name":
            # the host's own name, on every protocol sheet (typed as a player's)
            buttons.append(button(p, surf, (170, y, 290, 40), ("host",), value))
        elif key == "players":
            buttons.append(button(p, surf, (170, y, 44, 40), ("fewer",), "-"))
            p.text(surf, value, (240, y + 8), 22, TEXT, True)
            buttons.append(button(p, surf, (290, y, 44, 40), ("more",), "+"))
        else:
            buttons.append(button(p, surf, (170, y, 290, 40), (key,), value))
    pages = (s.players - 1) // NAMES_PAGE + 1
    if pages > 1:
        # a big table's names, twelve to a page: a tab a page, the shown one lit
        for k in range(pages):
            first, last = k * NAMES_PAGE + 1, min(s.players, (k + 1) * NAMES_PAGE)
            rect = (490 + k * 100, 16, 94, 40)
            if k == s.page:
                p.pg.draw.rect(surf, AMBER, (rect[0] - 2, rect[1] - 2, rect[2] + 4,
                                             rect[3] + 4), border_radius=8)
            buttons.append(button(p, surf, rect, ("page", str(k)), f"{first}-{last}"))
    first = s.page * NAMES_PAGE + 1
    # with notices the names' rows close up, to leave the notices room under them at 14 px
    pitch = 46 if s.notices else 56
    for seat in range(first, min(s.players, first + NAMES_PAGE - 1) + 1):
        col, row = divmod(seat - first, 6)
        x, y = 490 + col * 150, 70 + row * pitch
        label = f"{seat}. {s.names.get(seat, '')}" + ("_" if s.editing == seat else "")
        buttons.append(_name_button(p, surf, (x, y, 140, 40), ("name", str(seat)), label))
    if s.editing is not None:
        # the keyboard covers the lower half: what it covers cannot be tapped, and a row it
        # would cut goes whole, each column's from its own first row cut (half a "Dealing"
        # row stood over the name being typed)
        edge = KEYS_TOP - 6
        for x0, x1 in ((0, 476), (476, SIZE[0])):
            cut = [b.rect[1] for b in buttons
                   if x0 <= b.rect[0] < x1 and b.rect[1] < edge < b.rect[1] + b.rect[3]]
            if cut:
                p.pg.draw.rect(surf, BG, (x0, min(cut) - 4, x1 - x0, edge - min(cut) + 4))
        keys = draw_keyboard(p, surf, s)
        return keys + [b for b in buttons if b.rect[1] + b.rect[3] <= edge]
    buttons.append(button(p, surf, (24, SIZE[1] - 70, 200, 50), ("start",), t("start", lang)))
    buttons.append(button(p, surf, (240, SIZE[1] - 70, 200, 50), ("check",),
                           t("check_table", lang)))
    # below the choices, then beside Start and Check: the room the screen has left
    _notices(p, surf, s.notices, lang, [(24, 314, 436, 90),
                                       (456, 348, SIZE[0] - 456 - 16, SIZE[1] - 348 - 4)])
    return buttons


def _name_button(p: Painter, surf: Any, rect: tuple[int, int, int, int],
                 cmd: tuple[str, ...], label: str) -> Button:
    """A seat's name button: a name too long for one row at 14 px takes two (a long word
    broken where it must), never smaller type."""
    font = p.font(14)
    width = rect[2] - 8
    if font.size(label)[0] <= width:
        return button(p, surf, rect, cmd, label)
    # broken as a label beside a seat is: between words, at a name's own hyphen, else with
    # a hyphen of its own (letter by letter, with the rest joined by a space, gave
    # "ალექსანდრე-კონსტ ანტი")
    # (a name too long for two rows: "3. Konstantin K.", its seat's number kept)
    rows = name_lines(p, label, width, keep=1)
    if len(rows) == 1:
        return Button(button(p, surf, rect, cmd, rows[0]).rect, cmd, label)
    p.pg.draw.rect(surf, BUTTON, rect, border_radius=6)
    top = rect[1] + rect[3] // 2 - 9
    for i, row in enumerate(rows):
        p.text(surf, row, (rect[0] + rect[2] // 2, top + 18 * i), 14, TEXT, anchor="center",
               width=width)
    return Button(rect, cmd, label)


def handle(setup: Setup, ev: Any, pg: Any, buttons: list[Button]) -> None:
    """One event on the setup screen: a tap, a key (Enter, Backspace), or text typed (a
    keyboard's, or an input method's: read from SDL's text-input events, so a name typed
    in Georgian or Cyrillic through one is not lost)."""
    if ev.type == pg.MOUSEBUTTONDOWN and ev.button == 1:
        for b in buttons:
            if b.hit(ev.pos):
                setup.command(b.cmd)
                return
    elif ev.type == pg.TEXTINPUT:
        setup.type(ev.text)
    elif ev.type == pg.KEYDOWN:
        # (Escape closes the keyboard as its OK does, the name kept as typed: a trial host
        # found only OK)
        key = "\r" if ev.key in (pg.K_RETURN, pg.K_KP_ENTER, pg.K_ESCAPE) else \
            "\b" if ev.key == pg.K_BACKSPACE else ""
        if ev.key == pg.K_TAB and setup.editing:
            setup.command(("next",))                # as the keyboard's "3 →"
        elif setup.editing is not None:
            setup.type(key)
        elif key == "\r" and ev.key != pg.K_ESCAPE:
            setup.command(("start",))


def _notices(p: Painter, surf: Any, notices: list[tuple[str, str]], lang: str,
             boxes: list[tuple[int, int, int, int]]) -> None:
    """Each notice's headline in the screen's language, its detail (a file, a key) below
    it in small type, wrapped; a notice that does not fit what is left of a box starts the
    next one, and what does not fit in the last is left out."""
    free = list(boxes)
    x, y, w, h = free.pop(0)
    bottom = y + h
    for key, detail in notices:
        parts = ((15, AMBER, t(key, lang), True), (14, DIM, detail, False))
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
