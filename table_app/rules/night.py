"""The night: windows that wake roles, their decisions, and what lands at dawn.

Nothing here names a role or an act: what a decision does comes from its act's entry
(acts.py), and how a seat reacts to it from its `RoleDef` (roles.py).
"""

from __future__ import annotations

from collections.abc import Collection
from typing import Final

from . import actions as A
from . import effects as E
from .acts import Dawn, Stage
from .errors import IllegalAction, InvalidAction
from .format import Window
from .roles import DECISION, DECISIONS, ROLE
from .state import (
    DAY,
    DONE,
    NIGHT,
    OVER,
    SETUP,
    WINDOWS,
    Check,
    Choice,
    How,
    State,
    TargetRule,
)

# the members the hot paths compare with, as constants (see state.py)
_BLOCK: Final = Stage.BLOCK
_LAND: Final = Stage.LAND
_SHOW: Final = Stage.SHOW
_WITNESS: Final = Stage.WITNESS
_CHOSEN: Final = How.CHOSEN
_TIMEOUT: Final = How.TIMEOUT
_NOBODY: frozenset[int] = frozenset()
#: why `Night.barred` bars a seat: the decision's own maker, a save's maker again, a seat
#: saved before
SELF: Final = "self"
SAVED_SELF: Final = "saved self"
SAVED_SEAT: Final = "saved seat"
_NONE_BARRED: Final[dict[int, str]] = {}      # never written to


class Night(State):
    """Night windows, decisions and the dawn's resolution."""

    # -- windows -------------------------------------------------------------------------
    def _begin_night(self, a: A.BeginNight) -> None:
        self._over()
        if self.phase is SETUP:
            raise IllegalAction("no deal: the roles must be dealt before the first night")
        if self.phase is NIGHT:
            raise IllegalAction(f"night {self.night_no} is still running")
        if self.phase is DAY and self.step is not DONE:
            raise IllegalAction(f"day {self.day_no} is not over")
        self.night_no += 1
        self.label = f"night {self.night_no}"
        self.phase = NIGHT
        self.step = WINDOWS
        n = self.night_no
        plan = self.night_plan = self.rules.plan(n, frozenset(r for r in self.roles if r))
        self.tonight = plan.windows
        self.window_of = plan.window_of
        self.window_i = 0
        self.decided = {}
        self.totals = ()
        self._fx.append(E.PhaseBegins("night", n))
        self._wake()

    def _window_timer(self, w: Window) -> str:
        return w.night1_timer if self.night_no == 1 and w.night1_timer else w.timer

    def _wake(self) -> None:
        if self.window_i >= len(self.tonight):
            self._resolve_night()
            return
        self._fx.append(self.night_plan.wake[self.window_i])

    def _close_window(self) -> None:
        if self.step is not WINDOWS:
            raise IllegalAction("the night is over; the day has not begun")
        plan, i = self.night_plan, self.window_i + 1
        self._fx.append(plan.sleep[i - 1])
        self.window_i = i
        if i < len(plan.wake):
            self._fx.append(plan.wake[i])
        else:
            self._resolve_night()

    def _open(self, d: str) -> bool:
        """Whether decision `d` wakes tonight and its window is not yet closed."""
        i = self.window_of.get(d)
        return i is not None and i >= self.window_i and self.rules.from_night[d] <= self.night_no

    def _available(self, d: str) -> str | None:
        """Why decision `d` cannot be made tonight, or None when it can."""
        i = self.window_of.get(d)
        if i is None or self.rules.from_night[d] > self.night_no:
            if d not in self.fmt.window_of:
                return f"the {self.fmt.id} format has no '{d}' decision"
            return f"the {d} does not act on night {self.night_no}"
        if i < self.window_i:
            return f"the {self.tonight[i].name} window is closed"
        return None

    def open_decisions(self) -> list[str]:
        """The decisions of the open night window that are still to be made."""
        if self.phase is not NIGHT or self.step is not WINDOWS:
            return []
        decided = self.decided
        return [d for d in self.night_plan.decisions[self.window_i] if d not in decided]

    def modes(self, decision: str) -> list[str]:
        """The ways `decision` may be made tonight (empty: it has only one)."""
        n = self.night_no
        return [m for m, _ in DECISION[decision].modes
                if self.rules.mode_from[(decision, m)] <= n]

    # -- decisions -----------------------------------------------------------------------
    def barred(self, d: str, actor: int, r: TargetRule) -> dict[int, str]:
        """The living seats decision `d`, made by `actor` the way `r` says, may not name
        now, each with why (`SELF`, `SAVED_SELF`, `SAVED_SEAT`): the one rule legality, the
        technical defaults and the bots use (`_may_not` says when it may name nobody)."""
        if r.self_ok and not r.save:
            return _NONE_BARRED            # the common case, asked for every bot's move
        out: dict[int, str] = {}
        if r.save:
            if r.once_per_seat:
                for s in self.saved_before.get(d, ()):
                    out[s] = SAVED_SEAT
            if r.self_once and d in self.saved_self:
                out[actor] = SAVED_SELF
        if not r.self_ok:
            out[actor] = SELF
        return out

    def _may_not(self, d: str, mode: str, r: TargetRule) -> str:
        """Why `d` made this way may name nobody now ('' when it may name someone)."""
        if r.shots is not None and self.shots.get(d, 0) >= r.shots:
            return f"the {d} has no kills left ({r.shots} used)"
        if r.from_night > self.night_no:
            return f"the {d} may not {mode} on night {self.night_no}"
        return ""

    def _target_error(self, d: str, actor: int, t: int, mode: str) -> str | None:
        """Why `d` may not name seat `t` now, or None when it may."""
        if not self.alive[t]:
            return f"seat {t} is out of the game"
        r = self.rules.target_rule[d][mode]
        why = self.barred(d, actor, r).get(t)
        if why is SELF:
            return f"the {d} cannot choose himself"
        if why is SAVED_SELF:
            return f"the {d} has already saved himself once"
        if why is SAVED_SEAT:
            return f"the {d} has already saved seat {t}"
        return self._may_not(d, mode, r) or None

    def legal_targets(self, decision: str, mode: str = "") -> list[int]:
        """Every seat `decision` may choose now (empty when it cannot act at all)."""
        if self.phase is not NIGHT or not self._open(decision):
            return []
        actor = self.actor(decision)
        if actor is None:
            return []
        r = self.rules.target_rule[decision].get(mode)
        if r is None or self._may_not(decision, mode, r):
            return []
        barred = self.barred(decision, actor, r)
        if not barred:
            return list(self.live)
        return [s for s in self.live if s not in barred]

    def first_target(self, d: str, actor: int, mode: str, outside: str = "") -> int | None:
        """A technical default: the first living seat in table order that `d` may name
        (and, given `outside`, that is not of that side), or None."""
        r = self.rules.target_rule[d][mode]
        if self._may_not(d, mode, r):
            return None
        barred = self.barred(d, actor, r)
        side_of, roles = self.side_of, self.roles
        for s in self.live:
            if s not in barred and not (outside and side_of[roles[s]] == outside):
                return s
        return None

    def _decide(self, a: A.Decide) -> None:
        if self.phase is OVER:
            self._over()
        d = a.decision
        dd = DECISION.get(d)
        if dd is None:
            raise InvalidAction(f"unknown role '{d}'")
        if self.phase is not NIGHT or self.step is not WINDOWS:
            raise IllegalAction(f"'{d}' is a night decision and no night is running")
        if not self._open(d):
            raise IllegalAction(self._available(d) or "")
        if d in self.decided:
            raise IllegalAction(f"the {d} has already decided tonight")
        actor = self.actor(d)
        if actor is None:
            raise IllegalAction(self._why_no_actor(d))
        mode, t = a.mode, a.target
        if dd.modes:
            if t is not None and mode not in self.rules.target_rule[d]:
                raise InvalidAction(
                    f"the {d} must " + " or ".join(f"'{m}'" for m, _ in dd.modes))
        elif mode:
            raise InvalidAction(f"the {d} takes no '{mode}'")
        if t is None:
            if d not in self.passes:
                raise IllegalAction(f"the {d} may not pass")
        else:
            if type(t) is not int or not 0 < t <= self.n:
                self._seat(t)
            why = self._target_error(d, actor, t, mode)
            if why:
                raise IllegalAction(why)
        self.decided[d] = Choice(t, mode, _CHOSEN)
        self._fx.append(E.Decided(d, t, mode))
        if t is not None and not self.rules.at_dawn and dd.shows:
            self.show_answer(d, t, mode, actor, protected=_NOBODY)

    def _why_no_actor(self, d: str) -> str:
        dd = DECISION[d]
        role = DECISIONS[d]
        if dd.needs and self.seat_of(role) is not None:
            return f"the {dd.needs.capitalize()} is out: the {d} has no decision"
        if dd.by_leader:
            side = self.side_of[role]
            if self.side_count.get(side):
                return f"nobody left in the {side.capitalize()} may make the {d} decision"
            return f"the {side.capitalize()} is out of the game"
        if not self.dealt(role):
            return f"there is no {role} in this game"
        return f"the {role} is out of the game"

    def show_answer(self, d: str, t: int, mode: str, actor: int,
                    protected: Collection[int]) -> None:
        """A check or a search lands: its result goes to the deciding seat only."""
        dd = DECISION[d]
        act = dd.act_for(mode) if mode else dd.act
        result = act.result(self, dd, t, protected)
        if not result:
            return
        self.checks.append(Check(self.label, d, t, result))
        self.check_seats.append(actor)
        self._fx.append(E.CheckResult(d, t, result, audience=actor))

    def _timeout(self, a: A.Timeout) -> None:
        self._over()
        d = a.decision
        if d not in DECISION:
            raise InvalidAction(f"unknown role '{d}'")
        if self.phase is not NIGHT or self.step is not WINDOWS:
            raise IllegalAction(f"'timeout {d}' belongs to a night and no night is running")
        # a timeout is refused wherever the decision itself would be for want of a turn: the
        # format does not wake it tonight, or nobody at this table holds the role
        why = self._available(d)
        if why:
            raise IllegalAction(why)
        if not self.dealt(DECISIONS[d]):
            raise IllegalAction(f"there is no {DECISIONS[d]} in this game")
        if d in self.decided:
            raise IllegalAction(f"the {d} has already decided tonight")
        self.decided[d] = Choice(None, "", _TIMEOUT)

    # -- dawn ----------------------------------------------------------------------------
    def _resolve_night(self) -> None:
        """Dawn, as a pipeline over the acts' stages (acts.py): blocks, then kills, saves,
        guards and protections, then who dies, turns or is taken along, then the checks'
        answers (where the format gives them at dawn) and the witnesses."""
        self.step = DONE
        dawn = Dawn()
        stages = self.night_plan.stages
        self._land(dawn, stages[_BLOCK], _BLOCK)
        self._land(dawn, stages[_LAND], _LAND)
        for act in self.night_plan.settles:
            act.settle(self, dawn)
        dying, turned = self._fates(dawn)
        if self.rules.at_dawn:
            self._land(dawn, stages[_SHOW], _SHOW)
        self._land(dawn, stages[_WITNESS], _WITNESS)
        for t, role in turned:
            self._set_role(t, role)
        self.night_left = tuple(t for t, _ in dying)
        if dying:
            self._eliminate(dying)
        self._end_eliminations()

    def _land(self, dawn: Dawn, decisions: tuple[str, ...], stage: Stage) -> None:
        """Each decision of the stage lands through its act, unless its maker is gone or (past
        the blocks) blocked tonight; a decision not made is a timeout."""
        blocked, decided = dawn.blocked, self.decided
        for d in decisions:
            seat = self.actor(d)
            if seat is None or (stage is not _BLOCK and seat in blocked):
                continue
            c = decided.get(d)
            dd = DECISION[d]
            t: int | None = None
            mode, timed_out, act = "", True, dd.act
            if c is not None:
                t, mode, timed_out = c.target, c.mode, c.how is _TIMEOUT
                if mode:
                    act = dd.act_for(mode)
            if act.stage is stage:
                act.land(self, dawn, dd, seat, t, mode, timed_out)

    def _fates(self, dawn: Dawn) -> tuple[list[tuple[int, str]], list[tuple[int, str]]]:
        """Who dies (and of what) and who turns: an attack a save does not cancel kills,
        unless every attack on the seat is the one its role turns by; a seat that takes its
        killers along takes them."""
        dying: list[tuple[int, str]] = []
        turned: list[tuple[int, str]] = []
        roles, saved = self.roles, dawn.saved
        takers = False
        for t, atks in dawn.attacks.items():
            if t in saved:
                continue
            role = roles[t]
            turns = _TURNS[role]
            # the first attack, in the night order, that can kill him: an attack he turns by
            # (the Don's on the Werewolf) kills nobody, so it is never what he died of
            by = next((b for b, _ in atks if b not in turns), "")
            if not by:
                turned.append((t, turns[atks[0][0]]))
                continue
            dying.append((t, by))
            takers = takers or role in _TAKERS
        if takers:
            dead = {t for t, _ in dying}
            for t, _ in list(dying):
                if roles[t] in _TAKERS:
                    for _, who in dawn.attacks[t]:
                        if who not in dead and who not in saved:
                            dying.append((who, roles[t]))
                            dead.add(who)
        return dying, turned


#: role -> {kill label: the role it turns into}
_TURNS = {r.id: dict(r.turns) for r in ROLE.values()}
#: roles that take their killers along
_TAKERS = frozenset(r.id for r in ROLE.values() if r.takes_killers)
