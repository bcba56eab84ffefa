"""Seeded bot players, for the balance simulator, the benchmark and the soak tests.

Two policies: `random` picks any legal action; `informed` acts on what each side knows (the
Mafia never kills or votes its own, checkers vote for the black seats they found, the city
trusts the red ones). Both are pure: all randomness comes from the `random.Random` given.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass, field

from . import actions as A
from . import effects as E
from .engine import Game, deal_from_seed
from .errors import GameTooLong
from .format import Format
from .roles import DECISION
from .state import Phase, Step

POLICIES = ("random", "informed")
#: the side that knows nothing of its own members but what its checkers found
CITY = "city"
OVER, NIGHT = Phase.OVER, Phase.NIGHT
DONE, SPEECHES, DEFENCE, TIE = Step.DONE, Step.SPEECHES, Step.DEFENCE, Step.TIE
VOTE, REVOTE, REMOVEALL, TAKE = Step.VOTE, Step.REVOTE, Step.REMOVEALL, Step.TAKE


@dataclass
class Knowledge:
    """What the informed bots have learned: the checkers' results, by seat."""

    black: set[int] = field(default_factory=set)
    red: set[int] = field(default_factory=set)


Observer = Callable[[Game, A.Action, list[E.Effect]], None]


class _Watched(Game):
    """A game that shows every applied action and its effects to an observer (for tests)."""

    observer: Observer

    def apply(self, action: A.Action) -> list[E.Effect]:
        fx = super().apply(action)
        self.observer(self, action, fx)
        return fx


def play(fmt: Format, players: int, rng: random.Random, policy: str = "random",
         max_rounds: int = 200, observe: Observer | None = None) -> Game:
    """Play one whole game with bots; return the finished game."""
    if policy not in POLICIES:
        raise ValueError(f"unknown policy '{policy}' (one of {', '.join(POLICIES)})")
    game: Game
    if observe is None:
        game = Game(fmt, players)
    else:
        game = _Watched(fmt, players)
        game.observer = observe
    game.apply(deal_from_seed(fmt, players, rng.getrandbits(32)))
    game.apply(A.BeginNight())
    bot = _Bots(game, rng, policy == "informed")
    while game.phase is not OVER:
        if game.phase is NIGHT:
            if game.night_no > max_rounds:
                raise GameTooLong(f"{fmt.id} game with {players} seats still running")
            bot.night()
        else:
            bot.day()
    return game


class _Bots:
    """Every seat's bot: one step of the game at a time (a night's decisions, a day's step)."""

    def __init__(self, game: Game, rng: random.Random, informed: bool) -> None:
        self.game, self.rng, self.informed = game, rng, informed
        self.rand = rng.random
        self.know = Knowledge()
        self.close = A.Close()

    def night(self) -> None:
        """Every open decision made (the informed aim as their side knows), then the close."""
        game, rng, know = self.game, self.rng, self.know
        if game.step is DONE:
            game.apply(A.BeginDay())
            return
        for d in game.open_decisions():
            mode = _pick_mode(game, d, self.rand) if DECISION[d].modes else ""
            targets = game.legal_targets(d, mode)
            if self.informed and targets:
                targets = _informed_targets(game, d, mode, targets, know) or targets
            if not targets:
                continue
            fx = game.apply(A.Decide(d, rng.choice(targets), mode))
            if self.informed:
                for f in fx:
                    if isinstance(f, E.CheckResult) and f.result in ("black", "red"):
                        (know.black if f.result == "black" else know.red).add(f.target)
        game.apply(self.close)

    def day(self) -> None:
        """The day's current step, played."""
        game, rng, rand = self.game, self.rng, self.rand
        st = game.step
        if st is SPEECHES:
            self.speeches()
        elif st is DEFENCE or st is TIE:
            game.apply(self.close)
        elif st is VOTE or st is REVOTE:
            self.ballots()
        elif st is REMOVEALL:
            for seat in game.live:
                if rand() < 0.5:
                    game.apply(A.RemoveAllYes(seat))
            game.apply(self.close)
        elif st is TAKE:
            game.apply(A.Take(game.take_seat, rng.choice(game.take_voters)))
        else:
            game.apply(A.BeginNight())

    def speeches(self) -> None:
        """About a third of the speakers nominate (the informed a suspect), then the close."""
        game, rng, rand = self.game, self.rng, self.rand
        living = game.live
        nominees = game.nominees
        for seat in living:
            if rand() >= 0.35:
                continue
            if self.informed:
                options = [s for s in living if s not in nominees and s != seat]
                options = _suspects(game, seat, options, self.know) or options
                if options:
                    game.apply(A.Nominate(seat, rng.choice(options)))
            else:
                target = living[int(rand() * len(living))]
                if target != seat and target not in nominees:
                    game.apply(A.Nominate(seat, target))
        game.apply(self.close)

    def ballots(self) -> None:
        """One in ten abstains; the rest vote (the informed against a suspect)."""
        game, rng, rand = self.game, self.rng, self.rand
        cands = game.candidates
        k = len(cands)
        ballots = []
        for seat in game.live:
            if rand() < 0.1:
                continue        # abstains
            if self.informed:
                options = [c for c in cands if c != seat] or cands
                options = _suspects(game, seat, options, self.know) or options
                ballots.append((seat, rng.choice(options)))
            else:
                ballots.append((seat, cands[int(rand() * k)]))
        game.apply(A.Ballots(tuple(ballots)))


def _pick_mode(game: Game, d: str, rand: Callable[[], float]) -> str:
    """A decision made one of several ways: its killing way now and then, when it may."""
    modes = game.modes(d)
    if len(modes) > 1:
        kill = next((m for m in modes if DECISION[d].act_for(m).kills), None)
        if kill is not None and rand() < 0.3 and game.legal_targets(d, kill):
            return kill
        return next(m for m in modes if m != kill)
    return modes[0] if modes else ""


def _informed_targets(game: Game, d: str, mode: str, targets: list[int],
                      know: Knowledge) -> list[int]:
    """What a decision aims at, knowing what its side knows (its act's `aim`): the city
    knows only what its checkers found; every other side knows its own members."""
    dd = DECISION[d]
    act = dd.act_for(mode) if mode else dd.act
    return act.aim(game, game.rules.maker[d][1], targets, know.black, know.red)


def _suspects(game: Game, seat: int, options: list[int], know: Knowledge) -> list[int]:
    team_of, roles = game.fmt.team_of, game.roles
    mine = team_of[roles[seat]]
    if mine != CITY:
        return [o for o in options if team_of[roles[o]] != mine]
    return [o for o in options if o in know.black] or [o for o in options if o not in know.red]
