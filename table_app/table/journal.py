"""The journal: every input, written (and fsync'd) before it is applied.

One JSON object a line. A process killed mid-write leaves at most a torn last line, which
is ignored on reading; anything else that does not parse is an error that names the line.
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

from ..pads.events import PadEdge, PadHeld, PadLevel, PadLink
from .core import Host, Input, Tick


class JournalError(Exception):
    """A journal that cannot be read back."""


class Journal:
    """An append-only record of a game's inputs."""

    def __init__(self, path: str | Path, sync: bool = True) -> None:
        self.path = Path(path)
        private_folder(self.path.parent)
        self.sync = sync
        # the journal holds the deal's seed and every secret choice: the owner's eyes only,
        # whatever the umask
        fd = os.open(self.path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o600)
        os.fchmod(fd, 0o600)
        self._f = os.fdopen(fd, "ab", buffering=0)
        self.written = 0

    def write(self, entry: dict[str, Any]) -> None:
        self._f.write(json.dumps(entry, separators=(",", ":")).encode() + b"\n")
        if self.sync:
            os.fsync(self._f.fileno())        # on disk before it is applied
        self.written += 1

    def close(self) -> None:
        self._f.close()

    @staticmethod
    def read(path: str | Path) -> list[dict[str, Any]]:
        p = Path(path)
        if not p.exists():
            return []
        lines = p.read_bytes().split(b"\n")
        out = []
        for i, raw in enumerate(lines):
            if not raw.strip():
                continue
            try:
                out.append(json.loads(raw))
            except json.JSONDecodeError:
                if i >= len(lines) - 2:
                    break                        # torn by a kill mid-write: never applied
                raise JournalError(f"{p}: line {i + 1} is not a journal entry") from None
        return out


def private_folder(folder: Path) -> None:
    """Make `folder` where it is missing, 0700 whatever the umask. A folder that is already
    there (one the user chose, a club's shared drive) keeps its mode."""
    if not folder.exists():
        folder.mkdir(mode=0o700, parents=True)
        os.chmod(folder, 0o700)


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
