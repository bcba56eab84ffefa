"""What goes into a table: its configuration, its inputs (each journaled before it is
applied), where its words go, and the lines its host's screen shows."""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Protocol

from ..pads.events import PadEdge, PadHeld, PadLevel, PadLink
from ..rules.format import Format
from ..rules.roles import OptionValue


class Voice(Protocol):
    """Where the table's words and timer sounds go (the SoundBoard, or a recorder)."""

    def say(self, line: list[str]) -> None: ...

    def timer(self, name: str) -> None: ...


# -- inputs (each is journaled before it is applied) ------------------------------------------
@dataclass(frozen=True)
class Tick:
    """Time passed (timers, holds)."""


@dataclass(frozen=True)
class Host:
    """A host command: start, pause, resume, skip, foul S, disqualify S, act S T, assign S R."""

    cmd: tuple[str, ...]


Input = PadEdge | PadHeld | PadLink | PadLevel | Tick | Host


@dataclass
class TableConfig:
    """What a game at the table is: the format, the seats, the language, the deal, the light."""

    fmt: Format
    players: int
    lang: str = "en"
    deal: str = "app"           # app: the app deals, players look; cards: roles register
    seed: int = 0
    roles: tuple[str, ...] | None = None   # a given deal (a game script's) instead of the seed's
    options: tuple[tuple[str, OptionValue], ...] = ()   # the format's options changed
    night_cap: float = 0.25     # rings' brightness at night and at the deal (0-1)
    day_cap: float = 0.6        # rings' brightness by day and in the vote


@dataclass
class Shown:
    """A log line for the host's screen: its English text, and for a note the host reads in
    his own language, its key and fields (`words.note_text`)."""

    t: float
    text: str
    key: str = ""
    fields: tuple[tuple[str, str], ...] = ()


def new_seed() -> int:
    """Chance for a new game (recorded in the journal, so a replay deals the same)."""
    return random.SystemRandom().randrange(2**31)
