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
from .format import Format

POLICIES = ("random", "informed")


class GameTooLong(RuntimeError):
    """A bot game that did not end: a rules bug (the soak test looks for these)."""


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
    informed = policy == "informed"
    know = Knowledge()
    while game.phase != "over":
        if game.night_no > max_rounds:
            raise GameTooLong(f"{fmt.id} game with {players} seats still running")
        if game.phase == "night":
            if game.step == "done":
                game.apply(A.BeginDay())
                continue
            for d in game.open_decisions():
                mode = ""
                if d == "commissar":
                    mode = "shoot" if rng.random() < 0.3 and game.legal_targets(
                        d, "shoot") else "check"
                targets = game.legal_targets(d, mode)
                if informed and targets:
                    targets = _informed_targets(game, d, mode, targets, know) or targets
                if not targets:
                    continue
                fx = game.apply(A.Decide(d, rng.choice(targets), mode))
                if informed:
                    for f in fx:
                        if isinstance(f, E.CheckResult) and f.result in ("black", "red"):
                            (know.black if f.result == "black" else know.red).add(f.target)
            game.apply(A.Close())
            continue
        st = game.step
        if st == "speeches":
            living = game.living()
            rand = rng.random
            for seat in living:
                if rand() >= 0.35:
                    continue
                if informed:
                    options = [s for s in living if s not in game.nominees and s != seat]
                    options = _suspects(game, seat, options, know) or options
                    if options:
                        game.apply(A.Nominate(seat, rng.choice(options)))
                else:
                    target = living[int(rand() * len(living))]
                    if target != seat and target not in game.nominees:
                        game.apply(A.Nominate(seat, target))
            game.apply(A.Close())
        elif st in ("defence", "tie"):
            game.apply(A.Close())
        elif st in ("vote", "revote"):
            cands = game.candidates
            rand = rng.random
            ballots = []
            for seat in game.living():
                if rand() < 0.1:
                    continue        # abstains
                if informed:
                    options = [c for c in cands if c != seat] or cands
                    options = _suspects(game, seat, options, know) or options
                    ballots.append((seat, rng.choice(options)))
                else:
                    ballots.append((seat, cands[int(rand() * len(cands))]))
            game.apply(A.Ballots(tuple(ballots)))
        elif st == "removeall":
            for seat in game.living():
                if rng.random() < 0.5:
                    game.apply(A.RemoveAllYes(seat))
            game.apply(A.Close())
        elif st == "take":
            game.apply(A.Take(game.take_seat, rng.choice(game.take_voters)))
        else:
            game.apply(A.BeginNight())
    return game


def _informed_targets(game: Game, d: str, mode: str, targets: list[int],
                      know: Knowledge) -> list[int]:
    team_of, roles = game.fmt.team_of, game.roles
    if d in ("mafia", "don", "lawyer"):
        # the Mafia knows its own: it kills and searches outside, protects inside
        inside = [t for t in targets if team_of[roles[t]] == "mafia"]
        return inside if d == "lawyer" else [t for t in targets if t not in inside]
    if d in ("shogun", "yakuza"):
        return [t for t in targets if team_of[roles[t]] != "yakuza"]
    if d in ("detective",) or (d == "commissar" and mode == "check"):
        return [t for t in targets if t not in know.black and t not in know.red]
    if d == "commissar" and mode == "shoot":
        return [t for t in targets if t in know.black]
    if d == "doctor":
        return [t for t in targets if t in know.red]
    return []


def _suspects(game: Game, seat: int, options: list[int], know: Knowledge) -> list[int]:
    team_of, roles = game.fmt.team_of, game.roles
    mine = team_of[roles[seat]]
    if mine != "city":
        return [o for o in options if team_of[roles[o]] != mine]
    return [o for o in options if o in know.black] or [o for o in options if o not in know.red]
