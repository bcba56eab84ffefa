"""Narration and timer sounds: the catalogue is complete in every language, clips play and
sound alike, a voice pack overrides, a missing clip falls back, no device is survived."""

from __future__ import annotations

import array
import math
import random
import shutil
import subprocess
import sys
import time
import wave
from pathlib import Path

import pygame
import pytest

from table_app.rules import Game, find_format
from table_app.rules import effects as E
from table_app.rules.bots import play
from table_app.sound import LANGS, SOUNDS, TIMER_SOUNDS, Narrator, SoundBoard, catalogue


def clips_the_code_asks_for() -> set[str]:
    """Every clip id the narrator produced over many bot games of every format."""
    asked: set[str] = set()
    for fmt_id, players in (("yakuza", 12), ("classic", 11), ("city", 12), ("city", 25)):
        fmt = find_format(fmt_id)
        rng = random.Random(fmt_id)
        for i in range(40):
            # every language's plural forms, and the format's tie rule
            # (as the table makes it: the format's tie rule and where a vote not cast goes)
            rules = Game(fmt, players).rules
            narrator = Narrator(LANGS[i % len(LANGS)], revote=rules.revote,
                                unused_to_last=rules.abstain_to_last and not rules.plurality)

            def watch(game: object, action: object, fx: list[E.Effect],
                      n: Narrator = narrator) -> None:
                for f in fx:
                    for line in n.lines(f):
                        asked.update(line)
            play(fmt, players, rng, observe=watch)
    return asked


def test_every_clip_the_code_asks_for_exists_in_every_language() -> None:
    asked = clips_the_code_asks_for()
    assert {"city_sleeps", "wake_yakuza", "wake_night", "nomination_accepted",
            "win_maniac", "role_sorcerer", "num_12", "votes_few", "tie_nobody",
            "unused_vote_last"} <= asked
    assert asked <= set(catalogue())
    for lang in LANGS:
        missing = [c for c in sorted(set(catalogue()) | asked)
                   if not (SOUNDS / lang / f"{c}.ogg").exists()]
        assert not missing, f"{lang}: {missing[:10]}"
    for name in TIMER_SOUNDS:
        assert (SOUNDS / "timer" / f"{name}.ogg").exists()


def _rms_db(sound: pygame.mixer.Sound) -> float:
    samples = array.array("h", sound.get_raw())
    rms = math.sqrt(sum(s * s for s in samples) / max(1, len(samples))) / 32768
    return 20 * math.log10(max(rms, 1e-9))


@pytest.fixture(scope="module")
def mixer() -> object:
    pygame.mixer.init(frequency=22050, size=-16, channels=2)
    yield pygame.mixer
    pygame.mixer.quit()


@pytest.mark.parametrize("lang", LANGS)
def test_each_clip_decodes_lasts_a_sane_time_and_is_level(lang: str, mixer: object) -> None:
    levels = []
    for clip in catalogue():
        sound = pygame.mixer.Sound(str(SOUNDS / lang / f"{clip}.ogg"))
        assert 0.15 < sound.get_length() < 8.0, (clip, sound.get_length())
        levels.append((_rms_db(sound), clip))
    quiet, loud = min(levels), max(levels)
    assert quiet[0] > -25 and loud[0] < -15, (quiet, loud)


def test_timer_sounds(mixer: object) -> None:
    lengths = {n: pygame.mixer.Sound(str(SOUNDS / "timer" / f"{n}.ogg")).get_length()
               for n in TIMER_SOUNDS}
    assert lengths["tick"] < 0.1 < lengths["warning"] < lengths["buzzer"] < lengths["chime"] < 2
    tick = _rms_db(pygame.mixer.Sound(str(SOUNDS / "timer" / "tick.ogg")))
    buzzer = _rms_db(pygame.mixer.Sound(str(SOUNDS / "timer" / "buzzer.ogg")))
    assert tick < buzzer - 6            # the tick is soft, the buzzer is not


def _tone(path: Path, seconds: float) -> None:
    with wave.open(str(path), "wb") as w:
        w.setnchannels(1)
        w.setsampwidth(2)
        w.setframerate(22050)
        n = int(22050 * seconds)
        w.writeframes(array.array("h", (int(8000 * math.sin(i / 5)) for i in range(n)))
                      .tobytes())


def test_a_voice_pack_overrides(tmp_path: Path) -> None:
    _tone(tmp_path / "city_sleeps.wav", 3.25)
    board = SoundBoard("ru", voice_pack=tmp_path)
    assert board.start()
    try:
        assert board.path("city_sleeps") == tmp_path / "city_sleeps.wav"
        assert board.path("city_wakes") == SOUNDS / "ru" / "city_wakes.ogg"
        assert board.cache["city_sleeps"].get_length() == pytest.approx(3.25, abs=0.01)
    finally:
        board.stop()


def test_a_missing_clip_falls_back_to_english_then_to_text(tmp_path: Path) -> None:
    sounds = tmp_path / "sounds"
    for d in ("en", "uz", "timer"):
        shutil.copytree(SOUNDS / d, sounds / d)
    (sounds / "uz" / "city_sleeps.ogg").unlink()
    (sounds / "uz" / "win_city.ogg").unlink()
    (sounds / "en" / "win_city.ogg").unlink()
    board = SoundBoard("uz", sounds=sounds)
    assert board.start()
    try:
        assert board.path("city_sleeps") == sounds / "en" / "city_sleeps.ogg"
        assert any("'city_sleeps' is missing in 'uz'" in w for w in board.warnings)
        board.say(["win_city"])                     # nowhere: a caption and a warning
        assert board.captions[-1] == "Shahar gʻalaba qozondi."
        assert any("'win_city' is missing: shown as text" in w for w in board.warnings)
    finally:
        board.stop()


def test_no_audio_device_is_a_warning_and_a_silent_game() -> None:
    code = ("from table_app.sound import SoundBoard\n"
            "b = SoundBoard('ka')\n"
            "print(b.start())\n"
            "b.say(['city_sleeps']); b.timer('tick'); b.update()\n"
            "print(b.captions[0]); print(b.warnings[0][:17])\n")
    env = {**__import__("os").environ, "SDL_AUDIODRIVER": "no-such-driver"}
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          env=env, timeout=60)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.split("\n")[:3] == ["False", "ქალაქს ეძინება.", "no audio device ("]


def test_a_tick_never_cuts_a_sentence() -> None:
    board = SoundBoard("en")
    assert board.start()
    try:
        board.say(["nomination_accepted", "num_7"])
        assert board._voice.get_busy()
        for _ in range(5):
            board.timer("tick")
            time.sleep(0.05)
        assert board._voice.get_busy()          # still the same sentence
        assert board.spoken[0] == "nomination_accepted"
        assert "num_7" not in board.spoken      # queued behind it, not cut in
        end = time.monotonic() + 6
        while board.busy() and time.monotonic() < end:
            board.update()
            time.sleep(0.05)
        assert board.spoken[-1] == "num_7"
    finally:
        board.stop()


def test_the_narrator_says_nothing_secret_and_keeps_night_deaths_for_the_morning() -> None:
    n = Narrator()
    assert n.lines(E.PhaseBegins("night", 2)) == [["city_sleeps"]]
    assert n.lines(E.Wake("doctor", ("doctor",), ("doctor",), "wake", 10)) == [["wake_doctor"]]
    assert n.lines(E.Decided("doctor", 4)) == []
    assert n.lines(E.CheckResult("detective", 3, "black", audience=2)) == []
    assert n.lines(E.RoleChanged(5, "commissar", audience=5)) == []
    assert n.lines(E.Eliminated(6, "night 2", "mafia", None)) == []
    assert n.lines(E.PhaseBegins("day", 2)) == [["city_wakes"]]
    assert n.lines(E.Morning(2, (6,), 1)) == [["player", "num_6", "leaves_game"],
                                               ["critical_fouls", "num_1"]]
    assert n.lines(E.VoteTotals("vote", ((4, 7), (5, 4)))) == [
        ["player", "num_4", "got", "num_7", "votes"], ["player", "num_5", "got", "num_4", "votes"]]
    assert n.lines(E.Eliminated(4, "day 2", "vote", "don")) == [
        ["player", "num_4", "leaves_game", "role_was", "role_don"]]


def test_one_nominee_is_said_in_the_singular() -> None:
    """Trial 20: the voice said "Nominated are players 8" of one nominee, in every language.
    One nominee has his own clip, with his own words in each language; two or more, the
    plural one."""
    n = Narrator()
    assert n.lines(E.NomineesAnnounced((8,))) == [["nominee_is", "num_8"]]
    assert n.lines(E.NomineesAnnounced((8, 3))) == [["nominees_are", "num_8", "num_3"]]
    for lang in LANGS:
        one, many = catalogue()["nominee_is"][lang], catalogue()["nominees_are"][lang]
        assert one and one != many, lang
        assert (SOUNDS / lang / "nominee_is.ogg").is_file(), lang


def test_the_script_renders_clips_with_espeak_ng(tmp_path: Path) -> None:
    proc = subprocess.run([sys.executable, str(SOUNDS / "make_sounds.py"), "--lang", "ka", "en",
                           "--only", "city_wakes", "num_9", "--out", str(tmp_path)],
                          capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr
    pygame.mixer.init(frequency=22050, size=-16, channels=2)
    try:
        for lang in ("ka", "en"):
            for clip in ("city_wakes", "num_9"):
                made = pygame.mixer.Sound(str(tmp_path / lang / f"{clip}.ogg"))
                shipped = pygame.mixer.Sound(str(SOUNDS / lang / f"{clip}.ogg"))
                assert abs(made.get_length() - shipped.get_length()) < 0.05
                assert abs(_rms_db(made) - _rms_db(shipped)) < 1.0
    finally:
        pygame.mixer.quit()


def test_vote_totals_are_said_in_the_languages_plural_forms() -> None:
    # "Игрок 4 получает 2 голосов": one clip for every number, where Russian says
    # "1 голос", "2 голоса", "5 голосов"
    totals = E.VoteTotals("vote", ((4, 2), (5, 1), (6, 5), (7, 21)))
    words = {lang: [line[-1] for line in Narrator(lang).lines(totals)] for lang in LANGS}
    assert words["ru"] == ["votes_few", "votes_one", "votes_many", "votes_one"]
    assert words["en"] == ["votes", "votes_one", "votes", "votes"]
    for lang in LANGS:
        said = [catalogue()[w][lang] for w in words[lang]]
        assert all(said), lang
    assert [catalogue()[w]["ru"] for w in words["ru"]] == ["голоса.", "голос.", "голосов.",
                                                           "голос."]
    assert catalogue()["votes_one"]["en"] == "vote."


def _phonemes(text: str, voice: str) -> str:
    return subprocess.run(["espeak-ng", "-q", "-x", "-v", voice, text], capture_output=True,
                          text=True, timeout=30, check=True).stdout.strip()


def test_every_seat_number_to_30_is_said_as_a_number_in_every_language() -> None:
    # espeak-ng's Uzbek voice reads "21" digit by digit ("ikki bir", and "10" as "bir nol"):
    # every clip of 10 to 30, read as its voice reads it, must not be its digits read one
    # by one
    import os

    from table_app.sound.catalogue import num, text
    from table_app.words import language
    if shutil.which("espeak-ng") is None:
        if os.environ.get("CI"):
            pytest.fail("CI renders and reads the voice with espeak-ng")
        pytest.skip("espeak-ng is not installed")
    assert [text(num(n), "uz") for n in (10, 21, 30)] == ["oʻn", "yigirma bir", "oʻttiz"]
    for lang in LANGS:
        voice = language(lang).voice
        for n in range(10, 31):
            said = _phonemes(text(num(n), lang) or "", voice)
            digits = _phonemes(" ".join(str(n)), voice)
            assert said != digits, (lang, n, said)


def test_rendering_one_language_touches_only_that_language(tmp_path: Path) -> None:
    """A translator's `make_sounds --lang uz` rewrote the four timer sounds every language
    shares (espeak-ng and the encoder are not byte-for-byte repeatable)."""
    import os
    if shutil.which("espeak-ng") is None or shutil.which("sox") is None:
        if os.environ.get("CI"):
            pytest.fail("CI renders the voice with espeak-ng and sox")
        pytest.skip("espeak-ng or sox is not installed")
    proc = subprocess.run([sys.executable, str(SOUNDS / "make_sounds.py"), "--lang", "uz",
                           "--out", str(tmp_path)],
                          capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stderr
    made = {p.relative_to(tmp_path).parts[0] for p in tmp_path.rglob("*") if p.is_file()}
    assert made == {"uz"}
    assert len(list((tmp_path / "uz").glob("*.ogg"))) == len(list((SOUNDS / "uz").glob("*.ogg")))


@pytest.mark.parametrize("lang", LANGS)
def test_each_ballot_says_where_a_vote_not_cast_goes(tmp_path: Path, lang: str) -> None:
    """#46, finding 6: a seat left on votes nobody cast, and nothing said why. Where ballots
    among nominees count a vote not cast for the last nominee (yakuza, classic), each ballot
    window, the vote and the revote, says so in the voice, naming the seat the screens show;
    the city's open vote for any seat (a vote not cast goes nowhere) never says it."""
    from table_app.screen.model import public_state
    from table_app.sound.catalogue import text
    from table_app.table.virtual import Recorder, run_virtual, virtual_table
    for fmt, players in (("yakuza", 12), ("classic", 11), ("city", 12)):
        voice = Recorder()
        app, bots, clock, _ = virtual_table(tmp_path / f"{fmt}-{lang}", voice=voice, seed=4,
                                            fmt_id=fmt, players=players, lang=lang)
        ballots = 0
        while ballots < 3:
            table = run_virtual(app, bots, clock, limit=400, until=lambda t: (
                t.stage == "over" or (t.game.step in ("vote", "revote") and bool(t.asked))))
            if table.stage == "over":
                break
            ballots += 1
            said = [line for _, line in voice.said]
            last = table.game.waiting().candidates[-1]
            shown = public_state(table).unused_to
            opened = max(i for i, line in enumerate(said) if line == "vote_now")
            after = said[opened + 1:opened + 2]
            if fmt == "city":
                assert shown == 0 and not any(x.startswith("unused_vote_last") for x in said)
            else:
                assert shown == last, (fmt, shown, last)
                assert after == [f"unused_vote_last num_{last}"], (fmt, said[opened:])
                words = text("unused_vote_last", lang)
                assert words and words != text("unused_vote_last", "en") or lang == "en"
            table = run_virtual(app, bots, clock, limit=400, until=lambda t: (
                t.stage == "over" or t.game.step not in ("vote", "revote")))
            if table.stage == "over":
                break
        assert ballots >= 1, fmt


def test_the_table_opens_the_audio_device_the_settings_name(tmp_path: Path) -> None:
    """The window's pygame.init() opened the default audio device (44.1 kHz) before the
    voice opened its own: pygame keeps the first, so the settings' `audio.device` and the
    voice's 22.05 kHz, 1024-frame opening changed nothing. Now the voice opens it."""
    import os
    import subprocess
    import sys

    def opened(device: str) -> str:
        code = (
            "import argparse, pygame\n"
            "from table_app.window.opening import Opening\n"
            "a = argparse.Namespace(journal=None, pads='sim', lang='en', volume=0.9,\n"
            f"    voice_pack=None, silent=False, audio_device={device!r}, players=12,\n"
            "    buttons=None, rotation=None, rings=None, fullscreen=False)\n"
            "w = Opening(a)\n"
            "w.open()\n"
            "print(pygame.mixer.get_init(), w.voice.warnings)\n"
            "w.pads.close()\n")
        env = {**os.environ, "SDL_VIDEODRIVER": "dummy", "SDL_AUDIODRIVER": "dummy",
               "PYGAME_HIDE_SUPPORT_PROMPT": "1", "XDG_CONFIG_HOME": str(tmp_path / "config"),
               "XDG_STATE_HOME": str(tmp_path / "state")}
        out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                             timeout=120, env=env, cwd=tmp_path)
        assert out.returncode == 0, out.stderr
        return out.stdout.strip()
    # the voice's own opening, on the default output
    assert opened("") == "(22050, -16, 2) []"
    # SDL's dummy driver has no output of that name: the voice names it, and plays silent
    said = opened("the club speaker")
    assert said.startswith("None [\"no audio 'the club speaker' ("), said
