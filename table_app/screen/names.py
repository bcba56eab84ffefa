"""A player's name as the setup screen keeps it: what the screen can show, and its words
begun with a capital where its letters have one."""

from __future__ import annotations

import unicodedata


def clean_name(text: str, limit: int = 24) -> str:
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
    return " ".join(first(w) for w in name.split(" "))
