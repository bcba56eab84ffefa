"""The engine's API beyond game scripts: the waiting query, effects and who sees them,
the pure `step`, dealing from a seed, formats as data."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest

from table_app.rules import (
    FormatError,
    Game,
    IllegalAction,
    InvalidAction,
    deal_from_seed,
    find_format,
    format_from_text,
    load_format,
    run_script,
    step,
)
from table_app.rules import actions as A
from table_app.rules import effects as E
from table_app.rules.format import BUILTIN_FORMATS

YAKUZA_DEAL = ("civilian", "detective", "civilian", "don", "mafioso", "civilian", "doctor",
               "mafioso", "civilian", "shogun", "yakuza", "civilian")


YAKUZA_SCRIPT_DEAL = "deal " + " ".join(f"{i}={r}" for i, r in enumerate(YAKUZA_DEAL, 1)) + "\n"


def yakuza() -> Game:
    g = Game(find_format("yakuza"))
    g.apply(A.Deal(YAKUZA_DEAL))
    return g


def test_seed_deals_reproducibly_with_the_format_composition() -> None:
    for fmt_id, n in (("yakuza", 12), ("classic", 11), ("classic", 7), ("city", 13),
                      ("city", 30)):
        fmt = find_format(fmt_id)
        a, b = deal_from_seed(fmt, n, 42), deal_from_seed(fmt, n, 42)
        assert a == b
        assert Counter(a.roles) == Counter(fmt.composition[n])
    deals = {deal_from_seed(find_format("yakuza"), 12, s).roles for s in range(20)}
    assert len(deals) > 15


def test_seed_in_a_script_replays_identically() -> None:
    text = "format classic\nseed 99\nnight\nday\nnight\nday\n"
    assert run_script(text).outcome() == run_script(text).outcome()
    assert run_script(text).game.roles == run_script(text).game.roles


def test_waiting_names_the_window_its_actors_and_its_timer() -> None:
    g = yakuza()
    assert g.waiting().phase == "ready"
    fx = g.apply(A.BeginNight())
    assert E.Wake("mafia", ("don", "mafioso"), ("mafia",), "intro_mafia", 20) in fx
    w = g.waiting()
    assert (w.phase, w.number, w.window, w.timer, w.seconds) == ("night", 1, "mafia",
                                                                  "intro_mafia", 20)
    assert w.awake == (4, 5, 8) and w.decisions == ()      # the Mafia only meets
    g.apply(A.Close())
    w = g.waiting()
    assert w.window == "yakuza" and w.awake == (10, 11) and w.seconds == 10
    assert w.decisions == ("shogun", "yakuza") and w.actors == {"shogun": 10, "yakuza": 11}


def test_day_waiting_speaker_nominees_and_vote() -> None:
    g = yakuza()
    g.apply(A.BeginNight())
    g.apply(A.Decide("doctor", 1))
    g.finish_phase()          # the Yakuza's default hits seat 1, the save covers it
    fx = g.apply(A.BeginDay())
    assert E.Morning(1, (), 0) in fx
    assert E.Speech(1, "speech", "speech", 60) in fx
    g.apply(A.Nominate(1, 4))
    for _ in range(10):
        g.apply(A.EndSpeech())
    w = g.waiting()
    assert w.speaker == 11
    g.apply(A.Nominate(11, 5))
    fx = g.apply(A.EndSpeech())
    # the list is said before the last speaker
    assert fx[0] == E.NomineesAnnounced((4, 5)) and fx[1].seat == 12    # type: ignore[union-attr]
    g.apply(A.EndSpeech())
    assert g.waiting().step == "defence" and g.waiting().speaker == 4
    assert g.waiting().seconds == 30
    g.apply(A.EndSpeech())
    fx = g.apply(A.EndSpeech())
    assert fx == [E.VoteOpens("vote", (4, 5), "vote", 10)]
    assert g.waiting().voters == tuple(range(1, 13))


def test_ballots_are_secret_only_totals_come_out() -> None:
    g = yakuza()
    g.apply(A.BeginNight())
    g.apply(A.Decide("doctor", 1))
    g.finish_phase()
    g.apply(A.BeginDay())
    g.apply(A.Nominate(1, 4))
    g.apply(A.Nominate(2, 5))
    g.apply(A.Close())
    g.apply(A.Close())
    fx = g.apply(A.Ballots(((1, 4), (2, 4), (3, 5))))
    totals = [f for f in fx if isinstance(f, E.VoteTotals)]
    assert totals == [E.VoteTotals("vote", ((4, 2), (5, 10)))]
    for f in fx:
        assert not hasattr(f, "seat") or isinstance(f, E.Eliminated)


def test_a_check_result_is_for_the_checker_only() -> None:
    g = yakuza()
    g.apply(A.BeginNight())
    g.finish_phase()
    g.apply(A.BeginDay())
    g.finish_phase()
    g.apply(A.BeginNight())
    g.apply(A.Close())
    fx = g.apply(A.Decide("don", 2))
    assert E.CheckResult("don", 2, "detective", audience=4) in fx
    public = [f for f in fx if f.audience == E.PUBLIC]
    assert public == []


def test_a_dead_role_is_woken_for_the_same_time() -> None:
    alive = yakuza()
    dead = yakuza()
    dead.apply(A.BeginNight())
    dead.apply(A.Disqualify(7))           # the Doctor is out
    alive.apply(A.BeginNight())
    walk_a = [alive.waiting().seconds]
    walk_d = [dead.waiting().seconds]
    wakes_a, wakes_d = [], []
    while alive.phase == "night" and alive.step == "windows":
        wakes_a += [f for f in alive.apply(A.Close()) if isinstance(f, E.Wake)]
        wakes_d += [f for f in dead.apply(A.Close()) if isinstance(f, E.Wake)]
        walk_a.append(alive.waiting().seconds)
        walk_d.append(dead.waiting().seconds)
    assert wakes_a == wakes_d and walk_a == walk_d
    assert [w.window for w in wakes_a] == ["yakuza", "detective", "doctor"]


def test_step_is_pure_and_apply_is_not() -> None:
    g = yakuza()
    new, fx = step(g, A.BeginNight())
    assert g.phase == "ready" and new.phase == "night" and fx
    with pytest.raises(IllegalAction):
        step(g, A.Nominate(1, 2))
    assert g.phase == "ready"


def test_invalid_and_illegal_are_told_apart() -> None:
    g = yakuza()
    g.apply(A.BeginNight())
    with pytest.raises(InvalidAction):
        g.apply(A.Decide("sheriff", 3))
    with pytest.raises(InvalidAction):
        g.apply(A.Decide("doctor", 40))
    with pytest.raises(IllegalAction):
        g.apply(A.Decide("mafia", 3))           # the introduction night
    with pytest.raises(InvalidAction):
        Game(find_format("yakuza"), 11)


def test_hobo_witnesses_who_killed_where_he_went() -> None:
    text = ("format city\nplayers 14\n"
            "deal 1=hobo 2=don 3=killer 4=doctor 5=civilian 6=civilian 7=mafioso 8=mafioso\n"
            "deal 9=lawyer 10=commissar 11=sergeant 12=lover 13=civilian 14=civilian\n"
            "night\nhobo 5\nmafia 5\nkiller 5\nday\n")
    r = run_script(text)
    seen = [f for _, _, fx in r.steps for f in fx if isinstance(f, E.Witness)]
    assert seen == [E.Witness(5, (2, 3), audience=1)]
    assert r.outcome().to_json()["out"] == [{"seat": 5, "phase": "night 1", "by": "mafia"}]


def test_roles_revealed_in_city_not_in_yakuza() -> None:
    city = run_script("format city\nplayers 4\ndeal 1=mafioso 2=doctor 3=civilian 4=civilian\n"
                      "night\nday\nvote 3: 1 2\n")
    gone = [f for _, _, fx in city.steps for f in fx if isinstance(f, E.Eliminated)]
    assert gone == [E.Eliminated(3, "day 1", "vote", "civilian")]
    yak = run_script("format yakuza\n" + YAKUZA_SCRIPT_DEAL + "night\ndoctor 7\nday\n")
    gone = [f for _, _, fx in yak.steps for f in fx if isinstance(f, E.Eliminated)]
    assert gone and all(f.role is None for f in gone)


def test_option_changes_a_rule() -> None:
    base = ("format yakuza\nDEAL\nnight\ndoctor 7\nday\n")
    deal = ("deal 1=civilian 2=detective 3=civilian 4=don 5=mafioso 6=civilian 7=doctor "
            "8=mafioso 9=civilian 10=shogun 11=yakuza 12=civilian")
    with_default = run_script(base.replace("DEAL", deal)).outcome().to_json()
    without = run_script(base.replace("DEAL", "option yakuza_default_kill false\n" + deal))
    assert with_default["out"] == [{"seat": 1, "phase": "night 1", "by": "yakuza"}]
    assert without.outcome().to_json()["out"] == []


def test_fouls_to_disqualify_option() -> None:
    text = ("format classic\noption fouls_to_disqualify 3\nseed 4\nnight\nday\n"
            "foul 2\nfoul 2\nfoul 2\n")
    out = run_script(text).outcome().to_json()["out"]
    assert {"seat": 2, "phase": "day 1", "by": "disqualified"} in out


@pytest.mark.parametrize("fmt_id", BUILTIN_FORMATS)
def test_builtin_formats_load_and_cover_their_counts(fmt_id: str) -> None:
    fmt = find_format(fmt_id)
    for n in range(fmt.min_players, fmt.max_players + 1):
        assert sum(fmt.composition[n].values()) == n


def _yakuza_text() -> str:
    here = Path(__file__).parent.parent / "table_app" / "rules" / "formats" / "yakuza.toml"
    return here.read_text()


def test_a_house_variant_loads_from_a_copied_file(tmp_path: Path) -> None:
    text = _yakuza_text().replace("speech = 60", "speech = 45").replace(
        'id = "yakuza"', 'id = "our-club"')
    path = tmp_path / "our-club.toml"
    path.write_text(text)
    fmt = load_format(path)
    assert fmt.id == "our-club" and fmt.timers["speech"] == 45
    g = Game(fmt)
    g.apply(deal_from_seed(fmt, 12, 1))
    g.apply(A.BeginNight())


@pytest.mark.parametrize("change, message", [
    (('mafioso = 2, shogun', 'mafioso = 3, shogun'), "add up to 13, not 12"),
    (('civilian = 5', 'civilian = 4, wizard = 1'), "no rule knows the role 'wizard'"),
    (('decisions = ["doctor"]', 'decisions = ["heal"]'), "no rule knows the decision 'heal'"),
    (('timer = "wake"', 'timer = "nap"'), "no timer named 'nap'"),
    (('doctor_auto_save = true', 'doctor_auto_save = 3'), "doctor_auto_save takes true or false"),
    (('tie = "revote"', 'tie = "coin"'), "option tie takes one of revote, nobody"),
    (('wakes = ["doctor"]', 'wakes = ["witch"]'), "role 'witch' is not in the format"),
])
def test_an_inconsistent_format_is_a_clear_error(change: tuple[str, str], message: str) -> None:
    text = _yakuza_text()
    assert change[0] in text
    with pytest.raises(FormatError) as info:
        fmt = format_from_text(text.replace(change[0], change[1], 1), "house.toml")
        Game(fmt)
    assert message in str(info.value)
    assert str(info.value).startswith("house.toml")


def test_a_dealt_role_the_format_does_not_list_is_caught() -> None:
    text = _yakuza_text().replace("civilian = 5,", "civilian = 4, maniac = 1,")
    with pytest.raises(FormatError, match="role 'maniac' is not in roles"):
        format_from_text(text, "house.toml")


def test_sides_belong_to_the_roles_not_the_format() -> None:
    text = _yakuza_text().replace("roles = [", "[teams]\ncity = []\n\n[x]\nroles = [", 1)
    with pytest.raises(FormatError, match="list the format's roles"):
        format_from_text(text, "house.toml")


def test_not_toml_is_a_clear_error(tmp_path: Path) -> None:
    path = tmp_path / "broken.toml"
    path.write_text("id = \n")
    with pytest.raises(FormatError, match="not valid TOML"):
        load_format(path)
