"""The emulated Pico for the tests (table_app/tools/emulator.py): skipped where it cannot run,
a failure in CI."""

from __future__ import annotations

import os
import time
from collections.abc import Iterable
from types import ModuleType
from typing import Any

import pytest
from pad_rigs import until

from firmware_bridge import fwconfig
from firmware_bridge import ringdraw as rd
from table_app.tools import emulator


def pico_host() -> ModuleType:
    """../shared/pico's pico_host, ready to start boards (skipped where it cannot run, a
    failure in CI)."""
    why = emulator.unavailable()
    if why:
        if os.environ.get("CI"):
            pytest.fail(f"CI runs the firmware on the emulated Pico: {why}")
        pytest.skip(why)
    return emulator.load()


def start_with_files(host: ModuleType, files: str, link: str) -> Any:
    """A board started blank, `files` put on its flash, then reset into them without waiting
    for it. (pico_host's Board.start(folder) does the same, but its reset reads the raw
    REPL's acknowledgement of `machine.reset()`, which the reset itself can cut off: on a
    loaded machine the pty went away under that read, "device reports readiness to read
    but returned no data", and the test failed before its board had started.)"""
    import serial
    board = host.Board.start(None, link)
    for name in sorted(os.listdir(files)):
        path = os.path.join(files, name)
        if os.path.isfile(path):
            with open(path, "rb") as f:
                board.put(name, f.read())
    try:
        board.reset(wait=False)
    except serial.SerialException:
        board._close_repl()            # it reset before its answer came through: as asked
    return board


def _clocks(boards: Iterable[Any], seconds: float) -> Any:
    """A test of whether `seconds` of every board's own time have passed since now."""
    boards = list(boards)
    since = [b.ctl.emu_ns()[0] for b in boards]
    return lambda: all(b.ctl.emu_ns()[0] - t0 >= seconds * 1e9
                       for b, t0 in zip(boards, since, strict=True))


STALLED = 300.0     # wall seconds with no board's clock moving: an emulator that hangs


def _wait(boards: Iterable[Any], done: Any) -> None:
    """Wait until `done()`, however slow the machine: given up only when no board's own
    clock has moved for STALLED seconds of the wall clock (a board hung, or idle at its
    REPL, its time standing). A cap on the wall clock, as there was, ended a wait the
    boards had not yet lived through on a loaded machine: a test of 35 s of a board's time
    took 517 s of the wall clock alone, and failed at its 900 s cap in CI beside two busy
    cores."""
    boards = list(boards)
    seen = [b.ctl.emu_ns()[0] for b in boards]
    moved = time.monotonic()
    while not done():
        now = [b.ctl.emu_ns()[0] for b in boards]
        if now != seen:
            seen, moved = now, time.monotonic()
        elif time.monotonic() - moved > STALLED:
            return
        time.sleep(0.05)


def emulated(boards: Iterable[Any], seconds: float) -> bool:
    """Wait until `seconds` of every board's own (emulated) time have passed: a loaded
    machine slows the boards, and a wall-clock wait would then be too short."""
    boards = list(boards)
    passed = _clocks(boards, seconds)
    _wait(boards, passed)
    return bool(passed())


def within(boards: Iterable[Any], seconds: float, cond: Any) -> bool:
    """Wait until `cond()` holds, for at most `seconds` of every board's own time."""
    boards = list(boards)
    passed = _clocks(boards, seconds)
    _wait(boards, lambda: cond() or passed())
    return bool(cond())


def last_frame(board: Any, pin: int) -> bytes | None:
    """The last whole ring a pin sent (a frame still going out when read is not one)."""
    whole = [bytes(f) for f in board.ws2812(pin)[pin]["frames"] if len(f) == 3 * fwconfig.RING]
    return whole[-1] if whole else None


def could_show(pads: Any, seat: int) -> set[bytes]:
    """Every light (on the wire: green, red, blue) the seat's ring may give over a cycle of
    its cue: a shared light flashes."""
    out = set()
    for k in range(int(rd.CUE_CYCLE / 0.05)):
        t = pads.shown_at[seat] + k * 0.05
        out.add(bytes(c for r, g, b in pads.pixels(seat, t) for c in (g, r, b)))
    return out


def settled(links: Iterable[Any], boards: Iterable[Any], pins: list[int]) -> bool:
    """Every picture taken by its controller (the Pi's side, on the wall clock: its link
    runs there), then the boards' `pins` recorded afresh for a refresh's time of each
    board's own clock: every ring was drawn again since, with nothing new to draw, and its
    last whole frame is what it shows. (A capture kept through turns not checked, a
    countdown's 50 frames a second, filled, and a check waited on a frame it could no
    longer see.)"""
    boards = list(boards)
    if not until(lambda: not any(link.session.sender.queue for link in links), 300):
        return False
    for board in boards:
        board.capture(pins)
    return emulated(boards, (fwconfig.REFRESH_MS + 3 * fwconfig.FRAME_MS) / 1000)
