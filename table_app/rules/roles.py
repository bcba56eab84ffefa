"""Roles as data: every role the engine can run is one `RoleDef` below, and nothing else in the
project names a role.

A role says its side, its night decisions (who may be chosen, whether it may pass, its
technical default, which act it is: acts.py says what each act does), what a check of it
shows, how it reacts to being attacked or voted out, whom it replaces, its card on the ring
and its clip. The engine reads only these fields; a format (TOML) lists which roles it deals
and in which night windows they wake. FORMATS.md shows how to add a role.

Options are part of the definitions too: each role declares the rule decisions a club may
change for it, and `OPTION_TYPES` / `OPTION_DEFAULTS` are built from them.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Final

from .acts import ACT, ActRule

OptionValue = bool | int | str | list[str]


@dataclass(frozen=True, slots=True)
class Option:
    """A rule decision a club may change: its name, type, default and allowed words."""

    name: str
    kind: type
    default: OptionValue
    allowed: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class DecisionDef:
    """One night decision, as a game script names it (`mafia 8`, `commissar check 5`)."""

    id: str
    #: what it does when it lands (acts.py)
    act: ActRule
    #: a decision made in one of several ways: mode word -> what it does (`check`, `shoot`)
    modes: tuple[tuple[str, ActRule], ...] = ()
    #: made by the side's acting leader (the Mafia's kill), not only by this role's seat
    by_leader: bool = False
    #: made only while a seat of this role lives (the Shogun's order needs the Yakuza)
    needs: str = ""
    #: may name the deciding seat itself
    self_ok: bool = False
    #: a kill's `out[].by`
    label: str = ""
    #: a kill that carries out this decision's order when it has no target of its own
    follows: str = ""
    #: a search: the roles it finds, and the word its result is then
    seeks: frozenset[str] = frozenset()
    found: str = ""
    #: a save: what limits it (`<id>_once_per_seat`, `<id>_self_once`, `<id>_auto_save`)
    #: and a kill: `<id>_default_kill`, `<id>_kills` (shots in all); declared as options below
    options: tuple[Option, ...] = ()

    @property
    def shows(self) -> bool:
        """Whether it answers its maker (a check or a search) in some mode."""
        return self.act.shows or any(a.shows for _, a in self.modes)

    def act_for(self, mode: str) -> ActRule:
        for word, act in self.modes:
            if word == mode:
                return act
        return self.act


@dataclass(frozen=True, slots=True)
class RoleDef:
    """One role: everything the engine, the table and the narration know of it."""

    id: str
    side: str
    decisions: tuple[DecisionDef, ...] = ()
    #: what a Detective's or Commissar's check shows
    looks: str = "red"
    #: (option, result): while the option is true a check shows this result instead
    looks_option: tuple[str, str] | None = None
    #: the side's leader (makes the side's `by_leader` decisions while alive)
    leads: bool = False
    #: may act as leader while the leader is out (the Lawyer never does)
    may_lead: bool = True
    #: a block on this role does nothing unless this option is true
    block_option: str = ""
    #: attacked by this kill label alone, the role changes instead of dying
    turns: tuple[tuple[str, str], ...] = ()
    #: killed at night, takes his attackers along
    takes_killers: bool = False
    #: voted out, names one of the seats that voted for him (`take`)
    takes_voter: bool = False
    #: takes this role's place when its last seat leaves the game
    succeeds: str = ""
    #: a plain role: no ability, not called one by one at a card deal
    plain: bool = False
    #: the options this role brings (beyond those of its decisions)
    options: tuple[Option, ...] = ()
    #: the role card on the player's ring: the side's colour and this many lit pixels
    card: int = 1
    #: the clip that says its name
    clip: str = field(default="")

    def __post_init__(self) -> None:
        if not self.clip:
            object.__setattr__(self, "clip", f"role_{self.id}")


def _opt(name: str, default: OptionValue, allowed: tuple[str, ...] = ()) -> Option:
    return Option(name, type(default), default, allowed)


_SAVE_OPTIONS = (
    _opt("doctor_once_per_seat", True),   # saves each seat once in the game
    _opt("doctor_self_once", True),       # saves himself once
    _opt("doctor_auto_save", True),       # no choice: the first living seat not saved before
)

#: Every role the engine can run, in the order role lists are shown.
ROLE_DEFS: Final[tuple[RoleDef, ...]] = (
    RoleDef("civilian", "city", plain=True),
    RoleDef("detective", "city", (
        DecisionDef("detective", ACT["check"]),
    ), card=2),
    RoleDef("doctor", "city", (
        DecisionDef("doctor", ACT["save"], self_ok=True, options=_SAVE_OPTIONS),
    ), card=3),
    RoleDef("don", "mafia", (
        DecisionDef("mafia", ACT["kill"], by_leader=True, self_ok=True, label="mafia",
                    options=(_opt("mafia_default_kill", True),)),
        DecisionDef("don", ACT["search"], seeks=frozenset({"detective", "commissar"}),
                    found="detective"),
    ), looks="black", leads=True, card=2),
    RoleDef("mafioso", "mafia", looks="black"),
    RoleDef("shogun", "yakuza", (
        DecisionDef("shogun", ACT["order"], needs="yakuza", self_ok=True),
    ), looks="black", looks_option=("shogun_checks_red", "red"),
        options=(_opt("shogun_checks_red", True),), card=2),
    RoleDef("yakuza", "yakuza", (
        DecisionDef("yakuza", ACT["kill"], self_ok=True, label="yakuza", follows="shogun",
                    options=(_opt("yakuza_default_kill", True),)),
    ), looks="black"),
    RoleDef("maniac", "maniac", (
        DecisionDef("maniac", ACT["kill"], label="maniac", options=(_opt("maniac_kills", 2),)),
    )),
    RoleDef("lawyer", "mafia", (
        DecisionDef("lawyer", ACT["protect"], self_ok=True),
    ), looks="black", may_lead=False, card=3),
    RoleDef("commissar", "city", (
        DecisionDef("commissar", ACT["check"],
                    modes=(("check", ACT["check"]), ("shoot", ACT["kill"])),
                    label="commissar", options=(_opt("commissar_shoot_from_night", 2),)),
    ), block_option="lover_may_block_commissar",
        options=(_opt("lover_may_block_commissar", False),), card=4),
    RoleDef("sergeant", "city", succeeds="commissar", card=5),
    RoleDef("lover", "city", (
        DecisionDef("lover", ACT["block"]),
    ), card=6),
    RoleDef("hobo", "city", (
        DecisionDef("hobo", ACT["witness"]),
    ), card=7),
    RoleDef("sorcerer", "city", takes_killers=True, takes_voter=True, card=8),
    RoleDef("werewolf", "city", turns=(("mafia", "mafioso"), ("commissar", "sergeant")),
            card=9),
    RoleDef("killer", "killer", (
        DecisionDef("killer", ACT["kill"], label="killer"),
    ), looks_option=("killer_checks_black", "black"),
        options=(_opt("killer_checks_black", False),)),
)

ROLE: Final[dict[str, RoleDef]] = {r.id: r for r in ROLE_DEFS}
ROLES: Final = tuple(ROLE)

#: Roles a deal may hand out more than once.
REPEATABLE: Final = frozenset({"civilian", "mafioso", "sergeant", "werewolf"})
UNIQUE_ROLES: Final = frozenset(r for r in ROLES if r not in REPEATABLE)

#: Night decisions by script word, and the role whose seat makes each.
DECISION: Final[dict[str, DecisionDef]] = {d.id: d for r in ROLE_DEFS for d in r.decisions}
DECISIONS: Final[dict[str, str]] = {d.id: r.id for r in ROLE_DEFS for d in r.decisions}


def role_clip(role: str) -> str:
    """The clip that says a role's name (a role a format file names but the package does
    not know keeps the usual name, so its clip can still be recorded)."""
    r = ROLE.get(role)
    return r.clip if r is not None else f"role_{role}"


#: Options every format has, whatever its roles.
_GENERAL = (
    _opt("checks_at_dawn", False),       # results at the end of the night, or at once
    _opt("self_check", False),           # a checker or searcher may name himself
    _opt("self_shot", True),             # the Mafia's, Yakuza's, Shogun's choice: himself too
    _opt("vote", "nominees", ("nominees", "plurality")),
    _opt("abstain_to_last", True),
    _opt("tie", "revote", ("revote", "nobody")),
    _opt("first_speaker", "first", ("first", "rotate")),
    _opt("fouls_to_disqualify", 0),
    _opt("reveal_roles", False),
)


def _registry() -> dict[str, Option]:
    opts: dict[str, Option] = {}
    for d in DECISION.values():
        opts[f"{d.id}_from_night"] = _opt(f"{d.id}_from_night", 1)
    opts["passes"] = Option("passes", list, [], tuple(DECISION))
    for o in _GENERAL:
        opts[o.name] = o
    for r in ROLE_DEFS:
        for o in r.options + tuple(o for d in r.decisions for o in d.options):
            opts[o.name] = o
    return opts


OPTIONS: Final = _registry()
OPTION_TYPES: Final[dict[str, tuple[type, tuple[str, ...]]]] = {
    name: (o.kind, o.allowed) for name, o in OPTIONS.items()}
OPTION_DEFAULTS: Final[dict[str, OptionValue]] = {
    name: (list(o.default) if isinstance(o.default, list) else o.default)
    for name, o in OPTIONS.items()}
