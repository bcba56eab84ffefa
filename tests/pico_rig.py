"""The emulated Pico: the real MicroPython v1.25.0 rp2 build (RPI_PICO) on an emulated RP2040
(rp2040js, from npm), its USB serial a pseudo-terminal, its pins driven and read by the test.
It lives in ../shared/pico (read-only); this copies it into a cache folder of this machine's
once, installs rp2040js there from its package.json (npm, offline when the cache has it),
and hands out its `pico_host` module."""

from __future__ import annotations

import filecmp
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path
from types import ModuleType

import pytest

SHARED = Path(__file__).resolve().parent.parent.parent / "shared" / "pico"
FILES = ("package.json", "package-lock.json", "pico-run.mjs", "bootrom.mjs", "pico-pty.py",
         "pico_host.py", "firmware.uf2")
CACHE = Path(os.environ.get("TABLE_APP_PICO_CACHE")
             or Path(tempfile.gettempdir()) / "table-app-pico")


def _unavailable() -> str | None:
    if not (SHARED / "pico_host.py").exists():
        return f"no emulated Pico at {SHARED}"
    for tool in ("node", "npm"):
        if shutil.which(tool) is None:
            return f"no {tool} (the emulator is a Node program)"
    return None


def pico_host() -> ModuleType:
    """../shared/pico's pico_host, ready to start boards (skipped where it cannot run, a
    failure in CI)."""
    why = _unavailable()
    if why:
        if os.environ.get("CI"):
            pytest.fail(f"CI runs the firmware on the emulated Pico: {why}")
        pytest.skip(why)
    CACHE.mkdir(parents=True, exist_ok=True)
    for name in FILES:
        src, dest = SHARED / name, CACHE / name
        if src.exists() and not (dest.exists() and filecmp.cmp(src, dest, shallow=False)):
            shutil.copyfile(src, dest)
    if not (CACHE / "node_modules" / "rp2040js").is_dir():
        proc = subprocess.run(["npm", "ci", "--no-audit", "--no-fund", "--prefer-offline"],
                              cwd=CACHE, capture_output=True, text=True, timeout=600)
        assert proc.returncode == 0, proc.stderr
    if str(CACHE) not in sys.path:
        sys.path.insert(0, str(CACHE))
    import pico_host as host
    return host
