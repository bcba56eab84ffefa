"""The emulated Pico for the tests (table_app/tools/emulator.py): skipped where it cannot run,
a failure in CI."""

from __future__ import annotations

import os
from types import ModuleType

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
