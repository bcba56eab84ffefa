"""`table-app` itself: the window, the simulated pads and the loop run, and journal the game."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path


def test_the_table_app_runs_and_journals(tmp_path: Path) -> None:
    journal = tmp_path / "game.journal"
    env = {**os.environ, "SDL_VIDEODRIVER": "dummy", "SDL_AUDIODRIVER": "dummy",
           "XDG_CONFIG_HOME": str(tmp_path), "TABLE_APP_PADS": "sim"}
    proc = subprocess.Popen([sys.executable, "-m", "table_app", "--format", "classic",
                             "--players", "9", "--journal", str(journal), "--new"],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env)
    time.sleep(4)
    proc.send_signal(signal.SIGINT)
    out, err = proc.communicate(timeout=20)
    assert proc.returncode == 0, err
    assert "Georgian classic" in out or "Classic" in out
    entries = [json.loads(line) for line in journal.read_text().splitlines()]
    assert entries[0]["k"] == "start" and entries[0]["players"] == 9
    assert entries[1] == {**entries[1], "k": "host", "cmd": ["begin"]}
    # started again, it resumes the same game
    proc = subprocess.Popen([sys.executable, "-m", "table_app", "--journal", str(journal)],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env)
    time.sleep(3)
    proc.send_signal(signal.SIGINT)
    out, err = proc.communicate(timeout=20)
    assert proc.returncode == 0, err
    assert "(resumed)" in out
