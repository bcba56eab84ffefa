"""firmware_work_replayed (see bench_path.py's docstring): the controller's work for a tap
with its caches warm, taps replayed back to back in one MicroPython process on the
simulated controller's shims, beside the floor loop's work in the same moments."""

from __future__ import annotations

import os
import tempfile
from pathlib import Path
from typing import Any

from .bench_path import _figure

_REPLAY_PADSIM = """
levels = {}
feeds = [0]
writes = [0]
def service():
    pass
def send(data):
    pass
def _open():
    pass
"""

_REPLAY = """
import sys, time
import fwconfig as cfg
cfg.MIN_PRESS_MS = 0
cfg.DEBOUNCE_MS = 0
import padlink as pl
import controller as C
import padsim
ticks_us, ticks_diff = time.ticks_us, time.ticks_diff


class In:
    def __init__(self):
        self.q = bytearray()

    def read(self, n):
        if not self.q:
            return None
        b = bytes(self.q)
        self.q[:] = b""
        return b


class Out:
    def write(self, d):
        pass


link = In()
c = C.Controller(sys.stdin.buffer, Out())
c.link_in = link
c.bulk = True
link.q += pl.frame(pl.HELLO, 1, bytes([pl.PROTOCOL]) + bytes(8))
c.step()
K = c.pending[0]             # the hello's key, taken by the controller at the first frame under it
seqs = [2]


def nxt():
    s = seqs[0]
    seqs[0] = s % 255 + 1
    return s


for s in range(12):
    link.q += pl.frame(pl.SHOW, nxt(), bytes([s + 1, 1, 0x0F, 0xFF, 1, 0]), K)
    c.step()
ACKS = [pl.ack_frame(i, K) for i in range(256)]
SHOWS = [[pl.frame(pl.SHOW, q, bytes([i + 1, 1, 0x0F, 0xFF, 1 + (q % 12), 0]), K)
          for q in range(256)] for i in range(12)]


def head():
    return c.edges.head()


def tap(i):
    pin = cfg.BUTTON_PINS[i]
    padsim.levels[pin] = 0
    c.step()                                # the press: its edge
    link.q += ACKS[head()]
    c.step()                                # its ack
    padsim.levels[pin] = 1
    c.step()                                # the release: its edge
    link.q += ACKS[head()]
    link.q += SHOWS[i][nxt()]
    c.step()                                # its ack, and the ring's new picture


levels = {}
last = {}
frame = b"W" + bytes(432)


def floor_tap(i):
    # the floor loop's work in the same four moments: a pin change seen and a byte
    # written, and the answering byte taken and the pixel frame written; twice a tap
    global last
    work = 0
    for level in (0, 1):
        t = ticks_us()
        levels[i] = level
        if levels != last:
            last = dict(levels)
            padsim.send(b"e")
        padsim.writes[0] += 1
        padsim.send(frame)
        work += ticks_diff(ticks_us(), t)
    return work


n = int(sys.argv[1])
for k in range(24):
    tap(k % 12)
    floor_tap(k % 12)
for rep in range(int(sys.argv[2])):
    w0 = c.work_us
    for k in range(n):
        tap(k % 12)
    work = (c.work_us - w0) / n
    fl = 0
    for k in range(n):
        fl += floor_tap(k % 12)
    print("%.2f %.2f" % (work, fl / n))
"""


def firmware_replay(taps: int = 200, reps: int = 5) -> dict[str, Any]:
    """Figure: firmware_work_replayed, the controller's work per tap with its caches warm."""
    import subprocess

    from .picosim import FIRMWARE, SHIMS, micropython

    with tempfile.TemporaryDirectory() as d:
        (Path(d) / "padsim.py").write_text(_REPLAY_PADSIM)
        (Path(d) / "replay.py").write_text(_REPLAY)
        path = ":".join((d, str(SHIMS), str(FIRMWARE)))
        proc = subprocess.run([micropython(), str(Path(d) / "replay.py"), str(taps), str(reps)],
                              capture_output=True, text=True, timeout=300,
                              env={**os.environ, "MICROPYPATH": path})
    if proc.returncode != 0:
        raise RuntimeError(f"the replay failed: {proc.stderr.strip()[-400:]}")
    pairs = [line.split() for line in proc.stdout.split("\n") if line.strip()]
    return _figure("firmware_work_replayed", "us", [float(a) for a, _ in pairs],
                   [float(b) for _, b in pairs])
