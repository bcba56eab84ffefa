"""Fuzzing the inputs people write: game scripts and format files. Whatever the text, the
answer is the result or one clear error (ScriptError, FormatError), never a crash or a hang.
Bounded: a fixed number of examples, no deadline on a loaded machine."""

from __future__ import annotations

from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from table_app.rules import FormatError, ScriptError, format_from_text, run_script

SCRIPTS = sorted((Path(__file__).parent / "scripts").rglob("*.script"))
FORMATS = sorted((Path(__file__).parent.parent / "table_app" / "rules" / "formats")
                 .glob("*.toml"))
WORDS = ["night", "day", "mafia", "don", "doctor", "detective", "shogun", "yakuza", "maniac",
         "commissar", "check", "shoot", "lover", "hobo", "killer", "lawyer", "timeout",
         "nominate", "vote", "revote", "removeall:", "take", "foul", "disqualify", "-", ":",
         "1", "2", "3", "4", "5", "7", "11", "12", "13", "0", "-1", "x", "option", "players",
         "deal", "seed", "format", "yakuza", "classic", "city", "1=don", "7:"]
FUZZ = settings(max_examples=150, deadline=None, derandomize=True,
                suppress_health_check=[HealthCheck.too_slow])


def _replays_or_says_why(text: str) -> None:
    try:
        run_script(text)
    except ScriptError as exc:
        assert str(exc).startswith("line ") and "\n" not in str(exc)


@FUZZ
@given(st.sampled_from(SCRIPTS), st.lists(st.tuples(st.integers(0, 200),
                                                    st.lists(st.sampled_from(WORDS), max_size=4)),
                                          max_size=4))
def test_a_changed_script_replays_or_says_why(path: Path, edits: list[tuple[int,
                                                                              list[str]]]) -> None:
    lines = path.read_text().splitlines()
    for at, words in edits:
        lines.insert(at % (len(lines) + 1), " ".join(words))
    _replays_or_says_why("\n".join(lines))


@FUZZ
@given(st.text(max_size=300))
def test_any_text_replays_or_says_why(text: str) -> None:
    _replays_or_says_why(text)


VALUES = ["true", "false", "0", "-3", "7", "inf", "nan", "1e9", '"x"', "[]", '["don"]', "{}",
          '{ a = 1 }', '"7"', "3.5"]


@FUZZ
@given(st.sampled_from(FORMATS), st.integers(0, 400), st.sampled_from(VALUES))
def test_a_changed_format_loads_or_names_its_fault(path: Path, at: int, value: str) -> None:
    lines = path.read_text().splitlines()
    assigns = [i for i, line in enumerate(lines) if "=" in line and not line.startswith("#")]
    i = assigns[at % len(assigns)]
    key = lines[i].split("=", 1)[0]
    lines[i] = f"{key}= {value}"
    try:
        format_from_text("\n".join(lines), "house.toml")
    except FormatError as exc:
        assert str(exc).startswith("house.toml: ")


def test_the_faults_the_audit_found_are_named() -> None:
    text = next(p for p in FORMATS if p.stem == "yakuza").read_text()
    for bad, why in ((('"12" = {', '"7" = true\n"12" = {'), "composition.7"),
                     (("speech = 60", "speech = inf"), "timers.speech")):
        changed = text.replace(*bad, 1)
        assert changed != text
        try:
            format_from_text(changed, "house.toml")
        except FormatError as exc:
            assert why in str(exc), str(exc)
        else:
            raise AssertionError(f"{bad} was accepted")
