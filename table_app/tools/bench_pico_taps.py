"""The pad controller's tap timings on emulated boards (table_app/tools/emulator.py) with the
Pi's real code (SerialPads) in the loop answering each tap with a picture (see bench_pico.py's
docstring): `tap_to_ring_p50` / `p99` on one board, and a table of 30 on three pad
controllers (`python -m table_app.bench bigtable`): three boards linked at once, each tap's
time to its ring beside the same with the first board alone. `bench_firmware_emulated` runs
the one board's figures, bench_pico.py's and these."""

from __future__ import annotations

import queue
import statistics
import tempfile
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from . import emulator
from .bench_pico import BOARD_TIMEOUT, _figure, _files, _frames, _parts


def _tap_to_ring(host: Any, work: Path, taps: int) -> list[dict[str, Any]]:
    from firmware_bridge import fwconfig
    from table_app.clock import MonotonicClock
    from table_app.pads.events import PadEdge
    from table_app.pads.rings import Pick
    from table_app.pads.serial_pads import SerialPads
    secret = b"bench-table"
    board = host.Board.start(str(_files(work / "game", with_main=True, secret=secret)),
                             str(work / "ttyGAME"), wait=False,
                             args=("--prompt-usb",))   # (see table_app/tools/emulator.py)
    # Board.start copies the files through the raw REPL and resets the board to start them
    # (the first of its two USB enumerations is the blank boot's): a Pi side that opened the
    # link before the reset took effect had its hello's 0x03 (the protocol number) interrupt
    # the reset's own line at that REPL, and the board stayed there. On this rig the host's
    # bytes arrive promptly, so that race was lost every time.
    board.wait_reenumerated(1, BOARD_TIMEOUT)
    edges: queue.Queue[PadEdge] = queue.Queue()
    pads = SerialPads(12, lambda e: edges.put(e) if isinstance(e, PadEdge) else None,
                      MonotonicClock(), finder=lambda: str(board.link), silence=30.0,
                      secret=secret)
    stop, thread, pi_ms = _answering(
        edges, lambda e, n: pads.show(7, Pick(frozenset({n % 12 + 1}), cursor=n % 12 + 1)))
    try:
        _open_table(pads)
        thread.start()
        button, ring = fwconfig.BUTTON_PINS[6], fwconfig.RING_PINS[6]
        lat = [_tap_ms(board, button, ring, "its ring") for _ in range(taps)]
    finally:
        stop.set()
        pads.close()
        board.stop()
    lat.sort()
    pi_ms.sort()
    p99 = lat[min(len(lat) - 1, round(0.99 * (len(lat) - 1)))]
    floor = 2.0 + 0.36          # two USB frames and one ring write (a real Pi and Pico)
    return [_figure("tap_to_ring_p50", "ms", statistics.median(lat), floor, target=None),
            _figure("tap_to_ring_p99", "ms", p99, floor, target="p99 at most 5 ms",
                    pi_part_p50_wall_ms=round(statistics.median(pi_ms), 3) if pi_ms else None,
                    pi_part_max_wall_ms=round(max(pi_ms), 3) if pi_ms else None,
                    note="the emulated USB host answers in 10 us, not a real one's frames; "
                         "the Pi's part ran in wall time while the chip ran at a fraction "
                         "of its speed")]


def bench_firmware_emulated(taps: int = 20) -> list[dict[str, Any]]:
    """Every figure above, on a fresh emulated Pico each (its flash only the firmware)."""
    why = emulator.unavailable()
    if why:
        raise RuntimeError(f"the emulated Pico cannot run here: {why}")
    host = emulator.load()
    with tempfile.TemporaryDirectory() as d:
        work = Path(d)
        return _parts(host, work, taps) + _tap_to_ring(host, work, taps)


#: a big table's boards, named as a club may name them (the emulated ones share a flash id)


TABLE_BOARDS = ("pico-a", "pico-b", "pico-c")
#: the jack tapped on each board: seats 3, 15 and 27 of a table of 30
TABLE_JACK = 3


def _table_files(work: Path, name: str, secret: bytes) -> Path:
    files = _files(work / name, with_main=True, secret=secret)
    (files / "board.py").write_text(f"BOARD = {name!r}\n")
    return files


def _taps(boards: list[Any], pads: Any, edges: queue.Queue[Any], first_seats: list[int],
          taps: int) -> tuple[list[list[float]], list[float]]:
    """`taps` taps on each board's jack TABLE_JACK in turn, each answered by the table's
    main loop with a new picture on the tapped seat's ring: each board's latencies (ms, from
    the button's release on its pin to the picture's first edge on its ring's pin, in that
    board's emulated time) and the Pi's own part of each answer (wall ms)."""
    from firmware_bridge import fwconfig
    from table_app.pads.rings import YesNo
    stop, thread, pi_ms = _answering(edges,
                                     lambda e, n: pads.show(e.seat, YesNo(cursor=n % 2 + 1)))
    thread.start()
    button = fwconfig.BUTTON_PINS[TABLE_JACK - 1]
    ring = fwconfig.RING_PINS[TABLE_JACK - 1]
    lat: list[list[float]] = [[] for _ in boards]
    try:
        for _ in range(taps):
            for k, board in enumerate(boards):
                lat[k].append(_tap_ms(board, button, ring, f"seat {first_seats[k]}'s ring"))
    finally:
        stop.set()
        thread.join(5)
    return lat, pi_ms


def _answering(edges: queue.Queue[Any], answer: Callable[[Any, int], None],
               ) -> tuple[threading.Event, threading.Thread, list[float]]:
    """The table's main loop, as the bench stands it in: every release on `edges` answered
    with `answer(edge, n)` (a new picture; n counts the answers), each answer's own time on
    the Pi (wall ms) kept in the list. The thread is started by the caller, stopped by the
    event."""
    pi_ms: list[float] = []
    stop = threading.Event()

    def loop() -> None:
        n = 0
        while not stop.is_set():
            try:
                e = edges.get(timeout=0.1)
            except queue.Empty:
                continue
            if not e.pressed:
                t = time.monotonic()
                n += 1
                answer(e, n)
                pi_ms.append((time.monotonic() - t) * 1000)

    return stop, threading.Thread(target=loop, daemon=True), pi_ms


def _tap_ms(board: Any, button: int, ring: int, what: str) -> float:
    """One tap on `button` (40 ms down, in the board's emulated time) and the time from its
    release on the pin to the first edge of the next picture on `ring` (ms)."""
    board.capture([ring], 200000)
    reply = board.ctl.cmd(f"pulse {button} 0 40000")
    released = int(reply.split("t_ns=")[1]) + 40_000_000
    end = time.monotonic() + 120
    got = None
    while got is None and time.monotonic() < end:
        time.sleep(0.2)
        after = [a for a, _ in _frames(board.dump(ring)) if a > released]
        if after:
            got = after[0]
    if got is None:
        raise RuntimeError(f"a tap's picture never reached {what}")
    time.sleep(0.3)
    return (got - released) / 1e6


def _p99(xs: list[float]) -> float:
    xs = sorted(xs)
    return xs[min(len(xs) - 1, round(0.99 * (len(xs) - 1)))]


def _open_table(pads: Any) -> None:
    """Start the Pi's side and wait till every link is up and idle."""
    pads.start()
    links = getattr(pads, "children", [pads])
    if not pads.wait_connected(BOARD_TIMEOUT):
        raise RuntimeError("the emulated controllers do not answer: "
                           f"{[getattr(c, 'error', None) for c in links]}")
    # The table's first frames (the rings' brightness, turns and order) go one at a time,
    # each acknowledged before the next, and behind them the hellos the Pi sent while the
    # board was still starting: on the emulated chip, at a fraction of a real one's speed,
    # they took half a second, and a tap in the meantime waited behind them (28 ms, the
    # first tap of a run). A club's first tap comes long after.
    end = time.monotonic() + BOARD_TIMEOUT
    for child in links:
        while child.session.sender.queue:
            if time.monotonic() > end:
                raise RuntimeError("the table's first frames were never acknowledged")
            time.sleep(0.05)


def bench_big_table_emulated(taps: int = 20) -> list[dict[str, Any]]:
    """Tap to ring at a table of 30 on three emulated Picos, each on a link of its own, the
    Pi's real code (`serial_table`: three SerialPads in one TablePads) answering every tap.
    Its floor, in the same run and on the same three running boards: the same taps on the
    first board alone, linked to the Pi as a table of 12 (the other two boards running,
    unheard: the emulator shares this machine's cores the same way in both)."""
    from table_app.clock import MonotonicClock
    from table_app.pads.events import PadEdge
    from table_app.pads.multi import TablePads
    from table_app.pads.serial_pads import SerialPads, serial_table

    why = emulator.unavailable()
    if why:
        raise RuntimeError(f"the emulated Pico cannot run here: {why}")
    host = emulator.load()
    secret = b"bench-big-table"
    with tempfile.TemporaryDirectory() as d:
        work = Path(d)
        boards = []
        try:
            for name in TABLE_BOARDS:
                boards.append(host.Board.start(str(_table_files(work, name, secret)),
                                               str(work / f"tty-{name}"), wait=False,
                                               args=("--prompt-usb",)))
            for b in boards:        # (see _tap_to_ring: the reset before the Pi's hello)
                b.wait_reenumerated(1, BOARD_TIMEOUT)
            # the floor: the first board alone, a table of 12
            got: queue.Queue[Any] = queue.Queue()
            one = SerialPads(12, lambda e: got.put(e) if isinstance(e, PadEdge) else None,
                             MonotonicClock(), finder=lambda: str(boards[0].link),
                             silence=30.0, secret=secret)
            try:
                _open_table(one)
                alone, alone_pi = _taps(boards[:1], one, got, [TABLE_JACK], taps * 2)
            finally:
                one.close()
            # the table of 30: every board, each on its own link
            got = queue.Queue()
            ports = ",".join(str(b.link) for b in reversed(boards))   # any port order
            table = serial_table(30, lambda e: got.put(e) if isinstance(e, PadEdge) else None,
                                 MonotonicClock(), port=ports, controllers=list(TABLE_BOARDS),
                                 silence=30.0, secret=secret)
            assert isinstance(table, TablePads)
            seats = list(range(1, 31))
            table.set_layout(seats, [0] * 30, seats)
            firsts = [k * 12 + TABLE_JACK for k in range(3)]
            try:
                _open_table(table)
                lat, table_pi = _taps(boards, table, got, firsts, taps)
                links = {TABLE_BOARDS[k]: dict(c.session.stats)
                         for k, c in enumerate(table.children) if isinstance(c, SerialPads)}
            finally:
                table.close()
        finally:
            for b in boards:
                b.stop()
    every = sorted(x for each in lat for x in each)
    base = sorted(alone[0])
    note = ("from a button's release on its pin to the new picture's first edge on its "
            "ring's pin, in the tapped board's emulated time; the Pi's part (pi_part_*) "
            "in wall time while the chips ran at a fraction of their speed")
    per: dict[str, Any] = {f"{TABLE_BOARDS[k]}_p50_ms": round(statistics.median(x), 3)
                           for k, x in enumerate(lat)}
    per["taps_ms"] = {TABLE_BOARDS[k]: [round(v, 2) for v in x] for k, x in enumerate(lat)}
    per["floor_taps_ms"] = [round(v, 2) for v in alone[0]]
    per["links"] = links          # each link's counts: resends either way, bad frames
    return [_figure("big_table_tap_to_ring_p50", "ms", statistics.median(every),
                    statistics.median(base), target=None, taps=len(every),
                    floor_is="the same taps on one controller, a table of 12", **per,
                    note=note),
            _figure("big_table_tap_to_ring_p99", "ms", _p99(every), _p99(base),
                    target="p99 at most 5 ms", taps=len(every),
                    floor_is="the same taps on one controller, a table of 12",
                    pi_part_p50_wall_ms=round(statistics.median(table_pi), 3),
                    floor_pi_part_p50_wall_ms=round(statistics.median(alone_pi), 3),
                    note=note)]
