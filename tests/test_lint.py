"""The linters run as part of the test command: ruff over the project, mypy strict on the
whole app (the rules, the table, the pads, the screen, the records, the tools), and mypy's
stubtest holding the firmware modules' type stubs to the modules."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).parent.parent


def _run(*cmd: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(cmd, cwd=ROOT, capture_output=True, text=True, timeout=600)


def test_ruff() -> None:
    proc = _run(sys.executable, "-m", "ruff", "check", ".")
    assert proc.returncode == 0, proc.stdout + proc.stderr


def test_no_function_over_complexity_25() -> None:
    """The gate is in the configuration ruff runs with (above), and it bites."""
    import tomllib
    lint = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["ruff"]["lint"]
    assert "C901" in lint["select"] and lint["mccabe"]["max-complexity"] == 25
    branches = "".join(f"    if x == {i}:\n        x += 1\n" for i in range(26))
    proc = subprocess.run([sys.executable, "-m", "ruff", "check", "--stdin-filename",
                           "table_app/x.py", "-"], input=f"def f(x):\n{branches}    return x\n",
                          cwd=ROOT, capture_output=True, text=True, timeout=60)
    assert "C901" in proc.stdout, proc.stdout


def test_mypy_strict_on_the_whole_app() -> None:
    import tomllib
    files = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["mypy"]["files"]
    assert files == ["table_app"]
    proc = _run(sys.executable, "-m", "mypy")
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert "no issues found" in proc.stdout


def test_the_firmware_stubs_match_the_modules() -> None:
    """padlink.py and ringdraw.py run on the Pico's MicroPython, so their types are in stubs
    beside them: every name a stub declares exists in the module, with the same arguments
    (what the stubs leave out, the firmware's own internals, is not asked for)."""
    proc = _run(sys.executable, "-m", "mypy.stubtest", "firmware_bridge.padlink",
                "firmware_bridge.ringdraw", "--ignore-missing-stub")
    assert proc.returncode == 0, proc.stdout + proc.stderr
