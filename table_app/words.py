"""The words the host and the room read, in every language: the screens' texts and the
host's notes (`screen/texts.toml`), role names from the voice's catalogue.

A note is kept as a key and its fields, not as a sentence: the host's screen writes it in
the table's language when it shows it (so a game switched to Russian shows its earlier notes
in Russian too). A field whose name ends in `_t` holds a word to translate (a role, a check's
result); the others are shown as they are (seat numbers, an engine's detail).
"""

from __future__ import annotations

import tomllib
from functools import cache
from pathlib import Path

# read by path, not as a package resource: the table's core needs the words, and importing
# the screen package would import the table (a cycle)
TEXTS = Path(__file__).resolve().parent / "screen" / "texts.toml"


@cache
def texts() -> dict[str, dict[str, str]]:
    """Every text key -> {language: text}."""
    return {k: dict(v) for k, v in tomllib.loads(TEXTS.read_text("utf-8")).items()}


def t(key: str, lang: str) -> str:
    """A screen text in `lang` (English where a language lacks it; the key where all do)."""
    entry = texts().get(key, {})
    return entry.get(lang) or entry.get("en") or key


def word(key: str, lang: str) -> str:
    """A word for a note: a screen text, else a clip's text (role names), else the key."""
    if key in texts():
        return t(key, lang)
    from .sound.catalogue import text
    return text(key, lang) or key


def note_text(key: str, fields: tuple[tuple[str, str], ...], lang: str) -> str:
    """A host's note in `lang`, from its key and fields."""
    values = {name.removesuffix("_t"): word(v, lang) if name.endswith("_t") else v
              for name, v in fields}
    return t(f"note_{key}", lang).format(**values)
