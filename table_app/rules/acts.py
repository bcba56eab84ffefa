"""What a night act means: one entry per act, and nothing else in the engine says it.

A role's night decision names its act (`DecisionDef("doctor", ACT["save"])`). The act's entry
says everything the engine does with it:

- its **stage**, the step of the dawn it lands in (blocks first, then kills, saves, guards and
  protections, then the checks' answers, then the witnesses) and its place there;
- **whom it may name**: its flags (`saves`: each seat once and himself once, where the options
  say so; `kills`: counted against `<decision>_kills`; `shows`: a checker may name himself
  with `self_check`) feed the one predicate (`Night.barred`) that legality, the technical
  defaults and the bots all use;
- **how it lands** (`land`), once every decision of its stage has landed (`settle`), what it
  answers its maker (`result`), and its technical default's option (`default_option`);
- **how a bot aims it** (`aim`) and whether a table bot keeps it off its own side (`harms`).

The night's resolution (night.py) is a short pipeline over these stages. A new act is a
subclass here and its instance in `_MADE` before `ACT` is built; FORMATS.md's worked example
adds one (the Bodyguard's guard). An act sees the night only through `Tonight` (what it may
read, and the few records it may add to) and its decision through `Decision`: it imports
nothing of the engine, and the engine's internals may change under it.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass
from enum import IntEnum
from typing import Final, Protocol

from . import effects as E


@dataclass(slots=True)
class Visit:
    """One watcher's night visit, as the game script's `witnesses[]` lists it: the seat he
    went to and the seats that came there to kill, in the night order."""

    phase: str
    seat: int
    saw: tuple[int, ...]


class Aimed(Protocol):
    """A decision made tonight, as an act reads it."""

    @property
    def target(self) -> int | None: ...


class RulesRead(Protocol):
    """What an act reads of the format's rules, with the options applied."""

    @property
    def defaults(self) -> Collection[str]: ...      # decisions with a technical default

    @property
    def maker(self) -> Mapping[str, tuple[str, str, bool, str]]: ...   # role, side, ...

    @property
    def shots(self) -> Mapping[str, int]: ...        # kills a decision has in all

    @property
    def unblockable(self) -> Collection[str]: ...    # roles a block does nothing to

    @property
    def looks(self) -> Mapping[str, str]: ...        # role -> what a check of it shows


class Sides(Protocol):
    @property
    def team_of(self) -> Mapping[str, str]: ...      # role -> side


class Tonight(Protocol):
    """The night as an act sees it: what it may read, and the records it may add to."""

    @property
    def label(self) -> str: ...

    @property
    def roles(self) -> Sequence[str]: ...

    @property
    def alive(self) -> Sequence[bool]: ...

    @property
    def fmt(self) -> Sides: ...

    @property
    def rules(self) -> RulesRead: ...

    @property
    def decided(self) -> Mapping[str, Aimed]: ...

    @property
    def shots(self) -> dict[str, int]: ...           # kills used so far, by decision

    @property
    def saved_self(self) -> set[str]: ...            # saves that took their maker

    @property
    def saved_before(self) -> dict[str, set[int]]: ...

    @property
    def visits(self) -> list[Visit]: ...

    def effect(self, fx: E.Effect) -> None:
        """Add an effect to tonight's (what the table is told)."""

    def actor(self, decision: str) -> int | None:
        """The seat that makes `decision` now, or None."""

    def first_target(self, d: str, actor: int, mode: str, outside: str = "") -> int | None:
        """A technical default's target."""

    def show_answer(self, d: str, t: int, mode: str, actor: int,
                    protected: Collection[int]) -> None:
        """A check or a search lands: its answer goes to its maker only."""


class Decision(Protocol):
    """A role's night decision, as an act reads it."""

    @property
    def id(self) -> str: ...

    @property
    def label(self) -> str: ...          # a kill's `out[].by`

    @property
    def follows(self) -> str: ...        # the order a kill carries out

    @property
    def seeks(self) -> Collection[str]: ...  # a search's roles

    @property
    def found(self) -> str: ...          # a search's word when found


class Stage(IntEnum):
    """The dawn's steps, in the order they run."""

    READ = 0       # lands nowhere: another decision reads it (the Shogun's order)
    BLOCK = 1      # voids the target's own decisions tonight
    LAND = 2       # kills, saves, guards and protections
    SHOW = 3       # a check's or a search's answer, where the format gives them at dawn
    WITNESS = 4    # what a watcher saw at the seat


class Dawn:
    """What tonight's decisions have done so far, filled in stage by stage."""

    def __init__(self) -> None:
        self.blocked: set[int] = set()
        self.saved: set[int] = set()
        self.protected: set[int] = set()
        #: seat hit -> [(kill label, attacker)]: what the seat dies of unless saved
        self.attacks: dict[int, list[tuple[str, int]]] = {}
        #: seat aimed at -> attackers: what a witness at that seat sees
        self.came: dict[int, list[int]] = {}
        #: an act's own notes (act name -> seat -> seat), for its `settle`
        self.marks: dict[str, dict[int, int]] = {}

    def attack(self, target: int, label: str, attacker: int) -> None:
        hit = self.attacks.get(target)
        if hit is None:
            self.attacks[target] = [(label, attacker)]
            self.came[target] = [attacker]
        else:
            hit.append((label, attacker))
            self.came[target].append(attacker)


#: every act made, in the order they are defined (the registry below is built from it)
_MADE: list[ActRule] = []


class ActRule:
    """One act: its stage, whom it may name, what it does at dawn, how a bot aims it."""

    def __init__(self, name: str, stage: Stage, *, order: int = 0, shows: bool = False,
                 kills: bool = False, saves: bool = False, harms: bool = False,
                 settles: bool = False, default_option: str = "") -> None:
        self.name = name
        self.stage = stage
        #: its place among the acts of its stage (a check's answer before a search's)
        self.order = order
        #: answers its maker (a check, a search)
        self.shows = shows
        #: a kill: counted against `<decision>_kills`, arms its side (the win check)
        self.kills = kills
        #: limited like a save: `<decision>_once_per_seat`, `<decision>_self_once`
        self.saves = saves
        #: a table bot keeps it off its own side
        self.harms = harms
        #: has a `settle` step after its stage has landed
        self.settles = settles
        #: the option (`<decision>_<this>`) that gives a timed-out decision its default
        self.default_option = default_option
        _MADE.append(self)

    def land(self, night: Tonight, dawn: Dawn, dd: Decision, seat: int, target: int | None,
             mode: str, timed_out: bool) -> None:
        """The decision `dd`, made by `seat` (target None: nobody, or timed out), lands."""

    def settle(self, night: Tonight, dawn: Dawn) -> None:
        """Once every decision of its stage has landed (`settles`)."""

    def result(self, night: Tonight, dd: Decision, target: int,
               protected: Collection[int]) -> str:
        """What it answers its maker of `target` ('' for an act that answers nothing)."""
        return ""

    def aim(self, night: Tonight, side: str, targets: list[int], black: set[int],
            red: set[int]) -> list[int]:
        """The seats an informed bot of `side` aims at among `targets`, knowing the seats its
        side's checks found `black` and `red` (empty: any of them)."""
        return []


def _known_or_other(night: Tonight, side: str, targets: list[int],
                    black: set[int]) -> list[int]:
    """The city aims at the seats its checks found black; every other side at the others."""
    if side == "city":
        return [t for t in targets if t in black]
    team_of, roles = night.fmt.team_of, night.roles
    return [t for t in targets if team_of[roles[t]] != side]


class Kill(ActRule):
    """The target is attacked: he dies at dawn unless saved (or he turns, or takes others)."""

    def land(self, night: Tonight, dawn: Dawn, dd: Decision, seat: int, target: int | None,
             mode: str, timed_out: bool) -> None:
        d, t = dd.id, target
        if t is None and dd.follows:
            order = night.decided.get(dd.follows)
            if order and order.target is not None and night.actor(dd.follows) is not None:
                t = order.target
                night.effect(E.Decided(d, t, default=True))
        if t is None and timed_out and d in night.rules.defaults:
            t = night.first_target(d, seat, mode, outside=night.rules.maker[d][1])
            night.effect(E.Decided(d, t, default=True))
        if t is not None:
            if d in night.rules.shots:
                night.shots[d] = night.shots.get(d, 0) + 1
            if night.alive[t]:
                dawn.attack(t, dd.label, seat)

    def aim(self, night: Tonight, side: str, targets: list[int], black: set[int],
            red: set[int]) -> list[int]:
        return _known_or_other(night, side, targets, black)


class Save(ActRule):
    """Every attack on the target is cancelled."""

    def land(self, night: Tonight, dawn: Dawn, dd: Decision, seat: int, target: int | None,
             mode: str, timed_out: bool) -> None:
        d, t = dd.id, target
        if t is None and timed_out and d in night.rules.defaults:
            t = night.first_target(d, seat, mode)
            if t is not None:
                night.effect(E.Decided(d, t, default=True))
        if t is not None:
            dawn.saved.add(t)
            if t == seat:
                night.saved_self.add(d)
            night.saved_before.setdefault(d, set()).add(t)

    def aim(self, night: Tonight, side: str, targets: list[int], black: set[int],
            red: set[int]) -> list[int]:
        return [t for t in targets if t in red]


class Protect(ActRule):
    """A check of the target at dawn shows red."""

    def land(self, night: Tonight, dawn: Dawn, dd: Decision, seat: int, target: int | None,
             mode: str, timed_out: bool) -> None:
        if target is not None:
            dawn.protected.add(target)

    def aim(self, night: Tonight, side: str, targets: list[int], black: set[int],
            red: set[int]) -> list[int]:
        team_of, roles = night.fmt.team_of, night.roles
        return [t for t in targets if team_of[roles[t]] == side]


class Block(ActRule):
    """The target's own decisions are void tonight (a role a format exempts excepted)."""

    def land(self, night: Tonight, dawn: Dawn, dd: Decision, seat: int, target: int | None,
             mode: str, timed_out: bool) -> None:
        if target is not None and night.roles[target] not in night.rules.unblockable:
            dawn.blocked.add(target)


class Check(ActRule):
    """The maker learns black or red (red for a seat protected tonight, at dawn)."""

    def land(self, night: Tonight, dawn: Dawn, dd: Decision, seat: int, target: int | None,
             mode: str, timed_out: bool) -> None:
        if target is not None:
            night.show_answer(dd.id, target, mode, seat, dawn.protected)

    def result(self, night: Tonight, dd: Decision, target: int,
               protected: Collection[int]) -> str:
        return "red" if target in protected else night.rules.looks[night.roles[target]]

    def aim(self, night: Tonight, side: str, targets: list[int], black: set[int],
            red: set[int]) -> list[int]:
        return [t for t in targets if t not in black and t not in red]


class Search(Check):
    """The maker learns whether the target holds one of the roles the decision seeks."""

    def result(self, night: Tonight, dd: Decision, target: int,
               protected: Collection[int]) -> str:
        return dd.found if night.roles[target] in dd.seeks else "no"

    def aim(self, night: Tonight, side: str, targets: list[int], black: set[int],
            red: set[int]) -> list[int]:
        return _known_or_other(night, side, targets, black)


class Witness(ActRule):
    """The maker learns who came to kill at the target."""

    def land(self, night: Tonight, dawn: Dawn, dd: Decision, seat: int, target: int | None,
             mode: str, timed_out: bool) -> None:
        if target is not None:
            saw = tuple(dawn.came.get(target, ()))
            night.visits.append(Visit(night.label, target, saw))
            night.effect(E.Witness(target, saw, audience=seat))


class Order(ActRule):
    """Names the seat its side's kill hits when the killer does not choose (read by the
    kill's `follows`)."""

    def aim(self, night: Tonight, side: str, targets: list[int], black: set[int],
            red: set[int]) -> list[int]:
        return _known_or_other(night, side, targets, black)


Kill("kill", Stage.LAND, kills=True, harms=True, default_option="default_kill")
Save("save", Stage.LAND, saves=True, default_option="auto_save")
Protect("protect", Stage.LAND)
Block("block", Stage.BLOCK)
Check("check", Stage.SHOW, shows=True)
Search("search", Stage.SHOW, order=1, shows=True)
Witness("witness", Stage.WITNESS)
Order("order", Stage.READ, harms=True)

#: Every act by name: the one registry the roles name their decisions' acts from.
ACT: Final[dict[str, ActRule]] = {a.name: a for a in _MADE}
