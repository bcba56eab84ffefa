"""The gettext catalogues: one per language, every entry translated, the same keys and the
same placeholders in each, plural forms complete."""

from __future__ import annotations

import re

from table_app.words import LANGS, LOCALE, catalogue, entries


def test_every_language_has_a_catalogue_and_every_catalogue_a_language() -> None:
    assert sorted(p.stem for p in LOCALE.glob("*.po")) == sorted(LANGS)


def test_every_entry_is_translated_in_every_language_with_its_placeholders() -> None:
    english = {m.context: m for m in catalogue("en") if m.context}
    assert any(k.startswith("screen:") for k in english) and \
        any(k.startswith("voice:") for k in english)
    for lang in LANGS:
        cat = catalogue(lang)
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
