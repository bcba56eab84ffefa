"""The rules engine: a game's state, the actions it accepts and the effects they have.

Pure: no clock, no I/O, randomness only through a seed the caller gives (`deal_from_seed`).
`Game.apply(action)` changes the state and returns the effects; `step(game, action)` does the
same on a copy and leaves the original alone. `Game.waiting()` says what the game waits for.
The night lives in `night.py`, the day in `day.py`, what both share in `state.py`; the
classes stack in one line (State, Night, Day, Game), as the compiled engine needs.
"""

from __future__ import annotations

import random
from collections import Counter

from . import actions as A
from . import effects as E
from .actions import (
    Ballot,
    Ballots,
    BeginDay,
    BeginNight,
    Close,
    Deal,
    Decide,
    Disqualify,
    EndSpeech,
    Foul,
    Nominate,
    RemoveAllYes,
    Take,
    Timeout,
)
from .acts import ACT
from .day import _SPEAKING, _TIMER, Day
from .effects import PUBLIC
from .errors import IllegalAction, InvalidAction
from .format import Format
from .roles import ROLE, ROLES, UNIQUE_ROLES, OptionValue
from .state import (
    DAY,
    DONE,
    NIGHT,
    NONE,
    OVER,
    READY,
    REMOVEALL,
    REVOTE,
    SETUP,
    TAKE,
    VOTE,
    WINDOWS,
    Check,
    Out,
    Outcome,
    Phase,
    Step,
    Waiting,
)
from .view import Observation, observe

#: the act whose makers' visits `outcome()` lists (`witnesses` in `replay --json`)
_WATCH = ACT["witness"]

__all__ = ["Check", "Game", "Out", "Outcome", "Phase", "Step", "Waiting", "deal_from_seed",
           "step"]


def deal_from_seed(fmt: Format, players: int, seed: int) -> A.Deal:
    """Chance as a recorded event: the same seed always gives the same deal."""
    roles = fmt.roles_for(players)
    random.Random(seed).shuffle(roles)
    return A.Deal(tuple(roles))


class Game(Day):
    """One game of one format: the whole state, changed only by `apply`."""

    def __init__(self, fmt: Format, players: int | None = None,
                 options: dict[str, OptionValue] | None = None) -> None:
        n = players if players is not None else fmt.default_players
        if n is None:
            raise InvalidAction(f"the {fmt.id} format needs a player count")
        fmt.check_players(n)
        opt: dict[str, OptionValue] = dict(fmt.options)
        if options:
            opt.update(options)
        super().__init__(fmt, n, opt)

    # -- queries -------------------------------------------------------------------------
    def waiting(self) -> Waiting:
        """What the game waits for: which window is open, who speaks, what is voted on."""
        ph = self.phase
        if ph in (SETUP, READY, OVER):
            return Waiting(ph.value, 0, self.step.value)
        if ph is NIGHT:
            if self.step is not WINDOWS:
                return Waiting(ph.value, self.night_no, self.step.value)
            w = self.tonight[self.window_i]
            roles = self.roles
            awake = tuple(s for s in self.live if roles[s] in w.wakes)
            open_ = tuple(self.open_decisions())
            actors = {d: a for d in open_ if (a := self.actor(d)) is not None}
            wtimer = self._window_timer(w)
            return Waiting(ph.value, self.night_no, "windows", w.name, awake, open_, actors,
                           timer=wtimer, seconds=self.fmt.timers[wtimer])
        st = self.step
        speaker = None
        timer: str | None = None
        if st in _SPEAKING and self.speaker_i < len(self.speakers):
            speaker = self.speakers[self.speaker_i]
            timer = _TIMER[st]
        elif st in (VOTE, REVOTE):
            timer = "vote"
        elif st is REMOVEALL:
            timer = "removeall"
        secs = self.fmt.timers.get(timer, 0) if timer else 0
        voting = st in (VOTE, REVOTE, REMOVEALL)
        return Waiting(ph.value, self.day_no, st.value, speaker=speaker,
                       nominees=tuple(self.nominees), candidates=tuple(self.candidates),
                       voters=tuple(self.live) if voting else (), timer=timer, seconds=secs)

    def observation(self, viewer: int = PUBLIC) -> Observation:
        """What `viewer` (PUBLIC, HOST or a seat) may know of the game now."""
        return observe(self, viewer)

    def outcome(self) -> Outcome:
        """How the game stands: the winner (None while it goes on), who is alive, who left
        and how, and every check."""
        watched = any(d.act is _WATCH for r in self.holders for d in ROLE[r].decisions)
        return Outcome(self.fmt.id, self.winner, tuple(self.live), tuple(self.out),
                       tuple(self.checks), tuple(self.visits) if watched else None)

    # -- apply ---------------------------------------------------------------------------
    def apply(self, action: A.Action) -> list[E.Effect]:
        """Apply one action; return its effects. Raises InvalidAction or IllegalAction."""
        fx: list[E.Effect] = []
        self._fx = fx
        # the most frequent first; compiled, each test is one type check and a direct call
        if isinstance(action, Close):
            self._close(action)
        elif isinstance(action, Decide):
            self._decide(action)
        elif isinstance(action, Nominate):
            self._nominate(action)
        elif isinstance(action, Ballots):
            self._ballots(action)
        elif isinstance(action, BeginNight):
            self._begin_night(action)
        elif isinstance(action, BeginDay):
            self._begin_day(action)
        elif isinstance(action, EndSpeech):
            self._end_speech(action)
        elif isinstance(action, Ballot):
            self._ballot(action)
        elif isinstance(action, RemoveAllYes):
            self._removeall_yes(action)
        elif isinstance(action, Timeout):
            self._timeout(action)
        elif isinstance(action, Take):
            self._take(action)
        elif isinstance(action, Deal):
            self._deal(action)
        elif isinstance(action, Foul):
            self._foul(action)
        elif isinstance(action, Disqualify):
            self._disqualify(action)
        else:
            raise InvalidAction(f"not an action: {action!r}")
        self.history.append(action)
        return fx

    def finish_phase(self) -> list[E.Effect]:
        """Close everything left in the running night or day, as if its timers ran out."""
        fx: list[E.Effect] = []
        if self.phase is NIGHT:
            while self.phase is NIGHT and self.step is WINDOWS:
                fx += self.apply(A.Close())
        elif self.phase is DAY:
            while self.phase is DAY and self.step is not DONE:
                fx += self.apply(A.Close())
        return fx

    def _close(self, a: A.Close) -> None:
        if self.phase is NIGHT:
            self._close_window()
        elif self.phase is DAY:
            self._close_day_step()
        else:
            self._over()
            raise IllegalAction("nothing is running")

    def _deal(self, a: A.Deal) -> None:
        if self.phase is not SETUP:
            raise IllegalAction("the roles are already dealt")
        if len(a.roles) != self.n:
            raise InvalidAction(f"the deal names {len(a.roles)} seats, the table has {self.n}")
        seen: set[str] = set()
        for i, role in enumerate(a.roles, 1):
            if role not in ROLES:
                raise InvalidAction(f"unknown role '{role}'")
            if role not in self.fmt.roles:
                raise InvalidAction(f"the {self.fmt.id} format has no role '{role}'")
            if role in UNIQUE_ROLES and role in seen:
                raise IllegalAction(f"seat {i}: there is only one {role}")
            seen.add(role)
        why = composition_error(self.fmt, self.n, a.roles)
        if why:
            raise IllegalAction(why)
        self.roles = [""] + list(a.roles)
        self.dealt_roles = ("",) + tuple(a.roles)
        self.alive = [False] + [True] * self.n
        self.live = list(range(1, self.n + 1))
        self._index_roles()
        self.phase = READY
        self.step = NONE

    # -- the host ------------------------------------------------------------------------
    def _foul(self, a: A.Foul) -> None:
        self._over()
        if self.phase not in (NIGHT, DAY):
            raise IllegalAction("the game has not started")
        seat = self._living_seat(a.seat)
        self.fouls[seat] += 1
        self._fx.append(E.FoulGiven(seat, self.fouls[seat]))
        limit = self.rules.fouls_to_disqualify
        if limit and self.fouls[seat] >= limit:
            self._disqualify(A.Disqualify(seat))

    def _disqualify(self, a: A.Disqualify) -> None:
        """A critical foul takes effect at once, by day or by night: the seat casts no
        ballot, can no longer be voted out, and the win check runs."""
        self._over()
        if self.phase not in (NIGHT, DAY):
            raise IllegalAction("the game has not started")
        seat = self._living_seat(a.seat)
        self.critical_fouls += 1
        step = self.step
        self._eliminate([(seat, "disqualified")])
        if self.phase is DAY and step in (VOTE, REVOTE, REMOVEALL) \
                and not self.candidates:
            self.step = DONE
        if self.phase is DAY and step is TAKE and seat == self.take_seat:
            self.step = DONE
        self._end_eliminations()


def composition_error(fmt: Format, n: int, roles: tuple[str, ...] | list[str]) -> str | None:
    """Why a deal is not the format's composition for `n` seats, or None when it is."""
    if tuple(sorted(roles)) == fmt.sorted_roles[n]:
        return None
    want = fmt.composition[n]
    got = Counter(roles)
    diff = []
    for role in sorted(set(want) | set(got), key=lambda r: ROLES.index(r)):
        if got[role] != want.get(role, 0):
            diff.append(f"{got[role]} {role} (the format deals {want.get(role, 0)})")
    return f"the deal is not the {fmt.id} format's for {n} players: " + ", ".join(diff)


def step(game: Game, action: A.Action) -> tuple[Game, list[E.Effect]]:
    """The pure form: a new state and the effects; `game` itself is left as it was. The new
    state is the same game played again from its history (a state is its actions), then
    `action`."""
    new = Game(game.fmt, game.n, game.opt)
    for past in game.history:
        new.apply(past)
    fx = new.apply(action)
    return new, fx
