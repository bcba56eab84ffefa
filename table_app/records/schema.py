"""The records' schema: its tables, made and migrated by Alembic (`migrations/`) when the
database is opened (store.py), and a database's health (an SQLite file damaged or not, a URL
said without its password)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import sqlalchemy as sa
from sqlalchemy.engine import Connection, Engine

from ..limits import NAME_COLUMN

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
