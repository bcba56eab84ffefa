"""The rules package is pure: no hardware, sound, screen, clock or I/O may reach it."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

RULES = Path(__file__).parent.parent / "table_app" / "rules"
FORBIDDEN = {"gpiozero", "serial", "pygame", "time", "datetime", "socket", "threading",
             "asyncio", "subprocess", "os", "sys", "io", "queue", "select"}


def _imports(path: Path) -> set[str]:
    names: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            names |= {a.name.split(".")[0] for a in node.names}
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            names.add(node.module.split(".")[0])
    return names


def test_no_rules_module_imports_hardware_sound_clock_or_io() -> None:
    files = sorted(RULES.glob("*.py"))
    assert len(files) >= 8
    for path in files:
        bad = _imports(path) & FORBIDDEN
        assert not bad, f"{path.name} imports {sorted(bad)}"


def test_importing_the_rules_loads_no_hardware_or_sound_module() -> None:
    code = (
        "import sys, pkgutil, importlib, table_app.rules as r\n"
        "for m in pkgutil.iter_modules(r.__path__):\n"
        "    importlib.import_module('table_app.rules.' + m.name)\n"
        "bad = [m for m in ('gpiozero', 'serial', 'pygame') if m in sys.modules]\n"
        "print(','.join(bad))\n"
    )
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          check=True)
    assert proc.stdout.strip() == ""


def test_the_purity_check_catches_an_import(tmp_path: Path) -> None:
    # the AST check must see an import hidden inside a function, too
    bad = tmp_path / "bad.py"
    bad.write_text("def f():\n    import pygame\n    from serial import Serial\n")
    assert _imports(bad) & FORBIDDEN == {"pygame", "serial"}
