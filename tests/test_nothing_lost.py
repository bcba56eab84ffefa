"""Nothing lost, third pass (#48): the last ways a game, a league or a start could be lost."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

# -- 1. a format file's errors are one line ------------------------------------------------

COMMANDS = {
    "play": ["play", "--pads", "fake", "--silent", "--new"],
    "demo": ["--demo", "--fast", "--new"],
    "simulate": ["simulate", "--games", "1"],
}


def _bad_format_files(tmp_path: Path) -> dict[str, Path]:
    undecodable = tmp_path / "latin1.toml"
    undecodable.write_bytes('id = "caf\xe9"\n'.encode("latin-1"))
    return {"missing": tmp_path / "nonexistent.toml", "folder": tmp_path,
            "not UTF-8": undecodable}


@pytest.mark.parametrize("command", sorted(COMMANDS))
def test_a_format_file_that_cannot_be_read_is_one_line(tmp_path: Path, command: str) -> None:
    """A missing path, a folder or bytes that are not UTF-8 given as --format-file: one
    line naming the file and exit 2, from the table, the demo and simulate alike (they were
    a 25-line FileNotFoundError, or a UnicodeDecodeError)."""
    env = dict(os.environ, SDL_VIDEODRIVER="dummy", SDL_AUDIODRIVER="dummy")
    for what, path in _bad_format_files(tmp_path).items():
        proc = subprocess.run([sys.executable, "-m", "table_app", *COMMANDS[command],
                               "--format-file", str(path),
                               "--journal" if command != "simulate" else "--seed",
                               str(tmp_path / "j") if command != "simulate" else "1"],
                              capture_output=True, text=True, env=env, timeout=120,
                              stdin=subprocess.DEVNULL)
        lines = [x for x in proc.stderr.splitlines() if "runs interpreted" not in x]
        assert proc.returncode == 2, (what, proc.returncode, proc.stderr[-800:])
        assert len(lines) == 1 and lines[0].startswith("table-app: ") \
            and str(path) in lines[0], (what, proc.stderr[-800:])
