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
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ..paths import state_dir, write_private
from .game import GameRecord, RecordsError, plausible_end

if TYPE_CHECKING:
    from .store import Records

NAMESPACE = uuid.UUID("6d2b7f4e-3c55-4a8e-9d0a-7f1b2c3d4e5f")
#: seconds between tries of an unreachable league: the last repeats
RETRY = (30.0, 60.0, 120.0, 300.0, 600.0)


def _store() -> Any:
    """The records' store, loaded the first time a game is written or read: SQLAlchemy took
    a quarter of the table's start to its setup screen, where no record is needed."""
    from . import store
    return store


def _span(seconds: float) -> str:
    return f"{seconds:.0f} s" if seconds < 60 else f"{seconds / 60:.0f} min"


def waiting_folder() -> Path:
    """Where a finished game waits when the records cannot be written."""
    return state_dir() / "records-waiting"


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
        #: the wall clock (a Pi without a clock and no network says 1970: see plausible_end)
        self.wall: Callable[[], datetime] = lambda: datetime.now(UTC)
        #: games the league refused at the last sync, with why (they wait; the rest went);
        #: each said once on the host's screen
        self.held: list[tuple[str, str]] = []
        self.told: set[str] = set()

    def __call__(self, table: Any) -> None:
        self.keep(table)
        for gid, why in list(self.held):         # (found by the sender's thread)
            if gid not in self.told:
                self.told.add(gid)
                table.note(f"game {gid[:8]} is not sent to the league: {why}")

    def keep(self, table: Any) -> bool:
        """Record the table's game once it is over; True when it is kept safe: in the
        records, or (when they cannot be written) in a file of its own that waits for them
        and goes in at the table's next start. False only when neither could be written: the
        table then keeps the game's journal (TableApp.keepers)."""
        if table.stage != "over" or not self.app.entries:
            return True
        start = self.app.entries[0]
        gid = game_id(start)
        if gid in self.done:
            return True
        try:
            last = self._records().last_ended()
        except RecordsError:
            last = None
        now, dated = plausible_end(self.wall(), last)
        # the journal's times are the game's clock: the start is that long before now
        began = now - timedelta(seconds=max(0.0, float(table.now) - float(start["t"])))
        try:
            rec = _store().from_script(table.game_script(), self.names(), self.host,
                                       began.isoformat(timespec="seconds"),
                                       now.isoformat(timespec="seconds"), table.cfg.lang,
                                       gid, self.club, self.table_name)
            rec.dated = dated
        except Exception as e:       # never the table's end: the journal keeps the game
            self.note(f"the game could not be made a record ({type(e).__name__}: {e}): "
                      f"its journal is kept")
            return False
        try:
            new = self._write(rec)
        except RecordsError as e:
            try:
                kept = self._wait(rec)
            except OSError as e2:
                self.note(f"the game was not recorded ({e}), and it could not be kept "
                          f"aside ({e2.strerror or e2}): its journal is kept")
                return False
            self.done.add(gid)
            self.note(f"the game was not recorded ({e}): it is kept in {kept} and goes into "
                      f"the records at the table's next start")
            return True
        self.done.add(gid)
        if new:
            self.note(f"game recorded ({gid[:8]})" + (
                "" if dated == "clock" else f"; this Pi's clock says {self.wall():%Y-%m-%d}, "
                f"so it is dated after the last game: set its date with `table-app records "
                f"date {gid[:8]} YYYY-MM-DD HH:MM`"))
        self.top = self.season_top()
        if self.league:
            self.send()
        return True

    def _records(self) -> Records:
        if self.records is None:
            self.records = _store().Records(self.local_url or _store().default_url())
        return self.records

    def _write(self, rec: GameRecord) -> bool:
        """The game into the local records; a damaged database file is moved aside (said)
        and a new one made."""
        url = self.local_url or _store().default_url()
        try:
            if self.records is None:
                self.records = _store().Records(url)
            return self.records.record(rec)
        except RecordsError:
            from .schema import damaged, sqlite_file
            path = sqlite_file(url)
            if path is None or not damaged(url):
                raise
        if self.records is not None:
            self.records.close()
            self.records = None
        stamp = datetime.now().strftime("%Y%m%d-%H%M%S")
        aside = path.with_name(f"{path.name}.damaged-{stamp}")
        path.rename(aside)
        for extra in ("-wal", "-shm", "-journal"):        # SQLite's files beside it
            part = path.with_name(path.name + extra)
            if part.exists():
                part.rename(aside.with_name(aside.name + extra))
        self.records = _store().Records(url)
        self.note(f"the records were damaged: moved aside as {aside.name}, and a new "
                  f"database made; {self._recover(aside)}")
        return self.records.record(rec)

    def _recover(self, aside: Path) -> str:
        """The games of a damaged records file that can still be read, into the new one
        (they were left behind: the club's history gone with one bad page); what it says."""
        from .salvage import salvage
        assert self.records is not None
        try:
            found = salvage(aside)
        except OSError as e:
            return f"its games could not be read ({e.strerror or e})"
        taken = 0
        for game in found.games:
            try:
                taken += self.records.record(game)
            except RecordsError:
                found.lost.append(game.id)
        said = f"{taken} of its games recovered into it"
        if found.lost:
            said += (f"; {len(found.lost)} could not be read (find them in a backup): "
                     + ", ".join(sorted(found.lost)))
        return said

    def _wait(self, rec: GameRecord) -> Path:
        """The game in a file of its own that waits for the records (an export: `records
        import` takes it too), written whole or not at all."""
        return write_private(waiting_folder() / f"{rec.id}.json", json.dumps(
            {"table-app-records": 1, "games": [rec.to_json()]}, ensure_ascii=False))

    def take_waiting(self) -> int:
        """Games kept aside while the records could not be written, into them now: how
        many went in (each file goes once its game is in)."""
        folder = waiting_folder()
        files = sorted(folder.glob("*.json")) if folder.is_dir() else []
        taken = 0
        for f in files:
            try:
                added, _ = self._records().import_json(f.read_text(encoding="utf-8"))
            except (RecordsError, OSError, ValueError) as e:
                self.note(f"a game kept in {f} is not in the records yet: {e}")
                return taken
            f.unlink()
            taken += added           # (one kept while it was there already: no double)
        if taken:
            self.note(f"games kept while the records could not be written are recorded now: "
                      f"{taken}")
        return taken

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
                    from .sync import send
                    got = send(local, _store().Records(url))          # type: ignore[arg-type]
                    if got.sent:
                        self.note(f"games sent to the league: {got.sent}")
                    for gid, why in got.held:
                        self.note(f"game {gid[:8]} is not sent to the league, and waits: "
                                  f"{why}")
                    self.held = got.held
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
        """At the table's start: games kept while the records could not be written go into
        them, and games recorded while the league was out of reach go to it."""
        self.take_waiting()
        if not self.league:
            return
        try:
            if self.records is None:
                self.records = _store().Records(self.local_url)
            waiting = bool(self.records.unsynced())
        except RecordsError as e:
            self.note(f"the records cannot be opened: {e}")
            return
        if waiting:
            self.send()

    def close(self) -> None:
        """The table closes: a wait between tries ends (the games stay for the next start)."""
        self._stop.set()

    def season_top(self) -> tuple[tuple[str, float], ...]:
        """This year's points table at this club, best first (named players only): a point
        for each game won, as `records rating` ranks (the host can explain every figure).
        Whole: where the screen's rows end, players level on points go together (the first
        five of seven level on one point were shown, by the alphabet, as the best five)."""
        from .rating import season, standings
        if self.records is None:
            return ()
        try:
            games = season(self.records.games(club=self.club), str(datetime.now(UTC).year))
        except RecordsError:
            return ()
        return tuple((st.name, float(st.points)) for st in standings(games))
