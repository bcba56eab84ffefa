"""The power-cut drill (test code): games at a table whose data folder is on `powercut_fs`,
cut at random moments, the table started again on what the disk held.

Each club is a folder of its own on one mount: its journal, its records (SQLite as the app
opens it), its waiting games, its settings and its pairing secret. A club plays games of one
format (yakuza at 12, classic, city at 4 to 30) on a fake clock with bots, the table as the
app runs it (a TableApp with its Recorder, the journal made durable), each start of it in a
process of its own that the cut ends (its files closed by the kernel, as at a power cut;
what it acted on reported to the drill before). The power is cut just
before a random changing call: anywhere in a game (in a write, between a write and its sync,
while a new game's start replaces the old), or, one life in four, a few calls after a game
ended (while it is recorded: a club's first game makes the records' schema), or, one in
eight, while the table starts. Half the cuts let a random part of the unsynced writes reach
the disk, the last one torn. Then the power comes back and the table starts again, checked:

- it starts (no exception, the settings load, the pairing secret is the one made);
- every input the table had acted on (journaled and applied) is in the game it resumes;
- every game that had ended is in the records once, or waiting in records-waiting/ (one
  start in four cannot write its records, and its games wait there);
- a pad layout the check had saved (its call returned) is the one in the settings.

    python tests/powercut.py --cuts 1000        # the long drill (make drill)
"""

from __future__ import annotations

import json
import os
import queue
import random
import shutil
import sqlite3
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager, suppress
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
if str(HERE.parent) not in sys.path:
    sys.path.insert(0, str(HERE.parent))

from table_app.clock import FakeClock  # noqa: E402
from table_app.pads import FakePads, GrammarConfig  # noqa: E402
from table_app.table.app import TableApp  # noqa: E402
from table_app.table.bots import TableBots  # noqa: E402
from table_app.table.config import Host, Input  # noqa: E402
from table_app.table.virtual import Recorder as Voice  # noqa: E402
from table_app.table.virtual import follow_journal, run_virtual  # noqa: E402

FORMATS = ("yakuza", "classic", "city")


def unavailable() -> str | None:
    """Why the power-cut file system cannot run here, or None."""
    if not os.path.exists("/dev/fuse"):
        return "no /dev/fuse (FUSE is not available on this machine)"
    if shutil.which("fusermount3") is None:
        return "no fusermount3 (Debian's fuse3 package)"
    try:
        import mfusepy  # type: ignore[import-untyped]  # noqa: F401
    except (ImportError, OSError) as e:       # the binding, or libfuse under it
        return f"the FUSE binding cannot be loaded: {e}"
    return None


class Mount:
    """The power-cut file system, mounted at `path` by a process of its own."""

    def __init__(self, path: Path) -> None:
        self.path = path
        path.mkdir(parents=True, exist_ok=True)
        self.log = open(path.parent / f"{path.name}.log", "w")  # noqa: SIM115
        self.proc = subprocess.Popen(
            [sys.executable, str(HERE / "powercut_fs.py"), str(path)], stdin=subprocess.PIPE,
            stdout=subprocess.PIPE, stderr=self.log, text=True, bufsize=1)
        for _ in range(200):
            if os.path.ismount(path):
                return
            if self.proc.poll() is not None:
                break
            time.sleep(0.05)
        self.close()
        raise RuntimeError(f"the power-cut file system did not mount at {path}: "
                           f"{(path.parent / f'{path.name}.log').read_text()[-400:]}")

    def ask(self, line: str) -> str:
        assert self.proc.stdin is not None and self.proc.stdout is not None
        self.proc.stdin.write(line + "\n")
        self.proc.stdin.flush()
        return self.proc.stdout.readline().strip()

    def down(self) -> bool:
        return self.ask("state").startswith("down")

    def close(self) -> None:
        subprocess.run(["fusermount3", "-u", "-z", str(self.path)], capture_output=True)
        with suppress(OSError):
            if self.proc.stdin is not None:
                self.proc.stdin.close()
        try:
            self.proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()
        self.log.close()


@dataclass
class Figures:
    clubs: int = 0
    games: int = 0             # games started
    ended: int = 0             # games that ended before a cut or between cuts
    cuts: int = 0
    boots: int = 0             # table starts after a cut, each checked
    inputs_checked: int = 0    # inputs acted on before a cut, looked for after it
    inputs_lost: int = 0
    games_lost: int = 0
    failed_starts: int = 0
    kept_lost: int = 0         # a saved layout or the pairing secret not found again
    torn: int = 0
    in_recording: int = 0      # cuts armed as a game ended
    at_start: int = 0          # cuts armed as the table started
    problems: list[str] = field(default_factory=list)

    def line(self) -> str:
        return (f"{self.clubs} clubs, {self.games} games ({self.ended} ended), {self.cuts} "
                f"cuts ({self.torn} torn, {self.in_recording} as a game was recorded, "
                f"{self.at_start} as the table started), {self.boots} starts checked: "
                f"{self.inputs_lost} of {self.inputs_checked} inputs acted on lost, "
                f"{self.games_lost} games lost, "
                f"{self.failed_starts} tables failed to start, {self.kept_lost} settings or "
                f"secrets lost")


@contextmanager
def _club_env(club: Path) -> Iterator[None]:
    keys = ("XDG_STATE_HOME", "XDG_CONFIG_HOME", "TABLE_APP_SETTINGS", "TABLE_APP_PAD_SECRET")
    old = {k: os.environ.get(k) for k in keys}
    os.environ["XDG_STATE_HOME"] = str(club / "state")
    os.environ["XDG_CONFIG_HOME"] = str(club / "config")
    os.environ["TABLE_APP_SETTINGS"] = str(club / "config" / "table-app" / "settings.toml")
    os.environ["TABLE_APP_PAD_SECRET"] = str(club / "config" / "table-app" / "pad-secret")
    try:
        yield
    finally:
        for k, v in old.items():
            if v is None:
                os.environ.pop(k, None)
            else:
                os.environ[k] = v


def _durable_folder(path: Path) -> None:
    """A folder made the way an install makes the table's (durable), outside any cut."""
    path.mkdir(parents=True, exist_ok=True)
    for p in (path, *path.parents):
        try:
            fd = os.open(p, os.O_RDONLY)
        except OSError:
            break
        try:
            os.fsync(fd)
        except OSError:
            pass
        finally:
            os.close(fd)
        if os.path.ismount(p):
            break


class Club:
    """One club's table across its cuts, and what it must find again after each."""

    def __init__(self, root: Path, fmt: str, rng: random.Random, sync: bool = True) -> None:
        self.root, self.fmt, self.rng = root, fmt, rng
        self.sync = sync                        # the journal made durable (False: to see
        #                                         the drill find what that loses)
        self.players = {"yakuza": 12, "classic": rng.choice((10, 11)),
                        "city": rng.randint(4, 30)}[fmt]
        self.seats = max(12, self.players)
        self.acted: list[dict[str, Any]] = []   # the unfinished game's inputs, acted on
        self.ended: set[str] = set()            # every game that ended
        self.lost: set[str] = set()             # (each said once)
        self.layout: list[int] | None = None    # the last pad layout saved
        self.secret = b""
        self.app: TableApp | None = None
        self.last_life = ""                      # how the last life went (for a problem)

    # -- one life: start, check, play till the power goes --------------------------------
    def start(self) -> tuple[TableApp, Any, FakeClock, FakePads]:
        from table_app.records.recorder import Recorder
        clock = FakeClock()
        inbox: queue.Queue[Input] = queue.Queue()
        pads = FakePads(self.seats, inbox.put, clock)
        app = TableApp(pads, Voice(), clock, self.root / "state" / "table-app" / "game.journal",
                       inbox, GrammarConfig(), sync=self.sync)
        self.app = app
        notes: list[str] = []
        rec = Recorder(app, dict, note=notes.append)
        if self.rng.random() < 0.25:
            # the records cannot be written this time (locked by another program, say):
            # each game that ends waits in records-waiting/ for the next start
            def locked(record: Any) -> bool:
                from table_app.records.game import RecordsError
                raise RecordsError("the records are locked (the drill)")
            rec._write = locked  # type: ignore[method-assign]
        self.recorder = rec
        app.observers.append(rec)
        app.keepers.append(rec.keep)
        rec.resume()
        app.open(self.fmt, self.players, "en", "app", self.rng.randrange(1 << 30))
        follow_journal(app, clock)
        return app, rec, clock, pads

    def boot_checks(self, mount: Mount) -> None:
        """What the table reads as it starts: the settings and the pairing secret (made at
        the first start)."""
        from table_app import settings as st
        from table_app.admin.firmware import pairing_secret
        s = st.load_settings(lenient=True)
        if self.layout is not None and s.buttons != self.layout:
            layout, self.layout = self.layout, None
            raise AssertionError(f"the pad layout saved {layout} came back as {s.buttons}")
        secret = pairing_secret()
        if mount.down():           # made as the power went: the process is gone with it
            return
        old, self.secret = self.secret, secret
        if old and secret != old:
            raise AssertionError("the pairing secret changed across a cut")

    def verify(self, app: TableApp, fig: Figures) -> None:
        """After a start on what the disk held: nothing acted on is missing."""
        if self.acted:
            fig.inputs_checked += len(self.acted)
            got = app.entries if app.resumed else []
            same = 0
            for a, b in zip(self.acted, got, strict=False):
                if a != b:
                    break
                same += 1
            if same < len(self.acted):
                fig.inputs_lost += len(self.acted) - same
                fig.problems.append(f"{self.root.name}: {len(self.acted) - same} of "
                                    f"{len(self.acted)} inputs acted on are not in the "
                                    f"journal after the cut (resumed={app.resumed}; the "
                                    f"first: {self.acted[same]}, found: "
                                    f"{got[same] if same < len(got) else None}; "
                                    f"{len(got)} found; the life: {self.last_life})")
        for gid in sorted(self.ended - self.lost):
            if self._recorded(gid) != 1 and not self._waiting(gid):
                self.lost.add(gid)
                fig.games_lost += 1
                fig.problems.append(f"{self.root.name}: the ended game {gid} is neither "
                                    f"recorded ({self._recorded(gid)}) nor waiting")

    def _recorded(self, gid: str) -> int:
        db = self.root / "state" / "table-app" / "records.sqlite"
        if not db.exists():
            return 0
        # (read as the app opens it: a journal left hot by the cut is rolled back first)
        con = sqlite3.connect(db, timeout=5)
        try:
            return int(con.execute("SELECT count(*) FROM games WHERE id = ?",
                                   (gid,)).fetchone()[0])
        except sqlite3.Error:
            return 0
        finally:
            con.close()

    def _waiting(self, gid: str) -> bool:
        return (self.root / "state" / "table-app" / "records-waiting" / f"{gid}.json").exists()


def _gid(app: TableApp) -> str:
    from table_app.records.recorder import game_id
    return game_id(app.entries[0])


def life(club: Club, mount: Mount, fig: Figures, rng: random.Random, first: bool) -> None:
    """The table starts (checked, unless it is the club's first start), plays until the power
    is cut, and what it had acted on is noted: in a process of its own, which the cut ends
    (every file it had open closed by the kernel, its locks with it, as at a power cut)."""
    seed = rng.randrange(1 << 30)
    _in_child(club, fig, lambda: _life(club, mount, fig, random.Random(seed), first))


def _in_child(club: Club, fig: Figures, run: Any) -> None:
    """`run()` in a forked process; the club's expectations and the figures it changed,
    brought back."""
    r, w = os.pipe()
    pid = os.fork()
    if pid == 0:                                   # the table's process
        os.close(r)
        code = 0
        try:
            club.rng = random.Random(club.rng.randrange(1 << 30) ^ os.getpid())
            fig.problems = []
            before = dict(fig.__dict__)
            run()
            out = {"club": {"acted": club.acted, "ended": sorted(club.ended),
                            "lost": sorted(club.lost), "layout": club.layout,
                            "secret": club.secret.hex(), "last_life": club.last_life},
                   "fig": {k: v - before[k] for k, v in fig.__dict__.items()
                           if isinstance(v, int)},
                   "problems": fig.problems}
        except BaseException as e:                 # a bug of the drill's own
            out = {"crash": f"{type(e).__name__}: {e}"}
            code = 1
        with os.fdopen(w, "w") as f:
            json.dump(out, f)
        os._exit(code)
    os.close(w)
    with os.fdopen(r) as f:
        text = f.read()
    os.waitpid(pid, 0)
    got = json.loads(text) if text else {"crash": "the table's process died"}
    if "crash" in got:
        raise RuntimeError(f"{club.root.name}: {got['crash']}")
    c = got["club"]
    club.acted, club.ended, club.lost = c["acted"], set(c["ended"]), set(c["lost"])
    club.layout, club.secret = c["layout"], bytes.fromhex(c["secret"])
    club.last_life = c["last_life"]
    for k, v in got["fig"].items():
        setattr(fig, k, getattr(fig, k) + v)
    fig.problems += got["problems"]


def _life(club: Club, mount: Mount, fig: Figures, rng: random.Random, first: bool) -> None:
    mount.ask("on")
    club.app = None
    kind = rng.random()
    seed = rng.randrange(1 << 30)
    mode = "torn" if rng.random() < 0.5 else "drop"
    fig.torn += mode == "torn"
    armed_now = kind < 0.125
    if armed_now:                                   # a cut as the table starts
        mount.ask(f"arm {rng.randint(1, 120)} {seed} {mode}")
        fig.at_start += 1
    with _club_env(club.root):
        try:
            _checked_boot(club, club.root, mount, fig)
            app, rec, clock, pads = club.start()
        except Exception as e:
            if not mount.down():
                fig.failed_starts += 1
                fig.problems.append(f"{club.root.name}: the table failed to start: "
                                    f"{type(e).__name__}: {e}")
                return
        else:
            if not armed_now and not first:
                club.verify(app, fig)
                fig.boots += 1
            if not app.resumed:
                fig.games += 1
            _play(club, app, clock, pads, mount, fig, rng, seed, mode, armed_now,
                  kind < 0.375)
        finally:
            app = club.app
            if app is not None:
                if app.table is not None and app.entries:
                    if app.table.stage == "over":
                        club.ended.add(_gid(app))
                        club.acted = []
                    else:
                        club.acted = [dict(e) for e in app.entries]
                with suppress(Exception):
                    club.recorder.close()
                    if club.recorder.records is not None:
                        club.recorder.records.close()
                with suppress(Exception):
                    app.close()
    club.last_life = (f"kind {kind:.2f} mode {mode} armed_now {armed_now} "
                      f"state {mount.ask('state')}")
    fig.cuts += 1


def _play(club: Club, app: TableApp, clock: FakeClock, pads: FakePads, mount: Mount,
          fig: Figures, rng: random.Random, seed: int, mode: str, armed: bool,
          at_end: bool) -> None:
    from table_app import settings as st
    if not armed and not at_end:
        mount.ask(f"arm {rng.randint(1, 4000)} {seed} {mode}")
        armed = True
    cut = False

    def ended(table: Any) -> None:
        nonlocal armed
        if table.stage == "over":
            club.ended.add(_gid(app))
            if not armed:                        # a cut while this game is recorded
                mount.ask(f"arm {rng.randint(1, 150)} {seed} {mode}")
                fig.in_recording += 1
                armed = True

    app.observers.insert(0, ended)
    while not cut:
        try:
            if rng.random() < 0.3:               # the host runs the check, and it saves
                layout = rng.sample(range(1, club.seats + 1), club.seats)
                st.write_pad_layout(layout, [0] * club.seats)
                if not mount.down():        # (saved as the power went: nobody saw it)
                    club.layout = layout
            bots = TableBots(pads, app.table.cfg.seed if app.table else 0)
            table = run_virtual(app, bots, clock, until=lambda t: app.full is not None)
            if app.full is not None or mount.down():
                cut = True
                continue
            assert table.stage == "over"
            club.acted = []
            app.feed(Host(("start",)))           # the next game, as the host presses Start
            fig.games += 1
            if app.full is not None:
                cut = True
        except Exception as e:
            if not mount.down():
                t = app.table
                state = "" if t is None else (
                    f" (resumed {app.resumed}, paused {t.paused} {sorted(t.pause_reasons)}, "
                    f"timer {t.timer}, asked {dict(t.asked)}, the last entries "
                    f"{app.entries[-3:]})")
                fig.problems.append(f"{club.root.name}: the table failed while playing: "
                                    f"{type(e).__name__}: {e}{state}")
                fig.failed_starts += 1
                break
            cut = True
    if not mount.down():
        mount.ask(f"cut {seed} {mode}")


def _checked_boot(club: Club, root: Path, mount: Mount, fig: Figures) -> None:
    """The checks at a start after a cut: what they find lost is counted, not raised."""
    try:
        club.boot_checks(mount)
    except AssertionError as e:
        fig.kept_lost += 1
        fig.problems.append(f"{root.name}: {e}")


def _last_start(club: Club, root: Path, mount: Mount, fig: Figures) -> None:
    with _club_env(root):
        try:
            _checked_boot(club, root, mount, fig)
            app, *_ = club.start()
        except Exception as e:
            fig.failed_starts += 1
            fig.problems.append(f"{root.name}: the table failed to start: "
                                f"{type(e).__name__}: {e}")
        else:
            club.verify(app, fig)
            fig.boots += 1


def drill(where: Path, cuts: int, seed: int = 1, per_club: int = 6,
          progress: Any = None, sync: bool = True) -> Figures:
    """`cuts` power cuts over clubs of every format, `per_club` cuts each."""
    rng = random.Random(seed)
    fig = Figures()
    # what every table's process would load again, loaded once before they fork: the
    # records' migrations, the formats
    from table_app.records.store import Records
    from table_app.rules import find_format
    Records(f"sqlite:///{where / 'warm.sqlite'}").close()
    for f in FORMATS:
        find_format(f)
    mount = Mount(where / "disk")
    try:
        n = 0
        while fig.cuts < cuts:
            fmt = FORMATS[n % len(FORMATS)]
            root = mount.path / f"club-{n:04d}-{fmt}"
            n += 1
            mount.ask("on")
            _durable_folder(root / "state" / "table-app")
            _durable_folder(root / "config" / "table-app")
            club = Club(root, fmt, random.Random(rng.randrange(1 << 30)), sync)
            fig.clubs += 1
            for i in range(per_club):
                if fig.cuts >= cuts:
                    break
                life(club, mount, fig, rng, first=i == 0)
            mount.ask("on")                      # the last start of the club, checked
            _in_child(club, fig, lambda club=club, root=root: _last_start(club, root, mount,
                                                                          fig))
            fig.ended += len(club.ended)
            shutil.rmtree(root, ignore_errors=True)
            if progress is not None:
                progress(fig)
    finally:
        mount.close()
    return fig


def main() -> int:
    import argparse
    import tempfile
    p = argparse.ArgumentParser(description="the power-cut drill")
    p.add_argument("--cuts", type=int, default=1000)
    p.add_argument("--seed", type=int, default=1)
    args = p.parse_args()
    why = unavailable()
    if why:
        print(f"power-cut drill: cannot run: {why}", file=sys.stderr)
        return 2
    import contextlib
    import io
    t0 = time.monotonic()
    out = sys.stdout
    with tempfile.TemporaryDirectory(prefix="powercut-") as tmp:
        def progress(f: Figures) -> None:
            print(f"  {f.line()}  [{time.monotonic() - t0:.0f} s]", file=out, flush=True)
        # (what the table says on stderr as the power goes: a journal that cannot be
        # written, a game paused, thousands of times)
        with contextlib.redirect_stderr(io.StringIO()):
            fig = drill(Path(tmp), args.cuts, args.seed, progress=progress)
    print(f"power-cut drill, seed {args.seed}, {time.monotonic() - t0:.0f} s:")
    print(fig.line())
    for p_ in fig.problems[:50]:
        print("  " + p_)
    print(json.dumps({k: v for k, v in fig.__dict__.items() if k != "problems"}))
    return 0 if not fig.problems else 1


if __name__ == "__main__":
    sys.exit(main())
