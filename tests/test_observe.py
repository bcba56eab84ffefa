"""`table-app observe` and the table's promise: games that differ in one secret look and
sound the same to the room, apart from the rings of the seats that hold that secret.

Every pair below differs in exactly one secret. Both games are played by the real table on a
fake clock, and what the room perceives (sounds, every ring's light, the public screen) must
match line for line once the secret-holding seats' rings are set aside.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from table_app.rules import BUILTIN_FORMATS, ScriptError, formats_beside, run_script
from table_app.tools.observe import format_line, observe, play

SCRIPTS = Path(__file__).parent / "scripts"

YAKUZA = {1: "civilian", 2: "detective", 3: "civilian", 4: "don", 5: "mafioso", 6: "civilian",
          7: "doctor", 8: "mafioso", 9: "civilian", 10: "shogun", 11: "yakuza", 12: "civilian"}
CLASSIC = {1: "civilian", 2: "detective", 3: "civilian", 4: "don", 5: "mafioso", 6: "civilian",
           7: "doctor", 8: "mafioso", 9: "civilian", 10: "maniac", 11: "civilian"}
CITY = {1: "civilian", 2: "commissar", 3: "doctor", 4: "don", 5: "mafioso", 6: "lover",
        7: "civilian", 8: "lawyer", 9: "sergeant", 10: "killer", 11: "mafioso", 12: "civilian"}


def script(fmt: str, deal: dict[int, str], body: str, swap: tuple[int, int] | None = None) -> str:
    d = dict(deal)
    if swap:
        a, b = swap
        d[a], d[b] = d[b], d[a]
    head = f"format {fmt}\nplayers {len(d)}\n"
    return head + "deal " + " ".join(f"{s}={r}" for s, r in sorted(d.items())) + "\n" + body


def room(text: str, secret: set[int], **kw: float) -> list[str]:
    """What the room perceives, without the rings of the seats that hold the secret."""
    return [format_line(line) for line in observe(text, **kw)  # type: ignore[arg-type]
            if line.get("ring") not in secret]


def assert_same(a: str, b: str, secret: set[int], **kw: float) -> None:
    run_script(a), run_script(b)               # both are games the rules accept
    ra, rb = room(a, secret, **kw), room(b, secret, **kw)
    for i, (x, y) in enumerate(zip(ra, rb, strict=False)):
        assert x == y, f"line {i} differs:\n  {x[:300]}\n  {y[:300]}"
    assert len(ra) == len(rb)


# -- the pairs -------------------------------------------------------------------------------
def test_yakuza_doctor_alive_or_out() -> None:
    # day 1 votes out seat 7: the Doctor in one game, a civilian in the other (seats 7, 9)
    body = ("night\nshogun 1\nyakuza 1\ndoctor 1\nday\nnominate 1 7\nvote 7: 1 2 3 4 5 6\n"
            "night\nmafia 3\nshogun 6\nyakuza 6\ndetective 5\nday\n")
    assert_same(script("yakuza", YAKUZA, body), script("yakuza", YAKUZA, body, (7, 9)), {7, 9})


def test_yakuza_detective_alive_or_out() -> None:
    body = ("night\nshogun 3\nyakuza 3\ndoctor 3\nday\nnominate 1 2\nvote 2: 1 3 4 5 6 7\n"
            "night\nmafia 6\nshogun 9\nyakuza 9\ndoctor 12\nday\n")
    assert_same(script("yakuza", YAKUZA, body), script("yakuza", YAKUZA, body, (2, 12)), {2, 12})


def test_classic_maniac_alive_or_out() -> None:
    body = ("night\nmafia 1\ndoctor 3\nday\nnominate 2 10\nvote 10: 2 3 4 5 6 7\n"
            "night\nmafia 3\ndetective 5\ndoctor 2\nday\n")
    assert_same(script("classic", CLASSIC, body), script("classic", CLASSIC, body, (10, 11)),
                {10, 11})


def test_city_lover_alive_or_out() -> None:
    # a disqualification says no role, even where the format reveals the voted out
    body = "night\nmafia 1\nday\ndisqualify 6\nnight\nmafia 7\ncommissar check 4\nday\n"
    assert_same(script("city", CITY, body), script("city", CITY, body, (6, 12)), {6, 12})


def test_which_seats_are_mafia() -> None:
    body = ("night\nshogun 3\nyakuza 3\ndoctor 3\nday\nnight\nmafia 6\nshogun 9\nyakuza 9\n"
            "detective 1\nday\n")
    assert_same(script("yakuza", YAKUZA, body), script("yakuza", YAKUZA, body, (5, 12)), {5, 12})
    cbody = "night\nmafia 3\ndoctor 7\ndetective 1\nday\n"
    assert_same(script("classic", CLASSIC, cbody), script("classic", CLASSIC, cbody, (8, 9)),
                {8, 9})


@pytest.mark.parametrize("fmt, deal, body, swap, secret", [
    # the Detective checks seat 5: a mafioso, or (swapped) a civilian
    ("yakuza", YAKUZA, "night\nshogun 3\nyakuza 3\ndoctor 3\nday\nnight\nmafia 9\nshogun 12\n"
                       "yakuza 12\ndetective 5\nday\n", (5, 6), {2, 5, 6}),
    ("classic", CLASSIC, "night\nmafia 1\ndetective 5\ndoctor 3\nday\n", (5, 6), {2, 5, 6}),
    ("city", CITY, "night\ncommissar check 5\nmafia 1\nday\n", (5, 7), {2, 5, 7}),
])
def test_a_check_red_or_black(fmt: str, deal: dict[int, str], body: str,
                              swap: tuple[int, int], secret: set[int]) -> None:
    assert_same(script(fmt, deal, body), script(fmt, deal, body, swap), secret)


@pytest.mark.parametrize("fmt, deal, body, swap, secret", [
    ("yakuza", YAKUZA, "night\nshogun 3\nyakuza 3\ndoctor 3\nday\nnight\nmafia 9\ndon 2\n"
                       "shogun 12\nyakuza 12\ndoctor 1\nday\n", (2, 6), {2, 4, 6}),
    ("classic", CLASSIC, "night\nmafia 1\ndon 2\ndoctor 3\nday\n", (2, 6), {2, 4, 6}),
    ("city", CITY, "night\nmafia 1\ndon 2\nday\n", (2, 7), {2, 4, 7}),
])
def test_a_search_finds_or_misses(fmt: str, deal: dict[int, str], body: str,
                                  swap: tuple[int, int], secret: set[int]) -> None:
    assert_same(script(fmt, deal, body), script(fmt, deal, body, swap), secret)


def test_who_killed_whom() -> None:
    a = script("city", CITY, "night\nmafia 3\nkiller 7\nday\n")
    b = script("city", CITY, "night\nmafia 7\nkiller 3\nday\n")
    assert_same(a, b, {4, 10})
    ya = script("yakuza", YAKUZA, "night\nshogun 3\nyakuza 3\ndoctor 3\nday\nnight\nmafia 6\n"
                                  "shogun 9\nyakuza 9\ndoctor 1\nday\n")
    yb = script("yakuza", YAKUZA, "night\nshogun 3\nyakuza 3\ndoctor 3\nday\nnight\nmafia 9\n"
                                  "shogun 6\nyakuza 6\ndoctor 1\nday\n")
    assert_same(ya, yb, {4, 10, 11})


@pytest.mark.parametrize("fmt, deal, a, b, secret", [
    ("city", CITY, "night\nmafia 5\ndoctor 5\nday\n", "night\nmafia -\ndoctor 5\nday\n",
     {3, 4}),
    ("classic", CLASSIC, "night\nmafia 1\ndoctor 3\nday\nnight\nmafia 5\nmaniac 6\ndoctor 6\n"
                         "day\n",
     "night\nmafia 1\ndoctor 3\nday\nnight\nmafia 5\nmaniac -\ndoctor 6\nday\n", {7, 10}),
])
def test_a_save_that_stopped_a_kill_or_no_attack(fmt: str, deal: dict[int, str], a: str, b: str,
                                                 secret: set[int]) -> None:
    assert_same(script(fmt, deal, a), script(fmt, deal, b), secret)


def test_a_ballots_choice() -> None:
    # seats 1 and 6 swap their ballots: the same totals
    base = ("night\nshogun 3\nyakuza 3\ndoctor 3\nday\nnominate 1 4\nnominate 2 5\n"
            "vote 4: {x} 2 7\nvote 5: {y} 8 9\n")
    a = script("yakuza", YAKUZA, base.format(x=1, y=6))
    b = script("yakuza", YAKUZA, base.format(x=6, y=1))
    assert_same(a, b, {1, 6})
    c = script("city", CITY, "night\nday\nvote 5: 1 2 3\nvote 7: 4 6\n")
    d = script("city", CITY, "night\nday\nvote 5: 4 2 3\nvote 7: 1 6\n")
    assert_same(c, d, {1, 4})


@pytest.mark.parametrize("fmt, deal, body, deciders", [
    ("yakuza", YAKUZA, "night\nshogun 3\nyakuza 3\ndoctor 3\nday\nnight\nmafia 6\ndon 2\n"
                       "shogun 9\nyakuza 9\ndetective 5\ndoctor 12\nday\n", {2, 4, 7, 10, 11}),
    ("classic", CLASSIC, "night\nmafia 1\ndon 3\ndetective 5\ndoctor 3\nday\n", {2, 4, 7}),
    ("city", CITY, "night\nlover 5\nmafia 1\ndon 2\ncommissar check 5\ndoctor 3\n"
                   "killer 12\nday\n", {2, 3, 4, 6, 10}),
])
def test_the_moment_of_a_choice(fmt: str, deal: dict[int, str], body: str,
                                deciders: set[int]) -> None:
    text = script(fmt, deal, body)
    assert room(text, deciders, press_at=1.0) == room(text, deciders, press_at=6.0)


# -- the command and what it prints ----------------------------------------------------------
GAMES = sorted(p for p in SCRIPTS.rglob("*.script") if not p.with_suffix(".err").exists())


@pytest.mark.parametrize("path", GAMES, ids=lambda p: str(p.relative_to(SCRIPTS)))
def test_the_table_plays_the_script_it_is_given(path: Path) -> None:
    """observe plays the very game of the script, from the pads: the table's outcome is the
    replay's, and the script the table writes replays to it too."""
    text = path.read_text()
    house = formats_beside(path.parent)        # a house format file is read beside it
    _, table = play(text, house=house)
    assert table.game.outcome() == run_script(text, house).outcome()
    if table.game.fmt.id in BUILTIN_FORMATS:
        # the script the table writes names its format by id (a house format's by file: #49)
        assert run_script(table.game_script()).outcome() == run_script(text).outcome()


def test_lines_are_in_time_order_and_change_only_when_something_changes() -> None:
    text = (SCRIPTS / "yakuza" / "detective_checks.script").read_text()
    lines = observe(text)
    assert [ln["t"] for ln in lines] == sorted(ln["t"] for ln in lines)
    last: dict[object, object] = {}
    for ln in lines:
        key, value = (("ring", ln["ring"]), ln["pixels"]) if "ring" in ln else \
            (("screen",), ln["screen"]) if "screen" in ln else (None, None)
        if key is not None:
            assert last.get(key) != value, ln
            last[key] = value
    rings = [ln for ln in lines if "ring" in ln]
    assert rings and all(len(ln["pixels"]) == 12 for ln in rings)
    assert all(len(p) == 6 and int(p, 16) >= 0 for ln in rings for p in ln["pixels"])
    sounds = {ln["sound"] for ln in lines if "sound" in ln}
    assert {"city_sleeps", "wake_mafia", "sleep_mafia", "chime", "city_wakes"} <= sounds


def test_night_rings_are_capped() -> None:
    text = (SCRIPTS / "yakuza" / "detective_checks.script").read_text()
    brightest = 0
    for ln in observe(text):
        if "ring" in ln:
            brightest = max(brightest, *(int(p[i:i + 2], 16) for p in ln["pixels"]
                                         for i in (0, 2, 4)))
    assert 0 < brightest <= round(255 * 0.6)


def test_deaths_reach_the_public_screen_with_the_morning(tmp_path: Path) -> None:
    text = script("city", CITY, "night\nmafia 7\nday\n")
    lines = observe(text)
    morning = next(ln["t"] for ln in lines if ln.get("sound") == "city_wakes"
                   and ln["t"] > 60)
    for ln in lines:
        if "screen" in ln:
            seat7 = ln["screen"]["seats"][6]
            assert seat7["alive"] == (ln["t"] < morning), ln["t"]


def test_the_command_line(tmp_path: Path) -> None:
    path = tmp_path / "game.script"
    path.write_text(script("classic", CLASSIC, "night\nmafia 1\ndoctor 3\nday\n"))
    proc = subprocess.run([sys.executable, "-m", "table_app", "observe", str(path),
                           "--press-at", "2", "--lang", "ka"],
                          capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr
    out = proc.stdout.splitlines()
    assert out and all(line.startswith('{"t": ') for line in out)
    first = json.loads(out[0])
    assert first == {"t": 0.0, "sound": "city_sleeps"} and out[0].startswith('{"t": 0.000, ')
    assert json.loads(next(ln for ln in out if '"screen"' in ln))["screen"]["lang"] == "ka"


def test_a_bad_script_fails_as_replay_does(tmp_path: Path) -> None:
    bad = SCRIPTS / "errors" / "dead_seat_votes.script"
    proc = subprocess.run([sys.executable, "-m", "table_app", "observe", str(bad)],
                          capture_output=True, text=True, timeout=60)
    assert proc.returncode == 2 and proc.stdout == ""
    assert proc.stderr.strip() == bad.with_suffix(".err").read_text().strip()
    with pytest.raises(ScriptError):
        observe(bad.read_text())


# -- the leaks an audit found, each pinned -------------------------------------------------
def test_the_lovers_ring_offers_the_commissar_too() -> None:
    """Forbidding his seat would show her who he is: she may choose him (and her block on
    him does nothing)."""
    text = script("city", CITY, "night\nlover 2\ncommissar check 4\nmafia 1\nday\n")
    lines, table = play(text)
    assert table.game.outcome().checks[0].result == "black"       # his check landed
    lover_rings = [ln["pixels"] for ln in lines if ln.get("ring") == 6]
    # while asked, her ring shows every living seat but her own as a choice: seat 2 included
    assert any(px[1] != "000000" and px[5] == "000000" for px in lover_rings)


def test_the_city_don_kills_and_searches_in_one_night() -> None:
    text = script("city", CITY, "night\nmafia 1\ndon 2\nday\n")
    _, table = play(text)
    out = table.game.outcome()
    assert [(o.seat, o.by) for o in out.out] == [(1, "mafia")]
    assert [(c.by, c.seat, c.result) for c in out.checks] == [("don", 2, "detective")]


def test_the_sorcerers_voters_show_on_his_ring_only_at_the_day_cap() -> None:
    deal = {1: "sorcerer", 2: "don", 3: "mafioso", 4: "doctor", 5: "civilian", 6: "civilian",
            7: "mafioso", 8: "mafioso", 9: "lawyer", 10: "commissar", 11: "sergeant",
            12: "lover", 13: "hobo", 14: "killer", 15: "civilian", 16: "civilian",
            17: "civilian", 18: "civilian"}
    text = script("city", deal, "night\nday\nvote 1: 2 3 4 5\ntake 1 3\n")
    # 18 seats but 12 pads at a real table: the virtual table has a pad for each seat
    lines, table = play(text)
    assert [(o.seat, o.by) for o in table.game.outcome().out] == [(1, "vote"), (3, "sorcerer")]
    took_at = next(ln["t"] for ln in lines if ln.get("sound") == "sorcerer_chooses")
    after = [ln for ln in lines if "ring" in ln and ln["t"] >= took_at
             and any(p != "000000" for p in ln["pixels"])]
    assert after and {ln["ring"] for ln in after} == {1}
    brightest = max(int(p[i:i + 2], 16) for ln in after for p in ln["pixels"] for i in (0, 2, 4))
    assert brightest <= round(255 * 0.6)


def _sounds(text: str) -> list[str]:
    return [str(ln["sound"]) for ln in observe(text) if "sound" in ln]


def test_a_city_tie_says_nobody_leaves_and_the_night_follows() -> None:
    # the tie was announced as "speeches again, then a revote", and the night came instead:
    # city's tie rule is that nobody leaves
    text = script("city", CITY, "night\nmafia 1\nday\nvote 4: 2 3\nvote 5: 6 7\nnight\n")
    said = _sounds(text)
    assert "tie_nobody" in said and "revote_now" not in said
    assert said.index("city_sleeps", said.index("tie_nobody")) > 0
    from table_app.rules import effects as E
    from table_app.sound import Narrator
    tie = E.VoteTotals("vote", ((4, 5), (5, 5)))
    assert Narrator("en", revote=True).lines(tie)[-1] == ["revote_now"]   # yakuza, classic


def test_a_window_no_dealt_role_wakes_in_is_not_opened() -> None:
    # a 6-player city game has no Lover (the composition is public: the seat count gives it),
    # yet her 20 s window was woken every night
    six = {1: "mafioso", 2: "doctor", 3: "commissar", 4: "civilian", 5: "civilian",
           6: "mafioso"}
    said = _sounds(script("city", six, "night\nmafia 4\nday\n"))
    assert "wake_night" in said and "wake_lover" not in said
    assert "wake_lover" in _sounds(script("city", CITY, "night\nmafia 1\nday\n"))


# -- no press time moves what the room perceives ---------------------------------------------
def acting(text: str) -> set[int]:
    """The seats holding a role (not a civilian): their rings may show when they pressed."""
    roles = run_script(text).game.roles
    return {seat for seat, role in enumerate(roles) if role and role != "civilian"}


HOST_AT_POINTS = script("yakuza", YAKUZA, """night
foul 6
shogun 12
yakuza 12
foul 3
doctor 7
foul 2
day
foul 3
nominate 1 5
disqualify 9
""")


def test_host_commands_keep_their_point_of_the_game_whatever_the_press_time() -> None:
    """A command first in its phase comes 3 s into it, one after a night decision when that
    window closes, whenever the players press (the first foul came at --press-at before, and
    one after a decision with the hold)."""
    secret = acting(HOST_AT_POINTS)
    early = room(HOST_AT_POINTS, secret, press_at=3.0)
    late = room(HOST_AT_POINTS, secret, press_at=7.0)
    assert early == late
    fouls = [json.loads(x)["t"] for x in early if '"sound": "foul"' in x]
    assert len(fouls) == 4
    # the night begins after the deal's lead-in and twelve turns (64 s): 3 s + the chime
    from table_app.table.deal import DEAL_LEAD, VIEW_TURN
    assert fouls[0] == pytest.approx(DEAL_LEAD + 12 * VIEW_TURN + 4.0)


def test_a_window_lasts_its_time_when_a_press_ends_at_its_deadline() -> None:
    """At --press-at 7 the Yakuza's last tap is let go on the window's deadline: the window
    still closed then (it ran 0.2 s longer, until the next tap)."""
    sounds = [[(x["t"], x["sound"]) for x in observe(HOST_AT_POINTS, press_at=p)
               if "sound" in x] for p in (3.0, 7.0)]
    assert sounds[0] == sounds[1]


@pytest.mark.parametrize("name", ["yakuza/removeall_passes", "yakuza/abstentions_to_last_nominee",
                                  "city/city_wins"])
def test_lines_of_one_instant_come_in_a_fixed_order(name: str) -> None:
    """A countdown's pixel and the public timer change in one instant (t=124.000 in the first
    script): the lines came out either way round, depending on whether a press fell on that
    instant. Now sounds, rings by seat, then the screen, whatever the press times."""
    text = (SCRIPTS / f"{name}.script").read_text()
    secret = acting(text)
    assert room(text, secret, press_at=3.0) == room(text, secret, press_at=4.5)
    rank = {"sound": 0, "ring": 1, "screen": 2}
    lines = observe(text)
    for a, b in zip(lines, lines[1:], strict=False):
        if a["t"] == b["t"]:
            ka, kb = (next(k for k in rank if k in x) for x in (a, b))
            assert (rank[ka], a.get("ring", 0)) <= (rank[kb], b.get("ring", 0)), (a, b)


CITY18 = {1: "sorcerer", 2: "don", 3: "mafioso", 4: "doctor", 5: "civilian", 6: "civilian",
          7: "mafioso", 8: "mafioso", 9: "lawyer", 10: "commissar", 11: "sergeant",
          12: "lover", 13: "hobo", 14: "killer", 15: "civilian", 16: "civilian",
          17: "civilian", 18: "civilian"}


@pytest.mark.parametrize("then", ["night\nmafia 6\nday\n", ""])
def test_with_roles_hidden_a_voted_out_sorcerer_looks_like_anyone(then: str) -> None:
    """`reveal_roles false`: seat 1 voted out is the Sorcerer (who names nobody) in one game
    and a civilian in the other. The Sorcerer got the 'sorcerer chooses' call and a 15 s
    public step, the civilian neither: now every seat voted out gets the same step, sound and
    length, whatever its role."""
    body = "night\nday\nvote 1: 2 3 4 5\n" + then
    a, b = (_hidden(script("city", CITY18, body, swap)) for swap in (None, (1, 15)))
    assert_same(a, b, {1, 15})


def _hidden(text: str) -> str:
    """The script with the roles of the seats that leave kept hidden."""
    return text.replace("deal ", "option reveal_roles false\ndeal ", 1)


def test_with_roles_hidden_the_sorcerers_take_lands_when_his_time_is_up() -> None:
    """His take still takes his voter along, at the end of the same 15 s every seat voted out
    gets (ending the step at his hold would time his role)."""
    text = _hidden(script("city", CITY18, "night\nday\nvote 1: 2 3 4 5\ntake 1 3\n"))
    lines, table = play(text)
    assert [(o.seat, o.by) for o in table.game.outcome().out] == [(1, "vote"), (3, "sorcerer")]


def test_at_raised_caps_the_budget_tells_no_ballot(tmp_path: Path,
                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    """Both caps at 1.0 (a settings file, as `observe` takes it from TABLE_APP_SETTINGS): the
    controller's current budget engages, and every ring dims by its level. Seats 3 and 5
    swap their ballots (the totals are the same): every other ring must give the same light.
    The budget once counted what the rings showed, so a third seat's amber was 49 or 42 by
    where two others' cursors and ballots were."""
    settings = tmp_path / "settings.toml"
    settings.write_text("[light]\nnight_cap = 1.0\nday_cap = 1.0\n", encoding="utf-8")
    monkeypatch.setenv("TABLE_APP_SETTINGS", str(settings))
    body = ("night\nshogun 1\nyakuza 1\ndoctor 2\nday\nnominate 2 7\nnominate 4 8\n"
            "vote 7: 3 6 9\nvote 8: 5 10 11\nnight\n")
    a = script("yakuza", YAKUZA, body)
    b = a.replace("vote 7: 3 6 9\nvote 8: 5 10 11", "vote 7: 5 6 9\nvote 8: 3 10 11")
    assert_same(a, b, {3, 5})
    # the file's caps are the table's: a night cursor is as bright as the budget lets twelve
    # rings be (the default night cap, 0.25, would give 64)
    from firmware_bridge import ringdraw as rd
    from firmware_bridge.fwconfig import BUDGET_MA
    level = rd.budget_level(12 * rd.allowance(b"", 12), BUDGET_MA)
    brightest = max(int(p[i:i + 2], 16) for ln in observe(a) if "ring" in ln
                    for p in ln["pixels"] for i in (0, 2, 4))
    assert brightest == 255 * level >> 8 > 64


def test_a_settings_file_observe_cannot_use_is_one_line(tmp_path: Path) -> None:
    settings = tmp_path / "settings.toml"
    settings.write_text("[light]\nday_cap = 7\n", encoding="utf-8")
    path = tmp_path / "g.script"
    path.write_text(script("yakuza", YAKUZA, "night\n"), encoding="utf-8")
    import os
    proc = subprocess.run([sys.executable, "-m", "table_app", "observe", str(path)],
                          capture_output=True, text=True, timeout=120,
                          env={**os.environ, "TABLE_APP_SETTINGS": str(settings)})
    assert proc.returncode == 2 and proc.stdout == ""
    assert len(proc.stderr.strip().splitlines()) == 1 and "day_cap" in proc.stderr


def test_the_settings_files_language_is_the_hosts_choice(tmp_path: Path) -> None:
    """observe.md: a TABLE_APP_SETTINGS file sets the host's choices that change what the
    room perceives. His language is one (the public screen's words, the clips he hears): it
    was always English unless `--lang` said otherwise; `--lang` still wins."""
    import os
    settings = tmp_path / "settings.toml"
    settings.write_text('lang = "ka"\n', encoding="utf-8")
    path = tmp_path / "g.script"
    path.write_text(script("yakuza", YAKUZA, "night\n"), encoding="utf-8")

    def first_screen(*extra: str) -> Any:
        proc = subprocess.run([sys.executable, "-m", "table_app", "observe", str(path), *extra],
                              capture_output=True, text=True, timeout=300, check=True,
                              env={**os.environ, "TABLE_APP_SETTINGS": str(settings)})
        return next(json.loads(ln)["screen"] for ln in proc.stdout.splitlines()
                    if '"screen"' in ln)
    assert first_screen()["lang"] == "ka"
    assert first_screen("--lang", "uz")["lang"] == "uz"
