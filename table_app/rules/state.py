"""A game's state, its typed records and the parts every phase shares: who lives, who leads,
eliminations and the win check.

`night.py` and `day.py` add the two phases; `engine.py` puts them together as `Game`.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any, Final

from . import actions as A
from . import effects as E
from .acts import ActRule, Stage, Visit
from .errors import IllegalAction, InvalidAction
from .format import Format, Window
from .roles import DECISION, DECISIONS, ROLE, DecisionDef, OptionValue
from .tally import Tally


class Phase(StrEnum):
    """Where the game is: before the deal, dealt, a night, a day, or over."""

    SETUP = "setup"
    READY = "ready"
    NIGHT = "night"
    DAY = "day"
    OVER = "over"


class Step(StrEnum):
    """The step within a phase: night windows, or the day's speeches and votes."""

    NONE = ""
    WINDOWS = "windows"
    SPEECHES = "speeches"
    DEFENCE = "defence"
    VOTE = "vote"
    TIE = "tie"
    REVOTE = "revote"
    REMOVEALL = "removeall"
    TAKE = "take"
    DONE = "done"


# The members as constants, for the hot paths: in the compiled engine a `Final` is read
# straight from memory, where `Phase.NIGHT` is a lookup by name on every use.
SETUP: Final = Phase.SETUP
READY: Final = Phase.READY
NIGHT: Final = Phase.NIGHT
DAY: Final = Phase.DAY
OVER: Final = Phase.OVER
NONE: Final = Step.NONE
WINDOWS: Final = Step.WINDOWS
SPEECHES: Final = Step.SPEECHES
DEFENCE: Final = Step.DEFENCE
VOTE: Final = Step.VOTE
TIE: Final = Step.TIE
REVOTE: Final = Step.REVOTE
REMOVEALL: Final = Step.REMOVEALL
TAKE: Final = Step.TAKE
DONE: Final = Step.DONE


class How(StrEnum):
    """How a night decision was settled."""

    CHOSEN = "chosen"        # a target, or `-` where passing is allowed
    TIMEOUT = "timeout"      # the window ran out: the technical default applies


@dataclass(slots=True)
class Choice:
    """One decision made tonight: its target (None: nothing), its mode, and how."""

    target: int | None
    mode: str
    how: How


@dataclass(slots=True)
class Out:
    """One elimination, as the game script's `out[]` lists it."""

    seat: int
    phase: str
    by: str


@dataclass(slots=True)
class Check:
    """One check, as the game script's `checks[]` lists it."""

    phase: str
    by: str
    seat: int
    result: str


@dataclass(frozen=True, slots=True)
class Outcome:
    """How a game stands or ended: the typed form of `replay --json`."""

    format: str
    winner: str | None
    alive: tuple[int, ...]
    out: tuple[Out, ...]
    checks: tuple[Check, ...]
    #: every watcher's visit; None where no watcher (the city's Hobo) was dealt
    witnesses: tuple[Visit, ...] | None = None

    def to_json(self) -> dict[str, Any]:
        """The spec's JSON object, keys in the spec's order (`witnesses` only where a
        watcher was dealt)."""
        out: dict[str, Any] = {
            "format": self.format,
            "winner": self.winner,
            "alive": list(self.alive),
            "out": [{"seat": o.seat, "phase": o.phase, "by": o.by} for o in self.out],
            "checks": [{"phase": c.phase, "by": c.by, "seat": c.seat, "result": c.result}
                       for c in self.checks],
        }
        if self.witnesses is not None:
            out["witnesses"] = [{"phase": v.phase, "seat": v.seat, "saw": list(v.saw)}
                                for v in self.witnesses]
        return out


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


@dataclass(slots=True)
class TargetRule:
    """Whom one decision, made one way, may name: read once from its definition and options."""

    act: ActRule
    self_ok: bool          # may name the deciding seat
    save: bool             # limited like a save (the two options below)
    self_once: bool        # a save: himself only once
    once_per_seat: bool    # a save: each seat once in the game
    shots: int | None      # kills in all, where counted
    from_night: int        # the first night it may be made this way


class Rules:
    """What a format and its options say, read once per game (the hot paths ask often)."""

    def __init__(self, fmt: Format, opt: dict[str, OptionValue]) -> None:
        def as_int(name: str, default: int = 0) -> int:
            v = opt.get(name, default)
            assert isinstance(v, int)
            return v

        passes = opt["passes"]
        assert isinstance(passes, list)
        self.passes = frozenset(passes)
        self.from_night = {d: as_int(f"{d}_from_night", 1) for d in DECISION}
        self.mode_from = {(d.id, m): as_int(f"{d.id}_{m}_from_night", 1)
                          for d in DECISION.values() for m, _ in d.modes}
        self.shots = {d.id: as_int(f"{d.id}_kills") for d in DECISION.values()
                      if f"{d.id}_kills" in opt}
        self.flag = {k: bool(v) for k, v in opt.items() if isinstance(v, bool)}
        self.at_dawn = self.flag["checks_at_dawn"]
        self.self_check = self.flag["self_check"]
        self.self_shot = self.flag["self_shot"]
        self.plurality = opt["vote"] == "plurality"
        self.revote = opt["tie"] == "revote"
        self.rotate = opt["first_speaker"] == "rotate"
        self.abstain_to_last = self.flag["abstain_to_last"]
        self.reveal = self.flag["reveal_roles"]
        self.fouls_to_disqualify = as_int("fouls_to_disqualify")
        # what a check of each role shows, with the options applied
        self.looks: dict[str, str] = {}
        for r in fmt.roles:
            rd = ROLE[r]
            looks = rd.looks
            if rd.looks_option and self.flag.get(rd.looks_option[0]):
                looks = rd.looks_option[1]
            self.looks[r] = looks
        # roles a block does nothing to
        self.unblockable = frozenset(r for r in fmt.roles if ROLE[r].block_option
                                     and not self.flag.get(ROLE[r].block_option))
        # roles that may make a side's leader decisions
        self.leaders = frozenset(r for r in fmt.roles if ROLE[r].leads)
        self.may_lead = frozenset(r for r in fmt.roles if ROLE[r].may_lead)
        self.successions = tuple((r, ROLE[r].succeeds) for r in fmt.roles if ROLE[r].succeeds)
        # decision -> mode -> its rule (nested, so a lookup makes no tuple)
        self.target_rule: dict[str, dict[str, TargetRule]] = {}
        for d in DECISION.values():
            ways = self.target_rule[d.id] = {}
            for mode, act in ((("", d.act),) + d.modes):
                ways[mode] = TargetRule(
                    act, (d.self_ok and (self.self_shot or not act.harms))
                    or (act.shows and self.self_check), act.saves,
                    act.saves and self.flag.get(f"{d.id}_self_once", False),
                    act.saves and self.flag.get(f"{d.id}_once_per_seat", False),
                    self.shots.get(d.id) if act.kills else None,
                    self.mode_from.get((d.id, mode), 1))
            if d.modes:      # made with modes, a decision must name one
                del ways[""]
        # the decisions a timeout gives their act's technical default (`mafia_default_kill`)
        self.defaults = frozenset(
            d.id for d in DECISION.values()
            if d.act.default_option and self.flag.get(f"{d.id}_{d.act.default_option}"))
        # each decision's maker, read once: (role, side, by_leader, needs)
        self.maker = {d.id: (DECISIONS[d.id], ROLE[DECISIONS[d.id]].side, d.by_leader, d.needs)
                      for d in DECISION.values()}
        self.fmt = fmt
        self._plans: dict[tuple[int, frozenset[str]], NightPlan] = {}
        self._last_change = max([w.from_night for w in fmt.windows]
                                + [self.from_night[d] for d in fmt.window_of] + [2])
        # the sides that can kill at night, and the roles that carry each kill
        self.kill_roles: dict[str, list[tuple[str, DecisionDef]]] = {}
        for r in fmt.roles:
            for d in ROLE[r].decisions:
                if d.id in fmt.window_of and (d.act.kills or any(
                        a.kills for _, a in d.modes)):
                    self.kill_roles.setdefault(ROLE[r].side, []).append((r, d))


    def plan(self, night: int, dealt: frozenset[str] = frozenset()) -> NightPlan:
        """Which windows open on night `night` and what they decide (the same every night
        once every `from_night` has passed, so it is made once). With the roles `dealt`, a
        window none of them wakes in is not opened: the composition is public (the seat
        count gives it), so a 6-player city game has no Lover's window to sit through."""
        key = (min(night, self._last_change), dealt)
        p = self._plans.get(key)
        if p is None:
            p = self._plans[key] = NightPlan(self, key[0], dealt)
        return p


class NightPlan:
    """One night's windows, their decisions and their wake and sleep effects."""

    def __init__(self, rules: Rules, night: int, dealt: frozenset[str] = frozenset()) -> None:
        fmt = rules.fmt
        fn = rules.from_night
        self.windows = tuple(w for w in fmt.windows if w.from_night <= night
                             and (not dealt or any(r in dealt for r in w.wakes)))
        self.window_of = {d: i for i, w in enumerate(self.windows) for d in w.decisions}
        #: per window, the decisions made tonight, in order
        self.decisions = tuple(tuple(d for d in w.decisions if fn[d] <= night)
                               for w in self.windows)
        self.order = tuple(d for ds in self.decisions for d in ds)
        self.timers = tuple(w.night1_timer if night == 1 and w.night1_timer else w.timer
                            for w in self.windows)
        # effects are read-only data: one object serves every game
        self.wake = tuple(E.Wake(w.name, w.wakes, w.decisions, t, fmt.timers[t])
                          for w, t in zip(self.windows, self.timers, strict=True))
        self.sleep = tuple(E.Sleep(w.name) for w in self.windows)
        acts = {d: (DECISION[d].act,) + tuple(a for _, a in DECISION[d].modes)
                for d in self.order}
        #: per dawn stage, tonight's decisions that may land in it (one made in several ways
        #: in each of its ways' stages), by their act's place in the stage, then in wake order
        stages: list[tuple[str, ...]] = []
        for stage in Stage:
            here = [(min([a.order for a in acts[d] if a.stage is stage]), i, d)
                    for i, d in enumerate(self.order)
                    if [a for a in acts[d] if a.stage is stage]]
            stages.append(tuple([d for _, _, d in sorted(here)]))
        self.stages: tuple[tuple[str, ...], ...] = tuple(stages)
        #: the acts with a step of their own once their stage has landed
        self.settles: tuple[ActRule, ...] = tuple(dict.fromkeys(
            [a for d in self.order for a in acts[d] if a.settles]))


class State:
    """The whole state of one game, and what both phases use."""

    def __init__(self, fmt: Format, n: int, opt: dict[str, OptionValue]) -> None:
        self.fmt = fmt
        self.n = n
        self.opt = opt
        self.rules = rules_for(fmt, opt)
        self.passes = self.rules.passes
        self.side_of = fmt.team_of
        self.roles: list[str] = [""] * (n + 1)
        self.dealt_roles: tuple[str, ...] = ("",) * (n + 1)   # as dealt, before any change
        self.holders: dict[str, list[int]] = {}   # role -> its seats in table order
        self.alive: list[bool] = [False] * (n + 1)
        self.live: list[int] = []                 # living seats in table order
        self.side_count: dict[str, int] = {}
        self.phase = SETUP
        self.step = NONE
        self.night_no = 0
        self.day_no = 0
        self.label = "day 0"                      # the running phase, as records name it
        self.winner: str | None = None
        self.out: list[Out] = []
        self.checks: list[Check] = []
        self.check_seats: list[int] = []          # who learned each check
        self.visits: list[Visit] = []             # every watcher's night visit
        self.announced: set[int] = set()          # seats the room has been told are out
        self.revealed: set[int] = set()           # seats whose role the room has been shown
        self.totals: tuple[tuple[int, int], ...] = ()   # the last vote's totals, said aloud
        self.fouls = [0] * (n + 1)
        self.critical_fouls = 0
        self.shots: dict[str, int] = {}           # kills used, where a format counts them
        self.saved_before: dict[str, set[int]] = {}
        self.saved_self: set[str] = set()
        # night
        self.night_plan = self.rules.plan(1)
        self.tonight: tuple[Window, ...] = ()
        self.window_of: dict[str, int] = {}       # decision -> its window's index tonight
        self.window_i = 0
        self.decided: dict[str, Choice] = {}
        self.night_left: tuple[int, ...] = ()
        # day
        self.speakers: list[int] = []
        self.speaker_i = 0
        self.first_speaker = 0
        self.nominees_said = False
        self.nominees: list[int] = []
        self.nominators: dict[int, int] = {}
        self.candidates: list[int] = []
        self.ballots: dict[int, int] = {}
        self.yes: set[int] = set()
        self.take_seat = 0
        self.take_voters: tuple[int, ...] = ()
        self._fx: list[E.Effect] = []
        self.history: list[A.Action] = []               # every action applied, in order
        self._actors: dict[str, int | None] = {}   # who makes each decision, till a change

    # -- who is who ----------------------------------------------------------------------
    def living(self) -> list[int]:
        """The living seats in table order (a copy)."""
        return list(self.live)

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
        """`night N` or `day N`, as records name the phase."""
        return self.label

    def leader(self, side: str) -> int | None:
        """The side's acting leader: its leader role, or with him out the first living seat
        of the side in table order that may lead."""
        for role in self.rules.leaders:
            if self.side_of[role] == side and (s := self.seat_of(role)) is not None:
                return s
        side_of, roles, may = self.side_of, self.roles, self.rules.may_lead
        for s in self.live:
            r = roles[s]
            if side_of[r] == side and r in may:
                return s
        return None

    def effect(self, fx: E.Effect) -> None:
        """Add an effect to what the action being applied tells the table (an act's way in)."""
        self._fx.append(fx)

    def actor(self, decision: str) -> int | None:
        """The seat that makes `decision` now, or None when nobody can."""
        cache = self._actors
        if decision in cache:
            return cache[decision]
        role, side, by_leader, needs = self.rules.maker[decision]
        if needs and self.seat_of(needs) is None:
            seat = None
        elif by_leader:
            seat = self.leader(side)
        else:
            seat = self.seat_of(role)
        cache[decision] = seat
        return seat

    def tally(self) -> Tally:
        """Who is alive by side, and which sides can still kill: what a win rule looks at."""
        return Tally(len(self.live), dict(self.side_count), self._armed)

    def _armed(self) -> frozenset[str]:
        armed = set()
        for side, carriers in self.rules.kill_roles.items():
            if not self.side_count.get(side):
                continue
            for role, d in carriers:
                seat = self.leader(side) if d.by_leader else self.seat_of(role)
                if seat is None:
                    continue
                limit = self.rules.shots.get(d.id)
                if limit is None or self.shots.get(d.id, 0) < limit:
                    armed.add(side)
                    break
        return frozenset(armed)

    # -- small checks --------------------------------------------------------------------
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
        if self.phase is OVER:
            raise IllegalAction(f"the game is over: {self.winner} won")

    # -- roles ---------------------------------------------------------------------------
    def _index_roles(self) -> None:
        self._actors = {}
        self.holders = {}
        for s in range(1, self.n + 1):
            self.holders.setdefault(self.roles[s], []).append(s)
        count: dict[str, int] = {}
        side_of = self.side_of
        for s in self.live:
            side = side_of[self.roles[s]]
            count[side] = count.get(side, 0) + 1
        self.side_count = count

    def _heir(self, heir: str) -> int | None:
        """Who takes a place that `heir` succeeds to: the first living seat dealt that role,
        in table order; with none alive, the first that became one (a Werewolf the
        Commissar's shot turned into a Sergeant). The dealt Sergeant is the Commissar's own
        ("helps the Commissar and takes his place"); a turned one is a second in reserve."""
        seats = [s for s in self.holders.get(heir, ()) if self.alive[s]]
        for s in seats:
            if self.dealt_roles[s] == heir:
                return s
        return seats[0] if seats else None

    def _set_role(self, seat: int, role: str) -> None:
        self.roles[seat] = role
        self._index_roles()
        self._fx.append(E.RoleChanged(seat, role, audience=seat))

    # -- eliminations and the win check --------------------------------------------------
    def _eliminate(self, who: list[tuple[int, str]]) -> None:
        label = self.label
        reveal = self.rules.reveal
        alive, count, side_of, roles = self.alive, self.side_count, self.side_of, self.roles
        for seat, by in who:
            if not alive[seat]:
                continue
            alive[seat] = False
            self._actors = {}
            self.live.remove(seat)
            count[side_of[roles[seat]]] -= 1
            self.out.append(Out(seat, label, by))
            if self.phase is DAY or by == "disqualified":
                self._announce((seat,))
            self._fx.append(E.Eliminated(seat, label, by, roles[seat] if reveal else None))
            if seat in self.nominees:
                self.nominees.remove(seat)
            if seat in self.candidates:
                self.candidates.remove(seat)
            self.ballots.pop(seat, None)      # a seat that leaves casts no ballot
            self.yes.discard(seat)

    def _announce(self, seats: tuple[int, ...] | list[int]) -> None:
        """The room is told these seats are out (and shown their roles where the format
        reveals them)."""
        self.announced.update(seats)
        if self.rules.reveal:
            self.revealed.update(seats)

    def _end_eliminations(self) -> None:
        """After every elimination: successions, then the win check."""
        for heir, role in self.rules.successions:
            if self.dealt(role) and self.seat_of(role) is None:
                seat = self._heir(heir)
                if seat is not None:
                    self._set_role(seat, role)
        winner = self.fmt.winner(self.tally())
        if winner is not None:
            self.winner = winner
            self._announce([o.seat for o in self.out])     # the end names every loss
            self.phase = OVER
            self.step = NONE
            self._fx.append(E.GameOver(winner))


def rules_for(fmt: Format, opt: dict[str, OptionValue]) -> Rules:
    """The format's rules with these options: made once per format for its own options."""
    if opt == fmt.options:
        cached = _RULES.get(id(fmt))
        if cached is None or cached[0] is not fmt:
            cached = _RULES[id(fmt)] = (fmt, Rules(fmt, opt))
        return cached[1]
    return Rules(fmt, opt)


_RULES: dict[int, tuple[Format, Rules]] = {}
