"""A player's name: as the setup screen keeps it (what the screen can show, its words
begun with a capital where its letters have one), and as it is drawn where its room is
short (on two rows, or shortened as a club writes a name on a full sheet)."""

from __future__ import annotations

import unicodedata

from ..limits import NAME_LIMIT
from .labels import LABEL_SIZE, LABEL_W
from .paint import Painter, wrap


def clean_name(text: str, limit: int = NAME_LIMIT) -> str:
    """A player's name as the screen can show it: no control, format (zero-width) or
    surrogate characters, no NUL, at most `limit` characters."""
    kept = "".join(c for c in str(text)
                   if unicodedata.category(c) not in ("Cc", "Cf", "Cs", "Co", "Cn"))
    return " ".join(kept.split())[:limit]


def capitals(name: str) -> str:
    """A name's words begun with a capital where its letters have one (Latin, Cyrillic; not
    Georgian: str.upper would give Mtavruli), as the on-screen keyboard types them: typed on
    a keyboard, "dilnoza yusupova" stood beside "Дмитрий Петров" on the sheet."""
    def first(word: str) -> str:
        if not word:                  # an emptied name (it closed the app: a host's trial)
            return word
        c = word[0]
        cased = unicodedata.name(c, "").startswith(("LATIN", "CYRILLIC"))
        return c.upper() + word[1:] if cased and c.islower() else word
    # (each part of a double name: "Анна-Мария", as a club writes it)
    return " ".join("-".join(first(part) for part in w.split("-")) for w in name.split(" "))


def big_name(p: Painter, name: str, rows: int, width: int) -> list[str]:
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
    return [cut_name(p, words[0], width)]


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
    # A name of more words than those kept is never cut inside one ("20. Максим Бел-" over
    # "оусов-Тарасенко", a trial's setup button): shortened below instead
    own = [k for k in cuts if name[k - 1] == "-"]
    cuts = own or (cuts if len(name.split()) <= keep + 1 else [])
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
    return [head(cut), rest if font.size(rest)[0] <= width else cut_name(p, rest, width)]


def cut_name(p: Painter, name: str, width: int = LABEL_W) -> str:
    """`name` cut with "..." to a label's width (what of it one row holds)."""
    font = p.font(LABEL_SIZE)
    k = len(name)
    while k > 1 and font.size(name[:k] + "\u2026")[0] > width:
        k -= 1
    return name[:k] + "\u2026"
