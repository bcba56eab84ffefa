"""The club's records: every finished game, its seats and its players, in SQLite on the Pi
or in a league's PostgreSQL, through SQLAlchemy; the schema is made and migrated by Alembic
(`migrations/`) when the database is opened.

A game is written only once it is over (a running game's roles never reach the database),
under a stable id, so recording, importing or sending it twice never doubles it.
"""

from __future__ import annotations

import csv
import io
import json
import os
import uuid
from collections.abc import Callable, Iterable
from dataclasses import asdict
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, Concatenate, ParamSpec, TypeVar

import sqlalchemy as sa
from sqlalchemy.engine import Connection, Engine

from ..limits import NAME_COLUMN, NAME_LIMIT
from ..paths import state_dir
from ..rules import run_script
from ..rules.roles import ROLE
from .game import GameRecord, GameRefused, RecordsError, SeatRecord, _parse, now_text
from .schema import (
    HEAD,
    MIGRATIONS,
    _short,
    _transactional_ddl,
    _versions,
    games,
    migrate,
    players,
    safe_url,
    seats,
)


def from_script(script: str, names: dict[int, str] | None = None, host: str = "",
                started: str | None = None, ended: str | None = None, lang: str = "en",
                game_id: str | None = None, club: str = "",
                table_name: str = "") -> GameRecord:
    """A finished game's record, from its game script (replayed here: the script is the
    truth) and what the script does not hold."""
    replay = run_script(script)
    game = replay.game
    outcome = game.outcome()
    if outcome.winner is None:
        raise RecordsError("the game is not over: only finished games are recorded")
    out = {o.seat: o for o in outcome.out}
    names = names or {}
    seats_ = []
    for s in range(1, game.n + 1):
        role = game.roles[s]
        side = ROLE[role].side if role in ROLE else ""
        o = out.get(s)
        seats_.append(SeatRecord(s, (names.get(s) or f"seat {s}")[:NAME_COLUMN], role, side,
                                 won=_won(outcome.winner, side, role), survived=o is None,
                                 fouls=int(game.fouls[s]),
                                 out_phase=o.phase if o else None, out_by=o.by if o else None))
    stamp = ended or now_text()
    return GameRecord(id=game_id or str(uuid.uuid4()), format=game.fmt.id, players=game.n,
                      lang=lang, options=dict(replay.options), started=started or stamp,
                      ended=stamp, host=host[:NAME_COLUMN], winner=outcome.winner,
                      script=script, club=club[:NAME_COLUMN],
                      table_name=table_name[:NAME_COLUMN], seats=seats_)


def _won(winner: str, side: str, role: str) -> bool:
    # a winner names a side ("city", "mafia", "yakuza") or a lone role ("maniac")
    return winner in (side, role)




def default_url() -> str:
    return f"sqlite:///{state_dir() / 'records.sqlite'}"


P = ParamSpec("P")
R = TypeVar("R")


def _db_errors(method: Callable[Concatenate[Records, P], R]
               ) -> Callable[Concatenate[Records, P], R]:
    """A database that fails under a method (locked by another program, damaged, gone) is a
    RecordsError, which the table catches, never a traceback."""
    import functools

    def wrapped(self: Records, /, *args: P.args, **kwargs: P.kwargs) -> R:
        try:
            return method(self, *args, **kwargs)
        except (sa.exc.SQLAlchemyError, OSError) as e:
            raise RecordsError(f"the records at {safe_url(self.url)} failed: "
                               f"{_short(e)}") from None
    functools.update_wrapper(wrapped, method)     # its name and docstring
    return wrapped


class Records:
    """One records database."""

    def __init__(self, url: str | None = None) -> None:
        self.url = url or default_url()
        try:
            if self.url.startswith("sqlite:///"):
                path = Path(self.url[len("sqlite:///"):])
                if str(path) not in ("", ":memory:"):
                    path.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
                    if not path.exists():
                        # the records hold every player's roles: the owner's eyes only
                        os.close(os.open(path, os.O_CREAT | os.O_WRONLY, 0o600))
            self.engine: Engine = sa.create_engine(self.url, future=True,
                                                   pool_pre_ping=True)
            if self.engine.dialect.name == "sqlite":
                _transactional_ddl(self.engine)
            migrate(self.engine)
        except Exception as e:
            from alembic.util import CommandError
            if not isinstance(e, (sa.exc.SQLAlchemyError, OSError, ValueError, CommandError)):
                raise
            raise RecordsError(self._why_not(e)) from None

    def _why_not(self, e: Exception) -> str:
        """Why the records could not be opened, saying what their schema's version is when
        that is the reason (an older one that would not migrate said "Circular dependency
        detected")."""
        where = f"the records at {safe_url(self.url)}"
        versions = _versions(self.engine) if hasattr(self, "engine") else None
        known = sorted(p.name[:4] for p in (MIGRATIONS / "versions").glob("0*.py"))
        if versions and len(versions) > 1:
            return (f"{where} have a damaged schema version (several: "
                    f"{', '.join(versions)}; this table-app's is {HEAD}): restore them from "
                    f"a backup, or give the table other records")
        if versions and versions[0] in known and versions[0] != HEAD:
            return (f"{where} are of an older schema (version {versions[0]}; this "
                    f"table-app's is {HEAD}) that could not be brought up to date "
                    f"({_short(e)}): restore them from a backup, or give the table other "
                    f"records")
        if versions and versions[0] not in known:
            # a schema this version does not know: a newer table-app made it
            return (f"{where} are of a newer table-app (schema version {versions[0]}; this "
                    f"one knows up to {HEAD}): update this one, or give it other records")
        return f"{where} cannot be opened: {_short(e)}"

    def close(self) -> None:
        self.engine.dispose()

    # -- writing -------------------------------------------------------------------------
    def record(self, rec: GameRecord, synced: bool = False) -> bool:
        """Write a finished game; False if it is there already (nothing is doubled). A
        database that fails (damaged, locked by another program, gone) is a RecordsError."""
        try:
            with self.engine.begin() as c:
                if c.execute(sa.select(games.c.id).where(games.c.id == rec.id)).first():
                    return False
                row = {k: v for k, v in rec.to_json().items() if k != "seats"}
                row["options"] = json.dumps(rec.options, sort_keys=True)
                c.execute(games.insert().values(**row, synced=synced))
                for s in rec.seats:
                    pid = self._player(c, s.name) if not s.name.startswith("seat ") else None
                    c.execute(seats.insert().values(game_id=rec.id, player_id=pid,
                                                    **asdict(s)))
        except sa.exc.DataError as e:         # a value this schema does not take
            raise GameRefused(f"the records at {safe_url(self.url)} refused game "
                              f"{rec.id[:8]}: {_short(e)}") from None
        except (sa.exc.SQLAlchemyError, OSError) as e:
            raise RecordsError(f"the records at {safe_url(self.url)} cannot be written: "
                               f"{_short(e)}") from None
        return True

    def _player(self, c: Connection, name: str) -> int:
        found = c.execute(sa.select(players.c.id).where(players.c.name == name)).first()
        if found:
            return int(found[0])
        key = c.execute(players.insert().values(name=name)).inserted_primary_key
        assert key is not None           # an insert into a table with an id gives one
        return int(key[0])

    @_db_errors
    def rename(self, old: str, new: str) -> None:
        """A player's name spelled anew (merging, if the new spelling is a player too)."""
        new = typed_name(new)
        with self.engine.begin() as c:
            a = c.execute(sa.select(players.c.id).where(players.c.name == old)).first()
            if a is None:
                raise RecordsError(f"no player called {old!r}")
            b = c.execute(sa.select(players.c.id).where(players.c.name == new)).first()
            if b is None:
                c.execute(players.update().where(players.c.id == a[0]).values(name=new))
            else:
                c.execute(seats.update().where(seats.c.player_id == a[0]).values(
                    player_id=b[0]))
                c.execute(players.delete().where(players.c.id == a[0]))
            c.execute(seats.update().where(seats.c.player_id == (b[0] if b else a[0]))
                      .values(name=new))

    @_db_errors
    def attribute(self, game_id: str, seat: int, name: str) -> None:
        """Say after the fact who sat at `seat` in a game."""
        name = typed_name(name)
        with self.engine.begin() as c:
            ok = c.execute(sa.select(seats.c.seat).where(seats.c.game_id == game_id,
                                                          seats.c.seat == seat)).first()
            if ok is None:
                raise RecordsError(f"no seat {seat} in game {game_id}")
            c.execute(seats.update().where(seats.c.game_id == game_id, seats.c.seat == seat)
                      .values(player_id=self._player(c, name), name=name))

    @_db_errors
    def redate(self, game_id: str, ended: str) -> GameRecord:
        """The host sets when a game ended (ISO date and time, as "2026-12-01 21:30"): its
        start moves with it, and it is dated "host"."""
        try:
            when = datetime.fromisoformat(ended.strip().replace(" ", "T"))
        except ValueError:
            raise RecordsError(f"{ended!r} is not a date and time such as "
                               f"2026-12-01 21:30") from None
        if when.tzinfo is None:
            when = when.astimezone()                 # the Pi's own time zone
        g = self.game(game_id)
        span = _parse(g.ended) - _parse(g.started)
        with self.engine.begin() as c:
            c.execute(games.update().where(games.c.id == g.id).values(
                ended=when.astimezone(UTC).isoformat(timespec="seconds"),
                started=(when - span).astimezone(UTC).isoformat(timespec="seconds"),
                dated="host"))
        return self.game(g.id)

    @_db_errors
    def last_ended(self) -> str | None:
        """When the newest game ended, or None for no game."""
        with self.engine.connect() as c:
            got = c.execute(sa.select(sa.func.max(games.c.ended))).scalar()
        return str(got) if got else None

    # -- reading -------------------------------------------------------------------------
    @_db_errors
    def games(self, player: str | None = None, fmt: str | None = None,
              since: str | None = None, until: str | None = None,
              club: str | None = None) -> list[GameRecord]:
        q = sa.select(games).order_by(games.c.ended, games.c.id)
        if fmt:
            q = q.where(games.c.format == fmt)
        if since:
            q = q.where(games.c.ended >= since)
        if until:
            q = q.where(games.c.ended < until + "\uffff")
        if club is not None:
            q = q.where(games.c.club == club)
        if player:
            q = q.where(games.c.id.in_(sa.select(seats.c.game_id).join(
                players, players.c.id == seats.c.player_id).where(players.c.name == player)))
        with self.engine.connect() as c:
            rows = c.execute(q).mappings().all()
            return [self._game(c, r) for r in rows]

    @_db_errors
    def game(self, game_id: str) -> GameRecord:
        with self.engine.connect() as c:
            rows = c.execute(sa.select(games).where(games.c.id == game_id)).mappings().all() \
                or c.execute(sa.select(games).where(games.c.id.startswith(game_id))
                             ).mappings().all()
            if len(rows) != 1:
                raise RecordsError(f"no game {game_id!r}" if not rows else
                                   f"{game_id!r} names {len(rows)} games: give more of it")
            return self._game(c, rows[0])

    def _game(self, c: Connection, r: Any) -> GameRecord:
        rec = GameRecord(**{k: r[k] for k in ("id", "format", "players", "lang", "started",
                                              "ended", "host", "winner", "script", "club",
                                              "table_name", "dated")},
                         options=json.loads(r["options"] or "{}"))
        for s in c.execute(sa.select(seats).where(seats.c.game_id == r["id"])
                           .order_by(seats.c.seat)).mappings():
            rec.seats.append(SeatRecord(**{k: s[k] for k in (
                "seat", "name", "role", "side", "won", "survived", "fouls", "out_phase",
                "out_by")}))
        return rec

    @_db_errors
    def unsynced(self) -> list[GameRecord]:
        with self.engine.connect() as c:
            rows = c.execute(sa.select(games).where(games.c.synced == sa.false())
                             .order_by(games.c.ended)).mappings().all()
            return [self._game(c, r) for r in rows]

    @_db_errors
    def mark_synced(self, ids: Iterable[str]) -> None:
        with self.engine.begin() as c:
            for i in ids:
                c.execute(games.update().where(games.c.id == i).values(synced=True))

    # -- moving records ------------------------------------------------------------------
    def export(self, as_format: str, **filters: Any) -> str:
        recs = self.games(**filters)
        if as_format == "json":
            return json.dumps({"table-app-records": 1,
                               "games": [r.to_json() for r in recs]},
                              ensure_ascii=False, indent=1) + "\n"
        out = io.StringIO()
        w = csv.writer(out)
        w.writerow(["game", "ended", "format", "club", "host", "winner", "seat", "name",
                    "role", "side", "won", "survived", "fouls", "out_phase", "out_by"])
        for r in recs:
            for s in r.seats:
                w.writerow([r.id, r.ended, r.format, r.club, r.host, r.winner or "", s.seat,
                            s.name, s.role, s.side, int(s.won), int(s.survived), s.fouls,
                            s.out_phase or "", s.out_by or ""])
        return out.getvalue()

    def import_json(self, text: str) -> tuple[int, int]:
        """A JSON export (a league's way in without a network): (added, already there)."""
        try:
            data = json.loads(text)
        except ValueError as e:
            raise RecordsError(f"not a JSON export: {e}") from None
        except RecursionError:               # brackets nested thousands deep
            raise RecordsError("not a JSON export: nested too deep") from None
        if not isinstance(data, dict) or not isinstance(data.get("games"), list):
            raise RecordsError("not a table-app records export (no 'games' list)")
        added = same = 0
        for d in data["games"]:
            if not isinstance(d, dict):
                raise RecordsError("a game in the export is not an object")
            rec = GameRecord.from_json(d)
            try:
                run_script(rec.script)      # the script is the truth: it must replay
            except Exception as e:
                raise RecordsError(f"game {rec.id}: its script does not replay: {e}") from None
            if self.record(rec):
                added += 1
            else:
                same += 1
        return added, same


def typed_name(name: str) -> str:
    """A player's name as the host typed it for the records, or one line saying why not."""
    name = " ".join(str(name).split())
    if not name:
        raise RecordsError("a player's name cannot be empty")
    if len(name) > NAME_LIMIT:
        raise RecordsError(f"a name has at most {NAME_LIMIT} characters, as on the setup "
                           f"screen ({len(name)} given: {name[:NAME_LIMIT]}...)")
    return name


def too_long(rec: GameRecord) -> str | None:
    """Why the league's schema would refuse this game's record (a name longer than its
    columns, stored by an earlier version), or None."""
    for s in rec.seats:
        if len(s.name) > NAME_COLUMN:
            return (f"seat {s.seat}'s name is {len(s.name)} characters and the league takes "
                    f"{NAME_COLUMN}: give it a shorter one (table-app records attribute "
                    f"{rec.id[:8]} {s.seat} NAME)")
    for what, value in (("host", rec.host), ("club", rec.club), ("table", rec.table_name)):
        if len(value) > NAME_COLUMN:
            return f"its {what} is {len(value)} characters and the league takes {NAME_COLUMN}"
    return None
