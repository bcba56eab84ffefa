"""Power cuts for real: the table's data folder on a file system that loses, at a cut, every
write and every folder change not yet made durable (tests/powercut_fs.py, LazyFS's model on
FUSE), games of every format cut at random moments, the table started again on what the disk
held (tests/powercut.py). `make drill` runs the long drill (1,000 cuts)."""

from __future__ import annotations

import os
import sqlite3
from collections.abc import Iterator
from pathlib import Path

import pytest
from powercut import FORMATS, Mount, drill, unavailable

CI = os.environ.get("CI", "").lower() in ("1", "true", "yes")
#: the drill's size here (`.ci/run`): at least 100 cuts, a minute or so on two cores
CUTS = int(os.environ.get("POWERCUT_CUTS", "150"))


_PROBED: list[str | None] = []


@pytest.fixture()
def fuse_ok(tmp_path_factory: pytest.TempPathFactory) -> None:
    if not _PROBED:                          # once: a FUSE file system mounted, or why not
        why = unavailable()
        if why is None:
            try:
                Mount(tmp_path_factory.mktemp("probe") / "disk").close()
            except RuntimeError as e:        # no right to mount here, say
                why = str(e)
        _PROBED.append(why)
    why = _PROBED[0]
    if why:
        if CI:
            pytest.fail(f"the power-cut drill cannot run: {why} (.ci/run installs fuse3)")
        pytest.skip(f"the power-cut drill cannot run: {why}")


@pytest.fixture()
def mount(tmp_path: Path, fuse_ok: None) -> Iterator[Mount]:
    m = Mount(tmp_path / "disk")
    try:
        yield m
    finally:
        m.close()


def _sync(path: Path) -> None:
    fd = os.open(path, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def test_a_cut_keeps_only_what_was_made_durable(mount: Mount) -> None:
    d = mount.path
    (d / "kept").write_bytes(b"old")
    _sync(d / "kept")
    _sync(d)                                        # its name durable too
    with open(d / "kept", "r+b") as f:
        f.write(b"new, never synced")
    (d / "synced-but-unnamed").write_bytes(b"x")
    _sync(d / "synced-but-unnamed")                 # its data, not its folder's entry
    os.mkdir(d / "folder")                          # never synced
    mount.ask("cut 1 drop")
    with pytest.raises(OSError):
        (d / "kept").read_bytes()                   # the power is off
    mount.ask("on")
    assert sorted(os.listdir(d)) == ["kept"]
    assert (d / "kept").read_bytes() == b"old"


def test_a_torn_cut_keeps_part_of_the_unsynced_writes(mount: Mount) -> None:
    d = mount.path
    seen = set()
    for seed in range(16):
        f = d / f"f{seed}"
        f.write_bytes(b"")
        _sync(f)
        _sync(d)
        with open(f, "r+b") as out:
            out.write(b"A" * 4000)
        mount.ask(f"cut {seed} torn")
        mount.ask("on")
        seen.add(len(f.read_bytes()))
    assert 0 in seen and any(0 < n < 4000 for n in seen)    # nothing, or a torn part


def test_sqlite_in_the_records_mode_keeps_a_commit(mount: Mount) -> None:
    """The records' SQLite (synchronous EXTRA, as the app opens it) keeps a committed row
    through a cut; plain FULL lets the rollback journal come back and undo it (why EXTRA)."""
    for extra, kept in ((True, [(1,)]), (False, [])):
        db = mount.path / f"db-{extra}.sqlite"
        con = sqlite3.connect(db, isolation_level=None)
        if extra:
            con.execute("PRAGMA synchronous = EXTRA")
        con.execute("CREATE TABLE t (x)")
        con.execute("BEGIN")
        con.execute("INSERT INTO t VALUES (1)")
        con.execute("COMMIT")
        con.close()
        mount.ask("cut 1 drop")
        mount.ask("on")
        con = sqlite3.connect(db)
        assert con.execute("SELECT x FROM t").fetchall() == kept
        con.close()


def test_power_cuts_lose_nothing_the_table_acted_on(tmp_path: Path, fuse_ok: None) -> None:
    """Games of every format cut at random moments (in a write, between a write and its
    sync, as a game is recorded and the records' schema made, as the table starts), the
    table started again on what the disk held: every input it had acted on is there, every
    game that had ended is recorded once or waiting, and every start succeeds."""
    fig = drill(tmp_path, CUTS, seed=int(os.environ.get("POWERCUT_SEED", "48")))
    print(fig.line())
    assert fig.cuts >= min(CUTS, 100) and fig.boots >= fig.cuts * 0.8
    assert fig.clubs >= len(FORMATS) and fig.ended > 0 and fig.in_recording > 0
    assert fig.torn > 0 and fig.at_start > 0 and fig.inputs_checked > 1000
    assert fig.problems == []
    assert (fig.inputs_lost, fig.games_lost, fig.failed_starts, fig.kept_lost) == (0, 0, 0, 0)


def test_the_drill_finds_a_journal_that_is_not_made_durable(tmp_path: Path,
                                                            fuse_ok: None) -> None:
    """The drill can fail: the same table with its journal's syncs left out loses inputs."""
    fig = drill(tmp_path, 12, seed=5, sync=False)
    assert fig.inputs_lost > 0
