"""Nothing freezes, nothing is lost: stuck buttons, restarts with a button down, a loop that
runs behind its queue."""

from __future__ import annotations

from pathlib import Path

import pytest

from table_app.pads.events import PadEdge
from table_app.table import Host, Tick
from table_app.table.journal import Journal
from table_app.table.virtual import run_virtual, virtual_table


def _to_speech(tmp_path: Path, seed: int = 3):  # type: ignore[no-untyped-def]
    app, bots, clock, pads = virtual_table(tmp_path / "j", seed=seed)
    table = run_virtual(app, bots, clock,
                        until=lambda t: t.game.phase == "day" and "speech" in t.asked.values())
    return app, bots, clock, pads, table


def _drain(app) -> None:  # type: ignore[no-untyped-def]
    while not app.inbox.empty():
        app.feed(app.inbox.get_nowait())


def _stuck(tmp_path: Path):  # type: ignore[no-untyped-def]
    """A game in its first speech, with a sleeping seat's button held down past 20 s."""
    app, bots, clock, pads, table = _to_speech(tmp_path)
    seat = next(s for s in range(1, 13) if s not in table.asked)
    pads.press(seat)
    _drain(app)
    clock.advance(21)
    app.feed(Tick())
    return app, pads, table, seat


def test_a_stuck_button_pauses_and_its_release_resumes(tmp_path: Path) -> None:
    app, pads, table, seat = _stuck(tmp_path)
    assert table.paused and any("stuck" in r for r in table.pause_reasons)
    left = table.time_left()
    pads.release(seat)                 # let go while paused: the release is heard
    _drain(app)
    assert not table.paused and table.time_left() == left


def test_the_host_cannot_resume_past_a_stuck_button_but_its_release_does(tmp_path: Path) -> None:
    app, pads, table, seat = _stuck(tmp_path)
    app.feed(Host(("resume",)))
    assert table.paused                # the pad is still faulty
    pads.release(seat)
    _drain(app)
    assert not table.paused


def test_a_restart_with_a_button_held_does_not_freeze(tmp_path: Path) -> None:
    """Killed while a button is down; on restart the hardware says it is up: the table
    believes the hardware, journals that, and the game goes on."""
    app, bots, clock, pads, table = _to_speech(tmp_path)
    seat = next(iter(table.asked))
    pads.press(seat)
    _drain(app)
    app.close()                        # killed here: the button is never released
    app2, bots2, clock2, pads2 = virtual_table(tmp_path / "j", seed=3)
    assert app2.resumed
    assert not app2.table.panel.grammar.is_down(seat)
    assert app2.entries[-1]["k"] == "level" and app2.entries[-1]["s"] == seat
    clock2.advance(30)
    app2.feed(Tick())
    assert not app2.table.paused
    end = run_virtual(app2, bots2, clock2)
    assert end.stage == "over"


def test_a_loop_behind_its_queue_does_not_call_a_press_stuck(tmp_path: Path) -> None:
    """A press and its release 0.1 s apart on the pad's clock, taken off the queue 30 s late:
    a short press, not a stuck button."""
    app, bots, clock, pads, table = _to_speech(tmp_path)
    seat = next(s for s in range(1, 13) if s not in table.asked)
    t0 = clock.now()
    clock.advance(30)
    app.feed(PadEdge(seat, True, t0))
    app.feed(PadEdge(seat, False, t0 + 0.1))
    assert not table.paused and not any("stuck" in r for r in table.pause_reasons)


# -- the journal -------------------------------------------------------------------------------
def _game(tmp_path: Path, name: str = "j"):  # type: ignore[no-untyped-def]
    app, bots, clock, pads = virtual_table(tmp_path / name, seed=12)
    whole = run_virtual(app, bots, clock).game.outcome()
    app.close()
    return whole, (tmp_path / name).read_bytes().rstrip(b"\0")   # less the zeros ahead


def test_a_torn_tail_is_cut_so_the_next_crash_is_harmless(tmp_path: Path) -> None:
    whole, data = _game(tmp_path)
    lines = data.split(b"\n")
    part = tmp_path / "torn"
    # killed mid-write twice over: a torn line with broken UTF-8, then again after resuming
    part.write_bytes(b"\n".join(lines[:40]) + b"\n" + lines[40][:7] + b"\xe2\x82")
    app, bots, clock, _ = virtual_table(part, seed=12)
    assert app.resumed and part.read_bytes().rstrip(b"\0").endswith(b"\n")
    run_virtual(app, bots, clock, until=lambda t: len(app.entries) > 60)
    app.close()
    # the second crash: an entry torn where it was being written, over the zeros written
    # ahead (and, as an older table left it, a torn line at the file's very end)
    import os
    data = part.read_bytes()
    fd = os.open(part, os.O_WRONLY)
    os.pwrite(fd, b'{"t": 12', len(data.rstrip(b"\0")))
    os.close(fd)
    app2, bots2, clock2, _ = virtual_table(part, seed=12)
    assert app2.resumed
    run_virtual(app2, bots2, clock2, until=lambda t: len(app2.entries) > 80)
    app2.close()
    with open(part, "ab") as f:
        f.write(b'{"t": 12')
    app3, bots3, clock3, _ = virtual_table(part, seed=12)
    assert app3.resumed and run_virtual(app3, bots3, clock3).game.outcome() == whole


def test_a_garbage_line_is_left_out_with_a_note(tmp_path: Path) -> None:
    _, data = _game(tmp_path)
    lines = data.split(b"\n")
    part = tmp_path / "garbage"
    part.write_bytes(b"\n".join(lines[:30] + [b"[1, 2, 3]", b"\x00\xff nonsense"] + lines[30:50])
                     + b"\n")
    app, bots, clock, _ = virtual_table(part, seed=12)
    assert app.resumed
    notes = [n.text for n in app.table.log]
    assert "journal line 31 left out: not an entry" in notes
    assert "journal line 32 left out: not an entry" in notes
    assert run_virtual(app, bots, clock).stage == "over"


def test_an_entry_that_cannot_be_applied_is_quarantined(tmp_path: Path) -> None:
    _, data = _game(tmp_path)
    lines = data.split(b"\n")
    part = tmp_path / "bad-entry"
    part.write_bytes(b"\n".join(lines[:30] + [b'{"t": 1000.5, "k": "edge", "s": "x"}']
                                + lines[30:50]) + b"\n")
    app, bots, clock, _ = virtual_table(part, seed=12)
    assert any(n.text.startswith("journal entry 31 left out") for n in app.table.log)
    assert run_virtual(app, bots, clock).stage == "over"


def test_an_unreadable_journal_is_set_aside_and_a_new_game_starts(tmp_path: Path) -> None:
    # a torn start (a power cut in the first write), garbage, a start missing its keys: the
    # table never refuses to open on them (under systemd that was a restart loop), never
    # overwrites them either: the file is kept beside, named, and a new game starts
    for i, body in enumerate((b'{"t": 1000.0, "k": "sta', b"my shopping list",
                              b'["a", "journal"]\n', b'{"t": 1, "k": "start"}\n')):
        folder = tmp_path / str(i)
        folder.mkdir()
        journal = folder / "game.journal"
        journal.write_bytes(body)
        app, bots, clock, _ = virtual_table(journal, seed=1)
        kept = [f for f in folder.iterdir() if ".unreadable-" in f.name]
        assert len(kept) == 1 and kept[0].read_bytes() == body
        assert app.notices and app.notices[0][0] == "journal_aside"
        assert kept[0].name in app.notices[0][1]
        assert app.table.stage != "over" and app.entries[0]["k"] == "start"
        assert Journal.read(journal)[0]["seed"] == 1
        app.close()


def test_a_journal_whose_game_cannot_be_set_up_is_set_aside(tmp_path: Path) -> None:
    # the start parses, but its house format file is gone
    journal = tmp_path / "game.journal"
    journal.write_text('{"t": 1000, "k": "start", "fmt": "house", "format_file": '
                       f'"{tmp_path}/gone.toml", "players": 12, "lang": "en", "deal": "app", '
                       '"seed": 4}\n{"t": 1001, "k": "host", "cmd": ["begin"]}\n')
    before = journal.read_bytes()
    app, *_ = virtual_table(journal, seed=2)
    kept = [f for f in tmp_path.iterdir() if ".unreadable-" in f.name]
    assert [f.read_bytes() for f in kept] == [before]
    assert "cannot be set up again" in app.notices[0][1] and not app.resumed
    assert app.entries[0]["seed"] == 2
    app.close()


def test_one_process_holds_a_game(tmp_path: Path) -> None:
    import pytest

    from table_app.table.journal import JournalError
    app, bots, clock, _ = virtual_table(tmp_path / "j", seed=1)
    run_virtual(app, bots, clock, until=lambda t: t.game.phase == "night")
    before = (tmp_path / "j").read_bytes()
    with pytest.raises(JournalError, match="in use by another table-app"):
        virtual_table(tmp_path / "j", seed=1)
    assert (tmp_path / "j").read_bytes() == before
    app.close()
    app2, *_ = virtual_table(tmp_path / "j", seed=1)       # free again once closed
    assert app2.resumed


def test_bad_journals_on_the_command_line_are_set_aside_in_one_line(tmp_path: Path) -> None:
    import subprocess
    import sys
    foreign = tmp_path / "foreign.txt"
    foreign.write_text("hello\n")
    start = tmp_path / "nostart.journal"
    start.write_text('{"t": 1000, "k": "start", "fmt": "yakuza", "players": 12}\n')
    for path in (foreign, start):
        proc = subprocess.run([sys.executable, "-m", "table_app", "--demo", "--fast",
                               "--no-record", "--journal", str(path)], capture_output=True,
                              text=True, timeout=60)
        assert proc.returncode == 0, proc.stderr
        said = proc.stderr.strip().splitlines()
        assert len(said) == 1 and said[0].startswith("table-app: The last game could not be "
                                                     "resumed"), proc.stderr
        assert f"{path.name}.unreadable-" in said[0]
    # a folder is not a damaged journal but a wrong argument: one line, nothing moved
    proc = subprocess.run([sys.executable, "-m", "table_app", "--demo", "--fast", "--journal",
                           str(tmp_path)], capture_output=True, text=True, timeout=60)
    assert proc.returncode == 2 and len(proc.stderr.strip().splitlines()) == 1
    assert "Traceback" not in proc.stderr and proc.stderr.startswith("table-app: ")
    assert [f.read_text() for f in tmp_path.glob("foreign.txt.unreadable-*")] == ["hello\n"]


# -- bad input: a clear message, nothing lost -------------------------------------------------
def test_a_broken_names_file_never_stops_the_table(tmp_path: Path) -> None:
    from table_app.screen.setup import load_names
    names = tmp_path / "names.json"
    for body in ("[1, 2]", "null", "7", '"Nino"', "{not json", '{"1": 5, "x": "a"}'):
        names.write_text(body)
        assert load_names(names) == {}
    names.write_text('{"1": "Ni\\u200bno\\u0000", "2": "\\ud800Giorgi", "3": "  "}')
    assert load_names(names) == {1: "Nino", 2: "Giorgi"}


def test_typing_a_name_takes_no_invisible_character() -> None:
    from table_app.screen.setup import Setup
    s = Setup()
    s.editing = 1
    for key in ("A", "\u200b", "\x00", "\ud800", "n", "\u00e4"):
        s.type(key)
    assert s.names[1] == "An\u00e4"


def test_a_bad_voice_pack_falls_back_to_the_built_in_voice(tmp_path: Path) -> None:
    import os

    from table_app.sound import SoundBoard
    os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
    pack = tmp_path / "pack"
    pack.mkdir()
    (pack / "city_sleeps.ogg").write_bytes(b"OggS not really a sound")
    (pack / "tick.ogg").mkdir()                       # a folder where a sound should be
    (pack / "city_wakes.wav").write_bytes(b"RIFF" + b"\0" * (5 * 1024 * 1024))   # far too big
    board = SoundBoard("en", voice_pack=pack)
    if not board.start(preload=False):
        import pytest
        pytest.skip("no audio driver at all")
    try:
        for clip in ("city_sleeps", "city_wakes"):
            assert board._sound(clip) is not None          # the built-in clip instead
        assert board._timer_sound("tick") is not None
        assert any("city_sleeps" in w for w in board.warnings)
        assert any("too big" in w for w in board.warnings)
    finally:
        board.stop()


# -- the kill drill ---------------------------------------------------------------------------
def _killed_many_times(tmp_path: Path, fmt_id: str, players: int, seed: int,
                       kills: int) -> tuple[object, object, int]:
    import random
    ref_app, ref_bots, ref_clock, _ = virtual_table(tmp_path / f"{fmt_id}-ref", seed=seed,
                                                    fmt_id=fmt_id, players=players)
    ref = run_virtual(ref_app, ref_bots, ref_clock)
    total = len(ref_app.entries)
    ref_app.close()
    rng = random.Random(seed)
    cuts = sorted(rng.sample(range(5, total - 5), kills))
    journal = tmp_path / f"{fmt_id}-killed"
    done = 0
    app, bots, clock, _ = virtual_table(journal, seed=seed, fmt_id=fmt_id, players=players)
    for cut in cuts:
        run_virtual(app, bots, clock, until=lambda t, c=cut, a=app: len(a.entries) >= c)
        if app.table.stage == "over":
            break
        # killed: no goodbye; the next process has new pads, new players, the same journal
        import os
        os.close(app.journal._fd)
        os.close(app.journal._lock)
        app, bots, clock, _ = virtual_table(journal, seed=seed, fmt_id=fmt_id,
                                            players=players)
        assert app.resumed
        done += 1
    end = run_virtual(app, bots, clock)
    assert end.stage == "over", "the game froze"
    return ref.game.outcome(), end.game.outcome(), done


def test_the_kill_drill_ends_every_game_the_same(tmp_path: Path) -> None:
    """Twenty kills in each of three games (nights, speeches and votes alike): every game
    ends as it did uninterrupted."""
    total = 0
    for fmt_id, players, seed in (("yakuza", 12, 21), ("classic", 11, 22), ("city", 12, 23)):
        want, got, kills = _killed_many_times(tmp_path, fmt_id, players, seed, 20)
        assert got == want, fmt_id
        total += kills
    assert total >= 50


def test_bad_pads_settings_are_one_line_errors(tmp_path: Path) -> None:
    import os
    import subprocess
    import sys
    bad_pins = tmp_path / "pins.toml"
    bad_pins.write_text('[seats]\n1 = { button = 4, led = 4 }\n')
    cases = [({"TABLE_APP_PADS": "bogus"}, "unknown pad backend 'bogus'"),
             ({"TABLE_APP_PADS": "gpio", "TABLE_APP_PINS": str(bad_pins)}, "pins.toml"),
             ({"TABLE_APP_PADS": "gpio", "TABLE_APP_PINS": str(tmp_path / "none.toml")},
              "cannot read the pin map")]
    for extra, why in cases:
        env = {**os.environ, "SDL_VIDEODRIVER": "dummy", "SDL_AUDIODRIVER": "dummy",
               "XDG_CONFIG_HOME": str(tmp_path), **extra}
        proc = subprocess.run([sys.executable, "-m", "table_app", "--format", "yakuza",
                               "--new", "--journal", str(tmp_path / "j")],
                              capture_output=True, text=True, env=env, timeout=60)
        assert proc.returncode == 2, proc.stderr
        lines = proc.stderr.strip().splitlines()
        assert len(lines) == 1 and lines[0].startswith("table-app: ") and why in lines[0], lines


def test_entries_overwrite_zeros_written_ahead(tmp_path: Path) -> None:
    # durable but cheap: an entry changes no file size (fdatasync has only its data to
    # flush); the zeros ahead are written a chunk at a time, and readers stop at them
    from table_app.table.journal import CHUNK, Journal
    path = tmp_path / "j"
    j = Journal(path)
    j.write({"t": 0, "k": "start", "fmt": "yakuza", "players": 12, "lang": "en",
             "deal": "app", "seed": 1})
    assert path.stat().st_size == CHUNK
    sizes = set()
    for i in range(6000):
        j.write({"t": i, "k": "tick"})
        sizes.add(path.stat().st_size)
    assert sorted(sizes) == [CHUNK * n for n in range(1, len(sizes) + 1)] and len(sizes) > 1
    j.close()
    assert [e["t"] for e in Journal.read(path)[1:]] == list(range(6000))
    j = Journal(path)                       # reopened: the next entry follows the last one
    j.write({"t": 6000, "k": "tick"})
    j.close()
    assert Journal.read(path)[-1]["t"] == 6000 and len(Journal.read(path)) == 6002


def test_one_journal_is_held_once_whatever_name_it_is_opened_by(tmp_path: Path) -> None:
    # the lock went by the name given: a second table opening the live journal through a
    # symlink got a lock of its own (and with --new emptied the running game's journal)
    import pytest

    from table_app.table.journal import JournalError
    real = tmp_path / "game.journal"
    link = tmp_path / "other-name.journal"
    link.symlink_to(real)
    held = Journal(real)
    try:
        with pytest.raises(JournalError, match="in use by another table-app"):
            Journal(link)
        (tmp_path / "folder").symlink_to(tmp_path)
        with pytest.raises(JournalError, match="in use by another table-app"):
            Journal(tmp_path / "folder" / "game.journal")
    finally:
        held.close()
    Journal(link).close()            # once let go, it opens by either name


def test_a_finished_game_no_keeper_could_take_keeps_its_journal(tmp_path: Path) -> None:
    # neither the records nor a file waiting for them could be written (a full disk): the
    # next game emptied the journal all the same, and the game was gone
    app, bots, clock, _ = virtual_table(tmp_path / "j", seed=4)
    offered: list[str] = []
    app.keepers.append(lambda table: offered.append(table.stage) or False)   # never safe
    table = run_virtual(app, bots, clock)
    assert table.stage == "over"
    played = list(app.entries)
    app.next_game()
    [kept] = tmp_path.glob("j.unrecorded-*")
    assert Journal.read(kept) == played and offered == ["over"]
    assert app.notices[-1][1].startswith(f"kept as {kept.name}: its finished game could "
                                         f"not be recorded")
    assert Journal.read(tmp_path / "j")[0]["k"] == "start" and len(Journal.read(
        tmp_path / "j")) < len(played)
    app.close()


def test_a_full_disk_applies_nothing_it_did_not_write(tmp_path: Path, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    # the disk took part of an entry: it was applied all the same (os.pwrite's count never
    # looked at), the journal kept a torn line, and a restart had lost that input
    import errno
    import os
    app, bots, clock, _ = virtual_table(tmp_path / "j", seed=3)
    # (no button held: half a minute later it would be stuck)
    table = run_virtual(app, bots, clock, until=lambda t: len(app.entries) > 60
                        and not bots.down and bool(t.timer))
    played = list(app.entries)
    real = os.pwrite
    room = [7]                                  # bytes the disk still takes

    def full_disk(fd: int, data: bytes, at: int) -> int:
        n = min(len(data), room[0])
        room[0] -= n
        if not n:
            raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))
        return real(fd, bytes(data[:n]), at)
    monkeypatch.setattr(os, "pwrite", full_disk)
    assert table.timer is not None and not table.paused
    full_at = clock.now() + 1.0
    left = table.time_left(full_at)                   # what the window has when it pauses
    for _ in range(30):                                # half a minute of full disk
        clock.set(clock.now() + 1.0)
        app.feed(Tick())
        assert app.entries == played                   # nothing applied
        # and the game paused: its window does not run out while nothing can be journaled
        assert table.paused and table.time_left(clock.now()) == pytest.approx(left)
    monkeypatch.setattr(os, "pwrite", real)
    assert Journal.read(tmp_path / "j") == played      # and nothing torn on the disk
    notes = [s.text for s in table.log]
    assert sum("disk full" in n for n in notes) == 1, notes
    app.feed(Tick())                                   # space again: the game goes on
    new = app.entries[len(played):]                    # the pause, journaled at its time
    assert new[:2] == [{"t": full_at, "k": "host", "cmd": ["disk", "full"]},
                       {"t": clock.now(), "k": "host", "cmd": ["disk", "ok"]}]
    assert new[-1] == {"t": clock.now(), "k": "tick"}
    assert all(e["k"] == "level" for e in new[2:-1])   # a release the disk did not take
    times = [float(e["t"]) for e in app.entries]
    assert times == sorted(times)                      # the journal's time never goes back
    assert not table.paused and table.time_left(clock.now()) == pytest.approx(left)
    assert any("there is space again" in s.text for s in table.log[-3:])
    table = run_virtual(app, bots, clock, until=lambda t: len(app.entries) > len(played) + 40)
    assert table.stage != "over"
    app.close()
    again, _, _, _ = virtual_table(tmp_path / "j", seed=3)   # a restart is where it was
    try:
        assert again.resumed and again.entries == app.entries
        assert again.table is not None and again.table.game_script() == table.game_script()
    finally:
        again.close()


def test_a_table_killed_while_its_disk_was_full_goes_on_after_a_restart(
        tmp_path: Path, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    # the pause journaled, the disk full again before its end: a restart must not stay
    # paused for a disk that has room now
    import errno
    import os
    app, bots, clock, _ = virtual_table(tmp_path / "j", seed=5)
    run_virtual(app, bots, clock, until=lambda t: len(app.entries) > 40 and not bots.down
                and bool(t.timer))
    real = os.pwrite
    calls = [0]

    def then_full(fd: int, data: bytes, at: int) -> int:
        calls[0] += 1
        if calls[0] == 1 or calls[0] > 3:    # full; room for the pause only; full again
            raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))
        return real(fd, data, at)
    monkeypatch.setattr(os, "pwrite", then_full)
    for _ in range(3):
        clock.set(clock.now() + 1.0)
        app.feed(Tick())
    monkeypatch.setattr(os, "pwrite", real)
    assert Journal.read(tmp_path / "j")[-1]["cmd"] == ["disk", "full"]
    os.close(app.journal._fd)                          # type: ignore[union-attr]
    os.close(app.journal._lock)                        # type: ignore[union-attr]
    again, bots, clock, _ = virtual_table(tmp_path / "j", seed=5)
    try:
        assert again.resumed and again.table is not None and not again.table.paused
        # (the host's last word is the disk's room; a button held at the kill may follow)
        assert [e["cmd"] for e in again.entries if e["k"] == "host"][-2:] == [
            ["disk", "full"], ["disk", "ok"]]
        assert run_virtual(again, bots, clock).stage == "over"
    finally:
        again.close()


def test_on_a_nearly_full_disk_the_journal_grows_by_what_an_entry_needs(
        tmp_path: Path, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    # the journal writes zeros ahead, 64 KB at a time; a disk with less than that free
    # still takes the entry itself
    import errno
    import os
    real = os.pwrite

    def small_disk(fd: int, data: bytes, at: int) -> int:
        if at + len(data) > 4096:
            raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))
        return real(fd, data, at)
    j = Journal(tmp_path / "j", sync=False)
    monkeypatch.setattr(os, "pwrite", small_disk)
    start = {"t": 0.0, "k": "start", "fmt": "yakuza", "players": 12, "lang": "en",
             "deal": "app", "seed": 1}
    j.write(start)
    j.write({"t": 1.0, "k": "tick"})
    monkeypatch.setattr(os, "pwrite", real)
    j.close()
    assert Journal.read(tmp_path / "j") == [start, {"t": 1.0, "k": "tick"}]
    assert (tmp_path / "j").stat().st_size < 4096


def test_the_records_drill_keeps_every_game_exactly_once(tmp_path: Path,
                                                        monkeypatch) -> None:  # type: ignore[no-untyped-def]
    """Three games killed at random moments; journals torn in their last entry, or cut at
    a random byte anywhere (one inside its start line); a disk full for half a minute of
    play; the table killed just after each game's last vote (before its record); the
    records damaged when one game ends and locked by another program when another does:
    every game ends as it did uninterrupted, and is in the records exactly once."""
    import errno
    import os
    import random
    import sqlite3

    from table_app.records.recorder import Recorder
    from table_app.records.store import Records
    state = tmp_path / "state"
    monkeypatch.setenv("XDG_STATE_HOME", str(state))   # the waiting folder, this test's
    url = f"sqlite:///{tmp_path / 'records.sqlite'}"
    Records(url)                                       # the club's records, still empty
    recorders: list[Recorder] = []

    def attach(app: object) -> None:
        rec = Recorder(app, dict, local=url, note=lambda text: None)
        app.observers.append(rec)                      # type: ignore[attr-defined]
        app.keepers.append(rec.keep)                   # type: ignore[attr-defined]
        rec.resume()
        recorders.append(rec)

    def kill(app: object) -> None:                     # no goodbye: the fds just go
        os.close(app.journal._fd)                      # type: ignore[attr-defined]
        os.close(app.journal._lock)                    # type: ignore[attr-defined]

    rng = random.Random(31)
    want = {}
    real_pwrite = os.pwrite

    def no_room(fd: int, data: bytes, at: int) -> int:
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))
    for fmt_id, players, seed in (("yakuza", 12, 41), ("classic", 11, 42),
                                  ("city", 12, 43)):
        ref_app, ref_bots, ref_clock, _ = virtual_table(
            tmp_path / f"{fmt_id}-ref", seed=seed, fmt_id=fmt_id, players=players)
        want[fmt_id] = run_virtual(ref_app, ref_bots, ref_clock).game.outcome()
        total = len(ref_app.entries)
        ref_app.close()
        journal = tmp_path / f"{fmt_id}.journal"
        app, bots, clock, _ = virtual_table(journal, seed=seed, fmt_id=fmt_id,
                                            players=players, attach=attach)
        for i, cut in enumerate(sorted(rng.sample(range(5, total - 5), 6))):
            run_virtual(app, bots, clock, until=lambda t, c=cut, a=app: len(a.entries) >= c)
            if fmt_id == "classic" and i == 2:     # the disk fills for half a minute
                at = len(app.entries)
                monkeypatch.setattr(os, "pwrite", no_room)
                until = clock.now() + 30
                run_virtual(app, bots, clock, until=lambda t, c=clock, u=until: c.now() > u)
                assert app.full is not None and app.table.paused   # type: ignore[union-attr]
                assert len(app.entries) == at and len(Journal.read(journal)) == at
                monkeypatch.setattr(os, "pwrite", real_pwrite)
                continue
            kill(app)
            data = journal.read_bytes().rstrip(b"\0")
            if fmt_id == "city" and i == 0:        # a cut inside the start line
                first = data.find(b"\n")
                journal.write_bytes(data[:rng.randrange(1, first)])
            elif i == 1:                           # a cut at any byte (entries lost)
                journal.write_bytes(data[:rng.randrange(data.find(b"\n") + 1, len(data))])
            elif rng.random() < 0.5:               # the power cut mid-write: a torn tail
                last = data.rstrip(b"\n").rfind(b"\n") + 1
                journal.write_bytes(data[:rng.randrange(last + 1, len(data))])
            app, bots, clock, _ = virtual_table(journal, seed=seed, fmt_id=fmt_id,
                                                players=players, attach=attach)
            if fmt_id == "city" and i == 0:        # set aside, and a new game of that seed
                assert not app.resumed
                assert len(list(tmp_path.glob("city.journal.unreadable-*"))) == 1
        # the last vote journaled and applied, the table killed before its record
        recorders[-1].keep = lambda table: True    # type: ignore[method-assign]
        app.observers.clear()
        end = run_virtual(app, bots, clock)
        assert end.stage == "over"
        assert end.game.outcome() == want[fmt_id], fmt_id
        kill(app)
        lock = None
        if fmt_id == "yakuza":                     # damaged pages, the header intact
            db = tmp_path / "records.sqlite"
            with db.open("r+b") as f:
                f.seek(100)
                f.write(bytes(rng.randrange(256) for _ in range(db.stat().st_size - 100)))
        if fmt_id == "classic":                    # another program holds the records
            lock = sqlite3.connect(tmp_path / "records.sqlite", isolation_level=None)
            lock.execute("BEGIN EXCLUSIVE")
        app, _, _, _ = virtual_table(journal, seed=seed, fmt_id=fmt_id, players=players,
                                     attach=attach)
        if lock is not None:
            lock.execute("ROLLBACK")
            lock.close()
        app.close()
    app, _, _, _ = virtual_table(tmp_path / "last.journal", attach=attach)  # a next start
    app.close()
    games = Records(url).games()
    assert sorted(g.format for g in games) == ["city", "classic", "yakuza"]
    assert len(list(tmp_path.glob("records.sqlite.damaged-*"))) == 1
    assert {g.format: g.winner for g in games} == {f: o.winner for f, o in want.items()}
    assert not list((state / "table-app" / "records-waiting").glob("*.json"))
