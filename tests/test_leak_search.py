"""A search for leaks: pairs of games that differ in one secret, generated, not hand-picked.

Hypothesis builds a legal game (a format and table size, a deal, a night, a day and a second
night, each choice drawn), then a twin that differs from it in one secret only: two seats'
roles swapped, one night decision aimed elsewhere (a check, a search, a save, a block, ...),
two voters' ballots swapped (the totals stay), or the night presses made at another moment.
Twins whose public course differs (who left the game, when, how, who won, and the roles the
format reveals as players leave) are not pairs that share a secret and are set aside. Both
are played through `observe`; the room must perceive the same lines apart from the rings of
the seats entitled to the secret: the seats holding a role (their rings show their own
questions and answers) and, for a swap, the two seats.

In the suite the search is short and always the same (derandomized). For a longer, new
search: `TABLE_APP_LEAK_EXAMPLES=500 python -m pytest tests/test_leak_search.py`.
"""

from __future__ import annotations

import os
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

from hypothesis import HealthCheck, Phase, assume, event, given, settings
from hypothesis import strategies as st

from table_app.rules import Game, IllegalAction, ScriptError, find_format, run_script
from table_app.rules import actions as A
from table_app.rules.engine import deal_from_seed
from table_app.rules.roles import DECISION
from table_app.rules.state import (
    DAY,
    DEFENCE,
    DONE,
    OVER,
    REMOVEALL,
    REVOTE,
    SPEECHES,
    TAKE,
    TIE,
    VOTE,
)
from table_app.settings import ENV as SETTINGS_ENV
from table_app.tools.observe import format_line, observe
from table_app.words import LANGS

EXAMPLES = int(os.environ.get("TABLE_APP_LEAK_EXAMPLES", "0"))
TABLES = [("yakuza", 12), ("classic", 11), ("classic", 7), ("city", 6), ("city", 12),
          ("city", 20)]
KINDS = ["seat", "target", "ballot", "press"]

Draw = Callable[[st.SearchStrategy[Any]], Any]


# -- a legal game, choice by choice ----------------------------------------------------------
def game_lines(draw: Draw, fmt_id: str, n: int, hidden: bool = False) -> list[str]:
    """A script of one night, one day and one more night, every choice drawn and legal
    (`hidden`: the roles of the seats that leave are not shown)."""
    fmt = find_format(fmt_id)
    deal = deal_from_seed(fmt, n, draw(st.integers(0, 2**31)))
    game = Game(fmt, n, {"reveal_roles": False} if hidden else None)
    game.apply(deal)
    lines = [f"format {fmt_id}", f"players {n}",
             "deal " + " ".join(f"{s}={r}" for s, r in enumerate(deal.roles, 1))]
    if hidden:
        lines.append("option reveal_roles false")     # (after the deal: the twin swaps line 3)
    game.apply(A.BeginNight())
    lines.append("night")
    phases = 1
    while game.phase is not OVER:
        if game.phase is DAY or game.step is DONE:
            if phases == 3:
                break
            phases += 1
            if game.phase is DAY:
                game.apply(A.BeginNight())
                lines.append("night")
            else:
                game.apply(A.BeginDay())
                lines.append("day")
                day(draw, game, lines)
            continue
        for d in game.open_decisions():
            modes = game.modes(d) if DECISION[d].modes else [""]
            mode = draw(st.sampled_from(modes))
            targets = game.legal_targets(d, mode)
            if not targets or draw(st.integers(0, 5)) == 0:
                continue                                 # a timeout: no line
            target = draw(st.sampled_from(sorted(targets)))
            try:
                game.apply(A.Decide(d, target, mode))
            except IllegalAction:
                continue
            lines.append(" ".join(w for w in (d, mode, str(target)) if w))
            host(draw, game, lines)
        game.apply(A.Close())
    return lines


def host(draw: Draw, game: Game, lines: list[str]) -> None:
    """Now and then the host gives somebody a foul (its point in the game must not move
    with the press times)."""
    if draw(st.integers(0, 7)) == 0:
        seat = draw(st.sampled_from(sorted(game.live)))
        game.apply(A.Foul(seat))
        lines.append(f"foul {seat}")


def day(draw: Draw, game: Game, lines: list[str]) -> None:
    """The day's nominations and ballots, drawn, as far as the game goes in one day."""
    host(draw, game, lines)
    while game.phase is DAY:
        step = game.step
        if step is SPEECHES:
            for seat in list(game.live):
                if draw(st.integers(0, 3)) == 0:
                    target = draw(st.sampled_from(sorted(game.live)))
                    try:
                        game.apply(A.Nominate(seat, target))
                        lines.append(f"nominate {seat} {target}")
                    except IllegalAction:
                        pass
            game.apply(A.Close())
        elif step is VOTE or step is REVOTE:
            cands = sorted(game.candidates)
            ballots: dict[int, list[int]] = {}
            for seat in game.live:
                choice = draw(st.sampled_from(cands + [0]))
                if choice:
                    ballots.setdefault(choice, []).append(seat)
            game.apply(A.Ballots(tuple((s, c) for c, ss in ballots.items() for s in ss)))
            kw = "vote" if step is VOTE else "revote"
            lines += [f"{kw} {c}: " + " ".join(map(str, ss)) for c, ss in sorted(ballots.items())]
        elif step is REMOVEALL:
            yes = [s for s in game.live if draw(st.booleans())]
            for s in yes:
                game.apply(A.RemoveAllYes(s))
            game.apply(A.Close())
            lines.append("removeall: " + " ".join(map(str, yes)))
        elif step is TAKE:
            seat = game.take_seat
            if not game.takes_along(seat) or not game.take_voters:
                game.apply(A.Close())       # roles hidden: anyone voted out gets the step
                continue
            target = draw(st.sampled_from(sorted(game.take_voters)))
            game.apply(A.Take(seat, target))
            lines.append(f"take {seat} {target}")
        elif step is DEFENCE or step is TIE:
            game.apply(A.Close())
        else:
            return                                       # the day is over


# -- the twin --------------------------------------------------------------------------------
def twin(draw: Draw, lines: list[str], kind: str, n: int) -> tuple[list[str], set[int]]:
    """The same game but for one secret, and the seats besides the role holders that are
    entitled to it."""
    out = list(lines)
    if kind == "seat":
        deal = dict(w.split("=") for w in out[2].split()[1:])
        a, b = draw(st.lists(st.sampled_from(sorted(deal)), min_size=2, max_size=2,
                             unique=True))
        assume(deal[a] != deal[b])
        deal[a], deal[b] = deal[b], deal[a]
        out[2] = "deal " + " ".join(f"{s}={deal[s]}" for s in sorted(deal, key=int))
        return out, {int(a), int(b)}
    if kind == "target":
        aimed = [i for i, line in enumerate(out) if line.split()[0] in DECISION]
        assume(aimed)
        i = draw(st.sampled_from(aimed))
        words = out[i].split()
        new = draw(st.integers(1, n))
        assume(str(new) != words[-1])
        out[i] = " ".join(words[:-1] + [str(new)])
        return out, set()
    if kind == "ballot":
        votes = [i for i, line in enumerate(out) if line.split()[0] in ("vote", "revote")]
        pairs = [(i, j) for i in votes for j in votes if i < j and out[i].split()[0] ==
                 out[j].split()[0] and out[i].split()[2:] and out[j].split()[2:]]
        assume(pairs)
        i, j = draw(st.sampled_from(pairs))
        hi, ti = out[i].split(":")
        hj, tj = out[j].split(":")
        si, sj = ti.split(), tj.split()
        x, y = draw(st.sampled_from(si)), draw(st.sampled_from(sj))
        si[si.index(x)], sj[sj.index(y)] = y, x
        out[i], out[j] = f"{hi}: {' '.join(si)}", f"{hj}: {' '.join(sj)}"
        return out, {int(x), int(y)}
    return out, set()


def public(text: str) -> tuple[Any, ...] | None:
    """What a game's course shows everybody, or None if the rules refuse it."""
    try:
        replay = run_script(text)
    except ScriptError:
        return None
    o, game = replay.outcome(), replay.game
    # where the format reveals a leaving player's role, it is said aloud: public too
    shown = tuple((seat, game.roles[seat]) for seat in sorted(game.revealed))
    return (o.winner, tuple((x.seat, x.phase, x.by) for x in o.out), shown)


def holders(text: str) -> set[int]:
    roles = run_script(text).game.roles
    return {seat for seat, role in enumerate(roles) if role and role != "civilian"}


@settings(max_examples=EXAMPLES or 10, deadline=None, derandomize=not EXAMPLES, database=None,
          phases=[Phase.explicit, Phase.generate, Phase.shrink],
          suppress_health_check=[HealthCheck.filter_too_much, HealthCheck.too_slow,
                                 HealthCheck.data_too_large])
@given(data=st.data(), table=st.sampled_from(TABLES), kind=st.sampled_from(KINDS),
       lang=st.sampled_from(LANGS))
def test_games_that_differ_in_one_secret_look_the_same_to_the_room(
        data: st.DataObject, table: tuple[str, int], kind: str, lang: str) -> None:
    fmt_id, n = table
    compare(data, fmt_id, n, kind, lang)


#: big tables: the Hobo from 14, the Sorcerer from 18, the Werewolf from 22; two controllers
#: from 13 seats, three from 25
BIG = [13, 14, 18, 22, 25, 30]
#: the light a club may set: the defaults, or both caps at full (where every controller's
#: current budget engages)
LIGHTS = {"default": "", "full": "[light]\nnight_cap = 1.0\nday_cap = 1.0\n"}
BIG_EXAMPLES = int(os.environ.get("TABLE_APP_LEAK_BIG_EXAMPLES", "0"))


@settings(max_examples=BIG_EXAMPLES or 6, deadline=None, derandomize=not BIG_EXAMPLES,
          database=None, phases=[Phase.explicit, Phase.generate],
          suppress_health_check=[HealthCheck.filter_too_much, HealthCheck.too_slow,
                                 HealthCheck.data_too_large])
@given(data=st.data(), n=st.sampled_from(BIG), kind=st.sampled_from(KINDS),
       lang=st.sampled_from(LANGS), hidden=st.booleans(),
       light=st.sampled_from(sorted(LIGHTS)))
def test_big_tables_games_that_differ_in_one_secret_look_the_same_to_the_room(
        data: st.DataObject, n: int, kind: str, lang: str, hidden: bool, light: str) -> None:
    """The same search at 13-30 seats (two and three controllers, the Hobo, the Sorcerer,
    the Werewolf), with the roles of the seats that leave shown or hidden, under the
    default light or both caps at full. Longer: TABLE_APP_LEAK_BIG_EXAMPLES=300."""
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "settings.toml"
        path.write_text(LIGHTS[light], encoding="utf-8")
        before = os.environ.get(SETTINGS_ENV)
        os.environ[SETTINGS_ENV] = str(path)
        try:
            compare(data, "city", n, kind, lang, hidden)
        finally:
            if before is None:
                del os.environ[SETTINGS_ENV]
            else:
                os.environ[SETTINGS_ENV] = before


def compare(data: st.DataObject, fmt_id: str, n: int, kind: str, lang: str,
            hidden: bool = False) -> None:
    """A drawn game and its twin one secret apart, played through observe: the room must
    perceive the same lines but for the rings of the seats entitled to the secret."""
    lines = game_lines(data.draw, fmt_id, n, hidden)
    other, entitled = twin(data.draw, lines, kind, n)
    a, b = "\n".join(lines) + "\n", "\n".join(other) + "\n"
    pa, pb = public(a), public(b)
    assert pa is not None, a                     # the generator makes legal games
    assume(pb is not None and pa == pb)          # the same public course: one secret apart
    event(f"compared: {kind} pair, {fmt_id} {n}{' hidden' if hidden else ''}")
    press = data.draw(st.sampled_from([1.5, 2.0, 4.0])) if kind == "press" else 3.0
    entitled |= holders(a) | holders(b)
    seen = [[format_line(x) for x in observe(text, press_at=p, lang=lang)
             if x.get("ring") not in entitled] for text, p in ((a, 3.0), (b, press))]
    for k, (x, y) in enumerate(zip(*seen, strict=False)):
        assert x == y, f"{kind} pair, line {k}:\n{a}---\n{b}\n  {x[:300]}\n  {y[:300]}"
    assert len(seen[0]) == len(seen[1])
