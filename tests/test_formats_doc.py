"""FORMATS.md's worked example holds: a new role with an act of its own is the act's entry,
the role's definition and the format (plus its clips and tests), and nothing else in the
engine changes.

The test copies the package, adds the example's act to `acts.py` and its definition to
`roles.py` exactly as the doc prints them, changes the city format as the doc says, and
replays game scripts in a fresh process against that copy.
"""

from __future__ import annotations

import json
import re
import shutil
import subprocess
import sys
import tomllib
from pathlib import Path

ROOT = Path(__file__).parent.parent
DOC = ROOT / "table_app" / "rules" / "formats" / "FORMATS.md"

DEAL = """format city
players 16
deal 1=civilian 2=don 3=mafioso 4=mafioso 5=mafioso 6=lawyer 7=doctor 8=commissar
deal 9=sergeant 10=lover 11=hobo 12=killer 13=bodyguard 14=civilian 15=civilian 16=civilian
"""
#: the Bodyguard guards the Mafia's victim and dies in his place; the Killer's victim dies
SCRIPT = DEAL + "night\nmafia 1\nbodyguard 1\nkiller 14\nday\n"
#: the Doctor saves the guarded seat: nobody has to die for it
SAVED = DEAL + "night\nmafia 1\nbodyguard 1\ndoctor 1\nkiller -\nday\n"
#: the Doctor saves the Bodyguard: the attack he took fails too
GUARD_SAVED = DEAL + "night\nmafia 1\nbodyguard 1\ndoctor 13\nkiller -\nday\n"
#: the Lover blocks the Bodyguard: his guard is void and the victim dies; the Hobo at the
#: guarded seat sees the Mafia's shooter
BLOCKED = DEAL + "night\nmafia 1\nbodyguard 1\nlover 13\nhobo 1\nkiller -\nday\n"
#: he may not guard himself
SELF = DEAL + "night\nmafia 1\nbodyguard 13\n"


def _example_blocks() -> tuple[str, str]:
    """The doc's two blocks: the act's entry and the role's definition, unindented."""
    text = DOC.read_text(encoding="utf-8")
    blocks = re.findall(r"```python\n(.*?)```", text, re.S)
    assert len(blocks) == 2, "the worked example lost its act or its definition"
    act, role = ("\n".join(line[3:] if line.startswith("   ") else line
                           for line in b.splitlines()) for b in blocks)
    return act, role


def _with_bodyguard(tmp: Path) -> Path:
    pkg = tmp / "table_app"
    shutil.copytree(ROOT / "table_app", pkg,
                    ignore=shutil.ignore_patterns("__pycache__", "*.ogg"))
    act, role = _example_blocks()
    acts = pkg / "rules" / "acts.py"
    src = acts.read_text(encoding="utf-8")
    registry = "#: Every act by name"
    assert src.count(registry) == 1
    acts.write_text(src.replace(registry, act + "\n" + registry), encoding="utf-8")
    roles = pkg / "rules" / "roles.py"
    src = roles.read_text(encoding="utf-8")
    head, sep, tail = src.partition("ROLE_DEFS: Final[tuple[RoleDef, ...]] = (\n")
    end = tail.index("\n)\n")
    indented = "\n".join("    " + line for line in role.splitlines())
    roles.write_text(head + sep + tail[:end] + "\n" + indented + tail[end:], encoding="utf-8")

    city = pkg / "rules" / "formats" / "city.toml"
    toml = city.read_text(encoding="utf-8")
    toml = toml.replace('roles = ["civilian", ', 'roles = ["bodyguard", "civilian", ', 1)
    toml = toml.replace('wakes = ["don", ', 'wakes = ["bodyguard", "don", ', 1)
    toml = toml.replace('decisions = ["mafia", ', 'decisions = ["mafia", "bodyguard", ', 1)
    rows = []
    for line in toml.splitlines():
        m = re.match(r'"(\d+)" = \{(.*)civilian = (\d+) \}(.*)', line)
        if m and int(m.group(1)) >= 16:
            line = (f'"{m.group(1)}" = {{{m.group(2)}bodyguard = 1, '
                    f'civilian = {int(m.group(3)) - 1} }}{m.group(4)}')
        rows.append(line)
    toml = "\n".join(rows) + "\n"
    data = tomllib.loads(toml)
    assert data["composition"]["16"]["bodyguard"] == 1
    city.write_text(toml, encoding="utf-8")
    return tmp


def _replay(path: Path, pythonpath: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "table_app", "replay", str(path), "--json"],
                          capture_output=True, text=True, timeout=60, cwd=pythonpath,
                          env={"PYTHONPATH": str(pythonpath), "PATH": "/usr/bin:/bin"})


def _night_out(copy: Path, tmp: Path, text: str) -> list[dict[str, object]]:
    script = tmp / "guard.script"
    script.write_text(text, encoding="utf-8")
    proc = _replay(script, copy)
    assert proc.returncode == 0, proc.stderr
    out: list[dict[str, object]] = json.loads(proc.stdout)["out"]
    return out


def test_the_worked_example_adds_a_role_with_an_act_of_its_own(tmp_path: Path) -> None:
    copy = _with_bodyguard(tmp_path / "pkg")
    # the Mafia's victim was guarded: the Bodyguard dies of the Mafia's shot in his place
    assert _night_out(copy, tmp_path, SCRIPT) == [
        {"seat": 14, "phase": "night 1", "by": "killer"},
        {"seat": 13, "phase": "night 1", "by": "mafia"}]
    assert _night_out(copy, tmp_path, SAVED) == []
    assert _night_out(copy, tmp_path, GUARD_SAVED) == []
    # blocked, he guards nobody; the Hobo at seat 1 saw the Mafia's acting leader (the Don)
    script = tmp_path / "blocked.script"
    script.write_text(BLOCKED, encoding="utf-8")
    proc = _replay(script, copy)
    assert proc.returncode == 0, proc.stderr
    out = json.loads(proc.stdout)
    assert out["out"] == [{"seat": 1, "phase": "night 1", "by": "mafia"}]
    script.write_text(SELF, encoding="utf-8")
    proc = _replay(script, copy)
    assert proc.returncode == 2 and "the bodyguard cannot choose himself" in proc.stderr, \
        proc.stderr
    # only the three files the doc names differ from the package
    changed = sorted(str(p.relative_to(copy / "table_app")) for p in (copy / "table_app").rglob("*")
                     if p.is_file() and "__pycache__" not in p.parts and not p.name.endswith(".ogg")
                     and p.read_bytes() != (ROOT / "table_app" / p.relative_to(
                         copy / "table_app")).read_bytes())
    assert changed == ["rules/acts.py", "rules/formats/city.toml", "rules/roles.py"]


def test_without_the_definition_the_role_is_unknown(tmp_path: Path) -> None:
    script = tmp_path / "guard.script"
    script.write_text(SCRIPT, encoding="utf-8")
    proc = _replay(script, ROOT)
    assert proc.returncode == 2 and "unknown role 'bodyguard'" in proc.stderr


def test_a_script_that_deals_the_rest_outlives_a_format_gaining_a_role(tmp_path: Path) -> None:
    """The city scripts name the roles they play with and leave the rest to `rest`: with
    the worked example's Bodyguard dealt at 12 seats too (in a civilian's place) every 12-seat
    city script still replays to its expected outcome, where a deal that names each seat's
    civilian no longer matches the composition."""
    copy = _with_bodyguard(tmp_path / "pkg")
    city = copy / "table_app" / "rules" / "formats" / "city.toml"
    toml = city.read_text(encoding="utf-8")
    row = '"12" = { don = 1, mafioso = 2, lawyer = 1, doctor = 1, commissar = 1, sergeant = 1, ' \
          'lover = 1, killer = 1, civilian = 3 }'
    assert row in toml
    city.write_text(toml.replace(row, row.replace("civilian = 3", "bodyguard = 1, civilian = 2")),
                    encoding="utf-8")
    scripts = [p for p in sorted((ROOT / "tests" / "scripts" / "city").glob("*.script"))
               if "\nplayers 12\n" in p.read_text() and p.with_suffix(".json").exists()]
    assert len(scripts) >= 8
    for path in scripts:
        assert " rest" in path.read_text(), path.name
        proc = _replay(path, copy)
        assert proc.returncode == 0, (path.name, proc.stderr)
        assert json.loads(proc.stdout) == json.loads(path.with_suffix(".json").read_text()), \
            path.name
    # the same game with each civilian named: the deal is no longer the format's
    old = tmp_path / "named.script"
    old.write_text(scripts[0].read_text().replace(" rest", "").replace(
        "deal ", "deal 1=civilian 7=civilian 12=civilian ", 1))
    proc = _replay(old, copy)
    assert proc.returncode == 2 and "the deal is not the city format's" in proc.stderr, \
        proc.stderr
