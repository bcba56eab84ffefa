"""Where the table keeps what it remembers on this machine."""

from __future__ import annotations

import os
from pathlib import Path


def config_dir() -> Path:
    """`$XDG_CONFIG_HOME/table-app` (`~/.config/table-app`): the settings, the players'
    names, the pad controller's pairing secret."""
    return Path(os.environ.get("XDG_CONFIG_HOME", Path.home() / ".config")) / "table-app"


def formats_dir() -> Path:
    """A club's own formats (house variants: copies of a built-in's file, changed), which
    the setup screen offers beside the built-in ones: `formats/` in the config folder."""
    return config_dir() / "formats"


def state_dir() -> Path:
    """`$XDG_STATE_HOME/table-app` (`~/.local/state/table-app`): the game's journal and the
    club's records."""
    return Path(os.environ.get("XDG_STATE_HOME", Path.home() / ".local" / "state")) / "table-app"


def failed_starts_path() -> Path:
    """Why the table failed to start, a line a failed start (the app's own reason, or
    systemd's result for a start that never reached it: the unit's ExecStopPost), until the
    setup screen has shown them to the host."""
    return state_dir() / "failed-starts"


def note_failed_start(why: str, earlier: list[str] | None = None) -> None:
    """Add a failed start's reason (one line, with its time) for the next setup screen, after
    the `earlier` lines this start took and never showed (`why` empty: those only)."""
    import time
    line = time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()) + " " + " ".join(why.split())
    lines = [*(earlier or []), *([line[:300]] if why.strip() else [])]
    if not lines:
        return
    path = failed_starts_path()
    try:
        private_folder(path.parent)
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o600)
        try:
            os.fchmod(fd, 0o600)          # like every file of the app's: its owner's only
            os.write(fd, "".join(f"{ln}\n" for ln in lines).encode("utf-8"))
        finally:
            os.close(fd)
    except OSError:
        pass                    # a full or read-only disk: the journal of the system has it


def failed_starts() -> tuple[int, str]:
    """How many failed starts came before this one, and the last one's line (0, '': none);
    read once: the record is gone after (the setup screen has said it)."""
    lines = take_failed_starts()
    return len(lines), (lines[-1] if lines else "")


def take_failed_starts() -> list[str]:
    """The failed starts' lines, taken: a start that fails before its setup screen showed
    them gives them back (note_failed_start's `earlier`), so that five failed starts are
    five lines, not one."""
    path = failed_starts_path()
    try:
        lines = [ln for ln in path.read_text(encoding="utf-8").splitlines() if ln.strip()]
        path.unlink()
    except (OSError, UnicodeDecodeError):
        return []
    return lines


def private_folder(folder: Path) -> Path:
    """`folder`, made where it is missing with 0700 whatever the umask (its missing parents
    too, when they are this app's own). A folder that is already there (one the user chose, a
    club's shared drive) keeps its mode."""
    if not folder.exists():
        made = [p for p in (folder, *folder.parents) if not p.exists()]
        folder.mkdir(mode=0o700, parents=True)
        os.chmod(folder, 0o700)
        # each new folder's name durable in its parent: a power cut lost records-waiting/
        # with the games synced into it (the power-cut drill)
        for p in reversed(made):
            sync_folder(p.parent)
    return folder


def write_private(path: str | Path, data: bytes | str) -> Path:
    """Write a file the way every file this app makes is written: 0600 whatever the umask
    (a protocol sheet holds every role of a game, the settings a league's database password,
    the journal every secret choice) and atomically (a temporary file beside it, made
    durable, then renamed over it), so a reader never sees half of it and a kill leaves the
    old one whole."""
    path = Path(path)
    private_folder(path.parent)
    raw = data.encode("utf-8") if isinstance(data, str) else data
    tmp = path.with_name(f".{path.name}.{os.getpid()}.new")
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    try:
        os.fchmod(fd, 0o600)
        view = memoryview(raw)
        while view:
            view = view[os.write(fd, view):]
        os.fsync(fd)
    except BaseException:
        os.close(fd)
        tmp.unlink(missing_ok=True)
        raise
    os.close(fd)
    os.replace(tmp, path)
    sync_folder(path.parent)
    return path


def sync_folder(folder: Path) -> None:
    """Make a folder's entries durable (a new file's name is durable only once its folder
    is); a folder that cannot be synced (a FUSE drive) is let be."""
    try:
        fd = os.open(folder, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)
