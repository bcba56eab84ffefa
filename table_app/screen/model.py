"""What the screens show, as plain data built from the table.

The host's view sees everything. The public view is built from a `PublicState`, a copy of
only what the whole room may know (who is out and how, fouls, nominees, who speaks, the
timer, vote totals, the winner): it is given nothing secret, so it cannot show it.
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass, field, replace
from functools import cache
from importlib import resources

from ..rules import effects as E
from ..table.core import Table


@cache
def texts() -> dict[str, dict[str, str]]:
    raw = resources.files(__package__).joinpath("texts.toml").read_text("utf-8")
    return {k: dict(v) for k, v in tomllib.loads(raw).items()}


def t(key: str, lang: str) -> str:
    entry = texts().get(key, {})
    return entry.get(lang) or entry.get("en") or key


@dataclass(frozen=True)
class SeatView:
    seat: int
    name: str
    alive: bool
    out_by: str = ""           # how he left (public: the morning says so)
    fouls: int = 0
    nominated: bool = False
    speaking: bool = False
    pad_fault: bool = False
    role: str = ""             # host only
    awake: bool = False        # host only: his role's window is open
    asked: bool = False        # host only: his pad is asking him now


@dataclass(frozen=True)
class PublicState:
    """Everything the room may know; nothing else."""

    lang: str
    phase: str                  # "night 2", "day 1", setup, deal, over
    step: str
    seconds_left: int | None
    paused: bool
    seats: tuple[SeatView, ...]
    nominees: tuple[int, ...]
    totals: tuple[tuple[int, int], ...]
    winner: str | None


@dataclass(frozen=True)
class HostView:
    public: PublicState
    seats: tuple[SeatView, ...]          # with roles and who is awake
    window: str = ""
    choices: tuple[tuple[str, str], ...] = ()   # decision -> chosen seat ("-" nothing)
    notes: tuple[str, ...] = ()          # movement at night, faults, warnings
    pending: str = ""                    # what the host must decide now


@dataclass
class Names:
    """Player names per seat (remembered between games by the app)."""

    by_seat: dict[int, str] = field(default_factory=dict)

    def get(self, seat: int) -> str:
        return self.by_seat.get(seat, "")


def _seconds(table: Table) -> int | None:
    left = table.time_left()
    return None if left is None else int(left + 0.999)


def public_state(table: Table, names: Names | None = None, totals: tuple[
        tuple[int, int], ...] = ()) -> PublicState:
    g = table.game
    names = names or Names()
    faults = {int(r.split(":")[1]) for r in table.pause_reasons if r.startswith("pad:")}
    # how a seat left is public only for what the room saw: a vote, a removal; a night
    # death is just "night" (who killed is a secret)
    out_by = {o.seat: o.by if o.by in ("vote", "removeall", "disqualified") else "night"
              for o in g.out}
    speaker = g.waiting().speaker if g.phase == "day" else None
    nominees = tuple(g.nominees) if g.phase == "day" else ()    # a night keeps no list
    seats = tuple(SeatView(s, names.get(s), g.alive[s] if table.stage != "deal" else True,
                           out_by.get(s, ""), g.fouls[s], s in nominees, s == speaker,
                           s in faults)
                  for s in range(1, table.cfg.players + 1))
    if table.stage in ("deal", "register", "ready"):
        phase = "deal"
    elif table.stage == "over":
        phase = "over"
    else:
        phase = g.phase_label()
    return PublicState(table.cfg.lang, phase, g.step if table.stage == "play" else "",
                       _seconds(table), table.paused, seats, nominees, totals,
                       g.winner)


def host_view(table: Table, names: Names | None = None,
              totals: tuple[tuple[int, int], ...] = ()) -> HostView:
    g = table.game
    pub = public_state(table, names, totals)
    window = ""
    awake: set[int] = set()
    if table.stage == "play" and g.phase == "night" and g.step == "windows":
        w = g.waiting()
        window = w.window or ""
        awake = set(w.awake)
    seats = tuple(replace(sv, role=g.roles[sv.seat], awake=sv.seat in awake,
                          asked=sv.seat in table.asked) for sv in pub.seats)
    choices = tuple((d, "-" if target is None else str(target))
                    for d, (target, _) in sorted(table.pending.items()))
    notes = tuple(n.text for n in table.log[-6:])
    pending = ""
    if table.stage == "ready":
        pending = "start"
    elif table.paused:
        pending = "resume"
    return HostView(pub, seats, window, choices, notes, pending)


class Totals:
    """Keeps the last vote's totals (public: they are announced), fed with the effects."""

    def __init__(self) -> None:
        self.last: tuple[tuple[int, int], ...] = ()

    def __call__(self, fx: list[E.Effect]) -> None:
        for f in fx:
            if isinstance(f, E.VoteTotals):
                self.last = f.totals
            elif isinstance(f, E.PhaseBegins):
                self.last = ()
