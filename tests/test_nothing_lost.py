"""Nothing lost, third pass (#48): the last ways a game, a league or a start could be lost."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from test_records import Postgres, _records, postgres  # noqa: F401  (its fixture: a server)
from test_service import _stop

# -- 1. a format file's errors are one line ------------------------------------------------

COMMANDS = {
    "play": ["play", "--pads", "fake", "--silent", "--new"],
    "demo": ["--demo", "--fast", "--new"],
    "simulate": ["simulate", "--games", "1"],
}


def _bad_format_files(tmp_path: Path) -> dict[str, Path]:
    undecodable = tmp_path / "latin1.toml"
    undecodable.write_bytes('id = "caf\xe9"\n'.encode("latin-1"))
    return {"missing": tmp_path / "nonexistent.toml", "folder": tmp_path,
            "not UTF-8": undecodable}


@pytest.mark.parametrize("command", sorted(COMMANDS))
def test_a_format_file_that_cannot_be_read_is_one_line(tmp_path: Path, command: str) -> None:
    """A missing path, a folder or bytes that are not UTF-8 given as --format-file: one
    line naming the file and exit 2, from the table, the demo and simulate alike (they were
    a 25-line FileNotFoundError, or a UnicodeDecodeError)."""
    env = dict(os.environ, SDL_VIDEODRIVER="dummy", SDL_AUDIODRIVER="dummy")
    for what, path in _bad_format_files(tmp_path).items():
        proc = subprocess.run([sys.executable, "-m", "table_app", *COMMANDS[command],
                               "--format-file", str(path),
                               "--journal" if command != "simulate" else "--seed",
                               str(tmp_path / "j") if command != "simulate" else "1"],
                              capture_output=True, text=True, env=env, timeout=120,
                              stdin=subprocess.DEVNULL)
        lines = [x for x in proc.stderr.splitlines() if "runs interpreted" not in x]
        assert proc.returncode == 2, (what, proc.returncode, proc.stderr[-800:])
        assert len(lines) == 1 and lines[0].startswith("table-app: ") \
            and str(path) in lines[0], (what, proc.stderr[-800:])


# -- 6. a second name for the journal is refused -------------------------------------------

def test_a_hard_link_to_a_held_journal_is_refused(tmp_path: Path) -> None:
    """Two tables, one journal under two names (a hard link): the second is refused, and the
    first game's journal keeps only its own entries (the second's --new emptied it, and its
    start went in among the first game's)."""
    from table_app.table.journal import Journal, JournalError
    from table_app.table.virtual import run_virtual, virtual_table
    first = tmp_path / "a" / "game.journal"
    app, bots, clock, _ = virtual_table(first, seed=4, sync=True)
    run_virtual(app, bots, clock, until=lambda t: t.game.phase == "day")
    before = Journal.read(first)
    other = tmp_path / "b" / "game.journal"
    other.parent.mkdir()
    os.link(first, other)
    with pytest.raises(JournalError, match="in use by another table-app"):
        virtual_table(other, seed=9, sync=True, new=True)
    app.close()
    assert Journal.read(first) == before


# -- 3. --new records or sets aside a finished game first ----------------------------------

def _finished(journal: Path, keeper: object) -> list[dict[str, object]]:
    from table_app.table.journal import Journal
    from table_app.table.virtual import run_virtual, virtual_table
    app, bots, clock, _ = virtual_table(journal, seed=6, sync=True,
                                        attach=lambda a: a.keepers.append(keeper))
    assert run_virtual(app, bots, clock).stage == "over"
    app.close()
    return Journal.read(journal)


def test_new_over_a_finished_game_nobody_recorded_keeps_its_journal(tmp_path: Path) -> None:
    """The records and records-waiting/ unwritable: the table says the journal is kept; then
    --new emptied that journal, and the game was in no record and no file."""
    from table_app.table.journal import Journal
    from table_app.table.virtual import virtual_table
    journal = tmp_path / "game.journal"
    taken: list[str] = []

    def cannot(table: object) -> bool:
        taken.append("no")
        return False
    game = _finished(journal, cannot)
    app, *_ = virtual_table(journal, seed=7, sync=True, new=True,
                            attach=lambda a: a.keepers.append(cannot))
    aside = list(tmp_path.glob("game.journal.unrecorded-*"))
    assert len(aside) == 1 and Journal.read(aside[0]) == game
    assert any(key == "journal_aside" and "could not be recorded" in detail
               for key, detail in app.notices)
    assert Journal.read(journal)[0]["seed"] == 7          # the new game
    app.close()


def test_new_over_a_finished_game_records_it_first(tmp_path: Path) -> None:
    from table_app.table.virtual import virtual_table
    journal = tmp_path / "game.journal"
    kept: list[int] = []
    game = _finished(journal, lambda table: False)
    app, *_ = virtual_table(journal, seed=7, sync=True, new=True,
                            attach=lambda a: a.keepers.append(
                                lambda table: kept.append(len(a.entries)) is None))
    assert kept == [len(game)]                 # handed over whole, before the new game
    assert not list(tmp_path.glob("game.journal.unrecorded-*"))
    app.close()


# -- 4. a full disk at start opens the setup screen with the reason ------------------------

@pytest.fixture()
def full_disk(tmp_path: Path):  # type: ignore[no-untyped-def]
    """A small tmpfs filled to the last byte (root only: mount)."""
    where = tmp_path / "full"
    where.mkdir()
    done = subprocess.run(["mount", "-t", "tmpfs", "-o", "size=256k", "tmpfs", str(where)],
                          capture_output=True, text=True)
    if done.returncode != 0:
        if os.environ.get("CI", "").lower() in ("1", "true"):
            pytest.fail(f"a full disk cannot be made here: {done.stderr.strip()}")
        pytest.skip(f"a full disk cannot be made here (mount tmpfs: {done.stderr.strip()})")
    try:
        fd = os.open(where / "filler", os.O_WRONLY | os.O_CREAT, 0o600)
        try:
            while os.write(fd, b"\0" * 4096):
                pass
        except OSError:
            pass
        os.close(fd)
        yield where
    finally:
        subprocess.run(["umount", "-l", str(where)], capture_output=True)


def test_a_full_disk_at_start_opens_the_setup_screen_with_the_reason(
        tmp_path: Path, full_disk: Path) -> None:
    """No game to resume and no space for a journal: the table exited 2 with `[Errno 28] No
    space left on device`, naming no file and opening no setup screen (under systemd, a
    restart loop). Now it is ready on the setup screen, the reason (and the file) on it."""
    import socket
    import time
    sock_path = tmp_path / "notify.sock"
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    sock.bind(str(sock_path))
    sock.settimeout(1.0)
    journal = full_disk / "game.journal"
    env = dict(os.environ, SDL_VIDEODRIVER="dummy", SDL_AUDIODRIVER="dummy",
               NOTIFY_SOCKET=str(sock_path), WATCHDOG_USEC="200000")
    proc = subprocess.Popen([sys.executable, "-m", "table_app", "play", "--pads", "fake",
                             "--silent", "--format", "city", "--players", "12", "--new",
                             "--no-record", "--journal", str(journal)],
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True,
                            env=env)
    said: list[str] = []
    try:
        for _ in range(90):                  # up to a minute and a half on a loaded machine
            try:
                said.append(sock.recv(4096).decode())
            except TimeoutError:
                pass
            if said or proc.poll() is not None:
                break
        alive = proc.poll() is None
        time.sleep(0.5)
    finally:
        err = _stop(proc)
        sock.close()
    assert alive, (proc.returncode, err[-800:])
    assert said and said[0].startswith("READY=1\nSTATUS=setup screen; "), (said, err[-800:])
    assert "No space left on device" in said[0] and str(full_disk) in said[0], said
    assert "journal cannot be written" in err and "Traceback" not in err, err[-800:]


# -- 2. one long name never stops a league -------------------------------------------------



def _long_name(local: object, game: str, seat: int, n: int = 81) -> None:
    """A name as an earlier version stored it (of any length: 10,001 characters seen)."""
    import sqlalchemy as sa

    from table_app.records.schema import seats
    with local.engine.begin() as c:                     # type: ignore[attr-defined]
        c.execute(sa.update(seats).where(seats.c.game_id == game, seats.c.seat == seat)
                  .values(name="Я" * n))


def test_one_long_name_does_not_stop_the_league(postgres: Postgres,  # noqa: F811
                                                tmp_path: Path) -> None:
    """A seat renamed to 81 characters: `records sync` stopped at PostgreSQL's `value too
    long for type character varying(80)`, the games after it never went, and nothing said
    which game blocked. Now that game waits, with why, and the others go."""
    from table_app.records import sync as store_sync
    from table_app.records.store import Records
    from table_app.records.sync import sync
    league_url = postgres.database("league48")
    local_url = f"sqlite:///{tmp_path / 'table.sqlite'}"
    local = Records(local_url)
    recs = _records(6)
    for r in recs:
        local.record(r)
    _long_name(local, recs[2].id, 3)
    league = Records(league_url)
    assert sync(local, league) == (5, 0)
    assert sorted(g.id for g in league.games()) == sorted(r.id for r in recs if r != recs[2])
    assert [g.id for g in local.unsynced()] == [recs[2].id]
    # `records sync` says which game waits and why
    env = dict(os.environ, TABLE_APP_SETTINGS=str(tmp_path / "none.toml"))
    proc = subprocess.run([sys.executable, "-m", "table_app", "records", "--db", local_url,
                           "sync", "--to", league_url], capture_output=True, text=True,
                          env=env, timeout=120)
    assert proc.returncode == 1, proc.stderr
    assert "0 games sent, 0 already there" in proc.stdout
    assert f"game {recs[2].id} is not sent" in proc.stdout and "81 characters" in proc.stdout
    # a shorter name given, it goes
    local.attribute(recs[2].id, 3, "Nino")
    got = store_sync.send(local, league)
    assert (got.sent, got.held) == (1, []) and len(league.games()) == 6


def test_a_game_the_league_refuses_is_said_on_the_host_screen(postgres: Postgres,  # noqa: F811
                                                              tmp_path: Path) -> None:
    from table_app.records.recorder import Recorder
    from table_app.records.store import Records
    from table_app.table.virtual import virtual_table
    local_url = f"sqlite:///{tmp_path / 'table.sqlite'}"
    local = Records(local_url)
    rec = _records(1)[0]
    local.record(rec)
    _long_name(local, rec.id, 5)
    local.close()
    made: list[Recorder] = []

    def attach(app: object) -> None:
        r = Recorder(app, dict, local=local_url, league=postgres.database("league48b"),
                     note=lambda text: None)
        app.observers.append(r)                          # type: ignore[attr-defined]
        made.append(r)
        r.resume()
    app, bots, clock, _ = virtual_table(tmp_path / "j", seed=2, attach=attach)
    assert made[0].sender is not None
    made[0].sender.join(60)
    app.feed(__import__("table_app.table", fromlist=["Tick"]).Tick())
    notes = [n.text for n in app.table.log]
    assert any(f"game {rec.id[:8]} is not sent to the league" in n and "81 characters" in n
               for n in notes), notes
    app.close()


def test_a_name_longer_than_the_screen_takes_is_refused_where_it_is_typed(
        tmp_path: Path) -> None:
    """`records rename` and `records attribute` stored names of any length."""
    from table_app.limits import NAME_COLUMN, NAME_LIMIT
    from table_app.records.store import Records
    from table_app.screen.setup import NAME_LIMIT as SCREEN_LIMIT
    assert SCREEN_LIMIT == NAME_LIMIT <= NAME_COLUMN
    url = f"sqlite:///{tmp_path / 'r.sqlite'}"
    db = Records(url)
    rec = _records(1)[0]
    db.record(rec)
    db.close()
    env = dict(os.environ, TABLE_APP_SETTINGS=str(tmp_path / "none.toml"))
    long = "Константин Константинопольский-Ли"
    assert len(long) > NAME_LIMIT
    for args in (["rename", rec.seats[0].name, long], ["attribute", rec.id[:8], "2", long]):
        proc = subprocess.run([sys.executable, "-m", "table_app", "records", "--db", url,
                               *args], capture_output=True, text=True, env=env, timeout=120)
        lines = proc.stderr.splitlines()
        assert proc.returncode == 2 and len(lines) == 1, (args, proc.stderr)
        assert f"at most {NAME_LIMIT} characters" in lines[0]
    db = Records(url)
    assert all(len(s.name) <= NAME_LIMIT for s in db.game(rec.id).seats)


# -- 5. a damaged records file's games are recovered ---------------------------------------

def _damage(data: bytes, how: str) -> bytes:
    import random
    if how == "cut in half":
        return data[:len(data) // 2]
    if how == "cut to 100 bytes":
        return data[:100]
    if how == "header page overwritten":
        return b"\x5a" * 4096 + data[4096:]
    rng = random.Random(48)
    out = bytearray(data)
    for _ in range(12):
        at = rng.randrange(4096, len(out))
        out[at:at + 64] = bytes(rng.randrange(256) for _ in range(64))
    return bytes(out)


@pytest.mark.parametrize("how", ["cut in half", "cut to 100 bytes", "header page overwritten",
                                 "random bytes written"])
def test_a_damaged_records_file_s_games_are_recovered_into_the_new_one(
        tmp_path: Path, how: str) -> None:
    """The damaged file was moved aside and a new one made, empty: the club's history was
    left behind though the set-aside file's bytes still held the games' scripts. Now every
    game whose script can be read is recorded in the new file (with its seats' names), and
    every other game seen in it is reported by id."""
    from test_records import NAMES, finished_scripts

    from table_app.records.recorder import Recorder
    from table_app.records.store import Records, from_script
    path = tmp_path / "records.sqlite"
    url = f"sqlite:///{path}"
    old = _records(8)
    db = Records(url)
    for r in old:
        db.record(r)
    db.close()
    damaged = _damage(path.read_bytes(), how)
    path.write_bytes(damaged)
    notes: list[str] = []
    recorder = Recorder(None, dict, local=url, note=notes.append)
    new = from_script(finished_scripts()[8], {1: "Nino"}, game_id="11111111-2222-3333-4444-"
                      "555555555555")
    assert recorder._write(new)
    said = [n for n in notes if "the records were damaged" in n]
    assert len(said) == 1 and "records.sqlite.damaged-" in said[0], notes
    got = {g.id: g for g in Records(url).games()}
    recovered = [r for r in old if r.id in got]
    for r in recovered:                         # whole: its script, its times, its names
        g = got[r.id]
        assert (g.script, g.ended, g.host) == (r.script, r.ended, r.host)
        # (a name whose seat's row is gone too is the seat's number again)
        assert all(a.name in (b.name, f"seat {b.seat}") for a, b in zip(g.seats, r.seats,
                                                                          strict=True))
    if how == "header page overwritten":
        assert all(s.name in NAMES for r in recovered for s in got[r.id].seats)
    # the others are named, each that the file still names (a file cut short may not)
    missing = [r.id for r in old if r.id not in got and r.id.encode() in damaged]
    assert f"{len(recovered)} of its games recovered into it" in said[0]
    assert all(m in said[0] for m in missing), (missing, said[0])
    if how == "header page overwritten":
        assert len(recovered) == len(old)
    if how == "cut in half":
        assert missing and "could not be read (find them in a backup)" in said[0]
    assert new.id in got


def test_records_of_an_older_schema_are_named_as_such(tmp_path: Path) -> None:
    """An older schema version that would not migrate said "Circular dependency detected"."""
    import sqlite3
    path = tmp_path / "r.sqlite"
    from table_app.records.store import Records
    Records(f"sqlite:///{path}").close()
    con = sqlite3.connect(path)
    con.execute("UPDATE alembic_version SET version_num = '0001'")
    con.commit()
    con.close()
    env = dict(os.environ, TABLE_APP_SETTINGS=str(tmp_path / "none.toml"))
    proc = subprocess.run([sys.executable, "-m", "table_app", "records", "--db",
                           f"sqlite:///{path}", "list"], capture_output=True, text=True,
                          env=env, timeout=120)
    lines = proc.stderr.splitlines()
    assert proc.returncode == 2 and len(lines) == 1, proc.stderr
    assert "an older schema (version 0001; this table-app's is 0003)" in lines[0]


# -- the power-cut drill's own findings -----------------------------------------------------

def test_a_game_cut_between_its_start_and_its_begin_begins_when_resumed(tmp_path: Path) -> None:
    """The start is journaled, then the begin: a power cut between the two left a journal of
    one entry, and the resumed game stood in its deal with nobody's turn, for ever."""
    from table_app.table.journal import Journal
    from table_app.table.virtual import run_virtual, virtual_table
    journal = tmp_path / "game.journal"
    app, *_ = virtual_table(journal, seed=5, sync=True, fmt_id="city", players=7)
    start = Journal.read(journal)[0]
    app.close()
    journal.write_bytes(json.dumps(start).encode() + b"\n")     # all the cut left
    app, bots, clock, _ = virtual_table(journal, seed=5, sync=True)
    # (in the deal's lead-in: nobody's turn yet, and its timer running to seat 1's)
    assert app.resumed and app.table.stage == "deal" and bool(app.table.timer)
    assert run_virtual(app, bots, clock).stage == "over"
    app.close()


def test_an_entry_cut_before_its_newline_is_not_replayed(tmp_path: Path) -> None:
    """A power cut kept all of an entry but its newline (its sync never returned, so the table
    had not acted on it). The journal's reading took it as an entry and the game replayed it,
    while the journal's opening cleared it as torn: the game went on from an input its
    journal no longer held, and the next restart played a different game."""
    from table_app.table import Tick
    from table_app.table.journal import Journal
    from table_app.table.virtual import run_virtual, virtual_table
    journal = tmp_path / "game.journal"
    app, bots, clock, _ = virtual_table(journal, seed=8, sync=True)
    run_virtual(app, bots, clock, until=lambda t: t.game.phase == "day")
    app.close()
    data = journal.read_bytes()
    used = len(data.rstrip(b"\0"))
    assert data[used - 1:used] == b"\n"
    journal.write_bytes(data[:used - 1] + b"\0" + data[used:])      # the last newline lost
    whole = Journal.read(journal)
    app, bots, clock, _ = virtual_table(journal, seed=8, sync=True)
    clock.advance(1)
    app.feed(Tick())
    assert Journal.read(journal) == app.entries        # what the table plays is on disk
    assert app.entries[:len(whole)] == whole
    app.close()


def test_a_game_the_host_left_for_the_setup_screen_does_not_come_back(tmp_path: Path) -> None:
    """The sixth host's trial: he left a game for the setup screen (asked twice, "it is not
    recorded"), the app stopped there, and started again it resumed the game he had left.
    Leaving is journaled: the next start opens the setup screen, and the next game takes
    the journal's place; a game not left still comes back."""
    from table_app.table.virtual import run_virtual, virtual_table
    journal = tmp_path / "game.journal"
    app, bots, clock, _ = virtual_table(journal, seed=3, fmt_id="city", players=9)
    run_virtual(app, bots, clock, until=lambda t: t.stage == "play" and t.game.phase == "day")
    app.leave()
    app.close()
    again, bots, clock, _ = virtual_table(journal, seed=3, fmt_id="yakuza", players=12)
    assert again.table is not None and again.table.cfg.fmt.id == "yakuza"   # a new game
    assert not again.resumed
    run_virtual(again, bots, clock, until=lambda t: t.stage == "play")
    again.close()
    third, _, _, _ = virtual_table(journal, seed=5, fmt_id="city", players=9)
    assert third.resumed and third.table is not None and third.table.cfg.fmt.id == "yakuza"
    third.close()
