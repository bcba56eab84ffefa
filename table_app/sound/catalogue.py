"""The narration catalogue: clip ids and their text in every language (the `voice:` entries
of the gettext catalogues, `table_app/locale/<lang>.po`), numbers included."""

from __future__ import annotations

from functools import cache

from ..words import LANGS as LANGS  # (the one list of the languages)
from ..words import entries, plural_rule

MAX_NUMBER = 30
#: Timer sounds: a soft tick for the last 10 s, a warning, the buzzer at zero, and the one
#: chime every night window opens and closes with, whoever wakes.
TIMER_SOUNDS = ("tick", "warning", "buzzer", "chime")


def num(n: int) -> str:
    """The clip id of a number (seat numbers and vote counts, 0 to 30)."""
    return f"num_{n}"


def plural(clip: str, n: int, lang: str) -> str:
    """The clip id of `clip`'s form for the number `n` in `lang` (CLDR's plural rules, from
    Babel): Russian says "1 голос", "2 голоса", "5 голосов", English "1 vote", "2 votes"."""
    form = plural_rule(lang)(n)
    return clip if form == "other" else f"{clip}_{form}"


@cache
def catalogue() -> dict[str, dict[str, str]]:
    """Every clip id -> {language: text}, numbers included."""
    from ..words import language
    data = {k: dict(v) for k, v in entries("voice").items()}
    for lang in LANGS:
        # the digits, which espeak-ng reads as numbers in each language but Uzbek
        said = language(lang).numbers or tuple(str(n) for n in range(MAX_NUMBER + 1))
        if len(said) != MAX_NUMBER + 1:
            raise ValueError(f"catalogue: {lang}'s language:numbers has {len(said)} numbers, "
                             f"not the {MAX_NUMBER + 1} from 0 to {MAX_NUMBER}")
        for n, words in enumerate(said):
            data.setdefault(num(n), {})[lang] = words
    for clip, texts in data.items():
        missing = [lang for lang in LANGS if not texts.get(lang)]
        if missing:
            raise ValueError(f"catalogue: clip '{clip}' has no text in {', '.join(missing)}")
    return data


def text(clip: str, lang: str) -> str | None:
    entry = catalogue().get(clip)
    return None if entry is None else entry.get(lang) or entry.get("en")


def role_name(role: str, lang: str) -> str:
    """A role's name as the voice says it, in `lang` (its clip's text): the one wording the
    screen, the sheets and the records use."""
    from ..rules.roles import role_clip
    return (text(role_clip(role), lang) or role).rstrip(".")
