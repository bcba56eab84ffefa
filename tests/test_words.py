"""The gettext catalogues: one per language, every entry translated, the same keys and the
same placeholders in each, plural forms complete."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

from table_app.words import LANGS, LOCALE, catalogue, entries


def babel_catalogue(lang: str) -> Any:
    """The catalogue as Babel reads it (a translator's tools: its fuzzy flags too)."""
    from babel.messages.pofile import read_po
    with (LOCALE / f"{lang}.po").open("rb") as f:
        return read_po(f, locale=lang)


def test_the_table_reads_every_catalogue_as_babel_does() -> None:
    """The table reads its catalogues with the standard library (words.read_catalogue);
    a translator's tools read them with Babel: the same entries, texts and plural forms."""
    for lang in LANGS:
        ours, theirs = catalogue(lang), babel_catalogue(lang)
        want = [(m.context, m.id if isinstance(m.id, str) else m.id[0],
                 tuple(m.string) if m.pluralizable else m.string) for m in theirs if m.id]
        assert [(m.context, m.id, m.string) for m in ours] == want, lang
        assert ours.plural_expr == theirs.plural_expr, lang


def test_a_broken_catalogue_is_one_line_naming_its_file_and_line(tmp_path: Path) -> None:
    from table_app.words import read_catalogue
    po = tmp_path / "xx.po"
    po.write_text('msgctxt "screen:a"\nmsgid "a"\nmsgstr "b\n', encoding="utf-8")
    with pytest.raises(ValueError, match=r"^xx.po, line 3: a string in double quotes"):
        read_catalogue(po)
    po.write_text('msgctxt "screen:a"\nmsgid "a"\nmsgtsr "b"\n', encoding="utf-8")
    with pytest.raises(ValueError, match=r"^xx.po, line 3: unknown keyword 'msgtsr'"):
        read_catalogue(po)


def test_every_language_has_a_catalogue_and_every_catalogue_a_language() -> None:
    assert sorted(p.stem for p in LOCALE.glob("*.po")) == sorted(LANGS)


def test_every_entry_is_translated_in_every_language_with_its_placeholders() -> None:
    english = {m.context: m for m in babel_catalogue("en") if m.context}
    assert any(k.startswith("screen:") for k in english) and \
        any(k.startswith("voice:") for k in english)
    for lang in LANGS:
        cat = babel_catalogue(lang)
        assert not cat.fuzzy, lang
        msgs = {m.context: m for m in cat if m.context}
        assert set(msgs) == set(english), (lang, set(msgs) ^ set(english))
        for key, m in msgs.items():
            assert not m.fuzzy, (lang, key)
            forms = m.string if m.pluralizable else (m.string,)
            assert m.pluralizable == english[key].pluralizable, (lang, key)
            if m.pluralizable:
                assert len(forms) == cat.num_plurals, (lang, key)
            want = set(re.findall(r"{\w+}", english[key].string if not m.pluralizable
                                  else english[key].string[0]))
            for form in forms:
                assert form.strip(), f"{lang}: {key} is not translated"
                assert set(re.findall(r"{\w+}", form)) == want, (lang, key, form)


def test_a_plural_entry_gives_a_clip_for_each_plural_category() -> None:
    voice = entries("voice")
    assert voice["votes_few"]["ru"] == "голоса." and voice["votes_many"]["ru"] == "голосов."
    assert voice["votes_one"]["en"] == "vote." and voice["votes"]["en"] == "votes."
    for key in ("votes", "votes_one", "votes_few", "votes_many"):
        assert set(voice[key]) == set(LANGS), key


def test_each_language_says_its_order_voice_keyboard_and_capitals() -> None:
    import shutil
    import subprocess

    from table_app.words import language
    orders = []
    voices = ""
    if shutil.which("espeak-ng"):
        voices = subprocess.run(["espeak-ng", "--voices"], capture_output=True, text=True,
                                timeout=30).stdout
    for lang in LANGS:
        msgs = {m.context: m.string for m in catalogue(lang) if m.context}
        orders.append(int(msgs["language:order"]))
        info = language(lang)
        # (the rule a translator reads beside the entry, in every catalogue)
        assert len(info.keyboard) == 3 and all(8 <= len(row) <= 12 for row in info.keyboard), lang
        assert "each of 8 to 12 keys" in (LOCALE / f"{lang}.po").read_text("utf-8"), lang
        if voices:           # the voice its clips are rendered with is one espeak-ng has
            assert f" {info.voice} " in voices, (lang, info.voice)
    assert orders == sorted(orders) and len(set(orders)) == len(orders)
    assert not language("ka").capitals and language("en").capitals


def test_a_new_language_is_its_catalogue_alone(tmp_path: Path,
                                               monkeypatch: pytest.MonkeyPatch) -> None:
    """A club's language (say, Armenian) dropped into locale/ as a catalogue is offered, in
    the place its catalogue asks for, with its keyboard and voice: no code to change."""
    from table_app import words
    for po in LOCALE.glob("*.po"):
        (tmp_path / po.name).write_bytes(po.read_bytes())
    text = (LOCALE / "en.po").read_text(encoding="utf-8")
    text = text.replace('msgstr "2"', 'msgstr "0"', 1).replace(
        'msgstr "en-gb"', 'msgstr "hy"', 1).replace(
        'msgid "qwertyuiop / asdfghjkl / zxcvbnm-"\nmsgstr "qwertyuiop / asdfghjkl / zxcvbnm-"',
        'msgid "qwertyuiop / asdfghjkl / zxcvbnm-"\nmsgstr "աբգդեզէըթժ / իլխծկհձղճմ / յնշոչպջռսվ"')
    text = text.replace("Language: en", "Language: hy")
    (tmp_path / "hy.po").write_text(text, encoding="utf-8")
    monkeypatch.setattr(words, "LOCALE", tmp_path)
    words.catalogue.cache_clear()
    words.language.cache_clear()
    try:
        assert words._languages() == ("hy",) + LANGS
        hy = words.language("hy")
        assert hy.voice == "hy" and hy.keyboard[0][0] == "ա" and hy.capitals
    finally:
        words.catalogue.cache_clear()
        words.language.cache_clear()


def test_each_language_quotes_with_its_own_marks_only() -> None:
    # a tenth trial host's Georgian screen stood „…“ (its notes) beside “…” (the voice's
    # lines); Uzbek mixed «…» and „…“
    from table_app.words import language
    marks = set("\u201c\u201d\u201e\u00ab\u00bb")
    for lang in LANGS:
        own = set(language(lang).quotes)
        assert len(own) == 2 and own <= marks, lang
        used = {ch for m in catalogue(lang) if m.context and not m.context.startswith(
            "language:") for text in ([m.string] if isinstance(m.string, str) else m.string)
                for ch in text if ch in marks}
        assert used <= own, (lang, used - own)


@pytest.mark.parametrize("lang", LANGS)
def test_a_role_has_one_name_on_the_host_screen(lang: str) -> None:
    # trial 13: the role list said "Бомж" and the night's choices "Выбор (Бродяга): 17";
    # Uzbek's "Yakudza" was "Yakuza" in its window
    from table_app.rules.roles import DECISION, ROLE
    from table_app.sound.catalogue import role_name
    from table_app.words import t
    named = {d: (t(f"window_{d}", lang), role_name(d, lang)) for d in DECISION if d in ROLE}
    assert named
    assert all(window == role for window, role in named.values()), {
        d: pair for d, pair in named.items() if pair[0] != pair[1]}


@pytest.mark.parametrize("lang", LANGS)
def test_a_foul_has_one_name_on_the_screen_and_the_sheet(lang: str) -> None:
    # trial 14: the screen and the voice said "ფოლი", the protocol sheet's column and
    # `records show` "შენიშვნები" (remarks)
    from table_app.words import entries_of, t
    sheet = entries_of("sheet", lang)["fouls"]
    assert sheet.lower() == t("fouls", lang).lower(), (sheet, t("fouls", lang))


def test_a_language_this_table_has_not_reads_in_english() -> None:
    # a game imported from a league table in another language: its sheet and `records show`
    # read in English, as before the words were read a language at a time
    from table_app.words import t, word
    assert "hy" not in LANGS
    assert t("fouls", "hy") == t("fouls", "en") and word("doctor", "hy") == word("doctor", "en")
