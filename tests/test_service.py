"""The table as systemd runs it: ready as soon as its setup screen shows, alive on every
screen, and never a restart loop: a refused start, an unreadable journal or a mistaken
setting each end on the setup screen with the reason (the boot test, test_pi_boot.py,
checks the same on a booted Bookworm system)."""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from table_app.table.journal import Journal


def _env(tmp_path: Path, **extra: str) -> dict[str, str]:
    return {**os.environ, "SDL_VIDEODRIVER": "dummy", "SDL_AUDIODRIVER": "dummy",
            "TABLE_APP_PADS": "fake", "XDG_CONFIG_HOME": str(tmp_path / "config"),
            "XDG_STATE_HOME": str(tmp_path / "state"),
            "TABLE_APP_SETTINGS": str(tmp_path / "config" / "table-app" / "settings.toml"),
            **extra}


class Systemd:
    """The notify socket systemd gives a Type=notify service, and what came through it."""

    def __init__(self, tmp_path: Path) -> None:
        self.path = tmp_path / "notify.sock"
        self.sock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
        self.sock.bind(str(self.path))
        self.sock.settimeout(60)

    def messages(self, n: int) -> list[str]:
        return [self.sock.recv(4096).decode() for _ in range(n)]

    def close(self) -> None:
        self.sock.close()


@pytest.fixture
def systemd(tmp_path: Path) -> Iterator[Systemd]:
    s = Systemd(tmp_path)
    yield s
    s.close()


def _table(tmp_path: Path, systemd: Systemd, *args: str,
           **env: str) -> subprocess.Popen[str]:
    return subprocess.Popen(
        [sys.executable, "-m", "table_app", "--silent", "--no-record",
         "--journal", str(tmp_path / "game.journal"), *args],
        stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True,
        env=_env(tmp_path, NOTIFY_SOCKET=str(systemd.path), WATCHDOG_USEC="200000", **env))


def _stop(proc: subprocess.Popen[str]) -> str:
    proc.terminate()
    try:
        _, err = proc.communicate(timeout=30)
    except subprocess.TimeoutExpired:
        proc.kill()
        _, err = proc.communicate()
    return err


def _settings(tmp_path: Path, text: str) -> Path:
    settings = tmp_path / "config" / "table-app" / "settings.toml"
    settings.parent.mkdir(parents=True)
    settings.write_text(text)
    return settings


def _opening(tmp_path: Path, systemd: Systemd, n: int = 2) -> tuple[list[str], str]:
    """What the table tells systemd first, once it is seen alive; and its stderr."""
    proc = _table(tmp_path, systemd)
    try:
        said = systemd.messages(n)
        assert proc.poll() is None           # it lives
    finally:
        err = _stop(proc)
    return said, err


def test_ready_on_the_setup_screen_and_alive_there(tmp_path: Path, systemd: Systemd) -> None:
    # no game in the journal and none on the command line: the setup screen, which may
    # wait for the host all evening; systemd must hear READY then, and beats after it
    proc = _table(tmp_path, systemd)
    try:
        said = systemd.messages(4)
    finally:
        _stop(proc)
    assert said[0].startswith("READY=1\nSTATUS=setup screen"), said
    assert said[1:] == ["WATCHDOG=1"] * 3


def test_a_refused_start_never_reaches_the_journal(tmp_path: Path) -> None:
    journal = tmp_path / "game.journal"
    for bad, modes in ((["--format", "classic", "--players", "4"], (["--demo", "--fast"], [])),
                       (["--format", "city", "--players", "31"], (["--demo", "--fast"], [])),
                       # 14 players at the settings' table of 12 pads (the demo's bots
                       # press as many as the game has)
                       (["--format", "city", "--players", "14"], ([],)),
                       (["--format", "yakuza", "--players", "11"], (["--demo", "--fast"], []))):
        for mode in modes:
            proc = subprocess.run([sys.executable, "-m", "table_app", "--no-record", "--silent",
                                   "--journal", str(journal), *mode, *bad],
                                  capture_output=True, text=True, env=_env(tmp_path),
                                  timeout=120)
            assert proc.returncode == 2, (bad, mode, proc.stderr)
            assert proc.stderr.startswith("table-app: ") and "Traceback" not in proc.stderr
            assert not Journal.read(journal), (bad, mode)
    # and the next plain start is a table, not the same refusal again
    proc = subprocess.run([sys.executable, "-m", "table_app", "--demo", "--fast", "--no-record",
                           "--journal", str(journal)], capture_output=True, text=True,
                          env=_env(tmp_path), timeout=120)
    assert proc.returncode == 0, proc.stderr
    assert "OUTCOME" in proc.stdout


def test_a_big_table_s_game_starts_from_the_command_line(tmp_path: Path) -> None:
    # `--format city --players 20` was refused ("20 players but only 12 pads") whatever the
    # table: the demo, the simulator's 30 pads, a big table's pads.seats
    proc = subprocess.run([sys.executable, "-m", "table_app", "--demo", "--fast", "--no-record",
                           "--journal", str(tmp_path / "demo.journal"), "--format", "city",
                           "--players", "20", "--seed", "5"], capture_output=True, text=True,
                          env=_env(tmp_path), timeout=120)
    assert proc.returncode == 0, proc.stderr
    assert "OUTCOME" in proc.stdout and "Player 20" in proc.stdout
    import argparse

    from table_app.cli import _start_refused
    base = {"format": "city", "players": 20, "lang": "en", "deal": "app",
            "format_file": None, "demo": False}
    at = {"sim": None, "fake": "20 players but only 12 pads"}
    for pads, want in at.items():
        got = _start_refused(argparse.Namespace(**base, pads=pads, pad_seats=12))
        assert (got or "").startswith(want or "") and bool(got) == bool(want), (pads, got)
    # a real table of 24 pads (pads.seats) takes 20 players, and refuses 25
    assert _start_refused(argparse.Namespace(**base, pads="fake", pad_seats=24)) is None
    refused = _start_refused(argparse.Namespace(**{**base, "players": 25}, pads="fake",
                                                pad_seats=24))
    assert refused is not None and "pads.seats" in refused


def test_a_mistaken_setting_opens_the_setup_screen_with_the_reason(tmp_path: Path,
                                                                   systemd: Systemd) -> None:
    settings = _settings(tmp_path, 'lang = "fr"\ndeal = "cards"\n[light]\nnight_cap = 0.1\n')
    said, err = _opening(tmp_path, systemd)
    assert said[0].startswith("READY=1\nSTATUS=setup screen; "), said
    assert "lang takes one of ka, en, uz, ru, not 'fr'" in said[0]
    assert "A mistake in the settings file" in err and str(settings) in err


def test_settings_that_make_no_game_open_the_setup_screen(tmp_path: Path,
                                                          systemd: Systemd) -> None:
    # the settings' format is what a new game offers first: the setup screen, its players
    # brought within the format's
    _settings(tmp_path, 'format = "classic"\nplayers = 4\n')
    said, _ = _opening(tmp_path, systemd)
    assert said[0].startswith("READY=1\nSTATUS=setup screen"), said
    assert not Journal.read(tmp_path / "game.journal")


def test_an_unreadable_journal_opens_the_setup_screen_and_is_kept(tmp_path: Path,
                                                                  systemd: Systemd) -> None:
    journal = tmp_path / "game.journal"
    journal.write_bytes(b'{"t": 1000.0, "k": "sta')          # a power cut in the first write
    said, _ = _opening(tmp_path, systemd)
    kept = list(tmp_path.glob("game.journal.unreadable-*"))
    assert len(kept) == 1 and kept[0].read_bytes() == b'{"t": 1000.0, "k": "sta'
    assert said[0].startswith("READY=1\nSTATUS=setup screen; ") and kept[0].name in said[0]


def test_a_game_in_the_journal_resumes_and_says_so(tmp_path: Path, systemd: Systemd) -> None:
    subprocess.run([sys.executable, "-m", "table_app", "--demo", "--fast", "--no-record",
                    "--journal", str(tmp_path / "game.journal"), "--seed", "5"],
                   capture_output=True, text=True, env=_env(tmp_path), timeout=120, check=True)
    entries = Journal.read(tmp_path / "game.journal")
    # cut the finished game back to its first night: a game to resume
    night = next(i for i, e in enumerate(entries) if e.get("k") == "tick" and i > 40)
    (tmp_path / "game.journal").write_text(
        "".join(json.dumps(e) + "\n" for e in entries[:night]))
    proc = _table(tmp_path, systemd)
    try:
        said = systemd.messages(1)
    finally:
        _stop(proc)
    assert said[0].startswith("READY=1\nSTATUS=MAFIA.GE"), said


def test_the_screen_between_games_is_alive(tmp_path: Path) -> None:
    # the setup screen after a game is the same loop: it beats systemd's watchdog while the
    # host thinks, with nothing happening (here for a second, then the window is closed)
    os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
    import pygame

    from table_app.screen.display import Display
    from table_app.screen.setup import Setup
    from table_app.window import loops

    pygame.display.quit()                 # a fresh display, as the table's own start has
    pygame.init()
    display = Display(pygame, (800, 480))
    beats: list[float] = []

    def pulse() -> None:
        beats.append(time.monotonic())
        if beats[-1] - beats[0] >= 1.0:
            pygame.event.post(pygame.event.Event(pygame.QUIT))

    try:
        assert loops.setup_screen(pygame, display, display.canvas, Setup(), pulse) is None
    finally:
        pygame.quit()
    # nothing but the waits' own timeouts made the loop turn: it beats while the host thinks
    assert len(beats) >= 3


def test_a_full_screen_of_another_size_shows_the_whole_table(tmp_path: Path,
                                                             systemd: Systemd) -> None:
    # SDL's full screen is the display's own mode (1024x768 here), not the 1280x480 of the
    # host's screen beside the pad simulator: the table is drawn at its size and scaled in
    proc = _table(tmp_path, systemd, "--fullscreen", "--format", "yakuza", "--pads", "sim")
    try:
        said = systemd.messages(1)
        assert proc.poll() is None
    finally:
        err = _stop(proc)
    assert said[0].startswith("READY=1\nSTATUS=MAFIA.GE"), (said, err)


def test_the_scaled_canvas_maps_touches_back() -> None:
    os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
    import pygame

    from table_app.screen.display import Display

    pygame.display.quit()                 # a fresh display, as the table's own start has
    pygame.init()
    try:
        d = Display(pygame, (1280, 480), fullscreen=True)
        got = d.window.get_size()
        assert d.scaled and got != (1280, 480)
        assert d.shown[0] == got[0] and d.shown[1] <= got[1]    # as wide as the display
        top = d.offset[1]
        assert d.to_canvas((0, top - 1)) is None                # the black margin above
        assert d.to_canvas((0, top)) == (0, 0)
        x, y = d.to_canvas((got[0] - 1, top + d.shown[1] - 1))  # type: ignore[misc]
        assert abs(x - 1279) <= 2 and abs(y - 479) <= 2
        d.canvas.fill((255, 0, 0), (800, 0, 480, 480))          # the simulator's half
        d.flip()
        right = d.window.get_at((got[0] - 5, top + d.shown[1] // 2))
        left = d.window.get_at((5, top + d.shown[1] // 2))
        assert right[0] > 240 and right[1] < 15 and left[:3] == (0, 0, 0)   # smoothed
        ev = d.event(pygame.event.Event(pygame.MOUSEBUTTONDOWN, button=1,
                                        pos=(got[0] // 2, top + d.shown[1] // 2)))
        assert ev.button == 1 and abs(ev.pos[0] - 640) <= 2 and abs(ev.pos[1] - 240) <= 2
    finally:
        pygame.quit()


def test_the_screen_names_the_video_drivers_it_really_has() -> None:
    from table_app.screen.display import video_drivers
    drivers = video_drivers()
    assert "dummy" in drivers and "offscreen" in drivers
    import pygame
    if pygame.version.vernum >= (2, 5):      # the wheel's own SDL: no console driver
        assert "KMSDRM" not in drivers


def test_the_table_check_is_alive_while_it_waits_for_presses(tmp_path: Path,
                                                             systemd: Systemd) -> None:
    proc = subprocess.Popen([sys.executable, "-m", "table_app", "check", "--pads", "fake",
                             "--wait", "0.3", "--no-sound", "--no-write"],
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True,
                            env=_env(tmp_path, NOTIFY_SOCKET=str(systemd.path),
                                     WATCHDOG_USEC="100000"))
    systemd.sock.settimeout(1.0)
    beats = 0
    try:
        while proc.poll() is None:
            try:
                beats += systemd.sock.recv(4096) == b"WATCHDOG=1"
            except TimeoutError:
                pass
    finally:
        _stop(proc)
    assert proc.returncode == 1        # nobody pressed: its problems reported
    assert beats >= 3                  # 12 seats waited for, 0.3 s each: beats every 0.05 s


def test_a_watchdog_message_never_waits_for_systemd(tmp_path: Path, systemd: Systemd) -> None:
    # a manager that does not read (its queue full) costs the table a beat, never a hang
    from table_app.systemd import notify
    os.environ["NOTIFY_SOCKET"] = str(systemd.path)
    try:
        sent = [notify("WATCHDOG=1") for _ in range(2000)]
    finally:
        del os.environ["NOTIFY_SOCKET"]
    assert sent[0] and not all(sent)


def test_a_failed_start_is_shown_on_the_next_setup_screen(tmp_path: Path,
                                                           systemd: Systemd) -> None:
    """A table that cannot start (here: no screen) writes why, and systemd's result for a
    start that never got so far is written beside it by the unit (ExecStopPost); the next
    start that reaches the setup screen shows the host how many failed and the last reason,
    once (the start limit stopped the loop, and the host learned nothing of it)."""
    env = _env(tmp_path, SDL_VIDEODRIVER="nosuchdriver")
    failed = subprocess.run([sys.executable, "-m", "table_app", "--silent", "--no-record",
                             "--journal", str(tmp_path / "game.journal")],
                            capture_output=True, text=True, env=env, timeout=120)
    assert failed.returncode == 2, failed.stderr
    record = tmp_path / "state" / "table-app" / "failed-starts"
    lines = record.read_text().splitlines()
    assert len(lines) == 1 and "nosuchdriver" in lines[0], lines
    assert record.stat().st_mode & 0o077 == 0, oct(record.stat().st_mode)  # its owner's only
    # the unit's own line for a start that died before it could say why
    unit = (Path(__file__).parents[1] / "hardware" / "pi" / "table-app.service").read_text()
    post = next(ln for ln in unit.splitlines() if ln.startswith("ExecStopPost="))
    command = post.removeprefix("ExecStopPost=").lstrip("-").replace("$$", "$").replace("%%", "%") \
        .replace("@DATA@", str(tmp_path / "state"))
    for result, status in (("exit-code", "1"), ("exit-code", "2"), ("success", "0")):
        subprocess.run(["/bin/sh", "-c", command.removeprefix("/bin/sh -c ").strip("'")],
                       env={"SERVICE_RESULT": result, "EXIT_CODE": "exited",
                            "EXIT_STATUS": status, "PATH": os.environ["PATH"]}, check=True)
    lines = record.read_text().splitlines()
    assert len(lines) == 2 and lines[1].endswith("systemd: exit-code, exited 1"), lines
    record.unlink()
    subprocess.run(["/bin/sh", "-c", command.removeprefix("/bin/sh -c ").strip("'")],
                   env={"SERVICE_RESULT": "signal", "EXIT_CODE": "killed", "EXIT_STATUS": "9",
                        "PATH": os.environ["PATH"]}, check=True)
    assert record.stat().st_mode & 0o077 == 0                      # the unit's too
    record.write_text("\n".join(lines) + "\n")
    said, _ = _opening(tmp_path, systemd)
    assert said[0].startswith("READY=1\nSTATUS=setup screen; "), said
    assert "2 × " in said[0] and "systemd: exit-code, exited 1" in said[0], said
    assert not record.exists()                     # said once
    again, _ = _opening(tmp_path, systemd)
    assert "×" not in again[0], again
