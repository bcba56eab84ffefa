"""A file system that loses, at a power cut, everything not yet made durable (test code).

LazyFS's model (the file system Jepsen uses to find lost writes): every file's data and every
folder's entries are kept twice, as the running system sees them and as the disk holds them.
`fsync`/`fdatasync` of a file copies its data to the disk; `fsync` of a folder copies its
entries (a new name, a rename, an unlink is durable only then: a file whose own data was
synced but whose name never was is gone after a cut). At a cut the running view becomes what
the disk holds, every open file is dead (EIO) and so is every call until the power is back.
A cut in `torn` mode also lets a random part of the unsynced writes reach the disk, the last
of them cut short (a disk writes some sectors of what it was given and not others).

It runs on FUSE (libfuse 3 through mfusepy) in a process of its own, mounted with no kernel
cache, so every read and write reaches it. The test drives it with lines on its standard
input: `arm N SEED MODE` (cut just before the N-th changing call from now; MODE drop or
torn), `cut SEED MODE` (now), `on` (the power is back), `state` (`up`/`down`, and the changing
calls so far); each is answered with one line.

    python tests/powercut_fs.py MOUNTPOINT
"""

from __future__ import annotations

import errno
import os
import random
import stat
import sys
import threading
import time
from dataclasses import dataclass, field
from typing import Any

import mfusepy as fuse  # type: ignore[import-untyped]


@dataclass
class Node:
    dir: bool
    mode: int
    data: bytearray = field(default_factory=bytearray)
    entries: dict[str, int] = field(default_factory=dict)
    target: str = ""                     # a symlink's
    mtime: int = field(default_factory=time.time_ns)

    def copy(self) -> Node:
        return Node(self.dir, self.mode, bytearray(self.data), dict(self.entries), self.target,
                    self.mtime)


def _err(code: int) -> fuse.FuseOSError:
    return fuse.FuseOSError(code)


class PowerCutFS(fuse.Operations):  # type: ignore[misc]
    use_ns = True

    def __init__(self) -> None:
        self.mutex = threading.RLock()
        self.nodes: dict[int, Node] = {1: Node(True, stat.S_IFDIR | 0o755)}
        self.disk: dict[int, Node] = {1: Node(True, stat.S_IFDIR | 0o755)}
        #: each file's writes since its last sync, oldest first: (offset, bytes) or
        #: (-1, new length) for a truncate
        self.pending: dict[int, list[tuple[int, bytes | int]]] = {}
        self.next_ino = 2
        self.handles: dict[int, int] = {}
        self.next_fh = 1
        self.down = False
        self.changes = 0
        self.armed: tuple[int, int, str] | None = None      # (at change, seed, mode)
        self.cuts = 0

    # -- the power -----------------------------------------------------------------------
    def cut(self, seed: int, mode: str) -> None:
        rng = random.Random(seed)
        if mode == "torn":
            for ino, ops in self.pending.items():
                if ino not in self.disk or not ops:
                    continue
                keep = rng.randint(0, len(ops))
                data = self.disk[ino].data
                for i, (at, what) in enumerate(ops[:keep]):
                    if isinstance(what, int):
                        del data[what:]
                        data.extend(bytes(what - len(data)))
                        continue
                    if i == keep - 1:                       # the last one, cut short
                        what = what[:rng.randint(0, len(what))]
                    if len(data) < at:
                        data.extend(bytes(at - len(data)))
                    data[at:at + len(what)] = what
        self.nodes = {i: n.copy() for i, n in self.disk.items()}
        self.next_ino = max(self.next_ino, max(self.nodes) + 1)
        self.pending = {}
        self.handles = {}
        self.down = True
        self.armed = None
        self.cuts += 1

    def _change(self) -> None:
        """Before every call that changes something: the power may go now."""
        if self.down:
            raise _err(errno.EIO)
        self.changes += 1
        if self.armed is not None and self.changes >= self.armed[0]:
            self.cut(self.armed[1], self.armed[2])
            raise _err(errno.EIO)

    def _alive(self) -> None:
        if self.down:
            raise _err(errno.EIO)

    def command(self, line: str) -> str:
        with self.mutex:
            words = line.split()
            if not words:
                return "?"
            if words[0] == "arm":
                self.armed = (self.changes + int(words[1]), int(words[2]), words[3])
                return "armed"
            if words[0] == "cut":
                self.cut(int(words[1]), words[2])
                return "down"
            if words[0] == "on":
                self.down = False
                return "up"
            if words[0] == "disarm":
                self.armed = None
                return "disarmed"
            if words[0] == "state":
                return f"{'down' if self.down else 'up'} {self.changes} {self.cuts}"
            return "?"

    # -- finding things --------------------------------------------------------------------
    def _walk(self, path: str) -> int:
        ino = 1
        for part in [p for p in path.split("/") if p]:
            node = self.nodes[ino]
            if not node.dir:
                raise _err(errno.ENOTDIR)
            if part not in node.entries:
                raise _err(errno.ENOENT)
            ino = node.entries[part]
        return ino

    def _parent(self, path: str) -> tuple[int, str]:
        head, _, name = path.rstrip("/").rpartition("/")
        ino = self._walk(head or "/")
        if not self.nodes[ino].dir:
            raise _err(errno.ENOTDIR)
        return ino, name

    def _ino(self, path: str | None, fh: int | None) -> int:
        if fh:
            if fh not in self.handles:
                raise _err(errno.EIO)          # opened before the power went
            return self.handles[fh]
        if path is None:
            raise _err(errno.EBADF)
        return self._walk(path)

    def _links(self, ino: int) -> int:
        n = 0
        for node in self.nodes.values():
            if node.dir:
                n += sum(1 for v in node.entries.values() if v == ino)
        return n

    # -- reading -------------------------------------------------------------------------
    def getattr(self, path: str, fh: int | None = None) -> dict[str, Any]:
        with self.mutex:
            self._alive()
            ino = self._ino(path, fh)
            node = self.nodes[ino]
            size = len(node.target) if stat.S_ISLNK(node.mode) else len(node.data)
            return {"st_mode": node.mode, "st_ino": ino, "st_nlink": 2 if node.dir else
                    max(1, self._links(ino)), "st_size": size, "st_mtime": node.mtime,
                    "st_ctime": node.mtime, "st_atime": node.mtime, "st_uid": os.getuid(),
                    "st_gid": os.getgid(), "st_blocks": (size + 511) // 512,
                    "st_blksize": 4096}

    def readdir(self, path: str, fh: int) -> list[str]:
        with self.mutex:
            self._alive()
            node = self.nodes[self._walk(path)]
            return [".", "..", *node.entries]

    def readlink(self, path: str) -> str:
        with self.mutex:
            self._alive()
            return self.nodes[self._walk(path)].target

    def open(self, path: str, flags: int) -> int:
        with self.mutex:
            self._alive()
            ino = self._walk(path)
            if flags & os.O_TRUNC:
                self._truncate(ino, 0)
            return self._handle(ino)

    def opendir(self, path: str) -> int:
        with self.mutex:
            self._alive()
            return self._handle(self._walk(path))

    def _handle(self, ino: int) -> int:
        fh = self.next_fh
        self.next_fh += 1
        self.handles[fh] = ino
        return fh

    def read(self, path: str | None, size: int, offset: int, fh: int) -> bytes:
        with self.mutex:
            self._alive()
            return bytes(self.nodes[self._ino(path, fh)].data[offset:offset + size])

    def statfs(self, path: str) -> dict[str, int]:
        return {"f_bsize": 4096, "f_frsize": 4096, "f_blocks": 1 << 20, "f_bfree": 1 << 19,
                "f_bavail": 1 << 19, "f_files": 1 << 16, "f_ffree": 1 << 15,
                "f_namemax": 255}

    def access(self, path: str, amode: int) -> int:
        with self.mutex:
            self._alive()
            self._walk(path)
            return 0

    def release(self, path: str | None, fh: int) -> int:
        with self.mutex:
            self.handles.pop(fh, None)
            return 0

    def releasedir(self, path: str | None, fh: int) -> int:
        return self.release(path, fh)

    def flush(self, path: str | None, fh: int) -> int:
        with self.mutex:
            self._alive()
            return 0

    # -- changing ------------------------------------------------------------------------
    def _new(self, path: str, node: Node) -> int:
        parent, name = self._parent(path)
        if name in self.nodes[parent].entries:
            raise _err(errno.EEXIST)
        ino = self.next_ino
        self.next_ino += 1
        self.nodes[ino] = node
        self.nodes[parent].entries[name] = ino
        self.nodes[parent].mtime = time.time_ns()
        return ino

    def create(self, path: str, mode: int, fi: Any = None) -> int:
        with self.mutex:
            self._change()
            try:
                ino = self._walk(path)
            except fuse.FuseOSError:
                ino = self._new(path, Node(False, stat.S_IFREG | (mode & 0o7777)))
            return self._handle(ino)

    def mkdir(self, path: str, mode: int) -> int:
        with self.mutex:
            self._change()
            self._new(path, Node(True, stat.S_IFDIR | (mode & 0o7777)))
            return 0

    def symlink(self, target: str, source: str) -> int:
        with self.mutex:
            self._change()
            self._new(target, Node(False, stat.S_IFLNK | 0o777, target=source))
            return 0

    def link(self, target: str, source: str) -> int:
        with self.mutex:
            self._change()
            ino = self._walk(source)
            parent, name = self._parent(target)
            if name in self.nodes[parent].entries:
                raise _err(errno.EEXIST)
            self.nodes[parent].entries[name] = ino
            return 0

    def unlink(self, path: str) -> int:
        with self.mutex:
            self._change()
            parent, name = self._parent(path)
            if name not in self.nodes[parent].entries:
                raise _err(errno.ENOENT)
            del self.nodes[parent].entries[name]
            return 0

    def rmdir(self, path: str) -> int:
        with self.mutex:
            self._change()
            parent, name = self._parent(path)
            ino = self.nodes[parent].entries.get(name)
            if ino is None:
                raise _err(errno.ENOENT)
            if self.nodes[ino].entries:
                raise _err(errno.ENOTEMPTY)
            del self.nodes[parent].entries[name]
            return 0

    def rename(self, old: str, new: str) -> int:
        with self.mutex:
            self._change()
            p1, n1 = self._parent(old)
            p2, n2 = self._parent(new)
            if n1 not in self.nodes[p1].entries:
                raise _err(errno.ENOENT)
            ino = self.nodes[p1].entries.pop(n1)
            self.nodes[p2].entries[n2] = ino
            return 0

    def chmod(self, path: str | None, mode: int, fh: int | None = None) -> int:
        with self.mutex:
            self._change()
            node = self.nodes[self._ino(path, fh)]
            node.mode = (node.mode & ~0o7777) | (mode & 0o7777)
            return 0

    def chown(self, path: str | None, uid: int, gid: int, fh: int | None = None) -> int:
        with self.mutex:
            self._alive()
            return 0

    def utimens(self, path: str | None, times: Any = None, fh: int | None = None) -> int:
        with self.mutex:
            self._alive()
            return 0

    def _truncate(self, ino: int, length: int) -> None:
        data = self.nodes[ino].data
        if length < len(data):
            del data[length:]
        else:
            data.extend(bytes(length - len(data)))
        self.pending.setdefault(ino, []).append((-1, length))

    def truncate(self, path: str | None, length: int, fh: int | None = None) -> int:
        with self.mutex:
            self._change()
            self._truncate(self._ino(path, fh), length)
            return 0

    def write(self, path: str | None, data: bytes, offset: int, fh: int) -> int:
        with self.mutex:
            self._change()
            ino = self._ino(path, fh)
            buf = self.nodes[ino].data
            if len(buf) < offset:
                buf.extend(bytes(offset - len(buf)))
            buf[offset:offset + len(data)] = data
            self.nodes[ino].mtime = time.time_ns()
            self.pending.setdefault(ino, []).append((offset, bytes(data)))
            return len(data)

    def fsync(self, path: str | None, datasync: int, fh: int) -> int:
        with self.mutex:
            self._change()
            ino = self._ino(path, fh)
            node = self.nodes[ino]
            disk = self.disk.get(ino)
            if disk is None:                  # its data is kept, though no name holds it yet
                self.disk[ino] = node.copy()
            else:
                disk.data = bytearray(node.data)
                disk.mode, disk.target = node.mode, node.target
            self.pending.pop(ino, None)
            return 0

    def fsyncdir(self, path: str | None, datasync: int, fh: int) -> int:
        with self.mutex:
            self._change()
            ino = self._ino(path, fh)
            node = self.nodes[ino]
            disk = self.disk.setdefault(ino, Node(True, node.mode))
            disk.entries = dict(node.entries)
            for child in node.entries.values():
                if child not in self.disk:   # a name made durable before its data: empty
                    c = self.nodes[child]
                    self.disk[child] = Node(c.dir, c.mode, target=c.target)
            return 0


def main() -> None:
    mount = sys.argv[1]
    fs = PowerCutFS()

    def control() -> None:
        for line in sys.stdin:
            print(fs.command(line), flush=True)
        os._exit(0)                      # the test closed our input: unmounted by its exit

    threading.Thread(target=control, daemon=True).start()
    # no kernel cache of any kind: every read and write reaches the model, and a cut is seen
    fuse.FUSE(fs, mount, foreground=True, nothreads=True, direct_io=True, hard_remove=True,
              attr_timeout=0, entry_timeout=0, negative_timeout=0, allow_other=False)


if __name__ == "__main__":
    main()
