"""Counting a player's taps tells nothing of his answer.

A neighbour sees how many short presses a player makes before his hold. The cursor starts at a
place drawn from the seed; the taps to an answer are the steps from that start round the
cycle of places (the eligible seats, then "nobody"). These tests work out, for every kind of
question and every table size, how many taps each answer takes from each possible start, and
require the same spread for every answer; and they check that the table's own draws, in real
games of every format, are taken over every place.
"""

from __future__ import annotations

import random
from collections import Counter
from pathlib import Path

import pytest

from table_app.pads.grammar import PressGrammar, Stages, presses_to, split_parts, staged
from table_app.table.questions import Questions, cursor_places, start_cursor, start_stages
from table_app.tools.observe import play

SCRIPTS = Path(__file__).parent / "scripts"
SEEDS = range(600)


def drawn_starts(eligible: tuple[int, ...], phase: str = "night 1", seat: int = 1,
                 number: int = 1) -> Counter[int | None]:
    """Where the table's own draw puts the cursor, over many seeds."""
    return Counter(start_cursor(seed, phase, seat, number, eligible) for seed in SEEDS)


def taps_given(answer: int | None, starts: list[int | None],
               eligible: tuple[int, ...]) -> Counter[int]:
    """How many taps `answer` takes from each start, each start as likely."""
    return Counter(presses_to(s, answer, eligible) for s in starts)


def questions(n: int) -> list[tuple[str, tuple[int, ...]]]:
    """The kinds of question a table of `n` seats asks, with eligible sets as the table makes
    them: a night pick of anybody but oneself or of anybody, a vote among 1 to n nominees, the
    yes/no of a mode or of removing all, and a few seat sets drawn at random."""
    out: list[tuple[str, tuple[int, ...]]] = [
        ("pick others", tuple(range(2, n + 1))),
        ("pick anybody", tuple(range(1, n + 1))),
        ("yesno", (1, 2)),
    ]
    out += [(f"vote {k}", tuple(range(1, k + 1))) for k in range(1, n + 1)]
    rng = random.Random(n)
    for k in (1, 2, 3, n // 2):
        out.append((f"pick {k} at random", tuple(sorted(rng.sample(range(1, n + 1), k)))))
    return out


def routes_given(answer: int | None, eligible: tuple[int, ...], n: int) -> Counter[tuple[int, ...]]:
    """A big choice (two steps): the taps before each hold that `answer` takes, through the
    real grammar, from every start the draw can give (each first part, each place the
    answer's part opens on), each as likely."""
    parts, places = split_parts(eligible)
    grammar = PressGrammar(n)
    seen: Counter[tuple[int, ...]] = Counter()
    for first in range(len(parts)):
        for start in range(places):
            grammar.ask(1, eligible, stages=Stages(parts, places, first, (start,) * len(parts)))
            seen[tuple(grammar.route(1, answer))] += 1
    return seen


@pytest.mark.parametrize("n", range(13, 31))
def test_a_big_choices_two_tap_counts_tell_nothing(n: int) -> None:
    """In two steps a neighbour counts two numbers: the taps before the first hold and
    before the second. For every answer (nobody too) each pair is as likely as any other,
    and the draw reaches every first part and every opening place."""
    for kind, eligible in questions(n):
        if not staged(eligible, n):
            continue
        parts, places = split_parts(eligible)
        spreads = {a: routes_given(a, eligible, n) for a in cursor_places(eligible)}
        every = Counter({(a, b): 1 for a in range(len(parts)) for b in range(places)})
        for answer, spread in spreads.items():
            assert spread == every, (n, kind, answer, spread)
        drawn = [start_stages(seed, "night 1", 1, 1, eligible) for seed in SEEDS]
        assert {d.first for d in drawn} == set(range(len(parts))), (n, kind)
        assert {d.starts[-1] for d in drawn} == set(range(places)), (n, kind)


@pytest.mark.parametrize("n", range(4, 31))
def test_every_answer_takes_each_number_of_taps_equally_often(n: int) -> None:
    for kind, eligible in questions(n):
        if staged(eligible, n):
            continue             # two steps: the test above
        drawn = drawn_starts(eligible)
        places = cursor_places(eligible)
        # the draw reaches every place the cursor can take, and nothing else ...
        assert set(drawn) == set(places), (n, kind)
        # ... so, each start as likely, every answer has the same spread of tap counts
        spreads = {a: taps_given(a, places, eligible) for a in places}
        first = spreads[places[0]]
        for answer, spread in spreads.items():
            assert spread == first, (n, kind, answer, spread, first)
        # each count from 0 to places-1 once: no count rules any answer out
        assert sorted(first) == list(range(len(places))), (n, kind)


def test_the_draw_is_even_over_the_places() -> None:
    """Not only every place: each about as often (600 seeds, three candidates and nobody)."""
    eligible = (2, 5, 9)
    drawn = Counter(start_cursor(seed, "day 1", 3, 1, eligible) for seed in range(4000))
    assert set(drawn) == {2, 5, 9, None}
    for count in drawn.values():
        assert 850 < count < 1150, drawn
    # two nominees, as the audit measured: tap counts given each ballot now agree
    pair = (4, 7)
    starts = [start_cursor(seed, "day 2", 5, 1, pair) for seed in range(4000)]
    by_answer = {a: Counter(presses_to(s, a, pair) for s in starts) for a in (4, 7, None)}
    for a, spread in by_answer.items():
        assert set(spread) == {0, 1, 2}, (a, spread)
        assert all(1150 < c < 1520 for c in spread.values()), (a, spread)


def test_the_draw_depends_on_the_seed_phase_seat_and_number_only() -> None:
    assert start_cursor(7, "night 2", 4, 2, (1, 3, 8)) == start_cursor(7, "night 2", 4, 2,
                                                                        (8, 3, 1))
    assert len({start_cursor(7, f"night {n}", 4, 1, tuple(range(1, 13)))
                for n in range(1, 30)}) > 5


GAMES = [SCRIPTS / "yakuza" / "full_game_city_wins.script",
         SCRIPTS / "classic" / "maniac_left_alone_wins.script",
         SCRIPTS / "city" / "sorcerer_takes_voter_by_day.script"]


@pytest.mark.parametrize("path", GAMES, ids=lambda p: p.parent.name)
def test_every_question_a_real_game_asks_starts_anywhere(path: Path,
                                                         monkeypatch: pytest.MonkeyPatch) -> None:
    """The table's questions (night picks, ballots, yes/no) go through the one draw, and
    each question's start, over seeds, covers every place of its own eligible set."""
    asked: list[tuple[str, str, int, int, tuple[int, ...], str]] = []
    put = Questions._put

    def spy(self: Questions, seat: int, q: object) -> None:
        put(self, seat, q)  # type: ignore[arg-type]
        question = self.now[seat]
        if question.seeded:
            # the start the pad was given is the one draw's, for this question
            if staged(question.eligible, self.panel.backend.table):
                stages = start_stages(self.seed, self.phase, seat, self.numbers[seat],
                                      question.eligible)
                assert self.panel.grammar.seats[seat].stages == stages
                assert self.panel.grammar.part(seat) == (stages.parts[stages.first], False)
                return
            assert self.panel.grammar.cursor(seat) == start_cursor(
                self.seed, self.phase, seat, self.numbers[seat], question.eligible)
            asked.append((question.what, self.phase, seat, self.numbers[seat],
                          question.eligible, question.kind))

    monkeypatch.setattr(Questions, "_put", spy)
    play(path.read_text())
    kinds = {kind for *_, kind in asked}
    assert "pick" in kinds and "vote" in kinds, kinds
    for what, phase, seat, number, eligible, _ in asked:
        drawn = Counter(start_cursor(seed, phase, seat, number, eligible) for seed in SEEDS)
        assert set(drawn) == set(cursor_places(eligible)), (what, phase, seat, eligible)
