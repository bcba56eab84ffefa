"""The journal: every input, written (and made durable) before it is applied.

One JSON object a line. A process killed mid-write leaves at most a torn last line, which
is ignored on reading; anything else that does not parse is an error that names the line.

The file is written ahead in zeros, a chunk at a time (each chunk made durable with its size,
once): an entry then overwrites zeros in place, and `fdatasync` has only that data to flush,
no file size or block allocation. Readers stop at the zeros (JSON never holds a NUL byte).
"""

from __future__ import annotations

import errno
import fcntl
import json
import os
from pathlib import Path
from typing import Any

from ..pads.events import PadEdge, PadHeld, PadLevel, PadLink
from ..paths import private_folder, sync_folder
from .config import Host, Input, Tick


class JournalError(Exception):
    """A journal that cannot be used: not a table-app journal, or held by another process."""


class JournalFull(JournalError):
    """An entry the disk did not take whole (full, or failing): nothing of it is kept, and
    the table does not apply it."""


class JournalUnreadable(JournalError):
    """A journal whose game cannot be read back (a torn start, garbage, a folder): the table
    moves it aside (`set_aside`) and opens its setup screen; it never overwrites it."""


START_KEYS = ("fmt", "players", "lang", "deal", "seed")
CHUNK = 64 * 1024         # written ahead in zeros: some 600 entries


class Journal:
    """An append-only record of a game's inputs, held by one process at a time."""

    def __init__(self, path: str | Path, sync: bool = True) -> None:
        self.path = Path(path)
        private_folder(self.path.parent)
        self.sync = sync
        # the lock goes with the real file: a second table opening it by another name (a
        # symlink, a path through one) would get a lock of its own, and with --new empty
        # the live game's journal under it
        self._lock = _hold_lock(Path(os.path.realpath(self.path)))
        try:
            if self.path.is_dir():
                raise JournalError(f"{self.path} is a folder, not a journal")
            # the journal holds the deal's seed and every secret choice: the owner's eyes
            # only, whatever the umask
            fd = os.open(self.path, os.O_RDWR | os.O_CREAT, 0o600)
        except BaseException:
            os.close(self._lock)
            raise
        try:
            # the lock held on the file itself, whatever name it was opened by: a second
            # name for it (a hard link) had a lock file of its own, and two tables wrote
            # one journal, the second game's start among the first's entries
            _hold_file(fd, self.path)
            os.fchmod(fd, 0o600)
            # read (and judge) what is there before anything is written to it
            self.entries, self.notes = Journal.load(self.path)
        except BaseException:
            os.close(fd)
            os.close(self._lock)
            raise
        self._fd = fd
        # where the entries end: before the zeros written ahead, and before a line torn by a
        # kill or a full disk, which is cleared so the next entry starts clean
        size = os.fstat(fd).st_size
        data = os.pread(fd, size, 0) if size else b""
        used = len(data.rstrip(b"\0"))
        self.end = data.rfind(b"\n", 0, used) + 1
        if self.end < used:
            os.pwrite(fd, bytes(used - self.end), self.end)
            os.fsync(fd)
        self.size = size
        sync_folder(self.path.parent)
        self.written = 0

    def reset(self) -> None:
        """Empty the journal for a new game (the old one is over, or the host asked)."""
        os.ftruncate(self._fd, 0)
        os.fsync(self._fd)
        self.size = self.end = 0
        self.entries, self.notes = [], []

    def write(self, entry: dict[str, Any]) -> None:
        """The entry on disk, whole, before it is applied; else JournalFull, and nothing of
        it kept (a short write used to be applied all the same, and lost on restart)."""
        line = json.dumps(entry, separators=(",", ":")).encode() + b"\n"
        try:
            if self.end + len(line) > self.size:
                self._write_ahead(len(line))
            _pwrite_all(self._fd, line, self.end)
            if self.sync:
                os.fdatasync(self._fd)            # on disk before it is applied
        except OSError as e:
            try:                                   # the part that went in, zeros again
                os.pwrite(self._fd, bytes(min(len(line), self.size - self.end)), self.end)
            except OSError:
                pass
            raise JournalFull(f"the journal {self.path} cannot be written "
                              f"({e.strerror or e})") from None
        self.end += len(line)
        self.written += 1

    def _write_ahead(self, need: int) -> None:
        # zeros, really written (not a hole or an unwritten extent, which the first entry
        # would turn into a metadata change), and durable with the new size at once; on a
        # nearly full disk, just what this entry needs
        for grow in (max(CHUNK, need), need):
            try:
                _pwrite_all(self._fd, bytes(grow), self.size)
                if self.sync:
                    os.fsync(self._fd)
            except OSError:
                os.ftruncate(self._fd, self.size)     # what the disk took, given back
                if grow == need:
                    raise
                continue
            self.size += grow
            return

    def close(self) -> None:
        try:
            os.close(self._fd)
        finally:                    # (a close that reports an error still closes: the lock too)
            os.close(self._lock)

    @staticmethod
    def read(path: str | Path) -> list[dict[str, Any]]:
        return Journal.load(path)[0]

    @staticmethod
    def load(path: str | Path) -> tuple[list[dict[str, Any]], list[str]]:
        """The entries, and a note for each line that had to be left out. A file that is not
        a table-app journal at all is an error (it is never overwritten)."""
        p = Path(path)
        if not p.exists():
            return [], []
        if p.is_dir():
            raise JournalError(f"{p} is a folder, not a journal")
        data = p.read_bytes().rstrip(b"\0")      # the zeros written ahead
        if not data.strip():
            return [], []
        lines = data.split(b"\n")
        torn = lines[-1] != b""                 # no newline at the end: cut by a kill
        out: list[dict[str, Any]] = []
        notes: list[str] = []
        for i, raw in enumerate(lines):
            if not raw.strip():
                continue
            entry = _entry(raw)
            if torn and i == len(lines) - 1 and (i > 0 or entry is not None):
                # an entry is whole only with its newline: one without was cut in its write
                # (a power cut can keep all of a line but its last byte), its sync never
                # returned, and the table never acted on it. It was replayed all the same
                # while the journal's opening cleared it, and the game went on from an
                # input its journal no longer held (the power-cut drill)
                continue
            if i == 0 and (entry is None or entry.get("k") != "start"):
                raise JournalUnreadable(f"{p} is not a table-app journal (its first line is "
                                        f"not a game's start)")
            if i == 0:
                missing = [k for k in START_KEYS if k not in entry]  # type: ignore[operator]
                if missing:
                    raise JournalUnreadable(f"{p}: the game's start lacks "
                                            f"{', '.join(missing)}")
            if entry is None:
                if not (torn and i == len(lines) - 1):
                    notes.append(f"journal line {i + 1} left out: not an entry")
                continue
            out.append(entry)
        return out, notes


def set_aside(path: str | Path, now: float | None = None, label: str = "unreadable") -> Path:
    """Move a journal that cannot be resumed (or whose finished game is in no record) out of
    the way, beside it, for the host to look at (`game.journal.unreadable-20261201-093000`,
    `...unrecorded-...`); the name is durable before a new journal takes the old one's
    place."""
    import time
    p = Path(path)
    stamp = time.strftime("%Y%m%d-%H%M%S", time.localtime(time.time() if now is None else now))
    aside = p.with_name(f"{p.name}.{label}-{stamp}")
    n = 1
    while aside.exists() or aside.is_symlink():
        n += 1
        aside = p.with_name(f"{p.name}.{label}-{stamp}-{n}")
    os.rename(p, aside)
    sync_folder(p.parent)
    return aside


def _pwrite_all(fd: int, data: bytes, at: int) -> None:
    """All of `data` at `at`, or an OSError: a write the disk took only part of goes on
    from where it stopped, and one that took nothing is a full disk."""
    view = memoryview(data)
    done = 0
    while done < len(data):
        n = os.pwrite(fd, view[done:], at + done)
        if n <= 0:
            raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))
        done += n


MAX_LINE = 64 * 1024      # an entry is a few dozen bytes; a longer line is not one


def _entry(raw: bytes) -> dict[str, Any] | None:
    if len(raw) > MAX_LINE:
        return None
    try:
        entry = json.loads(raw)
    except (ValueError, RecursionError):     # bad JSON, bad UTF-8, brackets nested deep
        return None
    if not isinstance(entry, dict) or not isinstance(entry.get("k"), str) \
            or not isinstance(entry.get("t"), (int, float)):
        return None
    return entry


def _hold_lock(path: Path) -> int:
    """One process holds a game: a second one is told who has it."""
    lock = path.with_name(path.name + ".lock")
    fd = os.open(lock, os.O_RDWR | os.O_CREAT, 0o600)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError:
        holder = os.pread(fd, 32, 0).decode(errors="replace").strip()
        os.close(fd)
        raise JournalError(f"{path} is in use by another table-app (process {holder or '?'}); "
                           f"close it first, or choose another --journal") from None
    try:                        # who holds it, for the message; a full disk keeps it unsaid
        os.ftruncate(fd, 0)
        os.pwrite(fd, str(os.getpid()).encode(), 0)
    except OSError:
        pass
    return fd


def _hold_file(fd: int, path: Path) -> None:
    """The journal's own file locked (flock follows the file, not its name)."""
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError:
        raise JournalError(f"{path} is in use by another table-app (the same file under "
                           f"another name); close it first, or choose another "
                           f"--journal") from None


def encode(inp: Input, t: float) -> dict[str, Any]:
    if isinstance(inp, PadEdge):
        return {"t": t, "k": "edge", "s": inp.seat, "p": int(inp.pressed), "et": inp.t}
    if isinstance(inp, PadLevel):
        return {"t": t, "k": "level", "s": inp.seat, "p": int(inp.pressed), "et": inp.t}
    if isinstance(inp, PadHeld):
        return {"t": t, "k": "held", "s": inp.seat, "et": inp.t}
    if isinstance(inp, PadLink):
        return {"t": t, "k": "link", "s": inp.seat, "up": inp.up, "r": inp.reason, "et": inp.t}
    if isinstance(inp, Host):
        return {"t": t, "k": "host", "cmd": list(inp.cmd)}
    return {"t": t, "k": "tick"}


def decode(entry: dict[str, Any]) -> Input | None:
    k = entry.get("k")
    if k == "edge":
        return PadEdge(int(entry["s"]), bool(entry["p"]), float(entry["et"]))
    if k == "level":
        return PadLevel(int(entry["s"]), bool(entry["p"]), float(entry["et"]))
    if k == "held":
        return PadHeld(int(entry["s"]), float(entry["et"]))
    if k == "link":
        return PadLink(int(entry["s"]), bool(entry["up"]), str(entry["r"]), float(entry["et"]))
    if k == "host":
        return Host(tuple(str(x) for x in entry["cmd"]))
    if k == "tick":
        return Tick()
    return None
