"""The rules engine: a game's state, the actions it accepts and the effects they have.

Pure: no clock, no I/O, randomness only through a seed the caller gives (`deal_from_seed`).
`Game.apply(action)` changes the state and returns the effects; `step(game, action)` does the
same on a copy and leaves the original alone. `Game.waiting()` says what the game waits for.
"""

from __future__ import annotations

import copy
import random
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

from . import actions as A
from . import effects as E
from .errors import IllegalAction, InvalidAction
from .format import Format, Tally, Window
from .roles import DECISIONS, ROLES, UNIQUE_ROLES, OptionValue

NIGHT_STEPS = ("windows", "done")
DAY_STEPS = ("speeches", "defence", "vote", "tie", "revote", "removeall", "take", "done")


@dataclass(frozen=True, slots=True)
class Out:
    """One elimination, as the game script's `out[]` lists it."""

    seat: int
    phase: str
    by: str


@dataclass(frozen=True, slots=True)
class Check:
    """One check, as the game script's `checks[]` lists it."""

    phase: str
    by: str
    seat: int
    result: str


@dataclass(frozen=True, slots=True)
class Waiting:
    """What the game waits for now: the explicit 'whose turn is it' query."""

    phase: str                      # setup, ready, night, day, over
    number: int                     # night or day number (0 before night 1)
    step: str                       # windows/done at night; speeches ... done by day
    window: str | None = None       # the night window that is open
    awake: tuple[int, ...] = ()     # living seats whose eyes are open in that window
    decisions: tuple[str, ...] = ()  # decisions still open in that window
    actors: dict[str, int] = field(default_factory=dict)  # decision -> the seat that makes it
    speaker: int | None = None
    nominees: tuple[int, ...] = ()
    candidates: tuple[int, ...] = ()
    voters: tuple[int, ...] = ()
    timer: str | None = None
    seconds: int = 0


def deal_from_seed(fmt: Format, players: int, seed: int) -> A.Deal:
    """Chance as a recorded event: the same seed always gives the same deal."""
    roles = fmt.roles_for(players)
    random.Random(seed).shuffle(roles)
    return A.Deal(tuple(roles))


class Game:
    """One game of one format: the whole state, changed only by `apply`."""

    def __init__(self, fmt: Format, players: int | None = None,
                 options: dict[str, OptionValue] | None = None) -> None:
        n = players if players is not None else fmt.default_players
        if n is None:
            raise InvalidAction(f"the {fmt.id} format needs a player count")
        fmt.check_players(n)
        self.fmt = fmt
        self.n = n
        self.opt: dict[str, OptionValue] = dict(fmt.options)
        if options:
            self.opt.update(options)
        self.passes = frozenset(self._list("passes"))
        # the first night of each decision, read once (the night loop asks often)
        self.from_night = {d: self._int(f"{d}_from_night") for d in DECISIONS}
        # options the hot paths read, looked up once
        self.doctor_once = self._bool("doctor_once_per_seat")
        self.doctor_self_once = self._bool("doctor_self_once")
        self.maniac_kills = self._int("maniac_kills")
        self.shoot_from = self._int("commissar_shoot_from_night")
        self.at_dawn = self._bool("checks_at_dawn")
        self.plurality = self.opt["vote"] == "plurality"
        self.roles: list[str] = [""] * (n + 1)
        self.holders: dict[str, list[int]] = {}   # role -> its seats in table order
        self.alive: list[bool] = [False] * (n + 1)
        self.phase = "setup"
        self.step = ""
        self.night_no = 0
        self.day_no = 0
        self.winner: str | None = None
        self.out: list[Out] = []
        self.checks: list[Check] = []
        self.fouls = [0] * (n + 1)
        self.critical_fouls = 0
        self.doctor_saved: set[int] = set()
        self.doctor_self_used = False
        self.maniac_shots = 0
        self.first_speaker = 0
        # night
        self.tonight: tuple[Window, ...] = ()
        self.window_of: dict[str, int] = {}   # decision -> its window's index tonight
        self.window_i = 0
        self.decided: dict[str, tuple[int | None, str]] = {}
        self.night_left: tuple[int, ...] = ()
        # day
        self.speakers: list[int] = []
        self.speaker_i = 0
        self.announced = False
        self.nominees: list[int] = []
        self.nominators: dict[int, int] = {}
        self.candidates: list[int] = []
        self.ballots: dict[int, int] = {}
        self.yes: set[int] = set()
        self.take_seat = 0
        self.take_voters: tuple[int, ...] = ()
        self._fx: list[E.Effect] = []

    # ------------------------------------------------------------------ small helpers
    def _int(self, name: str) -> int:
        v = self.opt[name]
        assert isinstance(v, int)
        return v

    def _bool(self, name: str) -> bool:
        return bool(self.opt[name])

    def _list(self, name: str) -> list[str]:
        v = self.opt[name]
        assert isinstance(v, list)
        return v

    def team(self, seat: int) -> str:
        return self.fmt.team_of[self.roles[seat]]

    def living(self) -> list[int]:
        alive = self.alive
        return [s for s in range(1, self.n + 1) if alive[s]]

    def seat_of(self, role: str) -> int | None:
        """The first living seat holding `role`, in table order."""
        alive = self.alive
        for s in self.holders.get(role, ()):
            if alive[s]:
                return s
        return None

    def dealt(self, role: str) -> bool:
        return role in self.holders

    def phase_label(self) -> str:
        return f"night {self.night_no}" if self.phase == "night" else f"day {self.day_no}"

    def acting_don(self) -> int | None:
        """The Don, or, with the Don out, the first living Mafia member in table order."""
        don = self.seat_of("don")
        if don is not None:
            return don
        team_of, roles, alive = self.fmt.team_of, self.roles, self.alive
        for s in range(1, self.n + 1):
            if alive[s] and team_of[roles[s]] == "mafia":
                return s
        return None

    def actor(self, decision: str) -> int | None:
        """The seat that makes `decision` now, or None when nobody can."""
        if decision == "mafia":
            return self.acting_don()
        if decision == "shogun" and self.seat_of("yakuza") is None:
            return None
        return self.seat_of(DECISIONS[decision])

    def _seat(self, seat: int) -> int:
        if type(seat) is not int or not 1 <= seat <= self.n:
            raise InvalidAction(f"there is no seat {seat} (seats are 1 to {self.n})")
        return seat

    def _living_seat(self, seat: int, what: str = "") -> int:
        self._seat(seat)
        if not self.alive[seat]:
            raise IllegalAction(f"seat {seat} is out of the game{what}")
        return seat

    def _over(self) -> None:
        if self.phase == "over":
            raise IllegalAction(f"the game is over: {self.winner} won")

    # ------------------------------------------------------------------ queries
    def waiting(self) -> Waiting:
        """What the game waits for: which window is open, who speaks, what is voted on."""
        ph = self.phase
        if ph in ("setup", "ready", "over"):
            return Waiting(ph, 0, self.step)
        if ph == "night":
            if self.step != "windows":
                return Waiting(ph, self.night_no, self.step)
            w = self.tonight[self.window_i]
            roles = self.roles
            awake = tuple(s for s in self.living() if roles[s] in w.wakes)
            open_ = tuple(self.open_decisions())
            actors = {d: a for d in open_ if (a := self.actor(d)) is not None}
            wtimer = self._window_timer(w)
            return Waiting(ph, self.night_no, "windows", w.name, awake, open_, actors,
                           timer=wtimer, seconds=self.fmt.timers[wtimer])
        st = self.step
        speaker = None
        timer: str | None = None
        if st in ("speeches", "defence", "tie") and self.speaker_i < len(self.speakers):
            speaker = self.speakers[self.speaker_i]
            timer = {"speeches": "speech", "defence": "defence", "tie": "tie_speech"}[st]
        elif st in ("vote", "revote"):
            timer = "vote"
        elif st == "removeall":
            timer = "removeall"
        secs = self.fmt.timers.get(timer, 0) if timer else 0
        voters = tuple(self.living()) if st in ("vote", "revote", "removeall") else ()
        return Waiting(ph, self.day_no, st, speaker=speaker, nominees=tuple(self.nominees),
                       candidates=tuple(self.candidates), voters=voters,
                       timer=timer, seconds=secs)

    def legal_targets(self, decision: str, mode: str = "") -> list[int]:
        """Every seat `decision` may choose now (empty when it cannot act at all)."""
        if self._available(decision) is not None:
            return []
        actor = self.actor(decision)
        if actor is None:
            return []
        if decision in _ANY_LIVING:
            return self.living()
        return [s for s in self.living() if self._target_error(decision, actor, s, mode) is None]

    def tally(self) -> Tally:
        team_of, roles, alive = self.fmt.team_of, self.roles, self.alive
        n_alive = city = mafia = clan = maniac = killer = 0
        yakuza_armed = False
        for s in range(1, self.n + 1):
            if not alive[s]:
                continue
            n_alive += 1
            team = team_of[roles[s]]
            if team == "city":
                city += 1
            elif team == "mafia":
                mafia += 1
            elif team == "yakuza":
                clan += 1
                if roles[s] == "yakuza":
                    yakuza_armed = True
            elif team == "maniac":
                maniac += 1
            elif team == "killer":
                killer += 1
        maniac_armed = maniac > 0 and self.maniac_shots < self._int("maniac_kills")
        return Tally(n_alive, city, mafia, clan, yakuza_armed, maniac, maniac_armed, killer)

    # ------------------------------------------------------------------ apply
    def apply(self, action: A.Action) -> list[E.Effect]:
        """Apply one action; return its effects. Raises InvalidAction or IllegalAction."""
        self._fx = []
        handler: Callable[[Game, Any], None] | None = _HANDLERS.get(type(action))
        if handler is None:
            raise InvalidAction(f"not an action: {action!r}")
        handler(self, action)
        return self._fx

    def finish_phase(self) -> list[E.Effect]:
        """Close everything left in the running night or day, as if its timers ran out."""
        fx: list[E.Effect] = []
        if self.phase == "night":
            while self.phase == "night" and self.step == "windows":
                fx += self.apply(A.Close())
        elif self.phase == "day":
            while self.phase == "day" and self.step != "done":
                fx += self.apply(A.Close())
        return fx

    # -- setup
    def _index_roles(self) -> None:
        self.holders = {}
        for s in range(1, self.n + 1):
            self.holders.setdefault(self.roles[s], []).append(s)

    def _set_role(self, seat: int, role: str) -> None:
        self.roles[seat] = role
        self._index_roles()
        self._fx.append(E.RoleChanged(seat, role, audience=seat))

    def _deal(self, a: A.Deal) -> None:
        if self.phase != "setup":
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
        self.roles = [""] + list(a.roles)
        self._index_roles()
        self.alive = [False] + [True] * self.n
        self.phase = "ready"
        self.step = ""

    # -- night
    def _begin_night(self, a: A.BeginNight) -> None:
        self._over()
        if self.phase == "setup":
            raise IllegalAction("no deal: the roles must be dealt before the first night")
        if self.phase == "night":
            raise IllegalAction(f"night {self.night_no} is still running")
        if self.phase == "day" and self.step != "done":
            raise IllegalAction(f"day {self.day_no} is not over")
        self.night_no += 1
        self.phase = "night"
        self.step = "windows"
        self.tonight = tuple(w for w in self.fmt.windows if w.from_night <= self.night_no)
        self.window_of = {d: i for i, w in enumerate(self.tonight) for d in w.decisions}
        self.window_i = 0
        self.decided = {}
        self._fx.append(E.PhaseBegins("night", self.night_no))
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

    def _available(self, d: str) -> str | None:
        """Why decision `d` cannot be made tonight, or None when it can."""
        i = self.window_of.get(d)
        if i is None or self.from_night[d] > self.night_no:
            if d not in self.fmt.window_of:
                return f"the {self.fmt.id} format has no '{d}' decision"
            return f"the {d} does not act on night {self.night_no}"
        if i < self.window_i:
            return f"the {self.tonight[i].name} window is closed"
        return None

    def open_decisions(self) -> list[str]:
        """The decisions of the open night window that are still to be made."""
        if self.phase != "night" or self.step != "windows":
            return []
        night = self.night_no
        return [d for d in self.tonight[self.window_i].decisions
                if d not in self.decided and self.from_night[d] <= night]

    def _target_error(self, d: str, actor: int, t: int, mode: str) -> str | None:
        if not self.alive[t]:
            return f"seat {t} is out of the game"
        if t == actor and d in _NOT_SELF:
            return f"the {d} cannot choose himself"
        if d == "doctor":
            if t == actor and self.doctor_self_once and self.doctor_self_used:
                return "the doctor has already saved himself once"
            if self.doctor_once and t in self.doctor_saved:
                return f"the doctor has already saved seat {t}"
        elif d == "lover":
            if self.roles[t] == "commissar" and not self._bool("lover_may_block_commissar"):
                return "the lover may not block the commissar"
        elif d == "maniac":
            if self.maniac_shots >= self.maniac_kills:
                return f"the maniac has no kills left ({self.maniac_kills} used)"
        elif d == "commissar" and mode == "shoot" and self.shoot_from > self.night_no:
            return f"the commissar may not shoot on night {self.night_no}"
        return None

    def _decide(self, a: A.Decide) -> None:
        self._over()
        d = a.decision
        if d not in DECISIONS:
            raise InvalidAction(f"unknown role '{d}'")
        if self.phase != "night" or self.step != "windows":
            raise IllegalAction(f"'{d}' is a night decision and no night is running")
        why = self._available(d)
        if why:
            raise IllegalAction(why)
        if d in self.decided:
            raise IllegalAction(f"the {d} has already decided tonight")
        actor = self.actor(d)
        if actor is None:
            if d == "shogun" and self.seat_of("shogun") is not None:
                raise IllegalAction("the Yakuza is out: the shogun has no decision")
            role = DECISIONS[d] if d != "mafia" else "Mafia"
            if d != "mafia" and not self.dealt(role):
                raise IllegalAction(f"there is no {role} in this game")
            raise IllegalAction(f"the {role} is out of the game")
        mode = a.mode
        if d == "commissar":
            if a.target is not None and mode not in ("check", "shoot"):
                raise InvalidAction("the commissar must 'check' or 'shoot'")
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
        self.decided[d] = (a.target, mode)
        self._fx.append(E.Decided(d, a.target, mode))
        if a.target is not None and not self.at_dawn:
            self._check(d, a.target, mode, actor, protected=None)

    def _check(self, d: str, t: int, mode: str, actor: int, protected: int | None) -> None:
        if d == "don":
            result = "detective" if self.roles[t] in ("detective", "commissar") else "no"
        elif d == "detective" or (d == "commissar" and mode == "check"):
            role = self.roles[t]
            team = self.fmt.team_of[role]
            black = team == "mafia" or (team == "yakuza" and not (
                role == "shogun" and self._bool("shogun_checks_red")))
            if team == "killer" and self._bool("killer_checks_black"):
                black = True
            if t == protected:
                black = False
            result = "black" if black else "red"
        else:
            return
        self.checks.append(Check(f"night {self.night_no}", d, t, result))
        self._fx.append(E.CheckResult(d, t, result, audience=actor))

    def _timeout(self, a: A.Timeout) -> None:
        self._over()
        d = a.decision
        if d not in DECISIONS:
            raise InvalidAction(f"unknown role '{d}'")
        if self.phase != "night" or self.step != "windows":
            raise IllegalAction(f"'timeout {d}' belongs to a night and no night is running")
        i = self.window_of.get(d)
        if i is None:
            raise IllegalAction(f"the {d} does not wake on night {self.night_no}")
        if i < self.window_i:
            raise IllegalAction(f"the {self.tonight[i].name} window is closed")
        if d in self.decided:
            raise IllegalAction(f"the {d} has already decided tonight")
        self.decided[d] = (None, "timeout")

    def _close(self, a: A.Close) -> None:
        self._over()
        if self.phase == "night":
            if self.step != "windows":
                raise IllegalAction("the night is over; the day has not begun")
            self._fx.append(E.Sleep(self.tonight[self.window_i].name))
            self.window_i += 1
            self._wake()
        elif self.phase == "day":
            st = self.step
            if st in ("speeches", "defence", "tie"):
                self.speaker_i = len(self.speakers)
                self._after_speech()
            elif st in ("vote", "revote"):
                self._tally()
            elif st == "removeall":
                self._close_removeall()
            elif st == "take":
                self.take_seat = 0
                self._end_eliminations()
            else:
                raise IllegalAction("the day is over; the night has not begun")
        else:
            raise IllegalAction("nothing is running")

    def _target_of(self, d: str) -> tuple[int | None, bool]:
        """The target decided for `d` (None if none) and whether it was chosen (not a default)."""
        got = self.decided.get(d)
        if got is None or got[1] == "timeout":
            return None, False
        return got[0], True

    def _first_not_of(self, team: str) -> int | None:
        team_of, roles = self.fmt.team_of, self.roles
        for s in self.living():
            if team_of[roles[s]] != team:
                return s
        return None

    def _resolve_night(self) -> None:
        """Dawn: blocks, protections, kills, checks and witnesses, transformations."""
        self.step = "done"
        fx = self._fx
        roles = self.roles
        n = self.night_no

        def acting(d: str) -> int | None:
            # the seat that carries out `d` tonight, None when it cannot or is blocked
            if d not in self.window_of or self.from_night[d] > n:
                return None
            seat = self.actor(d)
            return None if seat is None or seat == blocked else seat

        blocked: int | None = None
        lover = self.decided.get("lover")
        if lover and lover[0] is not None and acting("lover") is not None:
            blocked = lover[0]

        # protections
        saved: int | None = None
        doctor = acting("doctor")
        if doctor is not None:
            t, chosen = self._target_of("doctor")
            if t is None and not chosen and self._bool("doctor_auto_save"):
                t = self._auto_save(doctor)
                if t is not None:
                    fx.append(E.Decided("doctor", t, default=True))
            if t is not None:
                saved = t
                if t == doctor:
                    self.doctor_self_used = True
                self.doctor_saved.add(t)
        protected: int | None = None
        if acting("lawyer") is not None:
            protected = self._target_of("lawyer")[0]

        # kills, in night order: target -> [(by, attacker)]
        attacks: dict[int, list[tuple[str, int]]] = {}

        def attack(t: int | None, by: str, who: int) -> None:
            if t is not None and self.alive[t]:
                attacks.setdefault(t, []).append((by, who))

        don = acting("mafia")
        if don is not None:
            t, chosen = self._target_of("mafia")
            if t is None and not chosen and self._bool("mafia_default_kill"):
                t = self._first_not_of("mafia")
                fx.append(E.Decided("mafia", t, default=True))
            attack(t, "mafia", don)
        yak = acting("yakuza")
        if yak is not None:
            t, chosen = self._target_of("yakuza")
            if t is None:
                t = self._target_of("shogun")[0] if self.actor("shogun") else None
                if t is None and self._bool("yakuza_default_kill"):
                    t = self._first_not_of("yakuza")
                fx.append(E.Decided("yakuza", t, default=True))
            attack(t, "yakuza", yak)
        man = acting("maniac")
        if man is not None:
            t = self._target_of("maniac")[0]
            if t is not None:
                self.maniac_shots += 1
                attack(t, "maniac", man)
        com = acting("commissar")
        com_decision = self.decided.get("commissar")
        if com is not None and com_decision and com_decision[1] == "shoot":
            attack(com_decision[0], "commissar", com)
        kil = acting("killer")
        if kil is not None:
            attack(self._target_of("killer")[0], "killer", kil)

        dying: list[tuple[int, str]] = []
        turned: list[tuple[int, str]] = []
        for t, atks in attacks.items():
            if t == saved:
                continue
            bys = {by for by, _ in atks}
            if roles[t] == "werewolf" and "killer" not in bys and len(bys) == 1:
                turned.append((t, "mafioso" if "mafia" in bys else "sergeant"))
                continue
            dying.append((t, atks[0][0]))
        dead = {t for t, _ in dying}
        for t, _ in list(dying):
            if roles[t] == "sorcerer":
                for _, who in attacks[t]:
                    if who not in dead and who != saved:
                        dying.append((who, "sorcerer"))
                        dead.add(who)

        # checks and witnesses (results at dawn where the format says so)
        if self._bool("checks_at_dawn"):
            for d in ("commissar", "don"):
                checker = acting(d)
                checked, _ = self._target_of(d)
                if checker is not None and checked is not None:
                    self._check(d, checked, self.decided[d][1], checker, protected)
        hobo = acting("hobo")
        if hobo is not None:
            t = self._target_of("hobo")[0]
            if t is not None:
                fx.append(E.Witness(t, tuple(who for _, who in attacks.get(t, ())),
                                    audience=hobo))

        # transformations
        for t, role in turned:
            self._set_role(t, role)
        self.night_left = tuple(t for t, _ in dying)
        self._eliminate(dying)
        self._end_eliminations()

    def _auto_save(self, doctor: int) -> int | None:
        once = self._bool("doctor_once_per_seat")
        for s in self.living():
            if once and s in self.doctor_saved:
                continue
            if s == doctor and self._bool("doctor_self_once") and self.doctor_self_used:
                continue
            return s
        return None

    # -- eliminations and the win check
    def _eliminate(self, who: Iterable[tuple[int, str]]) -> None:
        label = self.phase_label()
        reveal = self._bool("reveal_roles")
        for seat, by in who:
            if not self.alive[seat]:
                continue
            self.alive[seat] = False
            self.out.append(Out(seat, label, by))
            self._fx.append(E.Eliminated(seat, label, by, self.roles[seat] if reveal else None))
            for lst in (self.nominees, self.candidates):
                if seat in lst:
                    lst.remove(seat)
            self.ballots.pop(seat, None)
            self.yes.discard(seat)

    def _end_eliminations(self) -> None:
        """After every elimination: the Sergeant takes over, then the win check."""
        if self.dealt("commissar") and self.seat_of("commissar") is None:
            sergeant = self.seat_of("sergeant")
            if sergeant is not None:
                self._set_role(sergeant, "commissar")
        winner = self.fmt.winner(self.tally())
        if winner is not None:
            self.winner = winner
            self.phase = "over"
            self.step = ""
            self._fx.append(E.GameOver(winner))

    # -- day
    def _begin_day(self, a: A.BeginDay) -> None:
        self._over()
        if self.phase != "night":
            raise IllegalAction("a day follows a night")
        if self.step != "done":
            raise IllegalAction(f"night {self.night_no} is not over")
        self.day_no += 1
        self.phase = "day"
        self.step = "speeches"
        living = self.living()
        start = 0
        if self.opt["first_speaker"] == "rotate":
            after = self.first_speaker
            start = next((i for i, s in enumerate(living) if s > after), 0)
        self.speakers = living[start:] + living[:start]
        self.first_speaker = self.speakers[0]
        self.speaker_i = 0
        self.announced = False
        self.nominees = []
        self.nominators = {}
        self.candidates = []
        self.ballots = {}
        self.yes = set()
        self._fx.append(E.PhaseBegins("day", self.day_no))
        self._fx.append(E.Morning(self.day_no, self.night_left, self.critical_fouls))
        self._speak("speeches")

    def _speak(self, step: str) -> None:
        """Give the floor to the current speaker of `step`, skipping seats that are out."""
        while self.speaker_i < len(self.speakers) and not self.alive[self.speakers[self.speaker_i]]:
            self.speaker_i += 1
        if self.speaker_i >= len(self.speakers):
            self._after_speech()
            return
        if step == "speeches" and not self.announced and self.nominees \
                and self.speaker_i == len(self.speakers) - 1:
            self.announced = True
            self._fx.append(E.NomineesAnnounced(tuple(self.nominees)))
        timer = {"speeches": "speech", "defence": "defence", "tie": "tie_speech"}[step]
        self._fx.append(E.Speech(self.speakers[self.speaker_i],
                                 {"speeches": "speech"}.get(step, step), timer,
                                 self.fmt.timers.get(timer, 0)))

    def _end_speech(self, a: A.EndSpeech) -> None:
        self._over()
        if self.phase != "day" or self.step not in ("speeches", "defence", "tie"):
            raise IllegalAction("nobody is speaking")
        self.speaker_i += 1
        self._speak(self.step)

    def _after_speech(self) -> None:
        st = self.step
        if st == "speeches":
            if self.nominees and not self.announced:
                self.announced = True
                self._fx.append(E.NomineesAnnounced(tuple(self.nominees)))
            if self.opt["vote"] == "plurality":
                self._open_vote("vote", self.living())
            elif not self.nominees:
                self.step = "done"       # with no nomination there is no vote
            else:
                self.step = "defence"
                self.speakers = list(self.nominees)
                self.speaker_i = 0
                self._speak("defence")
        elif st == "defence":
            self._open_vote("vote", self.nominees)
        elif st == "tie":
            self._open_vote("revote", self.candidates)

    def _open_vote(self, kind: str, candidates: Sequence[int]) -> None:
        if not candidates:       # every nominee was disqualified
            self.step = "done"
            return
        self.step = kind
        self.candidates = list(candidates)
        self.ballots = {}
        self.yes = set()
        timer = "removeall" if kind == "removeall" else "vote"
        self._fx.append(E.VoteOpens(kind, tuple(self.candidates), timer,
                                    self.fmt.timers.get(timer, 0)))

    def _nominate(self, a: A.Nominate) -> None:
        self._over()
        if self.phase != "day":
            raise IllegalAction("nominations are made in the day")
        if self.step != "speeches":
            raise IllegalAction("nominations are closed: the speeches are over")
        by = self._living_seat(a.by, " and cannot nominate")
        t = self._living_seat(a.target, " and cannot be nominated")
        if t in self.nominees:
            raise IllegalAction(f"seat {t} is already nominated")
        if by in self.nominators:
            raise IllegalAction(f"seat {by} has already nominated seat {self.nominators[by]}")
        self.nominees.append(t)
        self.nominators[by] = t
        self._fx.append(E.Nominated(by, t))

    def _ballot(self, a: A.Ballot) -> None:
        self._over()
        if self.phase != "day" or self.step not in ("vote", "revote"):
            raise IllegalAction("no vote is open")
        self._check_ballot(a.seat, a.target, self.ballots)
        self.ballots[a.seat] = a.target

    def _check_ballot(self, seat: int, target: int, taken: dict[int, int]) -> None:
        """Why a ballot is refused (raised), given the ballots already `taken`."""
        self._living_seat(seat, " and cannot vote")
        self._seat(target)
        if seat in taken:
            raise IllegalAction(f"seat {seat} has already voted")
        if target not in self.candidates:
            if self.opt["vote"] == "plurality":
                raise IllegalAction(f"seat {target} is out of the game")
            what = "in the repeat vote" if self.step == "revote" else "nominated"
            raise IllegalAction(f"seat {target} is not {what}")

    def _ballots(self, a: A.Ballots) -> None:
        if self.phase != "day" or self.step not in ("vote", "revote"):
            raise IllegalAction("no vote is open")
        alive, cands, n = self.alive, self.candidates, self.n
        ballots = dict(self.ballots)      # all or nothing: a bad ballot changes no state
        for seat, target in a.ballots:
            # the common case checked inline; anything odd goes the long way for its message
            if not (type(seat) is int and 0 < seat <= n and alive[seat]
                    and seat not in ballots and target in cands):
                self._check_ballot(seat, target, ballots)
            ballots[seat] = target
        self.ballots = ballots
        self._tally()

    def _tally(self) -> None:
        kind = self.step
        cands = self.candidates
        counts = dict.fromkeys(cands, 0)
        if self.plurality:
            for t in self.ballots.values():
                counts[t] += 1
        else:
            last = cands[-1]
            to_last = self._bool("abstain_to_last")
            get = self.ballots.get
            for s in self.living():
                t = get(s, last if to_last else 0)
                if t:
                    counts[t] += 1
        self._fx.append(E.VoteTotals(kind, tuple((c, counts[c]) for c in cands if counts[c])))
        best = max(counts.values(), default=0)
        leaders = [c for c in cands if counts[c] == best] if best else []
        if len(leaders) == 1:
            self._voted_out(leaders, "vote")
        elif len(leaders) > 1 and self.opt["tie"] == "revote" and kind == "vote":
            self.step = "tie"
            self.candidates = leaders
            self.speakers = list(leaders)
            self.speaker_i = 0
            self._speak("tie")
        elif len(leaders) > 1 and self.opt["tie"] == "revote" and kind == "revote":
            self._open_vote("removeall", leaders)
        else:
            self.step = "done"

    def _removeall_yes(self, a: A.RemoveAllYes) -> None:
        self._over()
        if self.phase != "day" or self.step != "removeall":
            raise IllegalAction("the remove-all question is not being asked")
        seat = self._living_seat(a.seat, " and cannot vote")
        if seat in self.yes:
            raise IllegalAction(f"seat {seat} has already voted")
        self.yes.add(seat)

    def _close_removeall(self) -> None:
        yes = len(self.yes)
        self._fx.append(E.VoteTotals("removeall", ((0, yes),)))
        if yes * 2 > len(self.living()):
            self._voted_out(list(self.candidates), "removeall")
        else:
            self.step = "done"

    def _voted_out(self, seats: list[int], by: str) -> None:
        self.step = "done"
        voters = tuple(s for s, t in self.ballots.items() if t in seats)
        self._eliminate([(s, by) for s in seats])
        sorcerer = next((s for s in seats if self.roles[s] == "sorcerer"), 0)
        live_voters = tuple(v for v in voters if self.alive[v])
        if sorcerer and live_voters:
            self.step = "take"
            self.take_seat = sorcerer
            self.take_voters = live_voters
            self._fx.append(E.TakeAwaited(sorcerer, live_voters))
            return
        self._end_eliminations()

    def _take(self, a: A.Take) -> None:
        self._over()
        if self.phase != "day" or self.step != "take" or a.seat != self.take_seat:
            raise IllegalAction(f"seat {a.seat} has nobody to take along")
        t = self._living_seat(a.target)
        if t not in self.take_voters:
            raise IllegalAction(f"seat {t} did not vote for seat {a.seat}")
        self.step = "done"
        self._eliminate([(t, "sorcerer")])
        self._end_eliminations()

    # -- the host
    def _foul(self, a: A.Foul) -> None:
        self._over()
        if self.phase not in ("night", "day"):
            raise IllegalAction("the game has not started")
        seat = self._living_seat(a.seat)
        self.fouls[seat] += 1
        self._fx.append(E.FoulGiven(seat, self.fouls[seat]))
        limit = self._int("fouls_to_disqualify")
        if limit and self.fouls[seat] >= limit:
            self._disqualify(A.Disqualify(seat))

    def _disqualify(self, a: A.Disqualify) -> None:
        self._over()
        if self.phase not in ("night", "day"):
            raise IllegalAction("the game has not started")
        seat = self._living_seat(a.seat)
        self.critical_fouls += 1
        step = self.step
        self._eliminate([(seat, "disqualified")])
        if self.phase == "day" and step in ("vote", "revote", "removeall") \
                and not self.candidates:
            self.step = "done"
        self._end_eliminations()


#: decisions that may not name the deciding seat itself
_NOT_SELF = frozenset({"don", "detective", "lover", "hobo", "killer", "maniac", "commissar"})
#: decisions that may name any living seat (no rule narrows them)
_ANY_LIVING = frozenset({"mafia", "shogun", "yakuza", "lawyer"})

_HANDLERS: dict[type, Callable[[Game, Any], None]] = {
    A.Deal: Game._deal,
    A.BeginNight: Game._begin_night,
    A.BeginDay: Game._begin_day,
    A.Decide: Game._decide,
    A.Timeout: Game._timeout,
    A.Close: Game._close,
    A.EndSpeech: Game._end_speech,
    A.Nominate: Game._nominate,
    A.Ballot: Game._ballot,
    A.Ballots: Game._ballots,
    A.RemoveAllYes: Game._removeall_yes,
    A.Take: Game._take,
    A.Foul: Game._foul,
    A.Disqualify: Game._disqualify,
}


def step(game: Game, action: A.Action) -> tuple[Game, list[E.Effect]]:
    """The pure form: a new state and the effects; `game` itself is left as it was."""
    new = copy.deepcopy(game)
    fx = new.apply(action)
    return new, fx
