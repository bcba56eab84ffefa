"""Every rule pinned by a game script under tests/scripts/.

`NAME.script` is replayed; `NAME.json` beside it is the outcome `replay --json` must print,
`NAME.err` the one line (`line N: why`) it must fail with. A few go through the real
command line too, to pin exit codes and what is printed where.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from table_app.rules import ScriptError, run_script

HERE = Path(__file__).parent / "scripts"
SCRIPTS = sorted(HERE.rglob("*.script"))


def _id(p: Path) -> str:
    return str(p.relative_to(HERE).with_suffix(""))


def test_every_script_has_an_expectation() -> None:
    assert len(SCRIPTS) > 40
    for p in SCRIPTS:
        assert p.with_suffix(".json").exists() or p.with_suffix(".err").exists(), p


@pytest.mark.parametrize("path", SCRIPTS, ids=_id)
def test_script(path: Path) -> None:
    text = path.read_text(encoding="utf-8")
    err = path.with_suffix(".err")
    if err.exists():
        with pytest.raises(ScriptError) as info:
            run_script(text)
        assert str(info.value) == err.read_text(encoding="utf-8").strip()
    else:
        expected = json.loads(path.with_suffix(".json").read_text(encoding="utf-8"))
        assert run_script(text).outcome().to_json() == expected


def _cli(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "table_app", *args],
                          capture_output=True, text=True, timeout=60)


def test_cli_json_matches_and_exits_0() -> None:
    path = HERE / "yakuza" / "full_game_city_wins.script"
    proc = _cli("replay", str(path), "--json")
    assert proc.returncode == 0, proc.stderr
    assert proc.stderr == ""
    assert json.loads(proc.stdout) == json.loads(path.with_suffix(".json").read_text())
    assert list(json.loads(proc.stdout)) == ["format", "winner", "alive", "out", "checks"]


def test_cli_narration_tells_the_game() -> None:
    proc = _cli("replay", str(HERE / "yakuza" / "full_game_city_wins.script"))
    assert proc.returncode == 0, proc.stderr
    text = proc.stdout
    assert "Night 1. The city falls asleep." in text
    assert "Seat 9 leaves the game: shot by the Yakuza." in text
    assert text.rstrip().endswith("The city wins.")


@pytest.mark.parametrize("flag", [[], ["--json"]])
def test_cli_bad_script_exit_2_and_only_the_error(flag: list[str]) -> None:
    path = HERE / "errors" / "dead_seat_votes.script"
    proc = _cli("replay", str(path), *flag)
    assert proc.returncode == 2
    assert proc.stdout == ""
    assert proc.stderr.strip() == path.with_suffix(".err").read_text().strip()


def test_cli_missing_file(tmp_path: Path) -> None:
    proc = _cli("replay", str(tmp_path / "nope.script"))
    assert proc.returncode == 2
    assert "cannot read" in proc.stderr and proc.stdout == ""
