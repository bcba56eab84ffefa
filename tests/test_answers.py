"""Answers are one registry of words (table_app/pads/answers.py): every word the rules can
answer with has its light and its text there, the rings, the host's notes and a one-LED pad
read it from there, and the Hobo's morning has words of its own (it borrowed the Don's
"detective" and "no")."""

from __future__ import annotations

from pathlib import Path

from firmware_bridge import ringdraw as rd
from table_app.pads.answers import ANSWERS, answer
from table_app.pads.rings import CheckShown, encode, led_level, render
from table_app.rules.roles import DECISION, ROLE
from table_app.words import LANGS, t

SCRIPTS = Path(__file__).parent / "scripts"


def test_every_word_the_rules_answer_with_is_in_the_registry() -> None:
    # a check answers what a role looks (red or black), a search its found word or "no"
    words = {r.looks for r in ROLE.values()} | {r.looks_option[1] for r in ROLE.values()
                                                if r.looks_option}
    words |= {d.found for d in DECISION.values() if d.found} | {"no"}
    assert words <= set(ANSWERS), words - set(ANSWERS)


def test_each_answer_lights_its_colour_and_has_its_text() -> None:
    for word, a in ANSWERS.items():
        pixels = render(CheckShown(4, word))
        assert pixels[3] == rd.ANSWER[a.light] and sum(map(any, pixels)) == 1, word
        assert encode(CheckShown(4, word))[2] == a.light
        if a.text:
            assert all(t(a.text, lang) != a.text for lang in LANGS), word
        # one LED: steady, or blinking fast
        seen = {led_level(CheckShown(4, word), k * 0.05) for k in range(8)}
        assert (seen == {1.0}) == a.steady, (word, seen)


def test_the_hobos_morning_has_its_own_words_with_the_same_light() -> None:
    assert answer("came").light == answer("detective").light       # green, as before
    assert answer("nobody_came").light == answer("no").light       # amber, as before
    try:
        answer("a word no ring knows")
    except ValueError as exc:
        assert "answers.py" in str(exc)
    else:
        raise AssertionError("an unknown word was taken")


def test_the_hobo_is_shown_his_words_at_the_table() -> None:
    from table_app.tools.observe import play
    text = (SCRIPTS / "city").glob("*hobo*.script")
    found = False
    for path in text:
        _, table = play(path.read_text())
        shown = [p for _, p in table.panel.backend.history if isinstance(p, CheckShown)]
        if any(p.result in ("came", "nobody_came") for p in shown):
            found = True
            break
    assert found, "no Hobo script showed his morning with his own words"
