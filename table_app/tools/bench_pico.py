"""The pad controller's figures on the Pico's own MicroPython, in emulated time.

The real v1.25.0 rp2 build runs on an emulated RP2040 (table_app/tools/emulator.py), so each
figure is counted in the emulated Cortex-M0+'s own microseconds: the same in every run,
whatever else the machine is doing, so one run is the figure. Each JSON line says
`"clock": "emulated"`. (A real Pico runs from flash through a cache the emulator does not
model: expect it equal or a little slower; see ../shared/pico/README.md.)

- `firmware_work_per_press`: an edge's own work (the larger of a press's and a release's:
  the scan that finds it, frames it and the write that hands its EDGE frame to USB), what it
  adds to the controller's step, whose time with nothing to find is the floor; timed with
  interrupts held off for the step, and with them allowed said apart (`with_interrupts_us`:
  the USB's interrupt after the write lands in the same step); a whole tap, press and
  release, is `tap_us`;
- `ring_update_cpu`: the CPU's part of writing all twelve rings (the bit planes made, the DMA
  started), beside the wire's own time for the frame, which the PIO and the DMA take while
  the core scans on;
- `ring_frame_wire`: that frame on the pins, first edge to last, beside 12 pixels' 288 bits
  at 800 kHz;
- `scan_period_p50` / `scan_period_max`: the controller's loop, one step and its 50 us
  sleep, beside the sleep alone;
- `tap_to_ring_p50` / `p99`: from a button's release on its pin to the new picture's first
  edge on the ring's pin, with the real Pi code (SerialPads) in the loop answering each tap
  with a picture. The Pi's part runs in wall time while the emulated chip runs at a
  fraction of real speed, so that part is said apart (`pi_part_*`, wall milliseconds) and
  this figure alone is not the same in every run.

This module measures on the board; the tap timings with the Pi's real code in the loop
(`tap_to_ring_*`, and the big table's) and the bench that runs them all are in
bench_pico_taps.py.
"""

from __future__ import annotations

import shutil
import statistics
import time
from pathlib import Path
from typing import Any

BOARD_TIMEOUT = 600


def _figure(name: str, unit: str, value: float, floor: float, **extra: Any) -> dict[str, Any]:
    return {"name": name, "unit": unit, "value": round(value, 3), "floor": round(floor, 3),
            "ratio": round(value / floor, 2) if floor else None, "clock": "emulated",
            "runs": [round(value, 3)], **extra}


def _files(folder: Path, with_main: bool, secret: bytes | None = None) -> Path:
    from ..admin.firmware import COMPILED, FIRMWARE, SOURCE_ONLY, compile_firmware
    folder.mkdir(parents=True, exist_ok=True)
    if compile_firmware(folder) is None:             # as the install copies them
        for name in COMPILED:
            shutil.copy(FIRMWARE / name, folder / name)
    for name in SOURCE_ONLY:
        if with_main or name != "main.py":
            shutil.copy(FIRMWARE / name, folder / name)
    if secret is not None:
        (folder / "pairing.py").write_text(f"SECRET = {secret!r}\n")
    return folder


# run on the board, at its REPL: the controller's own step, timed in the core's cycles, with
# its frames written to the real USB (the host reads them raw: see _read_raw)
_WORK = r'''
import sys, time
import controller as C
c = C.Controller(sys.stdin.buffer, sys.stdout.buffer)
E = c.edges
E.rekey(bytes(8))            # a session, as after the Pi's hello: its edges are sent
c.host_alive = True
us, diff = time.ticks_us, time.ticks_diff
# SysTick counts the core's cycles (24 bits, down, a wrap every 134 ms): a tap lands at an
# emulated moment that follows the machine's timing, and to ticks_us's microsecond the same
# work read 1 us more or less; in cycles it is the same every run
import machine
from machine import mem32
mem32[0xE000E014] = 0xFFFFFF
mem32[0xE000E018] = 0
mem32[0xE000E010] = 5
st = c.st
# every other tap (and the idle steps around it) is timed with interrupts held off for the
# step: the emulated host takes a written packet within microseconds, and the USB's
# interrupt that says so landed in the same step, after the frame was handed over. The taps
# in between are timed with interrupts allowed
N = %(edges)d
press, release, stamp = [[0] * N, [0] * N], [[0] * N, [0] * N], [[0] * N, [0] * N]
idle = [[0] * 4000, [0] * 4000]
np, nr, ns, ni = [0, 0], [0, 0], [0, 0], [0, 0]
end = time.ticks_add(time.ticks_ms(), %(ms)d)
while time.ticks_diff(end, time.ticks_ms()) > 0 and nr[0] + nr[1] < %(taps)d:
    st[C.ROOM] = 1 << 20             # the host reads everything: never hold back
    c.last_host = time.ticks_ms()    # and is there
    seq, pending = E.seq(), st[14]
    m = (nr[0] + nr[1]) & 1          # 0: interrupts held off
    if not m:
        irq = machine.disable_irq()
    t0 = mem32[0xE000E018]
    c.step()
    t1 = mem32[0xE000E018]
    if not m:
        machine.enable_irq(irq)      # (what waited is taken now)
    d = (t0 - t1) & 0xFFFFFF
    if E.seq() != seq:
        if E.down_bits():
            press[m][np[m]] = d
            np[m] += 1
        else:
            release[m][nr[m]] = d
            nr[m] += 1
    elif st[14] and not pending:
        stamp[m][ns[m]] = d          # a press first seen: stamped, not yet an edge
        ns[m] += 1
    else:
        idle[m][ni[m] %% 4000] = d
        ni[m] += 1
    while E.queued():
        E.ack(E.head())
    time.sleep_us(50)
def low(xs, n):
    # the median of the lower mode: the steps within 1,000 cycles of the quickest
    xs = sorted(xs[:n])
    k = 0
    while k < n and xs[k] <= xs[0] + 1000:
        k += 1
    return xs[k // 2] / 125 if xs else 0
def med(xs, n):
    xs = sorted(xs[:n])
    return xs[len(xs) // 2] / 125 if xs else 0
for m in (0, 1):
    k = min(ni[m], 4000)
    print()
    print("WORK%%d" %% m, np[m], nr[m], ns[m],
          low(press[m], np[m]), low(release[m], nr[m]), low(stamp[m], ns[m]), low(idle[m], k),
          med(press[m], np[m]), med(release[m], nr[m]), med(stamp[m], ns[m]), med(idle[m], k))
c.host_alive = False
for i in range(200):
    c.step(); time.sleep_us(50)
# (one list, made before and filled in place: a list grown step by step wants ever longer
# pieces of a heap the firmware has mostly taken, and ran out of memory once)
import gc
press = release = stamp = idle = None
gc.collect()
ps = [0] * %(steps)d
last = us()
for i in range(%(steps)d):
    c.step()
    time.sleep_us(50)
    t = us(); ps[i] = diff(t, last); last = t
ps.sort()
p50, pmax = ps[len(ps) // 2], ps[-1]
last = us()
for i in range(%(steps)d):
    time.sleep_us(50)
    t = us(); ps[i] = diff(t, last); last = t
ps.sort()
print()
print("SCAN", p50, pmax, ps[len(ps) // 2])
print("END-OF-WORK")
'''

_RINGS = r'''
import time
import fwconfig as cfg
from pioring import PioRings
r = PioRings(cfg.RING_PINS, 3 * cfg.RING)
us, diff = time.ticks_us, time.ticks_diff
bufs = [bytearray(3 * cfg.RING) for _ in cfg.RING_PINS]
costs = []
for k in range(%(frames)d):
    while r.dma.active():
        pass
    time.sleep_ms(1)
    for i in range(len(bufs)):
        b = bufs[i]
        for j in range(len(b)):
            b[j] = (i * 37 + j * 11 + k) & 0xFF
    t0 = us()
    for i in range(len(bufs)):
        r.post(i, bufs[i])
    t1 = us()
    r.kick()
    costs.append((diff(us(), t1), diff(t1, t0)))
costs.sort()
print("RINGS", costs[len(costs) // 2][0], costs[len(costs) // 2][1])
'''


def _run(board: Any, code: str) -> list[str]:
    out: str = board.exec(code, timeout=BOARD_TIMEOUT)
    return out.splitlines()


def _read_raw(board: Any, marker: bytes) -> list[str]:
    """What code started with start_code prints, read off the serial port raw up to the
    line `marker`: the controller's frames go to the same USB port, and their bytes (a
    0x04 among them) would end the raw REPL's own reading early."""
    port = board.t.serial
    got = bytearray()
    end = time.monotonic() + BOARD_TIMEOUT
    while marker not in got:
        if time.monotonic() > end:
            raise RuntimeError(f"the board did not finish: {bytes(got[-300:])!r}")
        got += port.read(max(1, port.in_waiting))
    return got.decode(errors="replace").splitlines()


def _last(lines: list[str], tag: str) -> list[float]:
    line = next(x for x in reversed(lines) if x.startswith(tag + " "))
    return [float(v) for v in line.split()[1:]]


def _parts(host: Any, work: Path, taps: int) -> list[dict[str, Any]]:
    from firmware_bridge import fwconfig
    board = host.Board.start(str(_files(work / "parts", with_main=False)),
                             str(work / "ttyPARTS"))
    try:
        pins = list(fwconfig.RING_PINS)
        board.capture(pins, 20000)
        cpu, posts = _last(_run(board, _RINGS % {"frames": 20}), "RINGS")
        wire = _frame_wire(board.dump(pins[0]))
        button = fwconfig.BUTTON_PINS[6]
        # taps scheduled ahead in emulated time: 40 ms down, 40 ms up
        board.start_code(_WORK % {"ms": 400 + taps * 80 + 2000, "edges": taps + 2,
                                  "taps": taps, "steps": 2000})
        for k in range(taps):
            board.ctl.cmd(f"after {300_000 + k * 80_000} {button} 0")
            board.ctl.cmd(f"after {340_000 + k * 80_000} {button} 1")
        lines = _read_raw(board, b"END-OF-WORK")
        # A tap's work is what its edges add to the controller's step, whose own time with
        # nothing to find is the floor: a press is two such steps (the one that first sees
        # the pin down and stamps it, and the one MIN_PRESS_MS later that frames its EDGE
        # and hands it to USB), a release one. Every step's time, idle or not, is bimodal:
        # some 1,400 cycles more in about two fifths of them, interrupts held off or not (the
        # USB stack's task, scheduled by an earlier interrupt, runs when the step polls the
        # link), so a median of ten taps is the one mode or the other by the draw, and which
        # steps the task lands in follows the machine's timing. Each kind of step is taken
        # at the median of its lower mode (the steps within 1,000 cycles of its quickest), in
        # cycles, the floor too (over the idle steps). The plain medians are said beside.
        works = []
        for m in (0, 1):
            got = _last(lines, f"WORK{m}")
            n_press, n_release, n_stamp = got[:3]
            if not (n_press == n_release == n_stamp == taps // 2):
                raise RuntimeError(f"the board saw {n_press:.0f} presses, {n_release:.0f} "
                                   f"releases and {n_stamp:.0f} first looks of {taps // 2} "
                                   "taps")
            for press, release, stamp, idle in (got[3:7], got[7:11]):
                works.append(((press - idle) + (stamp - idle), release - idle, idle))
        (press_work, release_work, idle), (press_med, release_med, _), \
            (press_irq, release_irq, _), _ = works
        p50, pmax, bare = _last(lines, "SCAN")
        figs = [_figure("firmware_work_per_press", "us", max(press_work, release_work),
                        idle, target="at most 50 us", taps=taps,
                        press_us=round(press_work, 3), release_us=round(release_work, 3),
                        tap_us=round(press_work + release_work, 3),
                        with_interrupts_us=round(max(press_irq, release_irq), 3),
                        median_us=round(max(press_med, release_med), 3),
                        note="the larger of a press's and a release's work, each from its "
                             "pin's first look to its EDGE handed to USB, beyond an idle "
                             "step (the floor), interrupts held off for the step (half "
                             "the taps); with_interrupts_us is the same with interrupts "
                             "allowed (the other half: the USB's, raised by the host's "
                             "read, lands in the step); each kind of step at the median "
                             "of its lower mode (median_us: the plain medians, interrupts "
                             "held off); tap_us is a press and a release"),
                _figure("scan_period_p50", "us", p50, bare, target="at most 1000 us"),
                _figure("scan_period_max", "us", pmax, bare, target="at most 1000 us"),
                _figure("ring_update_cpu", "us", cpu, wire,
                        target="at most 500 us, the core free to scan during the wire",
                        posts_us=posts, note="the bit planes of all twelve rings made and "
                        "the DMA started (kick); posting the rings' bytes is the drawing's"),
                _figure("ring_frame_wire", "us", wire, 288 * 1.25,
                        note="all twelve rings at once, on the PIO and the DMA")]
        return figs
    finally:
        board.stop()


def _frames(edges: list[tuple[int, str]]) -> list[tuple[int, int]]:
    """Each WS2812 frame's first and last edge (ns): frames part at a low of 50 us."""
    out: list[tuple[int, int]] = []
    for i, (t, _) in enumerate(edges):
        if i == 0 or t - edges[i - 1][0] >= 50_000:
            out.append((t, t))
        else:
            out[-1] = (out[-1][0], t)
    return out


def _frame_wire(edges: list[tuple[int, str]]) -> float:
    spans = [(b - a) / 1000 for a, b in _frames(edges)[1:-1]]   # (the ends may be cut)
    return statistics.median(spans) if spans else 0.0
