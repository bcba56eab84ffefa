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

from table_app.rules import ScriptError, formats_beside, run_script

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
    house = formats_beside(path.parent)     # `format NAME.toml` is read beside the script
    if err.exists():
        with pytest.raises(ScriptError) as info:
            run_script(text, house)
        expected = err.read_text(encoding="utf-8").strip().replace("HERE", str(path.parent))
        assert str(info.value) == expected
    else:
        expected = json.loads(path.with_suffix(".json").read_text(encoding="utf-8"))
        assert run_script(text, house).outcome().to_json() == expected


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


def test_cli_house_format_file_beside_the_script(tmp_path: Path) -> None:
    """`format NAME.toml` is read relative to the script's folder, not the working folder:
    `replay` and `observe` both play the house rules (its 20-second speeches)."""
    script = HERE / "house" / "house_format_file.script"
    proc = subprocess.run([sys.executable, "-m", "table_app", "replay", str(script), "--json"],
                          capture_output=True, text=True, timeout=60, cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr
    assert json.loads(proc.stdout)["format"] == "classic_fast"
    proc = subprocess.run([sys.executable, "-m", "table_app", "observe", str(script)],
                          capture_output=True, text=True, timeout=120, cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr
    speeches = [line["screen"]["seconds_left"] for line in map(json.loads, proc.stdout.splitlines())
                if "screen" in line and line["screen"]["step"] == "speeches"]
    assert speeches and max(speeches) == 20        # the built-in classic speaks for 60


@pytest.mark.parametrize("content", [None, "folder", b"\xff\xfe not utf-8", "id = [unclosed"])
def test_cli_house_format_file_errors_are_one_line(tmp_path: Path,
                                                   content: str | bytes | None) -> None:
    """A missing, unreadable or malformed house format file: exit 2, one line naming it."""
    house = tmp_path / "house.toml"
    if content == "folder":
        house.mkdir()
    elif isinstance(content, bytes):
        house.write_bytes(content)
    elif content is not None:
        house.write_text(content, encoding="utf-8")
    script = tmp_path / "game.script"
    script.write_text("format house.toml\nseed 1\nnight\n", encoding="utf-8")
    for command in ("replay", "observe"):
        proc = _cli(command, str(script))
        assert proc.returncode == 2, proc.stderr
        assert proc.stdout == ""
        assert len(proc.stderr.strip().splitlines()) == 1, proc.stderr
        assert proc.stderr.startswith(f"line 1: {house}"), proc.stderr
