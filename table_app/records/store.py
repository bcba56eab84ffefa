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
from dataclasses import asdict, dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, Concatenate, ParamSpec, TypeVar

import sqlalchemy as sa
from sqlalchemy.engine import Connection, Engine

from ..limits import NAME_COLUMN, NAME_LIMIT
from ..paths import state_dir
from ..rules import run_script
from ..rules.roles import ROLE

MIGRATIONS = Path(__file__).resolve().parent / "migrations"
HEAD = "0003"

meta = sa.MetaData()
players = sa.Table(
    "players", meta,
    sa.Column("id", sa.Integer, primary_key=True),
    sa.Column("name", sa.String(NAME_COLUMN), nullable=False, unique=True),
)
games = sa.Table(
    "games", meta,
    sa.Column("id", sa.String(36), primary_key=True),
    sa.Column("format", sa.String(40), nullable=False),
    sa.Column("players", sa.Integer, nullable=False),
    sa.Column("lang", sa.String(4), nullable=False),
    sa.Column("options", sa.Text, nullable=False),
    sa.Column("started", sa.String(32), nullable=False),
    sa.Column("ended", sa.String(32), nullable=False),
    sa.Column("host", sa.String(NAME_COLUMN), nullable=False),
    sa.Column("winner", sa.String(20)),
    sa.Column("script", sa.Text, nullable=False),
    sa.Column("club", sa.String(NAME_COLUMN), nullable=False, server_default=""),
    sa.Column("table_name", sa.String(NAME_COLUMN), nullable=False, server_default=""),
    sa.Column("synced", sa.Boolean, nullable=False, server_default=sa.false()),
    sa.Column("dated", sa.String(8), nullable=False, server_default="clock"),
)
seats = sa.Table(
    "seats", meta,
    sa.Column("game_id", sa.String(36), sa.ForeignKey("games.id"), primary_key=True),
    sa.Column("seat", sa.Integer, primary_key=True),
    sa.Column("player_id", sa.Integer, sa.ForeignKey("players.id")),
    sa.Column("name", sa.String(NAME_COLUMN), nullable=False),
    sa.Column("role", sa.String(20), nullable=False),
    sa.Column("side", sa.String(20), nullable=False),
    sa.Column("won", sa.Boolean, nullable=False),
    sa.Column("survived", sa.Boolean, nullable=False),
    sa.Column("fouls", sa.Integer, nullable=False),
    sa.Column("out_phase", sa.String(20)),
    sa.Column("out_by", sa.String(20)),
)


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


@dataclass
class Synced:
    """What a sync did: games sent, games the league had already, and the games it could
    not send, each with why (they wait; the rest went)."""

    sent: int = 0
    same: int = 0
    held: list[tuple[str, str]] = field(default_factory=list)


def send(local: Records, remote: Records) -> Synced:
    """Send the games the league has not got yet. A game is marked sent only once the
    league holds it, so an outage loses nothing and a retry doubles nothing (the id is the
    game's, on both sides). A game the league refuses (a value its schema does not take) is
    set aside with the reason and the others go on: one such game stopped every sync, for
    good. An unreachable league is a RecordsError, as before."""
    out = Synced()
    done = []
    for rec in local.unsynced():
        why = too_long(rec)
        if why is None:
            try:
                if remote.record(rec, synced=True):
                    out.sent += 1
                else:
                    out.same += 1
                done.append(rec.id)
                continue
            except GameRefused as e:
                why = str(e)
        out.held.append((rec.id, why))
    local.mark_synced(done)
    return out


def sync(local: Records, remote: Records) -> tuple[int, int]:
    """`send`, as (sent, already there)."""
    got = send(local, remote)
    return got.sent, got.same


def _versions(engine: Engine) -> list[str] | None:
    """The schema versions the records say they are at (Alembic's table), or None where
    that cannot be read."""
    try:
        with engine.connect() as c:
            if "alembic_version" not in sa.inspect(c).get_table_names():
                return None
            return sorted(str(r[0]) for r in c.exec_driver_sql(
                "SELECT version_num FROM alembic_version"))
    except Exception:
        return None


def _transactional_ddl(engine: Engine) -> None:
    """SQLite's own transactions for everything, schema changes included. Python's sqlite3
    opens a transaction only before a row is written, so a migration's CREATE TABLEs were
    committed one by one: a kill (or a full disk) during the first one left the tables there
    and Alembic's version empty, and every later open failed with "table players already
    exists". With this a migration is one transaction, whole or not at all."""
    @sa.event.listens_for(engine, "connect")
    def _connect(dbapi_connection: Any, _record: Any) -> None:
        dbapi_connection.isolation_level = None      # the driver begins nothing itself
        # a commit is the rollback journal's deletion: EXTRA makes that durable too (the
        # folder synced), else a power cut brought the journal back and the next open
        # rolled the committed game out of the records (the power-cut drill's finding)
        dbapi_connection.execute("PRAGMA synchronous = EXTRA")

    @sa.event.listens_for(engine, "begin")
    def _begin(conn: Connection) -> None:
        conn.exec_driver_sql("BEGIN")


def _half_made(conn: Connection) -> bool:
    """An empty schema that an earlier version's interrupted first migration left: tables
    but no Alembic version (and so never a game in it: every open failed since)."""
    names = set(sa.inspect(conn).get_table_names())
    if "games" not in names:
        return False
    if "alembic_version" in names and conn.exec_driver_sql(
            "SELECT count(*) FROM alembic_version").scalar():
        return False
    return not conn.execute(sa.select(sa.func.count()).select_from(games)).scalar()


def migrate(engine: Engine, to: str = "head") -> None:
    """Make or bring the schema up to `to` with Alembic, in one transaction."""
    from alembic import command
    from alembic.config import Config

    cfg = Config()
    cfg.set_main_option("script_location", str(MIGRATIONS))
    with engine.begin() as conn:
        if engine.dialect.name == "sqlite" and _half_made(conn):
            for name in ("seats", "games", "players", "alembic_version"):
                conn.exec_driver_sql(f"DROP TABLE IF EXISTS {name}")
        cfg.attributes["connection"] = conn
        command.upgrade(cfg, to)


def sqlite_file(url: str) -> Path | None:
    """The file of a local SQLite database URL, or None for any other database."""
    if not url.startswith("sqlite:///"):
        return None
    path = url[len("sqlite:///"):].split("?")[0]
    return Path(path) if path not in ("", ":memory:") else None


def damaged(url: str) -> bool:
    """Whether the records at `url` are a local SQLite file past saving (damaged pages, or
    not a database at all), rather than one that is only busy or out of reach: such a file
    is moved aside and a new one made, never written again."""
    import sqlite3
    path = sqlite_file(url)
    if path is None or not path.is_file():
        return False
    try:
        con = sqlite3.connect(f"file:{path}?mode=ro", uri=True, timeout=1.0)
    except sqlite3.Error:
        return False
    try:
        got = con.execute("PRAGMA quick_check").fetchone()
        return not (got and got[0] == "ok")
    except sqlite3.OperationalError as e:      # locked, busy, no such file: not damage
        return "locked" not in str(e) and "busy" not in str(e) and "unable" not in str(e)
    except sqlite3.DatabaseError:               # malformed, not a database
        return True
    finally:
        con.close()


def safe_url(url: str) -> str:
    """The URL without its password, for messages."""
    try:
        return sa.engine.make_url(url).render_as_string(hide_password=True)
    except Exception:
        return "the records"


def _short(e: BaseException) -> str:
    text = str(getattr(e, "orig", None) or e).strip().splitlines()
    return text[0] if text else type(e).__name__
