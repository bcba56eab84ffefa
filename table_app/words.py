"""The words the host, the room and the voice use, in every language: gettext catalogues,
one `locale/<lang>.po` a language (translators edit them with any PO editor). Each entry's
msgctxt is its key: `screen:...` for what is read (the screens, the host's notes),
`voice:...` for a clip the voice says (its sound file has the key's name).
A voice entry said after a number has the language's plural forms.

A note is kept as a key and its fields, not as a sentence: the host's screen writes it in
the table's language when it shows it (so a game switched to Russian shows its earlier notes
in Russian too). A field whose name ends in `_t` holds a word to translate (a role, a check's
result); the others are shown as they are (seat numbers, an engine's detail).
"""

from __future__ import annotations

import gettext
import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from functools import cache
from pathlib import Path

LOCALE = Path(__file__).resolve().parent / "locale"


def _languages() -> tuple[str, ...]:
    """Every language with a catalogue in locale/, in the order its `language:order` entry
    gives (the setup screen's): a new language is its catalogue and its clips, nothing
    else. (Read here without Babel: this runs at every start.)"""
    order = {}
    for po in LOCALE.glob("*.po"):
        found = re.search(r'msgctxt "language:order"\nmsgid "[^"]*"\nmsgstr "(\d+)"',
                          po.read_text(encoding="utf-8"))
        order[po.stem] = int(found.group(1)) if found else 1000
    return tuple(sorted(order, key=lambda lang: (order[lang], lang)))


#: the languages, in the order the setup screen offers them
LANGS = _languages()
#: the plural categories a voice entry is said in (CLDR's, as Babel names them): its clips
#: are KEY_one, KEY_few, KEY_many and KEY itself for "other"
PLURAL_CATEGORIES = ("one", "few", "many", "other")


@dataclass(frozen=True)
class Entry:
    """One entry of a catalogue: its key (msgctxt), the English (msgid) and the language's
    text (msgstr; a plural entry's forms, msgstr[0], [1], ..., as a tuple)."""

    context: str | None
    id: str
    string: str | tuple[str, ...]

    @property
    def pluralizable(self) -> bool:
        return isinstance(self.string, tuple)


@dataclass(frozen=True)
class Catalogue:
    """A language's entries, in the file's order, and its Plural-Forms expression."""

    entries: tuple[Entry, ...]
    plural_expr: str

    def __iter__(self) -> Iterator[Entry]:
        return iter(self.entries)


_ESCAPES = {"n": "\n", "t": "\t", "r": "\r"}
_KEYWORDS = {"msgctxt", "msgid", "msgid_plural", "msgstr"}


def _quoted(text: str, where: str) -> str:
    """A PO string's text: `"..."` with its C escapes undone."""
    text = text.strip()
    if len(text) < 2 or text[0] != '"' or text[-1] != '"':
        raise ValueError(f"{where}: a string in double quotes was expected: {text[:40]}")
    text = text[1:-1]
    if "\\" not in text:
        return text
    return re.sub(r"\\(.)", lambda m: _ESCAPES.get(m.group(1), m.group(1)), text)


def read_catalogue(path: Path) -> Catalogue:
    """A PO file as gettext writes it (msgctxt, msgid, msgid_plural, msgstr, msgstr[N],
    strings continued on the lines after; comments and obsolete `#~` entries skipped),
    read with the standard library: Babel's reader, imported and run at every start, cost
    about 9 ms of the table's 0.29 s to its setup screen. (tests/test_words.py holds it to
    Babel's reading of every catalogue.)"""
    entries: list[Entry] = []
    plural = "(n != 1)"
    fields: dict[str, str] = {}
    last = ""

    def done() -> None:
        nonlocal plural
        if "msgid" not in fields:
            return
        forms = sorted((k for k in fields if k.startswith("msgstr[")),
                       key=lambda k: int(k[7:-1]))
        string = tuple(fields[k] for k in forms) if "msgid_plural" in fields \
            else fields.get("msgstr", "")
        if fields["msgid"] == "" and "msgctxt" not in fields:
            found = re.search(r"^Plural-Forms:.*?plural=(.*?);?\s*$", str(string), re.M)
            plural = found.group(1) if found else plural
        else:
            entries.append(Entry(fields.get("msgctxt"), fields["msgid"], string))
        fields.clear()

    name = path.name
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        line = line.strip()
        where = f"{name}, line {number}"
        if not line or line.startswith("#"):
            continue
        if line.startswith('"'):
            if not last:
                raise ValueError(f"{where}: a string with no msgid or msgstr before it")
            fields[last] += _quoted(line, where)
            continue
        keyword, _, rest = line.partition(" ")
        if keyword not in _KEYWORDS and not re.fullmatch(r"msgstr\[\d+\]", keyword):
            raise ValueError(f"{where}: unknown keyword {keyword!r}")
        if keyword in ("msgctxt", "msgid") and any(k.startswith("msgstr") for k in fields):
            done()                        # the next entry begins
        fields[keyword] = _quoted(rest, where)
        last = keyword
    done()
    return Catalogue(tuple(entries), plural)


@cache
def catalogue(lang: str) -> Catalogue:
    """The language's catalogue, `locale/<lang>.po`."""
    return read_catalogue(LOCALE / f"{lang}.po")


@dataclass(frozen=True)
class Language:
    """What a language is besides its words (its catalogue's `language:` entries)."""

    code: str
    voice: str                            # the espeak-ng voice its clips are rendered with
    keyboard: tuple[tuple[str, ...], ...]   # the touch screen's keyboard, row by row
    capitals: bool                        # a name's words begin with a capital
    #: the numbers 0 to 30 as the voice says them, where its espeak-ng voice does not read
    #: digits as numbers (Uzbek's read "21" as "ikki bir"); empty: the digits
    numbers: tuple[str, ...] = ()
    #: its quotation marks, opening and closing (Georgian's „…“, Russian's «…»)
    quotes: tuple[str, str] = ("\u201c", "\u201d")


@cache
def language(lang: str) -> Language:
    meta = {m.context.split(":", 1)[1]: str(m.string) for m in catalogue(lang)
            if m.context and m.context.startswith("language:")}
    rows = tuple(tuple(row.split()) if " " in row.strip() else tuple(row.strip())
                 for row in meta.get("keyboard", "").split(" / ") if row.strip())
    said = meta.get("numbers", "digits").strip()
    numbers = () if said == "digits" else tuple(w.strip() for w in said.split("/"))
    marks = meta.get("quotes", "").split()
    quotes = (marks[0], marks[1]) if len(marks) == 2 else ("\u201c", "\u201d")
    return Language(lang, meta.get("voice", lang), rows, meta.get("capitals", "yes") != "no",
                    numbers, quotes)


@cache
def plural_rule(lang: str) -> Callable[[int], str]:
    """The language's plural category of a number (CLDR's rules, from Babel): "one",
    "few", "many" or "other"."""
    from babel import Locale
    form: Callable[[float], str] = Locale.parse(lang).plural_form
    return form


@cache
def entries_of(kind: str, lang: str) -> dict[str, str]:
    """One language's keys of one kind ("screen", "voice" or "sheet") -> text; an empty
    (untranslated) entry is left out. A plural entry gives one key per plural category,
    each with the form the language's Plural-Forms picks for such a number. (Read one
    language at a time: the setup screen needs its own and English, and reading all four
    with their plural rules was a sixth of the table's start.)"""
    out: dict[str, str] = {}
    if lang not in LANGS:
        return out            # (a game recorded in a language this table has not: English)
    cat = catalogue(lang)
    pick = gettext.c2py(cat.plural_expr)
    for msg in cat:
        if not msg.context or not msg.context.startswith(kind + ":"):
            continue
        key = msg.context.split(":", 1)[1]
        if isinstance(msg.string, str):
            if msg.string:
                out[key] = msg.string
            continue
        rule = plural_rule(lang)
        for category in PLURAL_CATEGORIES:
            # a number of that category (5 where the language has none: its "many" or
            # "other" form), and the form the catalogue gives that number
            n = next((n for n in range(200) if rule(n) == category), 5)
            form = msg.string[pick(n)] if pick(n) < len(msg.string) else ""
            if form:
                out[key if category == "other" else f"{key}_{category}"] = form
    return out


@cache
def entries(kind: str) -> dict[str, dict[str, str]]:
    """Every key of one kind -> {language: text}, every language's (`entries_of`)."""
    out: dict[str, dict[str, str]] = {}
    for lang in LANGS:
        for key, text in entries_of(kind, lang).items():
            out.setdefault(key, {})[lang] = text
    return out


def texts() -> dict[str, dict[str, str]]:
    """Every screen text key -> {language: text}."""
    return entries("screen")


def known(key: str) -> bool:
    """Is `key` a screen text in some language? (English first: it has every key.)"""
    return key in entries_of("screen", "en") or key in texts()


def t(key: str, lang: str) -> str:
    """A screen text in `lang` (English where a language lacks it; the key where all do)."""
    return entries_of("screen", lang).get(key) or entries_of("screen", "en").get(key) or key


def word(key: str, lang: str) -> str:
    """A word for a note: a screen text, else a clip's text (role names), else the key. (The
    clips' texts are read here, from the catalogue both keep, not through the sound package:
    the words are below the voice.)"""
    if known(key):
        return t(key, lang)
    return entries_of("voice", lang).get(key) or entries_of("voice", "en").get(key) or key


def note_text(key: str, fields: tuple[tuple[str, str], ...], lang: str) -> str:
    """A host's note in `lang`, from its key and fields."""
    values = {name.removesuffix("_t"): word(v, lang) if name.endswith("_t") else v
              for name, v in fields}
    return t(f"note_{key}", lang).format(**values)


def spans(numbers: list[int]) -> str:
    """Numbers as runs: [1, 2, 3, 7, 9, 10] -> "1-3, 7, 9, 10"."""
    out: list[str] = []
    run: list[int] = []
    for n in sorted(numbers) + [0]:
        if run and n == run[-1] + 1:
            run.append(n)
            continue
        if run:
            out.append(f"{run[0]}-{run[-1]}" if len(run) > 2 else ", ".join(map(str, run)))
        run = [n]
    return ", ".join(out)
