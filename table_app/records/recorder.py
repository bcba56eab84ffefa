"""The table's recorder: every game the table finishes goes into the records, once.

It watches the table after each input; when a game is over it records it in the local
database (SQLite in the data folder, or what the settings name) and, when a league's
database is set, sends it there on a thread of its own, so a slow or absent network never
holds up the table. An unreachable league is tried again after 30 s, 1, 2 and 5 minutes, then
every 10; a table that starts with games the league lacks sends them. A game's id comes from
its journal's start entry: a table restarted after the end records the same game under the
same id, which is never doubled.
"""

from __future__ import annotations

import json
import threading
import uuid
from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from typing import Any

from .store import Records, RecordsError, from_script, sync

NAMESPACE = uuid.UUID("6d2b7f4e-3c55-4a8e-9d0a-7f1b2c3d4e5f")
#: seconds between tries of an unreachable league: the last repeats
RETRY = (30.0, 60.0, 120.0, 300.0, 600.0)


def _span(seconds: float) -> str:
    return f"{seconds:.0f} s" if seconds < 60 else f"{seconds / 60:.0f} min"


def game_id(start: dict[str, Any]) -> str:
    return str(uuid.uuid5(NAMESPACE, json.dumps(start, sort_keys=True)))


class Recorder:
    """An observer for TableApp: records each finished game."""

    def __init__(self, app: Any, names: Callable[[], dict[int, str]], host: str = "",
                 local: str | None = None, league: str | None = None, club: str = "",
                 table_name: str = "", note: Callable[[str], None] = print,
                 retry: tuple[float, ...] = RETRY,
                 sleep: Callable[[float], bool] | None = None) -> None:
        self.app = app
        self.names = names
        self.host, self.club, self.table_name = host, club, table_name
        self.local_url, self.league = local, league
        self.note = note
        self.done: set[str] = set()
        self.records: Records | None = None
        self.sender: threading.Thread | None = None
        #: the season's best (this year, this club), for the host's screen between games
        self.top: tuple[tuple[str, float], ...] = ()
        self.retry = retry
        self._stop = threading.Event()
        #: waits between tries of an unreachable league; True means the table is closing
        self.sleep = sleep or self._stop.wait

    def __call__(self, table: Any) -> None:
        if table.stage != "over" or not self.app.entries:
            return
        start = self.app.entries[0]
        gid = game_id(start)
        if gid in self.done:
            return
        self.done.add(gid)
        now = datetime.now(UTC)
        # the journal's times are the game's clock: the start is that long before now
        began = now - timedelta(seconds=max(0.0, float(table.now) - float(start["t"])))
        try:
            rec = from_script(table.game_script(), self.names(), self.host,
                              began.isoformat(timespec="seconds"),
                              now.isoformat(timespec="seconds"), table.cfg.lang, gid,
                              self.club, self.table_name)
            if self.records is None:
                self.records = Records(self.local_url)
            new = self.records.record(rec)
        except RecordsError as e:
            self.note(f"the game was not recorded: {e}")
            return
        if new:
            self.note(f"game recorded ({gid[:8]})")
        self.top = self.season_top()
        if self.league:
            self.send()

    def send(self) -> None:
        """Send what the league lacks, on a thread (one at a time), trying again after a
        while for as long as the league is out of reach."""
        if self.sender is not None and self.sender.is_alive():
            return
        local, url = self.records, self.league

        def run() -> None:
            waits = iter(self.retry)
            wait = next(waits)
            while True:
                try:
                    sent, _ = sync(local, Records(url))          # type: ignore[arg-type]
                    if sent:
                        self.note(f"games sent to the league: {sent}")
                    return
                except RecordsError as e:
                    self.note(f"the league's records are out of reach ({e}); the games wait "
                              f"here, tried again in {_span(wait)}")
                if self.sleep(wait):
                    return
                wait = next(waits, wait)
        self.sender = threading.Thread(target=run, daemon=True, name="records-sync")
        self.sender.start()

    def resume(self) -> None:
        """At the table's start: games recorded while the league was out of reach go now."""
        if not self.league:
            return
        try:
            if self.records is None:
                self.records = Records(self.local_url)
            waiting = bool(self.records.unsynced())
        except RecordsError as e:
            self.note(f"the records cannot be opened: {e}")
            return
        if waiting:
            self.send()

    def close(self) -> None:
        """The table closes: a wait between tries ends (the games stay for the next start)."""
        self._stop.set()

    def season_top(self, n: int = 5) -> tuple[tuple[str, float], ...]:
        """This year's rating at this club, best first (named players only)."""
        from .rating import rating, season
        if self.records is None:
            return ()
        try:
            games = season(self.records.games(club=self.club), str(datetime.now(UTC).year))
        except RecordsError:
            return ()
        return tuple((r.name, round(r.ordinal, 1)) for r in rating(games)[:n])
