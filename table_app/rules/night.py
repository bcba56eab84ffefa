"""The night: windows that wake roles, their decisions, and what lands at dawn.

Nothing here names a role: what a decision does comes from its `DecisionDef` (an `Act`), and
how a seat reacts to it from its `RoleDef` (roles.py).
"""

from __future__ import annotations

from typing import Final

from . import actions as A
from . import effects as E
from .errors import IllegalAction, InvalidAction
from .format import Window
from .roles import DECISION, DECISIONS, ROLE, Act
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
)

_SHOWS = (Act.CHECK, Act.SEARCH)
# the members the hot paths compare with, as constants (see state.py)
_KILL: Final = Act.KILL
_SAVE: Final = Act.SAVE
_PROTECT: Final = Act.PROTECT
_CHECK: Final = Act.CHECK
_SEARCH: Final = Act.SEARCH
_CHOSEN: Final = How.CHOSEN
_TIMEOUT: Final = How.TIMEOUT
_NOBODY: frozenset[int] = frozenset()


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
    def _target_error(self, d: str, actor: int, t: int, mode: str) -> str | None:
        """Why `d` may not name seat `t` now, or None when it may."""
        if not self.alive[t]:
            return f"seat {t} is out of the game"
        r = self.rules.target_rule[d][mode]
        if t == actor and not r.self_ok:
            return f"the {d} cannot choose himself"
        if r.save:
            if t == actor and r.self_once and d in self.saved_self:
                return f"the {d} has already saved himself once"
            if r.once_per_seat and t in self.saved_before.get(d, ()):
                return f"the {d} has already saved seat {t}"
        elif r.shots is not None and self.shots.get(d, 0) >= r.shots:
            return f"the {d} has no kills left ({r.shots} used)"
        if r.from_night > self.night_no:
            return f"the {d} may not {mode} on night {self.night_no}"
        return None

    def legal_targets(self, decision: str, mode: str = "") -> list[int]:
        """Every seat `decision` may choose now (empty when it cannot act at all): the seats
        `_target_error` lets through, found from the same rule without asking seat by seat."""
        i = self.window_of.get(decision)
        if i is None or i < self.window_i or self.rules.from_night[decision] > self.night_no \
                or self.phase is not NIGHT:
            return []
        actor = self.actor(decision)
        if actor is None:
            return []
        r = self.rules.target_rule[decision].get(mode)
        if r is None or r.from_night > self.night_no or (
                r.shots is not None and self.shots.get(decision, 0) >= r.shots):
            return []
        if r.save:
            out = set(self.saved_before.get(decision, ())) if r.once_per_seat else set()
            if not r.self_ok or (r.self_once and decision in self.saved_self):
                out.add(actor)
            return [s for s in self.live if s not in out]
        if r.self_ok:
            return list(self.live)
        return [s for s in self.live if s != actor]

    def _decide(self, a: A.Decide) -> None:
        if self.phase is OVER:
            self._over()
        d = a.decision
        dd = DECISION.get(d)
        if dd is None:
            raise InvalidAction(f"unknown role '{d}'")
        if self.phase is not NIGHT or self.step is not WINDOWS:
            raise IllegalAction(f"'{d}' is a night decision and no night is running")
        i = self.window_of.get(d)
        if i is None or i < self.window_i or self.rules.from_night[d] > self.night_no:
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
            self._show(d, t, mode, actor, protected=_NOBODY)

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

    def _show(self, d: str, t: int, mode: str, actor: int, protected: frozenset[int]) -> None:
        """A check or a search lands: its result goes to the deciding seat only."""
        dd = DECISION[d]
        act = dd.act_for(mode) if mode else dd.act
        if act is _SEARCH:
            result = dd.found if self.roles[t] in dd.seeks else "no"
        elif act is _CHECK:
            result = "red" if t in protected else self.rules.looks[self.roles[t]]
        else:
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
        i = self.window_of.get(d)
        if i is None:
            raise IllegalAction(f"the {d} does not wake on night {self.night_no}")
        if i < self.window_i:
            raise IllegalAction(f"the {self.tonight[i].name} window is closed")
        if d in self.decided:
            raise IllegalAction(f"the {d} has already decided tonight")
        self.decided[d] = Choice(None, "", _TIMEOUT)

    # -- dawn ----------------------------------------------------------------------------
    def _first_outside(self, side: str) -> int | None:
        side_of, roles = self.side_of, self.roles
        for s in self.live:
            if side_of[roles[s]] != side:
                return s
        return None

    def _auto_save(self, d: str, doctor: int) -> int | None:
        flag = self.rules.flag
        before = self.saved_before.get(d, set()) if flag.get(f"{d}_once_per_seat") else set()
        self_used = flag.get(f"{d}_self_once") and d in self.saved_self
        for s in self.live:
            if s in before or (s == doctor and self_used):
                continue
            return s
        return None

    def _resolve_night(self) -> None:
        """Dawn: blocks, saves and protections, kills, checks and witnesses, then who dies,
        who turns, who is taken along."""
        self.step = DONE
        fx = self._fx
        decided, roles, rules, plan = self.decided, self.roles, self.rules, self.night_plan

        blocked: set[int] = set()
        for d in plan.blocks:
            c = decided.get(d)
            if c and c.target is not None and self.actor(d) is not None \
                    and roles[c.target] not in rules.unblockable:
                blocked.add(c.target)

        saved: set[int] = set()
        protected: set[int] = set()
        attacks: dict[int, list[tuple[str, int]]] = {}   # target -> [(by, attacker)]
        for d in plan.lands:
            seat = self.actor(d)
            if seat is None or seat in blocked:
                continue
            c = decided.get(d)
            if c is None:
                t, mode, timed_out = None, "", True
            else:
                t, mode, timed_out = c.target, c.mode, c.how is _TIMEOUT
            dd = DECISION[d]
            act = dd.act_for(mode) if mode else dd.act
            if act is _KILL:
                if t is None and dd.follows:
                    order_c = decided.get(dd.follows)
                    if order_c and order_c.target is not None and self.actor(dd.follows):
                        t = order_c.target
                        fx.append(E.Decided(d, t, default=True))
                if t is None and timed_out and rules.flag.get(f"{d}_default_kill"):
                    t = self._first_outside(rules.maker[d][1])
                    fx.append(E.Decided(d, t, default=True))
                if t is not None:
                    if d in rules.shots:
                        self.shots[d] = self.shots.get(d, 0) + 1
                    if self.alive[t]:
                        if t in attacks:
                            attacks[t].append((dd.label, seat))
                        else:
                            attacks[t] = [(dd.label, seat)]
            elif act is _SAVE:
                if t is None and timed_out and rules.flag.get(f"{d}_auto_save"):
                    t = self._auto_save(d, seat)
                    if t is not None:
                        fx.append(E.Decided(d, t, default=True))
                if t is not None:
                    saved.add(t)
                    if t == seat:
                        self.saved_self.add(d)
                    self.saved_before.setdefault(d, set()).add(t)
            elif act is _PROTECT and t is not None:
                protected.add(t)

        dying: list[tuple[int, str]] = []
        turned: list[tuple[int, str]] = []
        takers = False
        for t, atks in attacks.items():
            if t in saved:
                continue
            role = roles[t]
            by = atks[0][0]
            turns = _TURNS[role]
            if turns and by in turns and all(b == by for b, _ in atks):
                turned.append((t, turns[by]))
                continue
            dying.append((t, by))
            takers = takers or role in _TAKERS
        if takers:
            dead = {t for t, _ in dying}
            for t, _ in list(dying):
                if roles[t] in _TAKERS:
                    for _, who in attacks[t]:
                        if who not in dead and who not in saved:
                            dying.append((who, roles[t]))
                            dead.add(who)

        # results at dawn where the format says so: checks first, then searches
        if rules.at_dawn and plan.shows:
            shield = frozenset(protected)
            for d in plan.shows:
                c = decided.get(d)
                seat = self.actor(d)
                if seat is None or seat in blocked or c is None or c.target is None:
                    continue
                self._show(d, c.target, c.mode, seat, shield)
        for d in plan.witnesses:
            seat = self.actor(d)
            c = decided.get(d)
            if seat is not None and seat not in blocked and c and c.target is not None:
                fx.append(E.Witness(c.target, tuple(who for _, who in attacks.get(c.target, ())),
                                    audience=seat))

        for t, role in turned:
            self._set_role(t, role)
        self.night_left = tuple(t for t, _ in dying)
        if dying:
            self._eliminate(dying)
        self._end_eliminations()


#: role -> {kill label: the role it turns into}
_TURNS = {r.id: dict(r.turns) for r in ROLE.values()}
#: roles that take their killers along
_TAKERS = frozenset(r.id for r in ROLE.values() if r.takes_killers)
