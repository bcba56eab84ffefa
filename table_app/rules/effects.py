"""Effects: what the engine says happened, as data, each with who may see it.

`audience` is PUBLIC (everyone at the table), HOST (the host's screen only) or a seat number
(that seat and the host). The table turns effects into narration, rings and screens; a view for
one seat keeps only what that seat may see.
"""

from __future__ import annotations

from dataclasses import dataclass

PUBLIC = 0
HOST = -1


@dataclass(slots=True)
class PhaseBegins:
    """A night or a day begins (`number` counts from 1)."""

    phase: str
    number: int
    audience: int = PUBLIC


@dataclass(slots=True)
class Wake:
    """A night window opens: `window` wakes for `seconds`. Said alike whether its roles live."""

    window: str
    roles: tuple[str, ...]
    decisions: tuple[str, ...]
    timer: str
    seconds: int
    audience: int = PUBLIC


@dataclass(slots=True)
class Sleep:
    """A night window closes."""

    window: str
    audience: int = PUBLIC


@dataclass(slots=True)
class Decided:
    """What a role chose at night (host only). `target` None: nothing; `default`: by the rules."""

    decision: str
    target: int | None
    mode: str = ""
    default: bool = False
    audience: int = HOST


@dataclass(slots=True)
class CheckResult:
    """A check's answer, for the checking seat only: black/red, or detective/no for the Don."""

    by: str
    target: int
    result: str
    audience: int = HOST


@dataclass(slots=True)
class Witness:
    """The Hobo's visit: who, if anyone, came to kill at `target`."""

    target: int
    killers: tuple[int, ...]
    audience: int = HOST


@dataclass(slots=True)
class RoleChanged:
    """A seat's role changed (the Sergeant takes over, the Werewolf turns)."""

    seat: int
    role: str
    audience: int = HOST


@dataclass(slots=True)
class Morning:
    """The morning's announcement: who left in the night, and the critical fouls so far."""

    number: int
    left: tuple[int, ...]
    critical_fouls: int
    audience: int = PUBLIC


@dataclass(slots=True)
class Eliminated:
    """A seat leaves the game. `role` is set when the format reveals it."""

    seat: int
    phase: str
    by: str
    role: str | None
    audience: int = PUBLIC


@dataclass(slots=True)
class Speech:
    """A seat's turn to speak: `kind` is speech, defence or tie."""

    seat: int
    kind: str
    timer: str
    seconds: int
    audience: int = PUBLIC


@dataclass(slots=True)
class Nominated:
    """The host accepted a nomination (said aloud at once)."""

    by: int
    target: int
    audience: int = PUBLIC


@dataclass(slots=True)
class NomineesAnnounced:
    """The nominee list, announced before the last speaker."""

    nominees: tuple[int, ...]
    audience: int = PUBLIC


@dataclass(slots=True)
class VoteOpens:
    """A blind vote opens: `kind` is vote, revote or removeall; `candidates` may be voted for."""

    kind: str
    candidates: tuple[int, ...]
    timer: str
    seconds: int
    audience: int = PUBLIC


@dataclass(slots=True)
class VoteTotals:
    """A vote's totals (never who voted how). For removeall: ((0, yes),)."""

    kind: str
    totals: tuple[tuple[int, int], ...]
    audience: int = PUBLIC


@dataclass(slots=True)
class TakeAwaited:
    """A Sorcerer voted out names one of `voters` to take along."""

    seat: int
    voters: tuple[int, ...]
    audience: int = PUBLIC


@dataclass(slots=True)
class FoulGiven:
    """A foul, and the seat's count so far."""

    seat: int
    count: int
    audience: int = PUBLIC


@dataclass(slots=True)
class GameOver:
    """A side has won."""

    winner: str
    audience: int = PUBLIC


Effect = (
    PhaseBegins | Wake | Sleep | Decided | CheckResult | Witness | RoleChanged | Morning
    | Eliminated | Speech | Nominated | NomineesAnnounced | VoteOpens | VoteTotals
    | TakeAwaited | FoulGiven | GameOver
)
