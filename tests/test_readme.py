"""The README's first lines: what a new user types on a fresh machine, and what CI runs."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def test_the_first_commands_make_a_venv_and_ci_runs_the_second() -> None:
    # `python3 -m pip install -e .` fails on stock Bookworm (externally-managed-environment)
    readme = (ROOT / "README.md").read_text().splitlines()
    app, tests = (line.split("#")[0].strip() for line in readme[:2])
    for cmd in (app, tests):
        assert cmd.startswith("python3 -m venv .venv && . .venv/bin/activate && pip install"), cmd
    assert app.endswith("table-app") and tests.endswith("python -m pytest")
    assert tests in (ROOT / ".ci" / "run").read_text()


def test_the_readme_names_every_debian_package_ci_installs() -> None:
    # the DejaVu fonts the screen and the sheet need were missing from its list
    ci = (ROOT / ".ci" / "run").read_text()
    wanted = set(re.findall(r"need\+=\(([\w.-]+)\)", ci))
    assert {"python3-venv", "fonts-dejavu-core", "espeak-ng"} <= wanted
    head = (ROOT / "README.md").read_text().split("# Mafia table companion")[0]
    assert not [p for p in wanted if f"`{p}`" not in head and f" {p}" not in head], wanted
