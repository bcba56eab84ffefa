"""A big table on three emulated Picos (the real v1.25.0 rp2 build, one board a process):
30 seats' pads on three controllers, known by their board ids in whichever port each is,
pressed on their pins, and a 30-seat city game's rings read back from the pins."""

from __future__ import annotations

import queue
import random
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from pico_rig import could_show, emulated, last_frame, pico_host, settled, start_with_files

from firmware_bridge import fwconfig
from table_app.clock import MonotonicClock
from table_app.pads.events import PadEdge
from table_app.pads.multi import JACKS, TablePads
from table_app.pads.rings import Countdown, Fault
from table_app.pads.serial_pads import serial_table

PINS = list(fwconfig.RING_PINS)
BOARDS = ("pico-a", "pico-b", "pico-c")
SECRET = b"a-big-table"


@pytest.fixture(scope="module")
def three(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[dict[str, Any],
                                                                      TablePads,
                                                                      queue.Queue[Any]]]:
    from table_app.admin.firmware import COMPILED, SOURCE_ONLY, compile_firmware
    from table_app.admin.firmware import FIRMWARE as SOURCE
    host = pico_host()
    top = tmp_path_factory.mktemp("three")
    compiled = top / "compiled"
    compiled.mkdir()
    assert compile_firmware(compiled) == compiled
    boards: dict[str, Any] = {}
    try:
        for name in BOARDS:
            files = top / name
            files.mkdir()
            for n in COMPILED:
                mpy = n[:-3] + ".mpy"
                (files / mpy).write_bytes((compiled / mpy).read_bytes())
            for n in SOURCE_ONLY:
                (files / n).write_bytes((SOURCE / n).read_bytes())
            cfg = files / "fwconfig.py"
            cfg.write_text(cfg.read_text().replace("BUDGET_MA = 1500 ", "BUDGET_MA = 100000 "))
            (files / "pairing.py").write_text(f"SECRET = {SECRET!r}\n")
            # the emulated boards share one flash id: each is named, as a club may name one
            (files / "board.py").write_text(f"BOARD = {name!r}\n")
            boards[name] = start_with_files(host, str(files), str(top / f"tty-{name}"))
        # plugged into the Pi's ports in another order than the settings name them
        ports = [str(boards[b].link) for b in ("pico-c", "pico-a", "pico-b")]
        q: queue.Queue[Any] = queue.Queue()
        pads = serial_table(30, q.put, MonotonicClock(), port=",".join(ports),
                            controllers=list(BOARDS), silence=8.0, secret=SECRET)
        assert isinstance(pads, TablePads)
        pads.start()
        try:
            assert pads.wait_connected(180), [c.error for c in pads.children]  # type: ignore
            yield boards, pads, q
        finally:
            pads.close()
    finally:
        for b in boards.values():
            b.stop()


def _layout(pads: TablePads) -> dict[int, tuple[str, int]]:
    """Pads plugged at random into the 36 jacks, as a check found them: seat -> (board, jack)."""
    rng = random.Random(36)
    buttons = rng.sample(range(1, 3 * JACKS + 1), 30)
    pads.set_layout(buttons, [rng.randrange(12) for _ in range(30)], buttons)
    return {s: (BOARDS[(b - 1) // JACKS], (b - 1) % JACKS + 1)
            for s, b in enumerate(buttons, 1)}


def test_three_picos_are_told_apart_by_their_ids_whatever_their_ports(three: Any) -> None:
    boards, pads, q = three
    assert pads.controller_ids() == list(BOARDS)
    where = _layout(pads)
    # a press on each controller's pin reaches the table as its seat's
    for seat in (min(s for s, at in where.items() if at[0] == b) for b in BOARDS):
        board, jack = where[seat]
        pin = fwconfig.BUTTON_PINS[jack - 1]
        boards[board].press(pin)
        got = q.get(timeout=60)
        while not isinstance(got, PadEdge):
            got = q.get(timeout=60)
        assert (got.seat, got.pressed) == (seat, True)
        boards[board].release(pin)
        got = q.get(timeout=60)
        while not isinstance(got, PadEdge):
            got = q.get(timeout=60)
        assert (got.seat, got.pressed) == (seat, False)


def test_a_30_seat_game_s_rings_come_out_of_three_picos_pins(three: Any,
                                                             tmp_path: Path) -> None:
    # The table plays a 30-seat city game with its bots on a fake clock; every picture it
    # shows also goes to the three emulated Picos. At turns of the game where no ring counts
    # down, every seat's ring on its own controller's pin gives a light the Pi draws for it.
    # (It failed once in CI, at "day 2": see pico_rig.settled.)
    from table_app.table.virtual import run_virtual, virtual_table
    boards, serial, q = three
    where = _layout(serial)
    app, bots, clock, pads = virtual_table(tmp_path / "j", fmt_id="city", players=30,
                                           seats=30, seed=4)
    serial.set_table(30)
    shown = pads._show

    def tee(seat: int, picture: Any) -> None:
        shown(seat, picture)
        serial.show(seat, picture)

    pads._show = tee                                  # type: ignore[method-assign]
    for seat in range(1, 31):
        serial.show(seat, pads.pictures[seat])
    roles = app.table.game.roles  # type: ignore[union-attr]
    assert {"hobo", "sorcerer", "werewolf"} <= set(roles)
    checked: list[str] = []
    while app.table.stage != "over" and len(checked) < 4:  # type: ignore[union-attr]
        turn = (app.table.stage, app.table.game.phase_label())  # type: ignore[union-attr]
        table = run_virtual(app, bots, clock, until=lambda t, turn=turn: (
            t.stage, t.game.phase_label()) != turn)
        if any(isinstance(serial.pictures[s], Countdown | Fault) for s in range(1, 31)):
            continue
        want = {s: could_show(serial, s) for s in range(1, 31)}
        assert settled(serial.children, boards.values(), PINS), turn
        last = {s: last_frame(boards[where[s][0]], PINS[where[s][1] - 1]) for s in want}
        assert all(last[s] in want[s] for s in want), (turn, [s for s in want
                                                              if last[s] not in want[s]])
        checked.append(f"{table.stage} {table.game.phase_label()}")
    assert len(checked) >= 3, checked


def test_one_install_then_an_update_reach_every_new_pico(tmp_path: Path) -> None:
    # A big table's controllers as a club gets them: new Picos (MicroPython only) on
    # the Pi's USB, one `table-app firmware install` for all; then, after they sat a while
    # with nobody reading them (their heartbeats held back), one update for all. The update
    # took a silent controller for a bare MicroPython (mpremote then could not reach the
    # REPL past the firmware), and only the first board was ever installed. (Two boards,
    # a table of 24: the second is what the first finding needs; a third took the CI five
    # minutes more. test_firmware_install runs three on the Pi's side.)
    import os
    import subprocess
    import sys

    from table_app.clock import MonotonicClock
    host = pico_host()
    boards = []
    try:
        for k in range(2):
            folder = tmp_path / f"b{k}"
            folder.mkdir()
            board = host.Board.start(str(folder / "flash.bin"), str(folder / "ttyPICO"))
            board._close_repl()
            boards.append(board)
        ports = ",".join(str(b.link) for b in boards)
        env = {**os.environ, "TABLE_APP_PORT": ports,
               "TABLE_APP_PAD_SECRET": str(tmp_path / "secret")}
        for run in ("install", "update"):
            proc = subprocess.run([sys.executable, "-m", "table_app", "firmware", "install"],
                                  capture_output=True, text=True, env=env, timeout=1200)
            out = proc.stdout
            # (the whole output as the message: a tuple's was cut short, and a failure once
            # under load could not be read)
            assert proc.returncode == 0, f"{run}:\n{out}\n{proc.stderr}"
            assert "2 pad controllers found: installing on each in turn" in out
            assert out.count(f"now runs firmware {fwconfig.FIRMWARE} (protocol 4, 12 pads), "
                             "paired with this table") == 2, out
            if run == "update":
                assert out.count(f"the controller runs firmware {fwconfig.FIRMWARE}") == 2, out
                break
            # the table of 24 on both, paired; then nobody reads them for a while (their own
            # time: 10 s, some 25 heartbeats held back)
            pads = serial_table(24, lambda e: None, MonotonicClock(), port=ports, silence=8.0,
                                secret=(tmp_path / "secret").read_bytes().strip())
            pads.start()
            try:
                assert pads.wait_connected(180), [c.error for c in pads.children]  # type: ignore
            finally:
                pads.close()
            assert emulated(boards, 10.0)
    finally:
        for b in boards:
            b.stop()
