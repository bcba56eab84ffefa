"""The games of a damaged records file, read from its bytes.

A records file cut short, its header page overwritten or random bytes written over it is
past SQLite's own reading (and `sqlite3 .recover` fails on it), but most of its pages are
still whole: each game's row (its id, times, host and its game script, which is the truth
of the game) and each seat's row (its name) lie in the table pages of SQLite's file format.
This reads every page that parses as a table's leaf, whatever the header says (the page size
guessed when it is gone), follows a long script onto its overflow pages, and keeps each game
whose script still replays to its end. The ids of the games seen whose script could not be
read back are reported, for the host to find in a backup.
"""

from __future__ import annotations

import re
import struct
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from .game import GameRecord
from .store import from_script

UUID = re.compile(rb"[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}")
#: the games table's columns, in the order every schema since the first made them
GAME_COLUMNS = ("id", "format", "players", "lang", "options", "started", "ended", "host",
                "winner", "script", "club", "table_name", "synced", "dated")


@dataclass
class Salvage:
    games: list[GameRecord] = field(default_factory=list)
    lost: list[str] = field(default_factory=list)      # ids seen, their scripts unreadable


def _varint(b: bytes, i: int) -> tuple[int, int]:
    v = 0
    for k in range(9):
        if i >= len(b):
            raise ValueError("cut short")
        c = b[i]
        i += 1
        if k == 8:
            return (v << 8) | c, i
        v = (v << 7) | (c & 0x7F)
        if c < 0x80:
            return v, i
    raise ValueError("bad varint")


def _record(payload: bytes) -> list[Any]:
    """The values of one SQLite record."""
    size, i = _varint(payload, 0)
    if not 1 <= size <= len(payload):
        raise ValueError("bad header")
    types = []
    while i < size:
        t, i = _varint(payload, i)
        types.append(t)
    at = size
    out: list[Any] = []
    widths = {1: 1, 2: 2, 3: 3, 4: 4, 5: 6, 6: 8}
    for t in types:
        if t == 0:
            out.append(None)
        elif t in widths:
            n = widths[t]
            out.append(int.from_bytes(payload[at:at + n], "big", signed=True))
            at += n
        elif t == 7:
            out.append(struct.unpack(">d", payload[at:at + 8])[0])
            at += 8
        elif t in (8, 9):
            out.append(t - 8)
        elif t >= 12:
            n = (t - 12) // 2
            raw = payload[at:at + n]
            if len(raw) < n:
                raise ValueError("cut short")
            out.append(raw.decode("utf-8") if t % 2 else raw)
            at += n
        else:
            raise ValueError("bad type")
    return out


def _rows(data: bytes, page: int) -> list[list[Any]]:
    """Every row of every table-leaf page, at this page size."""
    usable = page
    pages = len(data) // page
    rows = []
    for n in range(pages):
        base = n * page
        head = base + (100 if n == 0 else 0)
        if head >= len(data) or data[head] != 0x0D:
            continue
        try:
            cells = int.from_bytes(data[head + 3:head + 5], "big")
            for c in range(cells):
                ptr = int.from_bytes(data[head + 8 + 2 * c:head + 10 + 2 * c], "big")
                if not 0 < ptr < page:
                    continue
                try:
                    rows.append(_cell(data, base + ptr, usable, page))
                except (ValueError, UnicodeDecodeError, struct.error):
                    continue
        except (ValueError, IndexError):
            continue
    return rows


def _cell(data: bytes, at: int, usable: int, page: int) -> list[Any]:
    size, i = _varint(data, at)
    _, i = _varint(data, i)                          # the rowid
    x = usable - 35
    if size <= x:
        return _record(data[i:i + size])
    m = ((usable - 12) * 32 // 255) - 23
    k = m + ((size - m) % (usable - 4))
    local = k if k <= x else m
    payload = bytearray(data[i:i + local])
    nxt = int.from_bytes(data[i + local:i + local + 4], "big")
    seen = set()
    while len(payload) < size:
        if nxt < 1 or nxt in seen or nxt * page > len(data):
            raise ValueError("overflow chain broken")
        seen.add(nxt)
        start = (nxt - 1) * page
        chunk = data[start + 4:start + usable]
        payload += chunk[:size - len(payload)]
        nxt = int.from_bytes(data[start:start + 4], "big")
    return _record(bytes(payload))


def _text(v: Any) -> str:
    return v if isinstance(v, str) else ""


def salvage(path: str | Path) -> Salvage:
    """Every game of the file at `path` whose script can still be read, and the ids of the
    others seen in it."""
    data = Path(path).read_bytes()
    sizes = [4096]
    if data[:16] == b"SQLite format 3\0":
        declared = int.from_bytes(data[16:18], "big")
        declared = 65536 if declared == 1 else declared
        if declared in (512, 1024, 2048, 4096, 8192, 16384, 32768, 65536):
            sizes = [declared]
    sizes += [s for s in (4096, 1024, 512, 2048, 8192, 16384, 32768, 65536) if s not in sizes]
    best: Salvage | None = None
    for page in sizes:
        got = _from_rows(_rows(data, page), data)
        if best is None or len(got.games) > len(best.games):
            best = got
        if got.games and page == sizes[0]:
            break
    assert best is not None
    return best


def _from_rows(rows: list[list[Any]], data: bytes) -> Salvage:
    names: dict[str, dict[int, str]] = {}
    games: dict[str, list[Any]] = {}
    for r in rows:
        if len(r) >= 4 and isinstance(r[0], str) and UUID.fullmatch(r[0].encode()) \
                and isinstance(r[1], int) and isinstance(r[3], str) and len(r) <= 11:
            names.setdefault(r[0], {})[int(r[1])] = r[3]            # a seat
        elif len(r) >= 10 and isinstance(r[0], str) and UUID.fullmatch(r[0].encode()):
            games[r[0]] = r                                         # a game
    out = Salvage()
    for gid, r in sorted(games.items()):
        row = dict(zip(GAME_COLUMNS, r, strict=False))
        named = {s: n for s, n in names.get(gid, {}).items() if not n.startswith("seat ")}
        try:
            rec = from_script(_text(row.get("script")), named, _text(row.get("host")),
                              _text(row.get("started")) or None,
                              _text(row.get("ended")) or None, _text(row.get("lang")) or "en",
                              gid, _text(row.get("club")), _text(row.get("table_name")))
        except Exception:
            continue
        if row.get("dated") in ("clock", "guessed", "host"):
            rec.dated = str(row["dated"])
        out.games.append(rec)
    kept = {g.id for g in out.games}
    seen = {m.group().decode() for m in UUID.finditer(data)}
    out.lost = sorted(seen - kept)
    return out
