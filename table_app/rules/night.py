"""The night: windows that wake roles, their decisions, and what lands at dawn.

Nothing here names a role: what a decision does comes from its `DecisionDef` (an `Act`), and
how a seat reacts to it from its `RoleDef` (roles.py).
"""

from __future__ import annotations

from . import actions as A
from . import effects as E
from .errors import IllegalAction, InvalidAction
from .format import Window
from .roles import DECISION, ROLE, Act
from .state import Check, Choice, How, Phase, State, Step

_SHOWS = (Act.CHECK, Act.SEARCH)


class Night(State):
    """Night windows, decisions and the dawn's resolution."""

    # -- windows -------------------------------------------------------------------------
    def _begin_night(self, a: A.BeginNight) -> None:
        self._over()
        if self.phase is Phase.SETUP:
            raise IllegalAction("no deal: the roles must be dealt before the first night")
        if self.phase is Phase.NIGHT:
            raise IllegalAction(f"night {self.night_no} is still running")
        if self.phase is Phase.DAY and self.step is not Step.DONE:
            raise IllegalAction(f"day {self.day_no} is not over")
        self.night_no += 1
        self.phase = Phase.NIGHT
        self.step = Step.WINDOWS
        n = self.night_no
        self.tonight = tuple(w for w in self.fmt.windows if w.from_night <= n)
        self.window_of = {d: i for i, w in enumerate(self.tonight) for d in w.decisions}
        self.window_i = 0
        self.decided = {}
        self._fx.append(E.PhaseBegins("night", n))
        self._wake()

    def _window_timer(self, w: Window) -> str:
        return w.night1_timer if self.night_no == 1 and w.night1_timer else w.timer

    def _wake(self) -> None:
        if self.window_i >= len(self.tonight):
            self._resolve_night()
            return
        w = self.tonight[self.window_i]
        timer = self._window_timer(w)
        self._fx.append(E.Wake(w.name, w.wakes, w.decisions, timer, self.fmt.timers[timer]))

    def _close_window(self) -> None:
        if self.step is not Step.WINDOWS:
            raise IllegalAction("the night is over; the day has not begun")
        self._fx.append(E.Sleep(self.tonight[self.window_i].name))
        self.window_i += 1
        self._wake()

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
        if self.phase is not Phase.NIGHT or self.step is not Step.WINDOWS:
            return []
        night, fn, decided = self.night_no, self.rules.from_night, self.decided
        return [d for d in self.tonight[self.window_i].decisions
                if d not in decided and fn[d] <= night]

    def modes(self, decision: str) -> list[str]:
        """The ways `decision` may be made tonight (empty: it has only one)."""
        n = self.night_no
        return [m for m, _ in DECISION[decision].modes
                if self.rules.mode_from[(decision, m)] <= n]

    # -- decisions -----------------------------------------------------------------------
    def _target_error(self, d: str, actor: int, t: int, mode: str) -> str | None:
        if not self.alive[t]:
            return f"seat {t} is out of the game"
        dd = DECISION[d]
        act = dd.act_for(mode) if mode else dd.act
        if t == actor and not dd.self_ok and not (act in _SHOWS and self.rules.self_check):
            return f"the {d} cannot choose himself"
        if act is Act.SAVE:
            flag = self.rules.flag
            if t == actor and flag.get(f"{d}_self_once") and d in self.saved_self:
                return f"the {d} has already saved himself once"
            if flag.get(f"{d}_once_per_seat") and t in self.saved_before.get(d, ()):
                return f"the {d} has already saved seat {t}"
        elif act is Act.KILL and d in self.rules.shots:
            limit = self.rules.shots[d]
            if self.shots.get(d, 0) >= limit:
                return f"the {d} has no kills left ({limit} used)"
        if mode and self.rules.mode_from[(d, mode)] > self.night_no:
            return f"the {d} may not {mode} on night {self.night_no}"
        return None

    def legal_targets(self, decision: str, mode: str = "") -> list[int]:
        """Every seat `decision` may choose now (empty when it cannot act at all)."""
        if self._available(decision) is not None:
            return []
        actor = self.actor(decision)
        if actor is None:
            return []
        err = self._target_error
        return [s for s in self.live if err(decision, actor, s, mode) is None]

    def _decide(self, a: A.Decide) -> None:
        self._over()
        d = a.decision
        dd = DECISION.get(d)
        if dd is None:
            raise InvalidAction(f"unknown role '{d}'")
        if self.phase is not Phase.NIGHT or self.step is not Step.WINDOWS:
            raise IllegalAction(f"'{d}' is a night decision and no night is running")
        why = self._available(d)
        if why:
            raise IllegalAction(why)
        if d in self.decided:
            raise IllegalAction(f"the {d} has already decided tonight")
        actor = self.actor(d)
        if actor is None:
            raise IllegalAction(self._why_no_actor(d))
        mode = a.mode
        if dd.modes:
            words = [m for m, _ in dd.modes]
            if a.target is not None and mode not in words:
                raise InvalidAction(
                    f"the {d} must " + " or ".join(f"'{m}'" for m in words))
        elif mode:
            raise InvalidAction(f"the {d} takes no '{mode}'")
        if a.target is None:
            if d not in self.passes:
                raise IllegalAction(f"the {d} may not pass")
        else:
            t = self._seat(a.target)
            why = self._target_error(d, actor, t, mode)
            if why:
                raise IllegalAction(why)
        self.decided[d] = Choice(a.target, mode, How.CHOSEN)
        self._fx.append(E.Decided(d, a.target, mode))
        if a.target is not None and not self.rules.at_dawn:
            self._show(d, a.target, mode, actor, protected=frozenset())

    def _why_no_actor(self, d: str) -> str:
        dd = DECISION[d]
        role = _ROLE_OF[d]
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
        if act is Act.SEARCH:
            result = dd.found if self.roles[t] in dd.seeks else "no"
        elif act is Act.CHECK:
            result = "red" if t in protected else self.rules.looks[self.roles[t]]
        else:
            return
        self.checks.append(Check(f"night {self.night_no}", d, t, result))
        self._fx.append(E.CheckResult(d, t, result, audience=actor))

    def _timeout(self, a: A.Timeout) -> None:
        self._over()
        d = a.decision
        if d not in DECISION:
            raise InvalidAction(f"unknown role '{d}'")
        if self.phase is not Phase.NIGHT or self.step is not Step.WINDOWS:
            raise IllegalAction(f"'timeout {d}' belongs to a night and no night is running")
        i = self.window_of.get(d)
        if i is None:
            raise IllegalAction(f"the {d} does not wake on night {self.night_no}")
        if i < self.window_i:
            raise IllegalAction(f"the {self.tonight[i].name} window is closed")
        if d in self.decided:
            raise IllegalAction(f"the {d} has already decided tonight")
        self.decided[d] = Choice(None, "", How.TIMEOUT)

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
        self.step = Step.DONE
        fx = self._fx
        n = self.night_no
        decided, roles, rules = self.decided, self.roles, self.rules
        order = [d for w in self.tonight for d in w.decisions if rules.from_night[d] <= n]
        actors = {d: self.actor(d) for d in order}

        blocked: set[int] = set()
        for d in order:
            c = decided.get(d)
            if DECISION[d].act is Act.BLOCK and c and c.target is not None \
                    and actors[d] is not None and roles[c.target] not in rules.unblockable:
                blocked.add(c.target)
        acting = {d: s for d, s in actors.items() if s is not None and s not in blocked}

        saved: set[int] = set()
        protected: set[int] = set()
        attacks: dict[int, list[tuple[str, int]]] = {}   # target -> [(by, attacker)]
        for d in order:
            seat = acting.get(d)
            if seat is None:
                continue
            dd = DECISION[d]
            c = decided.get(d)
            t = c.target if c else None
            timed_out = c is None or c.how is How.TIMEOUT
            act = dd.act_for(c.mode) if c and c.mode else dd.act
            if act is Act.SAVE:
                if t is None and timed_out and rules.flag.get(f"{d}_auto_save"):
                    t = self._auto_save(d, seat)
                    if t is not None:
                        fx.append(E.Decided(d, t, default=True))
                if t is not None:
                    saved.add(t)
                    if t == seat:
                        self.saved_self.add(d)
                    self.saved_before.setdefault(d, set()).add(t)
            elif act is Act.PROTECT:
                if t is not None:
                    protected.add(t)
            elif act is Act.KILL:
                if t is None and dd.follows:
                    order_c = decided.get(dd.follows)
                    if order_c and order_c.target is not None and actors.get(dd.follows):
                        t = order_c.target
                        fx.append(E.Decided(d, t, default=True))
                if t is None and timed_out and rules.flag.get(f"{d}_default_kill"):
                    t = self._first_outside(self.side_of[_ROLE_OF[d]])
                    fx.append(E.Decided(d, t, default=True))
                if t is not None:
                    if d in rules.shots:
                        self.shots[d] = self.shots.get(d, 0) + 1
                    if self.alive[t]:
                        attacks.setdefault(t, []).append((dd.label, seat))

        dying: list[tuple[int, str]] = []
        turned: list[tuple[int, str]] = []
        for t, atks in attacks.items():
            if t in saved:
                continue
            bys = {by for by, _ in atks}
            turns = _TURNS[roles[t]]
            if len(bys) == 1 and atks[0][0] in turns:
                turned.append((t, turns[atks[0][0]]))
                continue
            dying.append((t, atks[0][0]))
        dead = {t for t, _ in dying}
        for t, _ in list(dying):
            if ROLE[roles[t]].takes_killers:
                for _, who in attacks[t]:
                    if who not in dead and who not in saved:
                        dying.append((who, roles[t]))
                        dead.add(who)

        # results at dawn where the format says so: checks first, then searches
        if rules.at_dawn:
            shield = frozenset(protected)
            for act in _SHOWS:
                for d in order:
                    c = decided.get(d)
                    seat = acting.get(d)
                    if seat is None or c is None or c.target is None:
                        continue
                    dd = DECISION[d]
                    if (dd.act_for(c.mode) if c.mode else dd.act) is act:
                        self._show(d, c.target, c.mode, seat, shield)
        for d in order:
            seat = acting.get(d)
            c = decided.get(d)
            if seat is not None and c and c.target is not None \
                    and DECISION[d].act is Act.WITNESS:
                fx.append(E.Witness(c.target, tuple(who for _, who in attacks.get(c.target, ())),
                                    audience=seat))

        for t, role in turned:
            self._set_role(t, role)
        self.night_left = tuple(t for t, _ in dying)
        self._eliminate(dying)
        self._end_eliminations()


#: role -> {kill label: the role it turns into}
_TURNS = {r.id: dict(r.turns) for r in ROLE.values()}
_ROLE_OF = {d.id: r.id for r in ROLE.values() for d in r.decisions}
