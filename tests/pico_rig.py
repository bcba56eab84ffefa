"""The emulated Pico for the tests (table_app/tools/emulator.py): skipped where it cannot run,
a failure in CI."""

from __future__ import annotations

import os
from types import ModuleType
from typing import Any

import pytest

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
