"""The club's records, against SQLite and a real PostgreSQL server started here: writing,
migrating, export and import, sending to a league through an outage, the rating, and a whole
game at the virtual table that ends in the records with its protocol sheet."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest
import sqlalchemy as sa

from table_app.records.game import GameRecord, RecordsError
from table_app.records.schema import migrate
from table_app.records.store import Records, from_script
from table_app.records.sync import sync
from table_app.words import LANGS

SCRIPTS = Path(__file__).parent / "scripts"
PG_BIN = next(iter(sorted(Path("/usr/lib/postgresql").glob("*/bin"))), None) \
    if Path("/usr/lib/postgresql").is_dir() else None


def finished_scripts() -> list[str]:
    """Game scripts from the rule tests that play a game to its end."""
    out = []
    for p in sorted(SCRIPTS.glob("*/*.script")):
        want = p.with_suffix(".json")
        if want.exists() and json.loads(want.read_text()).get("winner"):
            out.append(p.read_text())
    return out


NAMES = ["Nino", "Giorgi", "Levan", "Tamar", "Dato", "Eka", "Sandro", "Mariam", "Zura",
         "Ana", "Lasha", "Keti"]


def _records(n: int = 6) -> list[GameRecord]:
    out = []
    for i, script in enumerate(finished_scripts()[:n]):
        names = {s: NAMES[(s + i) % 12] for s in range(1, 13)}
        out.append(from_script(script, names, host="Levan", ended=f"2026-11-{10 + i:02}T20:00",
                               game_id=f"00000000-0000-0000-0000-{i:012}"))
    return out


# -- a real PostgreSQL server, on a Unix socket of its own ---------------------------------
class Postgres:
    def __init__(self, root: Path) -> None:
        self.root = root
        self.data = root / "data"
        self.user = ["runuser", "-u", "postgres", "--"] if os.getuid() == 0 else []
        if self.user:
            shutil.chown(root, "postgres")
        subprocess.run([*self.user, str(PG_BIN / "initdb"), "-D", str(self.data), "-A",
                        "trust", "-U", "postgres"], check=True, capture_output=True)
        self.url = f"postgresql+psycopg://postgres@/postgres?host={root}&port=5439"

    def start(self) -> None:
        subprocess.run([*self.user, str(PG_BIN / "pg_ctl"), "-D", str(self.data), "-w", "-l",
                        str(self.root / "log"), "-o",
                        f"-k {self.root} -p 5439 -c listen_addresses=''", "start"],
                       check=True, capture_output=True)

    def stop(self) -> None:
        subprocess.run([*self.user, str(PG_BIN / "pg_ctl"), "-D", str(self.data), "-m", "fast",
                        "-w", "stop"], check=False, capture_output=True)

    def database(self, name: str) -> str:
        eng = sa.create_engine(self.url, isolation_level="AUTOCOMMIT")
        with eng.connect() as c:
            c.execute(sa.text(f'DROP DATABASE IF EXISTS "{name}"'))
            c.execute(sa.text(f'CREATE DATABASE "{name}"'))
        eng.dispose()
        return self.url.replace("/postgres?", f"/{name}?")


@pytest.fixture(scope="module")
def postgres(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Postgres]:
    if PG_BIN is None:
        if os.environ.get("CI"):
            pytest.fail("PostgreSQL is missing: .ci/run installs it")
        pytest.skip("no PostgreSQL server installed (apt-get install postgresql)")
    root = Path("/tmp") / f"pg-{os.getpid()}"       # a short path: the socket's limit
    shutil.rmtree(root, ignore_errors=True)
    root.mkdir()
    pg = Postgres(root)
    pg.start()
    yield pg
    pg.stop()
    shutil.rmtree(root, ignore_errors=True)


@pytest.fixture(params=["sqlite", "postgresql"])
def db(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Records]:
    if request.param == "sqlite":
        url = f"sqlite:///{tmp_path / 'records.sqlite'}"
    else:
        pg: Postgres = request.getfixturevalue("postgres")
        url = pg.database(f"t{abs(hash(request.node.name)) % 10**8}")
    r = Records(url)
    yield r
    r.close()


# -- writing and reading -------------------------------------------------------------------
def test_games_are_written_once_and_read_back(db: Records) -> None:
    recs = _records()
    assert len(recs) >= 4
    assert all(db.record(r) for r in recs)
    assert not db.record(recs[0])                        # the same game again: not doubled
    back = db.games()
    assert [g.id for g in back] == [r.id for r in recs]
    assert back[0].seats == recs[0].seats and back[0].script == recs[0].script
    assert back[0].winner == recs[0].winner and back[0].host == "Levan"
    # filters: a player, a format, dates
    assert {g.id for g in db.games(player="Nino")} == {
        r.id for r in recs if any(x.name == "Nino" for x in r.seats)} != set()
    assert all(g.format == recs[0].format for g in db.games(fmt=recs[0].format))
    assert [g.id for g in db.games(since="2026-11-11", until="2026-11-12")] == \
        [recs[1].id, recs[2].id]


def test_players_are_people_renamed_merged_and_attributed(db: Records) -> None:
    recs = _records(3)
    for r in recs:
        db.record(r)
    def sat(name: str) -> set[str]:
        return {r.id for r in recs if any(x.name == name for x in r.seats)}
    db.rename("Giorgi", "Giorgi B.")
    assert db.games(player="Giorgi") == []
    assert {g.id for g in db.games(player="Giorgi B.")} == sat("Giorgi")
    db.rename("Dato", "Nino")                            # two spellings of one player: merged
    assert {g.id for g in db.games(player="Nino")} == sat("Nino") | sat("Dato")
    assert all(s.name != "Dato" for g in db.games() for s in g.seats)
    db.attribute(recs[0].id, 4, "Tamar K.")
    assert db.game(recs[0].id).seats[3].name == "Tamar K."
    with pytest.raises(RecordsError):
        db.rename("nobody", "x")


def test_export_and_import_move_games_without_doubling(db: Records, tmp_path: Path) -> None:
    recs = _records()
    for r in recs[:4]:
        db.record(r)
    text = db.export("json")
    other = Records(f"sqlite:///{tmp_path / 'other.sqlite'}")
    assert other.import_json(text) == (4, 0)
    assert other.import_json(text) == (0, 4)             # again: nothing doubled
    assert [g.to_json() for g in other.games()] == [g.to_json() for g in db.games()]
    rows = db.export("csv").splitlines()
    assert rows[0].startswith("game,ended,format") and len(rows) == 1 + sum(
        r.players for r in recs[:4])
    bad = json.loads(text)
    bad["games"][0]["script"] = "format yakuza\nnonsense here"
    with pytest.raises(RecordsError, match="does not replay"):
        other.import_json(json.dumps(bad))
    with pytest.raises(RecordsError, match="not a table-app records export"):
        other.import_json("[1, 2]")


def test_an_unfinished_game_is_never_recorded() -> None:
    unfinished = next(p.read_text() for p in sorted(SCRIPTS.glob("yakuza/*.script"))
                      if not json.loads(p.with_suffix(".json").read_text()).get("winner"))
    with pytest.raises(RecordsError, match="not over"):
        from_script(unfinished)


# -- migrations ----------------------------------------------------------------------------
def _migrate_from_first(url: str) -> None:
    eng = sa.create_engine(url)
    migrate(eng, "0001")                                 # a table's records of last season
    rec = _records(1)[0]
    with eng.begin() as c:
        c.execute(sa.text(
            "INSERT INTO games (id, format, players, lang, options, started, ended, host, "
            "winner, script) VALUES (:id, :f, :n, 'en', '{}', :e, :e, 'Levan', :w, :s)"),
            {"id": rec.id, "f": rec.format, "n": rec.players, "e": rec.ended, "w": rec.winner,
             "s": rec.script})
    eng.dispose()
    r = Records(url)                                     # opened by the new app: migrated
    g = r.game(rec.id)
    assert g.winner == rec.winner and g.club == "" and g.table_name == ""
    assert [x.id for x in r.unsynced()] == [rec.id]      # not yet in any league
    r.record(_records(2)[1])
    assert len(r.games()) == 2
    r.close()


def test_migration_from_the_previous_schema_sqlite(tmp_path: Path) -> None:
    _migrate_from_first(f"sqlite:///{tmp_path / 'old.sqlite'}")


def test_migration_from_the_previous_schema_postgresql(postgres: Postgres) -> None:
    _migrate_from_first(postgres.database("old"))


def test_a_new_database_file_is_private(tmp_path: Path) -> None:
    Records(f"sqlite:///{tmp_path / 'data' / 'records.sqlite'}").close()
    assert (tmp_path / "data" / "records.sqlite").stat().st_mode & 0o777 == 0o600


# -- a league's database, through an outage -------------------------------------------------
def test_sync_after_an_outage_loses_nothing_and_doubles_nothing(postgres: Postgres,
                                                                 tmp_path: Path) -> None:
    league_url = postgres.database("league")
    local = Records(f"sqlite:///{tmp_path / 'table.sqlite'}")
    recs = _records()
    for r in recs[:2]:
        local.record(r)
    assert sync(local, Records(league_url)) == (2, 0)
    postgres.stop()                                      # the league's server is down
    try:
        for r in recs[2:]:
            local.record(r)                              # the table goes on recording
        with pytest.raises(RecordsError, match="cannot be opened"):
            sync(local, Records(league_url))
        assert [g.id for g in local.unsynced()] == [r.id for r in recs[2:]]
    finally:
        postgres.start()
    league = Records(league_url)
    assert sync(local, league) == (len(recs) - 2, 0)
    assert sync(local, league) == (0, 0)
    assert sorted(g.id for g in league.games()) == sorted(r.id for r in recs)
    # a second table's copy of a game the league already holds is not doubled
    other = Records(f"sqlite:///{tmp_path / 'table2.sqlite'}")
    other.record(recs[0])
    assert sync(other, league) == (0, 1)
    assert len(league.games()) == len(recs)
    with pytest.raises(RecordsError) as info:
        Records("postgresql+psycopg://user:secret@/x?host=/nonexistent")
    assert "secret" not in str(info.value)               # a password never in a message


def test_an_unreachable_league_is_tried_again_until_it_takes_the_game(tmp_path: Path) -> None:
    from table_app.records.recorder import Recorder
    local = Records(f"sqlite:///{tmp_path / 'table.sqlite'}")
    rec = _records(1)[0]
    local.record(rec)
    # the league's folder is a file for now: its database cannot be opened
    (tmp_path / "league").write_text("")
    league_url = f"sqlite:///{tmp_path / 'league' / 'league.sqlite'}"
    waits: list[float] = []

    def sleep(seconds: float) -> bool:           # a fake clock: the outage ends at the third
        waits.append(seconds)
        if len(waits) == 3:
            (tmp_path / "league").unlink()
        return False

    notes: list[str] = []
    recorder = Recorder(object(), dict, local=local.url, league=league_url,
                        note=notes.append, sleep=sleep)
    recorder.resume()                            # at the table's start, games are waiting
    assert recorder.sender is not None
    recorder.sender.join(30)
    assert waits == [30.0, 60.0, 120.0]
    assert [n.split(" (")[0] for n in notes[:3]] == ["the league's records are out of reach"] * 3
    assert "tried again in 30 s" in notes[0] and "tried again in 2 min" in notes[2]
    assert notes[3:] == ["games sent to the league: 1"]
    assert [g.id for g in Records(league_url).games()] == [rec.id]
    assert local.unsynced() == []


def test_a_closing_table_stops_waiting_for_the_league(tmp_path: Path) -> None:
    from table_app.records.recorder import Recorder
    local = Records(f"sqlite:///{tmp_path / 'table.sqlite'}")
    local.record(_records(1)[0])
    (tmp_path / "league").write_text("")
    recorder = Recorder(object(), dict, local=local.url,
                        league=f"sqlite:///{tmp_path / 'league' / 'l.sqlite'}",
                        note=lambda text: None)
    recorder.resume()
    recorder.close()                             # the real wait (30 s) ends at once
    assert recorder.sender is not None
    recorder.sender.join(10)
    assert not recorder.sender.is_alive()
    assert len(local.unsynced()) == 1            # the game waits for the next start


# -- statistics and the rating ------------------------------------------------------------
def test_stats_and_rating_on_a_fixed_set_of_games(tmp_path: Path) -> None:
    from table_app.records.rating import player_stats, rating, season, side_rates
    db = Records(f"sqlite:///{tmp_path / 'r.sqlite'}")
    script = next(s for s in finished_scripts() if "format yakuza" in s)
    base = from_script(script)
    winners = {s.seat for s in base.seats if s.won}
    assert winners and len(winners) < 12
    # the same game five times; "Ace" always sits on a winning seat, "Dud" on a losing one
    win_seat, lose_seat = min(winners), min(set(range(1, 13)) - winners)
    for i in range(5):
        names = {s: f"p{(s + i) % 12}" for s in range(1, 13)}
        names[win_seat], names[lose_seat] = "Ace", "Dud"
        db.record(from_script(script, names, ended=f"2026-{i + 1:02}-01",
                              game_id=f"10000000-0000-0000-0000-{i:012}"))
    games = db.games()
    stats = {p.name: p for p in player_stats(games)}
    assert stats["Ace"].games == 5 and stats["Ace"].wins == 5
    assert stats["Dud"].wins == 0
    side = base.seats[win_seat - 1].side
    assert stats["Ace"].by_side[side] == [5, 5]
    rates = side_rates(games)[(base.format, 12)]
    assert rates[base.winner][0] == 1.0 and rates[base.winner][1] < 1.0   # 5 of 5, an interval
    table = rating(games)
    names = [r.name for r in table]
    ace, dud = table[names.index("Ace")], table[names.index("Dud")]
    assert ace.mu > 25 > dud.mu and ace.ordinal > dud.ordinal   # five wins up, five losses down
    assert ace.sigma < 25 / 3 and dud.sigma < 25 / 3            # and the model is surer of both
    # everyone who won every game he played ranks above everyone who lost every one
    st = player_stats(games)
    always = {p.name for p in st if p.wins == p.games}
    never = {p.name for p in st if p.wins == 0}
    assert min(r.ordinal for r in table if r.name in always) > max(
        r.ordinal for r in table if r.name in never)
    assert table[names.index("Ace")].games == 5
    assert len(season(games, "2026-03")) == 1 and len(season(games, "2026-02..2026-04")) == 3


# -- a whole game at the table, into the records, with its protocol sheet ----------------
def test_a_game_at_the_virtual_table_ends_in_the_records_with_its_sheet(tmp_path: Path) -> None:
    import pypdfium2 as pdfium

    from table_app.records.protocol import protocol_data, protocol_pdf
    from table_app.records.recorder import Recorder
    from table_app.table.virtual import run_virtual, virtual_table
    url = f"sqlite:///{tmp_path / 'records.sqlite'}"
    names = {s: NAMES[s - 1] for s in range(1, 13)}
    app, bots, clock, _ = virtual_table(tmp_path / "j", seed=4)
    notes: list[str] = []
    recorder = Recorder(app, lambda: names, host="Levan", local=url, note=notes.append)
    app.observers.append(recorder)
    table = run_virtual(app, bots, clock)
    # the host's screen between games: the season's points table, from the records: every
    # named player, best first (the screen groups those level on points)
    assert sorted(name for name, _ in recorder.top) == sorted(NAMES)
    assert [score for _, score in recorder.top] == sorted(
        (score for _, score in recorder.top), reverse=True)
    assert table.stage == "over"
    db = Records(url)
    [g] = db.games()
    assert g.winner == table.game.outcome().winner and g.host == "Levan"
    assert [s.name for s in g.seats] == NAMES and g.script == table.game_script()
    assert notes == [f"game recorded ({g.id[:8]})"]
    # restarted after the end: the same game, not a second one
    app.close()
    app2, _, _, _ = virtual_table(tmp_path / "j", seed=4)
    rec2 = Recorder(app2, lambda: names, local=url, note=notes.append)
    rec2(app2.table)
    assert len(db.games()) == 1
    # the protocol sheet: rendered, its first page holds the names and the winner
    pdf = protocol_pdf(g, tmp_path / "sheet.pdf")
    page = pdfium.PdfDocument(str(pdf))[0]
    image = page.render(scale=1).to_pil()
    image.save(tmp_path / "sheet.png")
    lo, hi = image.convert("L").getextrema()
    assert lo < 100 < hi                                 # drawn, not blank
    text = page.get_textpage().get_text_range()
    data = protocol_data(g)
    assert all(n in text for n in NAMES)
    assert data["winner"] in text and "Levan" in text


def test_the_sheet_speaks_the_games_language(tmp_path: Path) -> None:
    import pypdfium2 as pdfium

    from table_app.records.protocol import protocol_pdf, w
    rec = _records(1)[0]
    for lang in LANGS:
        rec.lang = lang
        text = pdfium.PdfDocument(str(protocol_pdf(rec, tmp_path / f"{lang}.pdf")))[0] \
            .get_textpage().get_text_range()
        for key in ("title", "seat", "name", "role", "fouls", "winner"):
            assert w(key, lang) in text, (lang, key)
    assert w("title", "ka") == "თამაშის ოქმი" and w("winner", "ru") == "Победила команда"


def test_the_records_command(tmp_path: Path) -> None:
    import sys
    url = f"sqlite:///{tmp_path / 'r.sqlite'}"
    db = Records(url)
    for r in _records(3):
        db.record(r)
    env = {**os.environ, "TABLE_APP_SETTINGS": str(tmp_path / "none.toml")}

    def run(*args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run([sys.executable, "-m", "table_app", "records", "--db", url,
                               *args], capture_output=True, text=True, env=env, timeout=120,
                              cwd=tmp_path)
    out = run("list").stdout.splitlines()
    assert len(out) == 3 and "winner" in out[0]
    assert "Nino" in run("stats").stdout
    assert run("rating").stdout.startswith("  1. ")
    p = run("protocol", "00000000", "--out", str(tmp_path / "x.pdf"))
    assert p.returncode == 2 and "names 3 games" in p.stderr
    p = run("protocol", _records(1)[0].id, "--out", str(tmp_path / "x.pdf"))
    assert p.returncode == 0 and (tmp_path / "x.pdf").read_bytes()[:4] == b"%PDF"
    assert run("export", "--format", "csv").stdout.startswith("game,")
    bad = tmp_path / "bad.json"
    bad.write_text("{")
    p = run("import", str(bad))
    assert p.returncode == 2 and p.stderr.startswith("table-app: not a JSON export")


# -- a finished game is recorded once, whatever happens -------------------------------------
def _demo(tmp_path: Path, *extra: str) -> subprocess.CompletedProcess[str]:
    """One whole demo game at this table (its journal, records and settings in tmp_path)."""
    import sys
    env = {**os.environ, "TABLE_APP_SETTINGS": str(tmp_path / "none.toml"),
           "XDG_STATE_HOME": str(tmp_path / "state")}
    return subprocess.run([sys.executable, "-m", "table_app", "--demo", "--fast", "--journal",
                           str(tmp_path / "game.journal"), *extra], capture_output=True,
                          text=True, env=env, timeout=300, cwd=tmp_path)


def _recorded(tmp_path: Path) -> list[str]:
    db = Records(f"sqlite:///{tmp_path / 'state' / 'table-app' / 'records.sqlite'}")
    try:
        return [g.id for g in db.games()]
    finally:
        db.close()


def test_a_game_that_ended_before_a_restart_is_recorded_at_the_next_start(
        tmp_path: Path) -> None:
    # the table stopped after the last vote, before its record was written (a kill, a power
    # cut: here a table that did not record): the next start replaced the finished journal
    # with a new game, and the game was gone from the records for good
    first = _demo(tmp_path, "--no-record")
    assert first.returncode == 0, first.stderr
    assert "game recorded" not in first.stderr
    second = _demo(tmp_path)
    assert second.returncode == 0, second.stderr
    assert second.stderr.count("game recorded") == 2, second.stderr
    assert len(set(_recorded(tmp_path))) == 2
    third = _demo(tmp_path)               # and the second game is not recorded twice
    assert third.returncode == 0 and third.stderr.count("game recorded") == 1, third.stderr
    assert len(_recorded(tmp_path)) == 3


def test_a_damaged_records_database_is_moved_aside_and_the_game_recorded(
        tmp_path: Path) -> None:
    # pages damaged with the header intact: the table died with a traceback at the game's
    # end ("database disk image is malformed"), and the game was lost
    assert _demo(tmp_path).returncode == 0
    path = tmp_path / "state" / "table-app" / "records.sqlite"
    data = bytearray(path.read_bytes())
    data[4200:] = b"\x5a" * (len(data) - 4200)
    path.write_bytes(bytes(data))
    second = _demo(tmp_path)
    assert second.returncode == 0, second.stderr
    assert "Traceback" not in second.stderr
    assert "the records were damaged: moved aside as records.sqlite.damaged-" in second.stderr
    # the new database has both: the first game again (its journal was still there when
    # the table started) and the second
    assert second.stderr.count("game recorded") == 2
    assert len(_recorded(tmp_path)) == 2
    assert len(list(path.parent.glob("records.sqlite.damaged-*"))) == 1


def test_a_game_ending_while_another_program_locks_the_records_waits_for_them(
        tmp_path: Path) -> None:
    # the database locked by another process for longer than SQLite waits (5 s): the table
    # died with "database is locked", and the game was lost
    import sqlite3
    assert _demo(tmp_path).returncode == 0
    path = tmp_path / "state" / "table-app" / "records.sqlite"
    other = sqlite3.connect(path, isolation_level=None)
    other.execute("BEGIN EXCLUSIVE")
    try:
        second = _demo(tmp_path)
    finally:
        other.execute("ROLLBACK")
        other.close()
    assert second.returncode == 0, second.stderr
    assert "Traceback" not in second.stderr
    assert "goes into the records at the table's next start" in second.stderr, second.stderr
    waiting = list((tmp_path / "state" / "table-app" / "records-waiting").glob("*.json"))
    # (the first game too: at the start the records could not even say they had it)
    assert len(waiting) == 2 and len(_recorded(tmp_path)) == 1
    third = _demo(tmp_path)              # the lock gone: the kept game goes in first
    assert third.returncode == 0, third.stderr
    assert "are recorded now: 1" in third.stderr
    assert len(_recorded(tmp_path)) == 3 and not any(f.exists() for f in waiting)


def test_a_first_migration_cut_short_leaves_no_half_made_records(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # a kill (or a full disk) during the records' first open: the tables were committed one
    # by one, Alembic's version never, and every later open failed with "table players
    # already exists": no game was ever recorded again
    import sqlite3

    from alembic import command
    url = f"sqlite:///{tmp_path / 'r.sqlite'}"
    upgrade = command.upgrade

    def cut_short(cfg: object, to: str) -> None:
        upgrade(cfg, "0001")                        # type: ignore[arg-type]
        raise RuntimeError("the power went")
    monkeypatch.setattr(command, "upgrade", cut_short)
    with pytest.raises(RuntimeError, match="the power went"):
        Records(url)
    monkeypatch.setattr(command, "upgrade", upgrade)
    con = sqlite3.connect(tmp_path / "r.sqlite")
    assert con.execute("SELECT name FROM sqlite_master").fetchall() == []   # all or nothing
    con.close()
    db = Records(url)
    assert db.record(_records(1)[0]) and len(db.games()) == 1


def test_records_an_earlier_version_left_half_made_open_again(tmp_path: Path) -> None:
    # the tables of an interrupted first migration and no version (an earlier version's
    # leftover): made again, nothing to lose in them
    from table_app.records.schema import meta
    url = f"sqlite:///{tmp_path / 'r.sqlite'}"
    engine = sa.create_engine(url)
    meta.create_all(engine)
    engine.dispose()
    db = Records(url)
    assert db.record(_records(1)[0]) and len(db.games()) == 1


def test_a_pi_without_a_clock_dates_its_games_after_the_last_not_in_1970(
        tmp_path: Path) -> None:
    # no real-time clock and no network: the Pi says 1970, and the games fell outside their
    # season; now such a game is dated after the last one, marked, and the host sets it
    import sys
    from datetime import UTC, datetime

    from table_app.records.game import EARLIEST
    from table_app.records.recorder import Recorder
    from table_app.table.virtual import run_virtual, virtual_table
    url = f"sqlite:///{tmp_path / 'records.sqlite'}"
    ended = []
    notes: list[str] = []
    for i, wall in enumerate((datetime(2027, 3, 1, 20, 0, tzinfo=UTC),
                              datetime(1970, 1, 1, 0, 5, tzinfo=UTC))):
        app, bots, clock, _ = virtual_table(tmp_path / f"j{i}", seed=4 + i)
        recorder = Recorder(app, dict, local=url, note=notes.append)
        recorder.wall = lambda wall=wall: wall
        app.observers.append(recorder)
        run_virtual(app, bots, clock)
        app.close()
        [gid] = recorder.done
        ended.append(Records(url).game(gid))
    assert ended[0].ended == "2027-03-01T20:00:00+00:00" and ended[0].dated == "clock"
    assert ended[1].ended == ended[0].ended and ended[1].dated == "guessed"
    assert ended[1].started <= ended[1].ended and EARLIEST.year == 2026
    assert "this Pi's clock says 1970-01-01" in notes[-1] and "records date" in notes[-1]
    env = {**os.environ, "TABLE_APP_SETTINGS": str(tmp_path / "none.toml"), "TZ": "UTC"}

    def run(*args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run([sys.executable, "-m", "table_app", "records", "--db", url,
                               *args], capture_output=True, text=True, env=env, timeout=120)
    listed = {line[:8]: line for line in run("list").stdout.splitlines()}
    assert listed[ended[1].id[:8]].split()[1].startswith("~2027-03-01")
    assert "~" not in listed[ended[0].id[:8]]
    span = datetime.fromisoformat(ended[1].ended) - datetime.fromisoformat(ended[1].started)
    got = run("date", ended[1].id[:8], "2027-03-01", "22:15")
    assert got.returncode == 0, got.stderr
    g = Records(url).game(ended[1].id)
    assert g.ended == "2027-03-01T22:15:00+00:00" and g.dated == "host"
    assert datetime.fromisoformat(g.ended) - datetime.fromisoformat(g.started) == span
    bad = run("date", ended[1].id[:8], "soon")
    assert bad.returncode == 2 and "not a date and time" in bad.stderr


def test_records_locked_by_another_program_say_so_and_never_raise_a_database_error(
        tmp_path: Path) -> None:
    # a table whose records were open already: a lock at a game's end came out of
    # `last_ended` as SQLAlchemy's OperationalError, which nothing caught
    import sqlite3
    url = f"sqlite:///{tmp_path / 'r.sqlite'}"
    db = Records(url)
    db.record(_records(1)[0])
    other = sqlite3.connect(tmp_path / "r.sqlite", isolation_level=None)
    other.execute("BEGIN EXCLUSIVE")
    try:
        with pytest.raises(RecordsError, match="locked"):
            db.last_ended()
    finally:
        other.execute("ROLLBACK")
        other.close()
    assert db.last_ended() == _records(1)[0].ended


def test_records_of_a_newer_table_app_are_a_clear_error_not_a_crash(tmp_path: Path) -> None:
    # an older checkout meeting a schema it does not know: Alembic's CommandError came out
    # of Records(), and the table died at the game's end with a traceback
    url = f"sqlite:///{tmp_path / 'r.sqlite'}"
    Records(url).close()
    engine = sa.create_engine(url)
    with engine.begin() as c:
        c.exec_driver_sql("UPDATE alembic_version SET version_num = '9999'")
    engine.dispose()
    with pytest.raises(RecordsError, match="are of a newer table-app"):
        Records(url)


def test_the_sheet_says_every_word_in_the_games_language(tmp_path: Path) -> None:
    # an unnamed seat read "seat 4", a missed search "no", the format's title English, and
    # the Georgian headings ran into one another ("ადგილისახელი")
    import pypdfium2 as pdfium
    from reportlab.lib.units import mm
    from reportlab.pdfbase import pdfmetrics

    from table_app.records.protocol import (
        COLUMNS,
        _font,
        protocol_data,
        protocol_pdf,
        result_word,
        w,
    )
    from table_app.records.store import from_script
    script = next(s for s in finished_scripts() if "format yakuza" in s)
    rec = from_script(script, {1: "Nino"}, host="Levan", ended="2026-11-20T20:00")
    rec.lang = "ka"
    data = protocol_data(rec)
    assert data["seats"][3]["name"] == "" and data["seats"][0]["name"] == "Nino"
    assert result_word("no", "ka") == "არა" and result_word("detective", "ru") == "Детектив"
    text = pdfium.PdfDocument(str(protocol_pdf(rec, tmp_path / "ka.pdf")))[0] \
        .get_textpage().get_text_range()
    assert "seat " not in text and "MAFIA.GE-ს იაკუძას ფორმატი" in text
    font = _font()
    for lang in LANGS:       # each heading's longest word fits its column
        for key, width in COLUMNS:
            word = max(w(key, lang).split(), key=lambda s: pdfmetrics.stringWidth(
                s, font, 10))
            assert pdfmetrics.stringWidth(word, font, 10) + 12 <= width * mm, (lang, key)


def test_records_show_tells_the_game_in_its_language(tmp_path: Path) -> None:
    # its narration and its frame ("players", "host", "fouls", "check", "winner") were
    # English whatever the game's language
    import re
    import sys
    url = f"sqlite:///{tmp_path / 'r.sqlite'}"
    db = Records(url)
    from dataclasses import replace
    rec = _records(1)[0]
    rec.lang = "ru"
    rec.seats = [replace(s, fouls=2) if s.seat == 4 else s for s in rec.seats]
    # a name of 30 letters (the setup screen's limit) ran into its role in a column of 20
    long = "Константин Константинопольский"
    rec.seats = [replace(s, name=long) if s.seat == 2 else s for s in rec.seats]
    db.record(rec)
    env = {**os.environ, "TABLE_APP_SETTINGS": str(tmp_path / "none.toml")}
    out = subprocess.run([sys.executable, "-m", "table_app", "records", "--db", url, "show",
                          rec.id[:8]], capture_output=True, text=True, env=env, timeout=120,
                         cwd=tmp_path).stdout
    assert "Город засыпает." in out and "Победила команда: город" in out, out
    assert re.search(r"получает \d+ голос", out), out
    names = {s.name for s in rec.seats} | {rec.host}
    words = set(re.findall(r"[A-Za-z]{3,}", out)) - names
    assert not words, words
    # a seat's fouls after its row, not six spaces after its padded role and a comma (a
    # tenth trial host read "მოქალაქე      , შენიშვნები: 2")
    assert not re.search(r" +,", out), out
    rows = [line for line in out.splitlines() if re.match(r"  [ \d]\d  ", line)]
    assert len(rows) == len(rec.seats), out
    role_at = 6 + len(long) + 1         # every row's role starts where the longest name ends
    assert all(row[role_at - 1] == " " and row[role_at] != " " for row in rows), out


def test_every_file_the_app_writes_is_private_whatever_the_umask(tmp_path: Path) -> None:
    # the protocol sheet (every role of the game) was written 0644 into the current folder,
    # names.json, --script-out and the settings took the umask (the settings even when they
    # had been 0600: they may hold a league's password)
    import stat
    import sys

    from table_app.screen.setup import save_names
    from table_app.settings import write_pad_layout
    url = f"sqlite:///{tmp_path / 'r.sqlite'}"
    db = Records(url)
    rec = _records(1)[0]
    db.record(rec)
    state, config = tmp_path / "state", tmp_path / "config"
    env = {**os.environ, "TABLE_APP_SETTINGS": str(tmp_path / "none.toml"),
           "XDG_STATE_HOME": str(state), "XDG_CONFIG_HOME": str(config)}
    work = tmp_path / "here"
    work.mkdir()
    run = subprocess.run(["sh", "-c", 'umask 022 && exec "$@"', "sh", sys.executable, "-m",
                          "table_app", "records", "--db", url, "protocol", rec.id[:8]],
                         capture_output=True, text=True, env=env, timeout=120, cwd=work)
    assert run.returncode == 0, run.stderr
    assert not list(work.iterdir())                     # nothing left where he stood
    [sheet] = (state / "table-app" / "protocols").glob("protocol-*.pdf")
    demo = subprocess.run(["sh", "-c", 'umask 022 && exec "$@"', "sh", sys.executable, "-m",
                           "table_app", "--demo", "--fast", "--no-record", "--journal",
                           str(tmp_path / "d.journal"), "--script-out", str(work / "g.script")],
                          capture_output=True, text=True, env=env, timeout=300, cwd=work)
    assert demo.returncode == 0, demo.stderr
    old = os.umask(0o022)
    try:
        settings = config / "table-app" / "settings.toml"
        settings.parent.mkdir(parents=True)
        settings.write_text('[records]\nurl = "postgresql://u:secret@db/league"\n')
        write_pad_layout(list(range(1, 13)), [0] * 12, list(range(1, 13)), path=settings)
        save_names({1: "Nino"}, config / "fresh" / "names.json")
    finally:
        os.umask(old)
    for f in (sheet, work / "g.script", settings, config / "fresh" / "names.json"):
        assert stat.S_IMODE(f.stat().st_mode) == 0o600, f
    for d in (state / "table-app" / "protocols", config / "fresh"):
        assert stat.S_IMODE(d.stat().st_mode) == 0o700, d
    assert "secret@db" in settings.read_text() and "[pads]" in settings.read_text()


def test_the_tests_keep_out_of_the_users_own_files(tmp_path: Path) -> None:
    # `python3 -m pytest` added two demo games to ~/.local/state/table-app/records.sqlite
    import sys

    from table_app.paths import config_dir, state_dir
    home = Path.home().resolve()
    for folder in (state_dir(), config_dir()):
        assert not folder.resolve().is_relative_to(home / ".local"), folder
        assert not folder.resolve().is_relative_to(home / ".config"), folder
    before = sorted(p for p in (home / ".local" / "state" / "table-app").glob("*")) \
        if (home / ".local" / "state" / "table-app").exists() else []
    demo = subprocess.run([sys.executable, "-m", "table_app", "--demo", "--fast", "--journal",
                           str(tmp_path / "d.journal")], capture_output=True, text=True,
                          timeout=300, cwd=tmp_path)
    assert demo.returncode == 0, demo.stderr
    after = sorted(p for p in (home / ".local" / "state" / "table-app").glob("*")) \
        if (home / ".local" / "state" / "table-app").exists() else []
    assert after == before
    assert (state_dir() / "records.sqlite").exists()        # the demo's game: in the run's


@pytest.mark.parametrize("lang", LANGS)
def test_a_30_seat_game_s_sheet_has_every_seat_on_its_first_page(tmp_path: Path,
                                                                   lang: str) -> None:
    # the Russian civilian ("Мирный житель") wrapped onto two lines, and a table of 30 ran
    # onto a second page, without its headings
    import pypdfium2 as pdfium

    from table_app.records.protocol import protocol_data, protocol_pdf
    from table_app.records.store import from_script
    from table_app.table.virtual import run_virtual, virtual_table
    app, bots, clock, _ = virtual_table(tmp_path / "j", seed=3, fmt_id="city", players=30,
                                        seats=30, lang=lang)
    table = run_virtual(app, bots, clock, until=lambda t: t.stage == "over")
    rec = from_script(table.game_script(), {}, host="Levan", ended="2026-12-03T20:00")
    rec.lang = lang
    data = protocol_data(rec)
    doc = pdfium.PdfDocument(str(protocol_pdf(rec, tmp_path / "sheet.pdf")))
    try:
        lines = doc[0].get_textpage().get_text_range().split("\r\n")
    finally:
        doc.close()
    assert sum(s["role"] == data["seats"][0]["role"] for s in data["seats"]) >= 10
    # every seat's row on the first page, its role on one line with its number (a row is
    # read as one line: "2 Civilian day 7: voted out"; a wrapped role leaves a line of its
    # own behind)
    for s in data["seats"]:
        row = f"{s['seat']} {s['role']}"
        assert any(line == row or line.startswith(row + " ") for line in lines), (row, lines)
