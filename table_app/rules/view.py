"""What each viewer may know of a game: the room, one seat, or the host.

The rules produce these observations (as OpenSpiel does), so a screen or a recorder is given
only what its viewer may know and cannot show more. The room learns a night's deaths when the
morning names them, how a seat left only as far as it saw it (a vote, a removal, "the
night"), and a role only when the format reveals it.
"""

from __future__ import annotations

from dataclasses import dataclass

from .effects import HOST, PUBLIC
from .state import Check, Phase, State, Step

#: how a seat left, as the room may know it; every night death is just "night"
_SEEN = frozenset({"vote", "removeall", "disqualified"})


@dataclass(frozen=True, slots=True)
class SeatObservation:
    """One seat as a viewer sees it."""

    seat: int
    alive: bool                 # as far as the viewer knows
    out_by: str = ""            # how he left, as far as the viewer knows
    fouls: int = 0
    role: str = ""              # only where the viewer may know it
    nominated: bool = False
    speaking: bool = False


@dataclass(frozen=True, slots=True)
class Observation:
    """A game as one viewer may know it (`viewer`: PUBLIC, HOST or a seat)."""

    viewer: int
    phase: str                  # setup, ready, "night N", "day N", over
    step: str
    seats: tuple[SeatObservation, ...]
    nominees: tuple[int, ...]
    candidates: tuple[int, ...]  # while a vote is open
    speaker: int | None
    totals: tuple[tuple[int, int], ...]   # the last vote's totals, once announced
    winner: str | None
    checks: tuple[Check, ...]   # the viewer's own results (all of them for the host)


def observe(game: State, viewer: int = PUBLIC) -> Observation:
    """What `viewer` may know of `game` now."""
    host = viewer == HOST
    known_out = {o.seat: o for o in game.out if host or o.seat in game.announced}
    day = game.phase is Phase.DAY
    speaker = None
    if day and game.step in (Step.SPEECHES, Step.DEFENCE, Step.TIE) \
            and game.speaker_i < len(game.speakers):
        speaker = game.speakers[game.speaker_i]
    nominees = tuple(game.nominees) if day else ()
    voting = day and game.step in (Step.VOTE, Step.REVOTE, Step.REMOVEALL)
    seats = []
    for s in range(1, game.n + 1):
        out = known_out.get(s)
        if out is None:
            how = ""
        elif host:
            how = out.by
        else:
            how = out.by if out.by in _SEEN and out.phase.startswith("day") else (
                "disqualified" if out.by == "disqualified" else "night")
        role = ""
        if game.phase is not Phase.SETUP and (host or s == viewer or s in game.revealed):
            role = game.roles[s]
        seats.append(SeatObservation(s, out is None, how, game.fouls[s], role, s in nominees,
                                     s == speaker))
    phase = game.label if game.phase is Phase.NIGHT or day else game.phase.value
    checks = tuple(game.checks) if host else tuple(
        c for c, seat in zip(game.checks, game.check_seats, strict=True) if seat == viewer)
    return Observation(viewer, phase, game.step.value, tuple(seats), nominees,
                       tuple(game.candidates) if voting else (), speaker, game.totals,
                       game.winner, checks)
