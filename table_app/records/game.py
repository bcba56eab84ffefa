"""A finished game as the club's records keep it (store.py writes and reads it): its seats,
and when it ended as far as this Pi can know; and the records' errors."""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from datetime import UTC, datetime
from typing import Any


class RecordsError(Exception):
    """The records cannot be used: a bad URL, a database that cannot be reached, a bad
    import file. The message says which."""


class GameRefused(RecordsError):
    """A database that is there and working refused this one game (a value its schema does
    not take): the others can still go."""


@dataclass
class SeatRecord:
    """One seat of a finished game."""

    seat: int
    name: str
    role: str
    side: str
    won: bool
    survived: bool
    fouls: int
    out_phase: str | None = None
    out_by: str | None = None


@dataclass
class GameRecord:
    """A finished game as the records keep it; everything but the names, the host and the
    times comes from its game script."""

    id: str
    format: str
    players: int
    lang: str
    options: dict[str, Any]
    started: str
    ended: str
    host: str
    winner: str | None
    script: str
    club: str = ""
    table_name: str = ""
    seats: list[SeatRecord] = field(default_factory=list)
    #: how the date was known: "clock" (the Pi's), "guessed" (its clock was not
    #: plausible: a Pi with no clock and no network starts in 1970), "host" (set after)
    dated: str = "clock"

    def to_json(self) -> dict[str, Any]:
        return asdict(self)

    @staticmethod
    def from_json(d: dict[str, Any]) -> GameRecord:
        try:
            rec = GameRecord(**{k: v for k, v in d.items() if k != "seats"})
            rec.seats = [SeatRecord(**s) for s in d.get("seats", [])]
        except TypeError as e:
            raise RecordsError(f"not a game record: {e}") from None
        return rec


def _parse(text: str) -> datetime:
    when = datetime.fromisoformat(text)
    return when if when.tzinfo else when.replace(tzinfo=UTC)


#: no game of this version ends before its release: a clock earlier than that is wrong
EARLIEST = datetime(2026, 12, 1, tzinfo=UTC)


def plausible_end(now: datetime, last: str | None) -> tuple[datetime, str]:
    """When a game that ends now ended, and how that is known: the wall clock when it is
    later than this version's release and than the last game recorded; else (a Pi with no
    clock and no network) the last game's end, or the release, marked "guessed"."""
    floor = max(EARLIEST, _parse(last)) if last else EARLIEST
    if now >= floor:
        return now, "clock"
    return floor, "guessed"


def now_text() -> str:
    return datetime.now(UTC).isoformat(timespec="seconds")
