"""`table-app` itself: the window, the simulated pads and the loop run, and journal the game."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

from pad_rigs import until


def _until(cond) -> bool:  # type: ignore[no-untyped-def]
    """Wait for the app to get somewhere (however loaded the machine), not for a time."""
    return until(cond, 60.0)


def _lines(path: Path) -> list[str]:
    # the journal's entries, less the zeros it writes ahead of them
    return path.read_text().rstrip("\0").splitlines() if path.exists() else []


def _start(args: list[str], env: dict[str, str]) -> tuple[subprocess.Popen[str], list[str]]:
    """The app, its output read as it comes (so a test can wait for what it says)."""
    import threading
    proc = subprocess.Popen([sys.executable, "-m", "table_app", *args],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            env={**env, "PYTHONUNBUFFERED": "1"})
    said: list[str] = []
    assert proc.stdout is not None
    threading.Thread(target=lambda: said.extend(proc.stdout), daemon=True).start()  # type: ignore[arg-type]
    return proc, said


def test_the_table_app_runs_and_journals(tmp_path: Path) -> None:
    journal = tmp_path / "game.journal"
    env = {**os.environ, "SDL_VIDEODRIVER": "dummy", "SDL_AUDIODRIVER": "dummy",
           "XDG_CONFIG_HOME": str(tmp_path), "TABLE_APP_PADS": "sim"}
    proc, said = _start(["--format", "classic", "--players", "9", "--journal", str(journal),
                         "--new"], env)
    # dealt, said what it is, and its loop running
    assert _until(lambda: len(_lines(journal)) >= 3 and any("Classic" in s for s in said))
    proc.send_signal(signal.SIGINT)
    err = proc.communicate(timeout=60)[1]
    assert proc.returncode == 0, err
    from table_app.table.journal import Journal
    entries = Journal.read(journal)
    assert entries[0]["k"] == "start" and entries[0]["players"] == 9
    assert entries[1] == {**entries[1], "k": "host", "cmd": ["begin"]}
    # started again, it resumes the same game
    before = len(_lines(journal))
    proc, said = _start(["--journal", str(journal)], env)
    # resumed: it says so, and journals again (time passes in the deal's turns)
    assert _until(lambda: len(_lines(journal)) > before and any("(resumed)" in s for s in said))
    proc.send_signal(signal.SIGINT)
    err = proc.communicate(timeout=60)[1]
    assert proc.returncode == 0, err


def test_no_display_is_a_clear_message_not_an_invisible_table(tmp_path: Path) -> None:
    env = {k: v for k, v in os.environ.items() if k not in ("DISPLAY", "WAYLAND_DISPLAY",
                                                             "SDL_VIDEODRIVER")}
    env.update(SDL_AUDIODRIVER="dummy", XDG_CONFIG_HOME=str(tmp_path), TABLE_APP_PADS="sim")
    proc = subprocess.run([sys.executable, "-m", "table_app", "--format", "yakuza", "--new",
                           "--journal", str(tmp_path / "j")], capture_output=True, text=True,
                          env=env, timeout=60)
    assert proc.returncode == 2
    assert "table-app: no display" in proc.stderr and "Traceback" not in proc.stderr


def test_zero_players_is_refused() -> None:
    proc = subprocess.run([sys.executable, "-m", "table_app", "--demo", "--fast", "--players",
                           "0"], capture_output=True, text=True, timeout=60)
    assert proc.returncode == 2 and proc.stderr.strip() == "table-app: --players takes 1 or more"


def test_ctrl_c_on_the_setup_screen_is_a_quiet_stop(tmp_path: Path) -> None:
    journal = tmp_path / "j"
    env = {**os.environ, "SDL_VIDEODRIVER": "dummy", "SDL_AUDIODRIVER": "dummy",
           "XDG_CONFIG_HOME": str(tmp_path), "TABLE_APP_PADS": "sim"}
    proc = subprocess.Popen([sys.executable, "-m", "table_app", "--journal", str(journal)],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env)
    time.sleep(2.0)                       # starting, or on the setup screen: either way
    proc.send_signal(signal.SIGINT)
    out, err = proc.communicate(timeout=60)
    assert "Traceback" not in err and proc.returncode in (0, 130), err


def test_ctrl_c_stops_a_table_started_with_sigint_ignored(tmp_path: Path) -> None:
    # started from a script's `cmd &`, a program inherits SIGINT ignored: the table must
    # still stop on it (SDL would leave it ignored, and the table would run on for ever)
    journal = tmp_path / "j"
    env = {**os.environ, "SDL_VIDEODRIVER": "dummy", "SDL_AUDIODRIVER": "dummy",
           "XDG_CONFIG_HOME": str(tmp_path), "TABLE_APP_PADS": "sim", "PYTHONUNBUFFERED": "1"}
    proc = subprocess.Popen([sys.executable, "-m", "table_app", "--format", "classic",
                             "--journal", str(journal), "--new"],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env,
                            preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_IGN))
    assert _until(lambda: len(_lines(journal)) >= 2)
    time.sleep(0.5)
    proc.send_signal(signal.SIGINT)
    out, err = proc.communicate(timeout=60)
    assert proc.returncode in (0, 130), err
