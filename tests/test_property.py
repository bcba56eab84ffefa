"""Many random legal games: each ends with one winner, no dead seat ever acts, no vote has
more ballots than living seats, and a dead seat that tries to act is refused."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from table_app.rules import Game, IllegalAction, find_format
from table_app.rules import actions as A
from table_app.rules import effects as E
from table_app.rules.bots import play
from table_app.rules.roles import DECISIONS

TABLES = [("yakuza", 12), ("classic", 11), ("classic", 6), ("city", 4), ("city", 8),
          ("city", 12), ("city", 19), ("city", 25), ("city", 30)]


class Watch:
    """Checks every action and effect of one bot game as it happens."""

    def __init__(self) -> None:
        self.living_before: list[int] = []
        self.actions = 0
        self.refusals = 0

    def __call__(self, game: Game, action: A.Action, fx: list[E.Effect]) -> None:
        self.actions += 1
        before = set(self.living_before) if self.living_before else set(game.living())
        # no dead seat ever acts
        if isinstance(action, A.Decide):
            acted = [f for f in fx if isinstance(f, E.Decided)]
            assert acted, action
        if isinstance(action, A.Nominate):
            assert action.by in before and action.target in before
        if isinstance(action, A.Ballots):
            seats = [s for s, _ in action.ballots]
            assert len(seats) == len(set(seats))
            assert set(seats) <= before
        for f in fx:
            if isinstance(f, E.VoteTotals):
                # votes never exceed the seats alive when the vote was cast
                assert sum(n for _, n in f.totals) <= len(before)
            if isinstance(f, E.Eliminated):
                assert f.seat in before
        self.living_before = game.living()
        self._dead_seat_is_refused(game)

    def _dead_seat_is_refused(self, game: Game) -> None:
        dead = [s for s in range(1, game.n + 1) if not game.alive[s]]
        if not dead or game.phase != "day":
            return
        seat = dead[0]
        probe: A.Action | None = None
        if game.step in ("vote", "revote") and game.candidates:
            probe = A.Ballot(seat, game.candidates[0])
        elif game.step == "speeches":
            probe = A.Nominate(seat, game.living()[0])
        elif game.step == "removeall":
            probe = A.RemoveAllYes(seat)
        if probe is not None:
            snapshot = (list(game.alive), dict(game.ballots), list(game.nominees), set(game.yes))
            with pytest.raises(IllegalAction):
                Game.apply(game, probe)
            assert snapshot == (list(game.alive), dict(game.ballots), list(game.nominees),
                                set(game.yes))
            self.refusals += 1


def _check_finished(game: Game) -> None:
    assert game.phase == "over"
    assert game.winner is not None and game.winner in game.fmt.teams
    assert game.fmt.winner(game.tally()) == game.winner
    seats = [o.seat for o in game.out]
    assert len(seats) == len(set(seats))
    assert sorted(seats + game.living()) == list(range(1, game.n + 1))
    for c in game.checks:
        assert c.by in DECISIONS and c.result in ("black", "red", "detective", "no")


@pytest.mark.parametrize("fmt_id, players", TABLES)
@pytest.mark.parametrize("policy", ["random", "informed"])
def test_many_seeded_games_end_cleanly(fmt_id: str, players: int, policy: str) -> None:
    fmt = find_format(fmt_id)
    rng = random.Random(f"{fmt_id}-{players}-{policy}")
    refusals = 0
    for _ in range(60):
        watch = Watch()
        game = play(fmt, players, rng, policy, observe=watch)
        _check_finished(game)
        refusals += watch.refusals
    assert refusals > 0       # the dead-seat probe really ran


@settings(max_examples=60, deadline=None)
@given(seed=st.integers(min_value=0, max_value=2**32 - 1),
       table=st.sampled_from(TABLES))
def test_any_seed_gives_a_finished_game(seed: int, table: tuple[str, int]) -> None:
    fmt_id, players = table
    game = play(find_format(fmt_id), players, random.Random(seed), observe=Watch())
    _check_finished(game)
