"""Actions: every input the rules accept, as plain data.

The table, a game script and the bots all speak to the engine in these; the journal stores
them. `Close` is what the clock says when a window or a speech runs out.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(slots=True)
class Deal:
    """Chance, recorded: `roles[i]` is the role of seat i+1."""

    roles: tuple[str, ...]


@dataclass(slots=True)
class BeginNight:
    """The host puts the city to sleep: the next night starts."""


@dataclass(slots=True)
class BeginDay:
    """The host wakes the city: the morning's announcement, then the speeches."""


@dataclass(slots=True)
class Decide:
    """A night decision. `target` None is `ROLE -` (chose to do nothing).

    `mode` is the Commissar's `check` or `shoot`; empty for every other decision.
    """

    decision: str
    target: int | None
    mode: str = ""


@dataclass(slots=True)
class Timeout:
    """A role's window ran out with no decision: the technical default applies."""

    decision: str


@dataclass(slots=True)
class Close:
    """The running window, speech or vote is over (its timer ran out, or it was skipped)."""


@dataclass(slots=True)
class EndSpeech:
    """The speaker ends early (a hold on his pad), or the host skips him."""


@dataclass(slots=True)
class Nominate:
    """Seat `by` nominates seat `target`."""

    by: int
    target: int


@dataclass(slots=True)
class Ballot:
    """One secret ballot: `seat` votes for `target` in the open vote or repeat vote."""

    seat: int
    target: int


@dataclass(slots=True)
class Ballots:
    """A whole blind vote at once (every ballot of the window), then the vote closes."""

    ballots: tuple[tuple[int, int], ...]


@dataclass(slots=True)
class RemoveAllYes:
    """In the remove-all question, `seat` votes yes."""

    seat: int


@dataclass(slots=True)
class Take:
    """A Sorcerer voted out (`seat`) names one of his voters (`target`) to leave with him."""

    seat: int
    target: int


@dataclass(slots=True)
class Foul:
    """The host gives `seat` a foul."""

    seat: int


@dataclass(slots=True)
class Disqualify:
    """The host removes `seat` from the game (a critical foul)."""

    seat: int


Action = (
    Deal | BeginNight | BeginDay | Decide | Timeout | Close | EndSpeech | Nominate | Ballot
    | Ballots | RemoveAllYes | Take | Foul | Disqualify
)
